// Secret boards and their pins appear only to those who may see them: a secret
// board's pin is never in results, counts, facets, guides, typos or typeahead for anyone but
// the board's owner and collaborators; then the recent-search rules (spec 000 §9).
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { BoardRole } from "~/boards/policy.ts";
import type { Browser } from "./accounts-helpers.ts";
import { call, ok } from "./boards-helpers.ts";
import { CAST, CAST_BOARDS, SECRET_BOARD_NAME, browserFor, seedCast } from "./roles-fixture.ts";
import { freshPerson, ids, searchCall, searchOk, typeaheadOk } from "./search-world.ts";
import type { SearchBoardItem } from "~/search/types.ts";

const SECRET_PIN = 5001;
const PUBLIC_PIN = 5002;
/** A second public pin, boardless, so "quetzal" has two pages of one. */
const BOARDLESS_PIN = 5003;
/** Typo words: "zorbex" only on two secret pins, "zorbax" on two public ones (one a chair). */
const ZORBEX_SECRET_PINS = [5004, 5005];
const ZORBAX_PUBLIC_PINS = [5006, 5007];

beforeAll(async () => {
  await seedCast();
  const db = env.DB;
  const pin = (id: number, boardId: number, title: string, domain: string, category: string) =>
    db
      .prepare(
        `INSERT INTO pins (id, pinner_id, board_id, kind, title, description, image_signature, price_value, domain, category, created_at, updated_at)
         VALUES (?1, ?2, ?3, 'product', ?4, 'Quetzal feather lamp', 'sig', 42, ?5, ?6, ?7, ?7)`,
      )
      .bind(id, CAST.owner, boardId, title, domain, category, 1_700_000_000_000 + id);
  await db.batch([
    pin(SECRET_PIN, CAST_BOARDS.secret, "Quetzal xylophone secret", "secret.example", "secret_things"),
    pin(PUBLIC_PIN, CAST_BOARDS.public, "Quetzal public", "public.example", "public_things"),
    db.prepare("INSERT INTO pins (id, pinner_id, board_id, kind, title, image_signature, created_at, updated_at) VALUES (?1, ?2, NULL, 'image', 'Quetzal boardless', 'sig', 1, 1)").bind(BOARDLESS_PIN, CAST.owner),
    db.prepare("INSERT INTO pin_images (pin_id, size, url, width, height, dominant_color) VALUES (?1, '236x', '/c.jpg', 236, 300, '#abcdef')").bind(BOARDLESS_PIN),
    db.prepare("INSERT INTO pin_images (pin_id, size, url, width, height, dominant_color) VALUES (?1, '236x', '/a.jpg', 236, 300, '#abcdef'), (?2, '236x', '/b.jpg', 236, 300, '#abcdef')").bind(SECRET_PIN, PUBLIC_PIN),
    db.prepare("INSERT INTO board_pins (board_id, pin_id, saved_by, position, created_at) VALUES (?1, ?2, ?3, 0, 0), (?4, ?5, ?3, 0, 0)").bind(CAST_BOARDS.secret, SECRET_PIN, CAST.owner, CAST_BOARDS.public, PUBLIC_PIN),
    db.prepare("INSERT INTO interests (id, key, name) VALUES (90, 'marimbas', 'Marimba music'), (91, 'feathers', 'Feathers')"),
    db.prepare("INSERT INTO pin_interests (pin_id, interest_id) VALUES (?1, 90), (?1, 91), (?2, 91)").bind(SECRET_PIN, PUBLIC_PIN),
    ...ZORBEX_SECRET_PINS.map((id) =>
      db.prepare("INSERT INTO pins (id, pinner_id, board_id, kind, title, image_signature, created_at, updated_at) VALUES (?1, ?2, ?3, 'image', 'Zorbex lamp', 'sig', 1, 1)").bind(id, CAST.owner, CAST_BOARDS.secret),
    ),
    ...ZORBAX_PUBLIC_PINS.map((id, index) =>
      db
        .prepare("INSERT INTO pins (id, pinner_id, board_id, kind, title, image_signature, created_at, updated_at) VALUES (?1, ?2, ?3, 'image', ?4, 'sig', 1, 1)")
        .bind(id, CAST.owner, CAST_BOARDS.public, index === 0 ? "Zorbax chair" : "Zorbax table"),
    ),
  ]);
});

