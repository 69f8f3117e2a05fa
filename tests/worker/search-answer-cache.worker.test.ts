// The answer cache of shared searches (src/search/answer-cache.server.ts): a signed-out page
// of a public scope is ranked once and answered from memory for ANSWER_TTL_MS, but its rows
// are re-read on every answer with the visibility rule and the match applied again, so what
// turned secret, hidden or deleted (or stopped matching) is gone from the very next answer.
// Each test uses its own words: the worker's memory outlives a test, never this file's rows.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "./accounts-helpers.ts";
import { CAST, CAST_BOARDS, browserFor, seedCast } from "./roles-fixture.ts";
import { ids, searchCall, searchOk, typeaheadOk } from "./search-world.ts";
import { END_MARKER, type TypeaheadResponse } from "~/search/types.ts";
import { fingerprint } from "~/search/query.ts";

const T0 = 1_700_000_000_000;

/** Public pins titled `${word} n` (n = 0..count-1, newest last), ids from `first`, each with its grid image. */
function pins(first: number, count: number, word: string): D1PreparedStatement[] {
  return Array.from({ length: count }, (_, index) => [
    env.DB.prepare("INSERT INTO pins (id, pinner_id, board_id, kind, title, image_signature, save_count, created_at, updated_at) VALUES (?1, ?2, ?3, 'image', ?4, 'sig', 0, ?5, ?5)").bind(
      first + index,
      CAST.owner,
      CAST_BOARDS.public,
      `${word} ${index}`,
      T0 + index,
    ),
    env.DB.prepare("INSERT INTO pin_images (pin_id, size, url, width, height, dominant_color) VALUES (?1, '236x', '/p.jpg', 236, 300, '#abcdef')").bind(first + index),
    env.DB.prepare("INSERT INTO board_pins (board_id, pin_id, saved_by, position, created_at) VALUES (?1, ?2, ?3, ?2, 0)").bind(CAST_BOARDS.public, first + index, CAST.owner),
  ]).flat();
}

/** A pin of the word created now (after any cached anchor), saved a lot: it would rank first. */
async function addNewcomer(id: number, word: string): Promise<void> {
  await env.DB.batch([
    env.DB.prepare("INSERT INTO pins (id, pinner_id, board_id, kind, title, image_signature, save_count, created_at, updated_at) VALUES (?1, ?2, ?3, 'image', ?4, 'sig', 5000, ?5, ?5)").bind(
      id,
      CAST.owner,
      CAST_BOARDS.public,
      `${word} newcomer ${word}`,
      Date.now(),
    ),
    env.DB.prepare("INSERT INTO pin_images (pin_id, size, url, width, height, dominant_color) VALUES (?1, '236x', '/p.jpg', 236, 300, '#abcdef')").bind(id),
  ]);
}

let anon: Browser;
let owner: Browser;

beforeAll(async () => {
  await seedCast();
  await env.DB.batch([
    ...pins(8000, 8, "quokka"),
    ...pins(8100, 8, "numbat"),
    ...pins(8200, 12, "bilby"),
    ...pins(8300, 8, "dingo"),
    ...pins(8400, 8, "wallaby"),
    // "recipe nfvwadue" and "recipe" have the same 32-bit FNV-1a search fingerprint: the cache
    // must key on the whole search, not on that hash.
    ...pins(8600, 3, "recipe"),
    ...pins(8700, 2, "recipe nfvwadue"),
    ...pins(8800, 4, "platypus"),
    env.DB.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (8510, ?1, 'Platypus pools', 'platypus-pools', 'public', 0, 0)").bind(CAST.owner),
    env.DB.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (8500, ?1, 'Echidna burrows', 'echidna-burrows', 'public', 0, 0), (8501, ?1, 'Echidna spines', 'echidna-spines', 'public', 0, 0)").bind(CAST.owner),
  ]);
  anon = await browserFor("signed_out");
  owner = await browserFor("owner");
});

