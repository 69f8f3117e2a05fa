// Typo suggestions only for words that look misspelt (a typo check on every word would break
// search's latency budget): a query word the
// index holds in KNOWN_WORD_DOCS documents AND the viewer sees on that many pins is never
// corrected; a word only secret pins hold is still treated like a word that does not exist.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { BoardRole } from "~/boards/policy.ts";
import { KNOWN_WORD_DOCS } from "~/search/typo.server.ts";
import { CAST, CAST_BOARDS, browserFor, seedCast } from "./roles-fixture.ts";
import { searchOk } from "./search-world.ts";

/** Pins of one title on one board, ids from `first`, each with its grid image. */
function pins(first: number, count: number, boardId: number, title: (index: number) => string, kind = "image"): D1PreparedStatement[] {
  return Array.from({ length: count }, (_, index) => [
    env.DB.prepare("INSERT INTO pins (id, pinner_id, board_id, kind, title, image_signature, created_at, updated_at) VALUES (?1, ?2, ?3, ?5, ?4, 'sig', ?1, ?1)").bind(
      first + index,
      CAST.owner,
      boardId,
      title(index),
      kind,
    ),
    env.DB.prepare("INSERT INTO pin_images (pin_id, size, url, width, height, dominant_color) VALUES (?1, '236x', '/t.jpg', 236, 300, '#abcdef')").bind(first + index),
  ]).flat();
}

beforeAll(async () => {
  await seedCast();
  await env.DB.batch([
    // "zebu": exactly the threshold of visible pins. "zebra": more of them, one with "narwhal".
    ...pins(7000, KNOWN_WORD_DOCS, CAST_BOARDS.public, (index) => `Zebu portrait ${index}`),
    ...pins(7100, KNOWN_WORD_DOCS + 10, CAST_BOARDS.public, (index) => (index === 0 ? "Zebra narwhal mural" : `Zebra stripes ${index}`)),
    // "quillon": on many pins, every one secret. "quillan": on two public ones.
    ...pins(7200, KNOWN_WORD_DOCS + 5, CAST_BOARDS.secret, (index) => `Quillon sketch ${index}`),
    ...pins(7300, 2, CAST_BOARDS.public, (index) => `Quillan sketch ${index}`),
    // One video: "zebra narwhal", and no "zebu" video at all.
    ...pins(7400, 1, CAST_BOARDS.public, () => "Zebra narwhal clip", "video"),
  ]);
});

describe("typo suggestions only for words that look misspelt", () => {
  it("never corrects a word the viewer sees on KNOWN_WORD_DOCS pins, even when a neighbour would find more", async () => {
    const anon = await browserFor("signed_out");
    // "zebu narwhal" finds nothing; "zebra narwhal" finds a pin, but "zebu" is a word here.
    const known = await searchOk(anon, { query: "zebu narwhal" });
    expect(known.results).toEqual([]);
    expect(known.nag).toEqual({ kind: "few_results" });
    expect(known.typo).toBeNull();
    // The same neighbourhood from a word the index does not hold: corrected.
    expect((await searchOk(anon, { query: "zebx narwhal" })).typo).toEqual({ original: "zebx narwhal", corrected: "zebra narwhal" });
  });

  it("asks the viewer's visible count, not only the index's: a filter that leaves too few pins of the word keeps it correctable", async () => {
    const anon = await browserFor("signed_out");
    // In videos no "zebu" pin is visible: there the word is checked like any other, and the
    // one video of "zebra narwhal" is offered.
    const videos = await searchOk(anon, { query: "zebu narwhal", scope: "videos" });
    expect(videos.results).toEqual([]);
    expect(videos.typo).toEqual({ original: "zebu narwhal", corrected: "zebra narwhal" });
  });

  const OUTSIDERS: BoardRole[] = ["signed_out", "stranger", "follower"];
  for (const role of OUTSIDERS) {
    it(`treats a word only secret pins hold as unknown for ${role}, however many pins hold it`, async () => {
      const browser = await browserFor(role);
      const secretWord = await searchOk(browser, { query: "quillon" });
      expect(secretWord.results).toEqual([]);
      expect(secretWord.typo).toEqual({ original: "quillon", corrected: "quillan" });
      // Exactly the answer for a word that exists nowhere.
      expect((await searchOk(browser, { query: "quillen" })).typo).toEqual({ original: "quillen", corrected: "quillan" });
    });
  }

  it("finds the secret word's pins for the board's owner, with no suggestion", async () => {
    const owner = await browserFor("owner");
    const answer = await searchOk(owner, { query: "quillon" });
    expect(answer.results.length).toBeGreaterThanOrEqual(KNOWN_WORD_DOCS);
    expect(answer.typo).toBeNull();
  });
});