const OUTSIDERS: BoardRole[] = ["signed_out", "stranger", "follower"];
const INSIDERS: BoardRole[] = ["owner", "collaborator_write", "collaborator_delete"];

describe("secret content in search", () => {
  for (const role of OUTSIDERS) {
    it(`leaves no trace for ${role}`, async () => {
      const browser = await browserFor(role);
      const text = JSON.stringify([
        await searchOk(browser, { query: "quetzal" }),
        await searchOk(browser, { query: "xylophone" }),
        await searchOk(browser, { query: "xylophone", scope: "videos" }),
        await searchOk(browser, { query: "quetzal", scope: "buyable_pins" }),
        await searchOk(browser, { query: "feather", scope: "buyable_pins" }),
        await searchOk(browser, { query: "secret plans", scope: "boards" }),
        await searchOk(browser, { query: "xylophane" }),
        await typeaheadOk(browser, { term: "xyl" }),
        await typeaheadOk(browser, { term: "secret pl" }),
        await typeaheadOk(browser, { term: "quetzal" }),
        await ok(browser, "VisualSearchFlashlightUnifiedResource", "get", { pin_id: String(PUBLIC_PIN) }),
      ]);
      // The queries themselves are echoed; these strings exist only in the secret rows.
      for (const trace of [String(SECRET_PIN), "Quetzal xylophone", "quetzal xylophone", "Marimba", "secret.example", "secret_things", SECRET_BOARD_NAME]) expect(text).not.toContain(trace);
      expect((await searchOk(browser, { query: "xylophone" })).results).toEqual([]);
      expect((await searchOk(browser, { query: "xylophane" })).typo).toBeNull();
      expect((await typeaheadOk(browser, { term: "xyl" })).items).toEqual([]);
      const plain = await searchOk(browser, { query: "quetzal" });
      expect(ids(plain).sort()).toEqual([String(PUBLIC_PIN), String(BOARDLESS_PIN)]);
      const board = (await searchOk(browser, { query: "corkboard", scope: "boards" })).results[0] as SearchBoardItem;
      expect(board.pinCount).toBe(1);
      expect((await call(browser, "VisualLiveSearchResource", "get", { pin_id: String(SECRET_PIN) })).status).toBe(404);
    });
  }

  describe("typo suggestions count only what the viewer may see", () => {
    for (const role of OUTSIDERS) {
      it(`a secret-only word or candidate changes nothing for ${role}`, async () => {
        const browser = await browserFor(role);
        const typo = async (query: string, applied?: string) => (await searchOk(browser, { query, ...(applied ? { applied_filters: applied } : {}) })).typo;
        // "zorbaq" exists nowhere: the visible "zorbax" is offered.
        expect(await typo("zorbaq")).toEqual({ original: "zorbaq", corrected: "zorbax" });
        // "zorbex" exists only on secret pins: the same answer as a word that does not exist.
        expect((await typo("zorbex"))?.corrected).toBe("zorbax");
        // "zorbez" is closest to the secret-only "zorbex": the visible "zorbax" is still found.
        expect((await typo("zorbez"))?.corrected).toBe("zorbax");
        // The applied filters' words stay in the corrected query's count.
        expect((await typo("zorbaq", "chair"))?.corrected).toBe("zorbax");
        expect(await typo("zorbaq", "sofa")).toBeNull();
      });
    }
  });

  for (const role of INSIDERS) {
    it(`is found by ${role}`, async () => {
      const browser = await browserFor(role);
      expect(ids(await searchOk(browser, { query: "xylophone" }))).toEqual([String(SECRET_PIN)]);
      expect(ids(await searchOk(browser, { query: "quetzal" })).sort()).toEqual([String(SECRET_PIN), String(PUBLIC_PIN), String(BOARDLESS_PIN)]);
      expect(ids(await searchOk(browser, { query: "secret plans", scope: "boards" }))).toEqual([String(CAST_BOARDS.secret)]);
      const facets = await searchOk(browser, { query: "quetzal", scope: "buyable_pins" });
      expect(facets.productFilters?.domains.map((d) => d.domain).sort()).toEqual(["public.example", "secret.example"]);
      expect((await searchOk(browser, { query: "quetzal" })).guides.map((g) => g.term)).toContain("Marimba music");
      expect((await typeaheadOk(browser, { term: "xyl" })).items).toContainEqual({ type: "query", query: "quetzal xylophone secret" });
    });
  }
});