describe("the answer cache of shared searches", () => {
  it("answers a hit exactly as the miss before it, for every signed-out visitor", async () => {
    const first = await searchOk(anon, { query: "quokka", page_size: 5 });
    expect(ids(first)).toHaveLength(5);
    // A newer, much saved match arrives: a fresh ranking would put it first.
    await addNewcomer(8090, "quokka");
    const other = await browserFor("signed_out");
    const again = await searchOk(other, { query: "quokka", page_size: 5 });
    // The remembered page, bookmark (same anchor) included: the hit served it.
    expect(again).toEqual(first);
    // Each visitor's own spelling of the query is echoed, the page is still shared.
    const shouted = await searchOk(anon, { query: "QUOKKA", page_size: 5 });
    expect(shouted.query).toBe("QUOKKA");
    expect(ids(shouted)).toEqual(ids(first));
  });

  it("keys on the whole search: a crafted query whose fingerprint collides with a popular one cannot plant its pins there", async () => {
    const identity = (query: string) => JSON.stringify([query, "pins", [], [], [], [], null, null, null, null, null]);
    expect(fingerprint(identity("recipe nfvwadue"))).toBe(fingerprint(identity("recipe")));
    const planted = ids(await searchOk(anon, { query: "recipe nfvwadue" }));
    expect(planted.sort()).toEqual(["8700", "8701"]);
    const popular = ids(await searchOk(await browserFor("signed_out"), { query: "recipe" }));
    expect(popular.sort()).toEqual(["8600", "8601", "8602", "8700", "8701"]);
  });

  it("never answers signed-in viewers from memory", async () => {
    await searchOk(anon, { query: "numbat" });
    await addNewcomer(8190, "numbat");
    for (const role of ["owner", "stranger"] as const) {
      const browser = await browserFor(role);
      expect(ids(await searchOk(browser, { query: "numbat" }))[0]).toBe("8190");
    }
    // Signed out, the remembered ranking still holds (until ANSWER_TTL_MS).
    expect(ids(await searchOk(anon, { query: "numbat" }))).not.toContain("8190");
  });

  it("drops a cached pin at once when it turns secret, hidden, deleted, unsafe or stops matching", async () => {
    const before = ids(await searchOk(anon, { query: "bilby" }));
    expect(before).toHaveLength(12);
    const [secret, hidden, deleted, removed, unsafe, renamed] = before;
    await env.DB.batch([
      env.DB.prepare("UPDATE pins SET board_id = ?1 WHERE id = ?2").bind(CAST_BOARDS.secret, secret),
      env.DB.prepare("UPDATE pins SET is_hidden = 1 WHERE id = ?1").bind(hidden),
      env.DB.prepare("UPDATE pins SET is_deleted = 1 WHERE id = ?1").bind(deleted),
      env.DB.prepare("DELETE FROM pins WHERE id = ?1").bind(removed),
      env.DB.prepare("UPDATE pins SET is_unsafe = 1 WHERE id = ?1").bind(unsafe),
      env.DB.prepare("UPDATE pins SET title = 'Potoroo' WHERE id = ?1").bind(renamed),
    ]);
    const after = ids(await searchOk(anon, { query: "bilby" }));
    expect(after).toEqual(before.filter((id) => ![secret, hidden, deleted, removed, unsafe, renamed].includes(id)));
    // The owner still finds the secret one (and is never served from memory).
    expect(ids(await searchOk(owner, { query: "bilby" }))).toContain(secret);
  });

  it("serves page 2 by bookmark from memory too, and drops a pin made secret there", async () => {
    const page1 = await searchOk(anon, { query: "dingo", page_size: 4 });
    expect(page1.bookmark).not.toBe(END_MARKER);
    // Another visitor's page 1 is the same answer: the same anchor, so the same bookmark.
    expect((await searchOk(await browserFor("signed_out"), { query: "dingo", page_size: 4 })).bookmark).toBe(page1.bookmark);
    const page2 = await searchOk(anon, { query: "dingo", page_size: 4, bookmark: page1.bookmark });
    const second = ids(page2);
    expect(second).toHaveLength(4);
    expect(second.some((id) => ids(page1).includes(id))).toBe(false);
    await env.DB.prepare("UPDATE pins SET board_id = ?1 WHERE id = ?2").bind(CAST_BOARDS.secret, second[1]).run();
    const again = await searchOk(await browserFor("signed_out"), { query: "dingo", page_size: 4, bookmark: page1.bookmark });
    expect(ids(again)).toEqual(second.filter((id) => id !== second[1]));
    expect(again.bookmark).toBe(page2.bookmark);
  });

  it("drops a cached board when it turns secret or its owner's profile turns private", async () => {
    const before = ids(await searchOk(anon, { query: "echidna", scope: "boards" }));
    expect(before.sort()).toEqual(["8500", "8501"]);
    await env.DB.prepare("UPDATE boards SET privacy = 'secret' WHERE id = 8500").run();
    expect(ids(await searchOk(anon, { query: "echidna", scope: "boards" }))).toEqual(["8501"]);
    await env.DB.prepare("UPDATE users SET is_private_profile = 1 WHERE id = ?1").bind(CAST.owner).run();
    try {
      expect(ids(await searchOk(anon, { query: "echidna", scope: "boards" }))).toEqual([]);
      // Pins too: a private profile's pins leave shared answers at once.
      expect(ids(await searchOk(anon, { query: "quokka", page_size: 5 }))).toEqual([]);
    } finally {
      await env.DB.prepare("UPDATE users SET is_private_profile = 0 WHERE id = ?1").bind(CAST.owner).run();
    }
  });

  it("still refuses bad bookmarks with a 400 naming the field", async () => {
    const page1 = await searchOk(anon, { query: "wallaby", page_size: 3 });
    await searchOk(anon, { query: "wallaby", page_size: 3, bookmark: page1.bookmark });
    for (const options of [
      { query: "wombat", page_size: 3, bookmark: page1.bookmark },
      { query: "wallaby", page_size: 3, bookmark: "not-a-bookmark" },
      { query: "wallaby", page_size: 3, scope: "videos", bookmark: page1.bookmark },
    ]) {
      const answer = await searchCall(anon, options);
      expect(answer.status).toBe(400);
      expect(JSON.stringify(answer.error)).toContain("options.bookmark");
    }
  });
});