describe("recent searches", () => {
  const recent = async (browser: Browser, personal?: boolean) => (await ok<{ results: string[] }>(browser, "UserRecentSearchesResource", "get", personal === undefined ? {} : { personal })).results;

  it("records page 1 searches, newest first, deduplicated ignoring case with the newest spelling, capped at 20", async () => {
    const browser = await freshPerson();
    for (let i = 0; i < 22; i++) await searchOk(browser, { query: `topic ${i}` });
    let list = await recent(browser);
    expect(list).toHaveLength(20);
    expect(list[0]).toBe("topic 21");
    expect(list).not.toContain("topic 0");
    expect(list).not.toContain("topic 1");
    await searchOk(browser, { query: "TOPIC 5" });
    list = await recent(browser);
    expect(list[0]).toBe("TOPIC 5");
    expect(list.filter((q) => q.toLowerCase() === "topic 5")).toHaveLength(1);
    expect(list).toHaveLength(20);
    const page1 = await searchOk(browser, { query: "quetzal", page_size: 1 });
    expect(page1.bookmark).not.toBe("-end-");
    await searchOk(browser, { query: "quetzal", page_size: 1, bookmark: page1.bookmark });
    expect((await recent(browser))[0]).toBe("quetzal");
    await searchOk(browser, { query: "topic 7" });
    await searchOk(browser, { query: "quetzal", page_size: 1, bookmark: page1.bookmark });
    expect((await recent(browser))[0]).toBe("topic 7");
  });

  it("keeps personal searches (my_pins, my_content) in their own list", async () => {
    const browser = await freshPerson();
    await searchOk(browser, { query: "my thing", scope: "my_pins" });
    await searchOk(browser, { query: "our thing", scope: "my_content" });
    await searchOk(browser, { query: "public thing" });
    expect(await recent(browser, true)).toEqual(["our thing", "my thing"]);
    expect(await recent(browser)).toEqual(["public thing"]);
    expect((await typeaheadOk(browser, { term: "pub" })).recent_queries_tags).toEqual(["public thing"]);
    expect((await typeaheadOk(browser, { term: "" })).recent_queries_tags).toEqual(["public thing"]);
    expect((await typeaheadOk(browser, { term: "pub", recent_queries_tags: false })).recent_queries_tags).toEqual([]);
  });

  it("deletes one ignoring case, or all", async () => {
    const browser = await freshPerson();
    for (const query of ["alpha", "beta", "gamma"]) await searchOk(browser, { query });
    await ok(browser, "UserRecentSearchesResource", "delete", { query: "BETA" });
    expect(await recent(browser)).toEqual(["gamma", "alpha"]);
    await ok(browser, "UserRecentSearchesResource", "delete", {});
    expect(await recent(browser)).toEqual([]);
  });

  it("records only the person's own searches, not a cross-site GET", async () => {
    const browser = await freshPerson();
    const search = (query: string, headers: Record<string, string>) => searchCall(browser, { query }, headers);
    expect((await search("from a script", { "x-requested-with": "XMLHttpRequest" })).status).toBe(200);
    expect((await search("from our page", { "sec-fetch-site": "same-origin" })).status).toBe(200);
    expect((await search("from elsewhere", { "sec-fetch-site": "cross-site" })).status).toBe(200);
    expect((await search("from a sibling site", { "sec-fetch-site": "same-site" })).status).toBe(200);
    expect((await search("from an old browser", {})).status).toBe(200);
    expect(await recent(browser)).toEqual(["from our page", "from a script"]);
  });

  it("is for signed-in people only: 401 signed out, and signed-out searches record nothing", async () => {
    const browser = await browserFor("signed_out");
    expect((await searchCall(browser, { query: "anything" })).status).toBe(200);
    expect((await call(browser, "UserRecentSearchesResource", "get", {})).status).toBe(401);
    expect((await call(browser, "UserRecentSearchesResource", "delete", {})).status).toBe(401);
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM recent_searches WHERE query = 'anything'").first<{ n: number }>();
    expect(rows?.n).toBe(0);
  });
});