describe("the typeahead's memory of shared terms", () => {
  const queriesOf = (answer: TypeaheadResponse) => answer.items.flatMap((item) => (item.type === "query" ? [item.query] : []));
  const idsOf = (answer: TypeaheadResponse, type: "board" | "user") => answer.items.flatMap((item) => (item.type === type ? [item.id] : []));

  it("answers a hit as the miss before it, and drops what turned secret, hidden or was renamed at once", async () => {
    const first = await typeaheadOk(anon, { term: "platyp" });
    expect(queriesOf(first)).toEqual(["platypus 3", "platypus 2", "platypus 1", "platypus 0"]);
    expect(idsOf(first, "board")).toEqual(["8510"]);
    // A much saved new match: the remembered ranking holds signed out; a signed-in person sees it.
    await addNewcomer(8890, "platypus");
    const again = await typeaheadOk(await browserFor("signed_out"), { term: "Platyp" });
    expect(again.term).toBe("Platyp");
    expect(again.items).toEqual(first.items);
    expect(queriesOf(await typeaheadOk(owner, { term: "platyp" }))[0]).toBe("platypus newcomer platypus");
    await env.DB.batch([
      env.DB.prepare("UPDATE pins SET board_id = ?1 WHERE id = 8803").bind(CAST_BOARDS.secret),
      env.DB.prepare("UPDATE pins SET is_hidden = 1 WHERE id = 8802"),
      env.DB.prepare("UPDATE pins SET title = 'Potoroo' WHERE id = 8801"),
      env.DB.prepare("UPDATE boards SET privacy = 'secret' WHERE id = 8510"),
    ]);
    const after = await typeaheadOk(anon, { term: "platyp" });
    expect(queriesOf(after)).toEqual(["platypus 0"]);
    expect(idsOf(after, "board")).toEqual([]);
  });

  it("drops a person whose profile turned private from the next answer", async () => {
    const first = idsOf(await typeaheadOk(anon, { term: "cast" }), "user");
    expect(first).toContain(String(CAST.stranger));
    await env.DB.prepare("UPDATE users SET is_private_profile = 1 WHERE id = ?1").bind(CAST.stranger).run();
    try {
      const after = idsOf(await typeaheadOk(anon, { term: "cast" }), "user");
      expect(after).not.toContain(String(CAST.stranger));
      expect(after).toEqual(first.filter((id) => id !== String(CAST.stranger)));
    } finally {
      await env.DB.prepare("UPDATE users SET is_private_profile = 0 WHERE id = ?1").bind(CAST.stranger).run();
    }
  });
});
