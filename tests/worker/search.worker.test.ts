// Search through the real Worker: every scope, the ranking test set, bookmark paging,
// bad options, the response's side fields, typeahead, the visual resources, and the index kept
// current by the writers' own batches.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { Browser, fillCounter } from "./accounts-helpers.ts";
import { call, ok } from "./boards-helpers.ts";
import { CAST, CAST_BOARDS, browserFor, seedCast } from "./roles-fixture.ts";
import { BOARDS, PEOPLE, ids, searchCall, searchOk, seedSearchWorld, signedIn, typeaheadOk } from "./search-world.ts";
import { END_MARKER, type SearchBoardItem } from "~/search/types.ts";
import { typeahead } from "~/search/typeahead.server.ts";
import { RATE_RULES } from "~/server/rate-limit.server.ts";
import { toApiError } from "~/server/errors.ts";
import type { DomainError } from "~/domain/errors.ts";

let anon: Browser;
let chef: Browser;
let searcher: Browser;

beforeAll(async () => {
  await seedCast();
  await seedSearchWorld();
  anon = new Browser();
  chef = await signedIn(PEOPLE.chef);
  searcher = await signedIn(PEOPLE.searcher);
});

describe("ranking test set", () => {
  // query → the pin ids that must come first, in this order.
  it.each<[string, string[]]>([
    ["pasta", ["4001"]],
    ["creamy pasta", ["4001"]],
    ["lemon tart", ["4003"]],
    ["vanilla", ["4004"]],
    ["acme", ["4006"]],
    ["sourdough", ["4014"]],
    ["marigold", ["4129", "4128", "4127"]],
    ["LEMONS", ["4003"]],
  ])("%s", async (query, first) => {
    const response = await searchOk(anon, { query });
    expect(ids(response).slice(0, first.length)).toEqual(first);
  });

  it("ranks a title match above a description-only match", async () => {
    const order = ids(await searchOk(anon, { query: "pasta" }));
    expect(order.indexOf("4005")).toBeLessThan(order.indexOf("4002"));
  });

  it("answers the same order every time", async () => {
    const a = ids(await searchOk(anon, { query: "pasta" }));
    const b = ids(await searchOk(anon, { query: "  PASTA " }));
    expect(b).toEqual(a);
  });
});

describe("scopes", () => {
  it.each<[string, Record<string, unknown>, string[], string[]]>([
    // scope, extra options, ids that must be there, ids that must not
    ["pins", {}, ["4001", "4002", "4005", "4008", "4015"], ["4009", "4010", "4011", "4012", "4013"]],
    ["videos", {}, ["4005"], ["4001", "4008"]],
    ["idea_pins", {}, ["4008"], ["4001", "4005"]],
  ])("%s answers its kind of pins for 'pasta'", async (scope, extra, present, absent) => {
    const response = await searchOk(anon, { query: "pasta", scope, ...extra });
    expect(response.scope).toBe(scope);
    for (const id of present) expect(ids(response)).toContain(id);
    for (const id of absent) expect(ids(response)).not.toContain(id);
    expect(response.results.every((item) => item.type === "pin")).toBe(true);
  });

  it("buyable_pins answers product pins with a price, and its facets", async () => {
    const response = await searchOk(anon, { query: "lamp", scope: "buyable_pins" });
    expect(ids(response).sort()).toEqual(["4006", "4007"]);
    expect(response.modeIcon).toBe("shopping");
    expect(response.productFilters).toEqual({
      price: { min: 30, max: 80 },
      domains: [
        { domain: "other.example", count: 1 },
        { domain: "shop.example", count: 1 },
      ],
      categories: [{ id: "home_decor", count: 2 }],
    });
    // Facets span the product filters: a price range narrows the results, not the facets
    // (counted by their own statement; unfiltered, the page statement counts them).
    const cheap = await searchOk(anon, { query: "lamp", scope: "buyable_pins", price_max: 50 });
    expect(ids(cheap)).toEqual(["4006"]);
    expect(cheap.productFilters).toEqual(response.productFilters);
    expect((await searchOk(anon, { query: "zzzqqq", scope: "buyable_pins" })).productFilters).toEqual({ price: null, domains: [], categories: [] });
    expect(ids(await searchOk(anon, { query: "lamp", scope: "buyable_pins", price_min: 50 }))).toEqual(["4007"]);
    expect(ids(await searchOk(anon, { query: "lamp", scope: "buyable_pins", domains: ["other.example"] }))).toEqual(["4007"]);
    expect(ids(await searchOk(anon, { query: "lamp", scope: "buyable_pins", product_filters: "kitchen" }))).toEqual([]);
    expect(ids(await searchOk(anon, { query: "lamp", scope: "buyable_pins", product_filters: "home_decor" })).sort()).toEqual(["4006", "4007"]);
  });

  it("my_pins answers the viewer's own pins, secret ones included, and needs sign-in", async () => {
    const mine = await searchOk(chef, { query: "pasta", scope: "my_pins" });
    expect(ids(mine)).toContain("4009");
    expect(ids(mine)).not.toContain("4015");
    const theirs = await searchOk(searcher, { query: "pasta", scope: "my_pins" });
    expect(theirs.results).toEqual([]);
    expect((await searchCall(anon, { query: "pasta", scope: "my_pins" })).status).toBe(401);
  });

  it("my_content answers the viewer's pins and boards together", async () => {
    const response = await searchOk(chef, { query: "lasagna", scope: "my_content" });
    expect(response.results.map((item) => `${item.type}:${item.id}`)).toEqual([`board:${BOARDS.secretLasagna}`]);
    const both = await searchOk(chef, { query: "pasta", scope: "my_content" });
    expect(both.results.some((item) => item.type === "board" && item.id === String(BOARDS.dinners))).toBe(true);
    expect(both.results.some((item) => item.type === "pin" && item.id === "4009")).toBe(true);
    expect((await searchCall(anon, { query: "pasta", scope: "my_content" })).status).toBe(401);
  });

  it("boards answers visible boards with their visible pin count and owner", async () => {
    const response = await searchOk(anon, { query: "pasta", scope: "boards" });
    expect(ids(response)).toEqual([String(BOARDS.dinners)]);
    const board = response.results[0] as SearchBoardItem;
    expect(board).toMatchObject({ type: "board", name: "Weeknight dinners", url: `/chef_ana/board-${BOARDS.dinners}/`, owner: { username: "chef_ana", fullName: "Ana Cook" } });
    // The board page's count (pinListedSql): hidden, deleted and secret-board pins left out.
    expect(board.pinCount).toBe(40);
    expect(board.cover).toMatchObject({ width: 236, height: 300 });
  });

  it("users answers visible people by username or full name", async () => {
    expect(ids(await searchOk(anon, { query: "ana cook", scope: "users" }))).toEqual([String(PEOPLE.chef)]);
    expect(ids(await searchOk(anon, { query: "chef_ana", scope: "users" }))).toEqual([String(PEOPLE.chef)]);
    expect(ids(await searchOk(anon, { query: "hal", scope: "users" }))).toEqual([]);
    const [person] = (await searchOk(anon, { query: "maker", scope: "users" })).results;
    expect(person).toEqual({ type: "user", id: String(PEOPLE.maker), username: "maker_bo", fullName: "Bo Maker", imageUrl: null, followerCount: 3, url: "/maker_bo/" });
  });

  it("user restricts to one person's pins; bubble_id to one interest; top_pin_id puts a pin first", async () => {
    expect(ids(await searchOk(anon, { query: "pasta", user: "maker_bo" }))).toEqual(["4015"]);
    expect(ids(await searchOk(anon, { query: "pasta", user: "hidden_hal" }))).toEqual([]);
    expect(ids(await searchOk(anon, { query: "pasta", user: "nobody_here" }))).toEqual([]);
    expect(ids(await searchOk(anon, { query: "marigold", bubble_id: "italian_food" }))).toEqual([]);
    expect(ids(await searchOk(anon, { query: "lemon", bubble_id: "desserts" }))).toEqual(["4003"]);
    expect(ids(await searchOk(anon, { query: "pasta", top_pin_id: "4015" }))[0]).toBe("4015");
    expect(ids(await searchOk(anon, { query: "pasta", top_pin_id: "4009" }))).not.toContain("4009");
  });

  it("filters narrow by kind and creation time; applied_filters narrow by a guide term", async () => {
    expect(ids(await searchOk(anon, { query: "pasta", filters: "kind:video" }))).toEqual(["4005"]);
    expect(ids(await searchOk(anon, { query: "pasta", filters: "kind:video,kind:story" })).sort()).toEqual(["4005", "4008"]);
    expect(ids(await searchOk(anon, { query: "pasta", filters: "created:7d" }))).toEqual([]);
    expect(ids(await searchOk(anon, { query: "pasta", applied_filters: "creamy" }))).toEqual(["4001"]);
  });
});

describe("paging", () => {
  it("pages by bookmark without gaps or repeats, ending with the end marker", async () => {
    const seen: string[] = [];
    let bookmark: string | undefined;
    for (let page = 0; page < 5; page++) {
      const response = await searchOk(anon, { query: "marigold", page_size: 12, ...(bookmark ? { bookmark } : {}) });
      seen.push(...ids(response));
      if (response.bookmark === END_MARKER) break;
      bookmark = response.bookmark;
    }
    expect(seen).toHaveLength(30);
    expect(new Set(seen).size).toBe(30);
    expect(seen).toEqual(ids(await searchOk(anon, { query: "marigold", page_size: 50 })));
  });

  it("refuses a bookmark from another query or other options", async () => {
    const first = await searchOk(anon, { query: "marigold", page_size: 5 });
    expect(first.bookmark).not.toBe(END_MARKER);
    for (const options of [{ query: "pasta" }, { query: "marigold", scope: "videos" }, { query: "marigold", filters: "kind:image" }]) {
      const answer = await searchCall(anon, { ...options, bookmark: first.bookmark });
      expect(answer.status).toBe(400);
      expect(answer.error?.message_detail).toContain("options.bookmark");
    }
    expect((await searchCall(anon, { query: "Marigold ", bookmark: first.bookmark })).status).toBe(200);
  });
});

describe("bad options are a 400 naming the field", () => {
  it.each<[string, Record<string, unknown>]>([
    ["query", { query: "" }],
    ["query", { query: "   " }],
    ["query", { scope: "pins" }],
    ["scope", { query: "a", scope: "everything" }],
    ["rs", { query: "a", rs: "telepathy" }],
    ["filters", { query: "a", filters: "kind:hologram" }],
    ["applied_filters", { query: "a", applied_filters: "a,b,c,d,e,f" }],
    ["product_filters", { query: "a", product_filters: "Not An Id" }],
    ["domains", { query: "a", domains: "example.com" }],
    ["price_min", { query: "a", price_min: -5 }],
    ["price_max", { query: "a", price_min: 10, price_max: 1 }],
    ["page_size", { query: "a", page_size: 500 }],
    ["bookmark", { query: "a", bookmark: "!!" }],
    ["bookmark", { query: "a", bookmark: "abc" }],
    ["user", { query: "a", user: "no spaces" }],
    ["top_pin_id", { query: "a", top_pin_id: "x1" }],
    ["source_id", { query: "a", source_id: "a/b" }],
    ["bubble_id", { query: "a", bubble_id: "a b" }],
    ["personalization_signature", { query: "a", personalization_signature: "<>" }],
    ["surprise", { query: "a", surprise: true }],
  ])("%s", async (field, options) => {
    const answer = await searchCall(anon, options);
    expect(answer.status).toBe(400);
    expect(answer.error?.message_detail).toContain(`options.${field}`);
  });
});

describe("side fields", () => {
  it("offers tabs for the viewer, filters and chips for pin scopes, guides from interests", async () => {
    const response = await searchOk(anon, { query: "pasta", filters: "created:365d,kind:video" });
    expect(response.tabs.map((tab) => tab.scope)).toEqual(["pins", "buyable_pins", "videos", "boards", "users", "idea_pins"]);
    expect(response.tabs.find((tab) => tab.selected)?.scope).toBe("pins");
    expect(response.filters.filter((chip) => chip.applied).map((chip) => chip.id)).toEqual(["kind:video", "created:365d"]);
    expect(response.oneBarModules.slice(0, 2).every((chip) => chip.applied)).toBe(true);
    expect(response.oneBarModules.length).toBeLessThanOrEqual(6);
    const plain = await searchOk(anon, { query: "pasta" });
    expect(plain.guides).toEqual([{ term: "Italian food" }]);
    expect(plain.modeIcon).toBeNull();
    expect(plain.productFilters).toBeNull();
    expect((await searchOk(chef, { query: "pasta" })).tabs.map((tab) => tab.scope)).toContain("my_content");
    expect((await searchOk(anon, { query: "pasta", scope: "boards" })).filters).toEqual([]);
    expect((await searchOk(anon, { query: "pasta", scope: "videos" })).modeIcon).toBe("video");
  });

  it("nags on few results and offers a typo correction that has more", async () => {
    const response = await searchOk(anon, { query: "marigols" });
    expect(response.results).toEqual([]);
    expect(response.nag).toEqual({ kind: "few_results" });
    expect(response.typo).toEqual({ original: "marigols", corrected: "marigold" });
    const many = await searchOk(anon, { query: "marigold" });
    expect(many.nag).toBeNull();
    expect(many.typo).toBeNull();
  });

  it("flags self-harm queries", async () => {
    expect((await searchOk(anon, { query: "I want to die" })).sensitivity).toEqual({ kind: "sensitive_query" });
    expect((await searchOk(anon, { query: "pasta" })).sensitivity).toBeNull();
  });

  it("SearchTabResource answers the tabs", async () => {
    expect(await ok(anon, "SearchTabResource", "get", { query: "pasta", scope: "users" })).toEqual({
      tabs: ["pins", "buyable_pins", "videos", "boards", "users", "idea_pins"].map((scope) => ({ scope, selected: scope === "users" })),
    });
    expect((await call(anon, "SearchTabResource", "get", { query: "pasta", scope: "nope" })).status).toBe(400);
  });
});

describe("typeahead", () => {
  it("suggests queries first, then boards and people, at most 10", async () => {
    const answer = await typeaheadOk(anon, { term: "pas" });
    expect(answer.items.length).toBeGreaterThan(0);
    expect(answer.items.length).toBeLessThanOrEqual(10);
    expect(answer.items[0]).toEqual({ type: "query", query: "creamy tomato pasta" });
    const types = answer.items.map((item) => item.type);
    expect(types.indexOf("query")).toBe(0);
    expect(types.lastIndexOf("query")).toBeLessThan(types.length);
    expect(answer.items.some((item) => item.type === "query" && item.query.includes("zanzibar"))).toBe(false);
    expect(answer.recent_queries_tags).toEqual([]);
  });

  it("finds boards and people by prefix, and interests as queries", async () => {
    expect((await typeaheadOk(anon, { term: "weekn" })).items).toContainEqual({ type: "board", id: String(BOARDS.dinners), name: "Weeknight dinners", url: `/chef_ana/board-${BOARDS.dinners}/`, owner: { username: "chef_ana" } });
    expect((await typeaheadOk(anon, { term: "chef" })).items).toContainEqual({ type: "user", id: String(PEOPLE.chef), username: "chef_ana", fullName: "Ana Cook", imageUrl: null, url: "/chef_ana/" });
    expect((await typeaheadOk(anon, { term: "ital" })).items[0]).toEqual({ type: "query", query: "italian food" });
    expect((await typeaheadOk(anon, { term: "" })).items).toEqual([]);
    expect((await call(anon, "AdvancedTypeaheadResource", "get", { term: "x".repeat(101) })).status).toBe(400);
  });

  it("looks people up from two letters, like titles and boards", async () => {
    const people = async (term: string) => (await typeaheadOk(anon, { term })).items.filter((item) => item.type === "user").map((item) => item.id);
    expect(await people("c")).toEqual([]);
    expect(await people("ana c")).toEqual([]);
    expect(await people("ch")).toContain(String(PEOPLE.chef));
  });
});

describe("throttles", () => {
  const typeaheadCall = (browser: Browser) => call(browser, "AdvancedTypeaheadResource", "get", { term: "pas" });

  it("answers 429 past 300 searches a minute per address, counting IPv6 by /64", async () => {
    const browser = new Browser("2001:db8:5e:1::9");
    expect((await searchCall(browser, { query: "pasta" })).status).toBe(200);
    await fillCounter("search:viewer:ip:2001:db8:5e:1::/64", 300, 60_000);
    const refused = await browser.resource("BaseSearchResource", "get", { query: "pasta" });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await searchCall(new Browser("2001:db8:5e:1:ffff::1"), { query: "pasta" })).status).toBe(429);
    expect((await typeaheadCall(browser)).status).toBe(200);
  });

  it("answers 429 past 600 typeahead calls a minute per signed-in person, wherever they are", async () => {
    const person = await signedIn(PEOPLE.maker);
    await fillCounter(`typeahead:viewer:u:${PEOPLE.maker}`, 600, 60_000);
    expect((await typeaheadCall(person)).status).toBe(429);
    expect((await searchCall(person, { query: "pasta" })).status).toBe(200);
    expect((await typeaheadCall(new Browser())).status).toBe(200);
  });

  it("counts typeahead's throttle in its own batch, and reads nothing once over the limit", async () => {
    const results: D1Result[] = [];
    const db = {
      prepare: (sql: string) => env.DB.prepare(sql),
      batch: async (statements: D1PreparedStatement[]) => {
        const answers = await env.DB.batch(statements);
        results.push(...answers);
        return answers;
      },
    } as unknown as D1Database;
    const throttle = { rule: RATE_RULES.typeaheadPerViewer, subject: "ip:203.0.113.77" };
    const answer = await typeahead(db, { term: "pas" }, { id: null }, throttle);
    expect(answer.items.length).toBeGreaterThan(0);
    // One round trip: the counter's hit first, then the reads, which found rows.
    expect(results).toHaveLength(5);
    expect(results.slice(1).some((result) => result.results.length > 0)).toBe(true);
    // Within the limit the reads scan (the interest names are read in full).
    expect(results.slice(1).reduce((sum, result) => sum + result.meta.rows_read, 0)).toBeGreaterThan(4);
    results.length = 0;
    await fillCounter("typeahead:viewer:ip:203.0.113.77", 600, 60_000);
    // As the API answers the refusal: the one mapping from the data layer's errors to HTTP.
    const refused = typeahead(db, { term: "pas" }, { id: null }, throttle).catch((error: DomainError) => {
      throw toApiError(error);
    });
    await expect(refused).rejects.toMatchObject({ status: 429 });
    expect(results.slice(1).every((result) => result.results.length === 0)).toBe(true);
    // Not even scanned: each read looked at the counter's one row and stopped (LIMIT 0).
    for (const result of results.slice(1)) expect(result.meta.rows_read).toBeLessThanOrEqual(1);
  });
});

describe("visual resources", () => {
  it("VisualLiveSearchResource answers the pin's interests, 404 for a pin the viewer may not see", async () => {
    expect(await ok(anon, "VisualLiveSearchResource", "get", { pin_id: "4001" })).toEqual({ annotations: [{ term: "Italian food", url: "/search/pins/?q=Italian+food&rs=guide" }] });
    expect((await call(anon, "VisualLiveSearchResource", "get", { pin_id: "4009" })).status).toBe(404);
    expect((await ok(chef, "VisualLiveSearchResource", "get", { pin_id: "4009" })) as unknown).toEqual({ annotations: [{ term: "Zanzibar spices", url: "/search/pins/?q=Zanzibar+spices&rs=guide" }] });
  });

  it("VisualSearchFlashlightUnifiedResource answers facets over the related set", async () => {
    expect(await ok(anon, "VisualSearchFlashlightUnifiedResource", "get", { pin_id: "4006" })).toEqual({
      price_filters: [{ min: 80, max: 80 }],
      domain_filters: [{ domain: "other.example", count: 1 }],
      category_filters: [{ id: "home_decor", count: 1 }],
    });
    expect((await call(anon, "VisualSearchFlashlightUnifiedResource", "get", { pin_id: "4009" })).status).toBe(404);
  });
});

describe("the index follows the writers", () => {
  it("finds a board created, renamed and deleted through BoardResource", async () => {
    const owner = await browserFor("owner");
    const created = await ok<{ id: string }>(owner, "BoardResource", "create", { name: "Quokka collection" });
    expect(ids(await searchOk(anon, { query: "quokka", scope: "boards" }))).toEqual([created.id]);
    await ok(owner, "BoardResource", "update", { board_id: created.id, name: "Wombat collection" });
    expect(ids(await searchOk(anon, { query: "quokka", scope: "boards" }))).toEqual([]);
    expect(ids(await searchOk(anon, { query: "wombat", scope: "boards" }))).toEqual([created.id]);
    await ok(owner, "BoardResource", "update", { board_id: created.id, privacy: "secret" });
    expect(ids(await searchOk(anon, { query: "wombat", scope: "boards" }))).toEqual([]);
    expect(ids(await searchOk(owner, { query: "wombat", scope: "boards" }))).toEqual([created.id]);
    await ok(owner, "BoardResource", "delete", { board_id: created.id });
    expect(ids(await searchOk(owner, { query: "wombat", scope: "boards" }))).toEqual([]);
  });

  it("finds a pin inserted, edited through PinResource and deleted through PinResource", async () => {
    const owner = await browserFor("owner");
    await env.DB.batch([
      env.DB.prepare("INSERT INTO pins (id, pinner_id, board_id, kind, title, image_signature, created_at, updated_at) VALUES (4900, ?1, ?2, 'image', 'Axolotl tank', 'sig', 1, 1)").bind(CAST.owner, CAST_BOARDS.public),
      env.DB.prepare("INSERT INTO pin_images (pin_id, size, url, width, height, dominant_color) VALUES (4900, '236x', '/x.jpg', 236, 300, '#abcdef')"),
      env.DB.prepare("INSERT INTO board_pins (board_id, pin_id, saved_by, position, created_at) VALUES (?1, 4900, ?2, 0, 1)").bind(CAST_BOARDS.public, CAST.owner),
    ]);
    expect(ids(await searchOk(anon, { query: "axolotl" }))).toEqual(["4900"]);
    await ok(owner, "PinResource", "update", { id: "4900", title: "Salamander tank", description: "Cold water" });
    expect(ids(await searchOk(anon, { query: "axolotl" }))).toEqual([]);
    expect(ids(await searchOk(anon, { query: "salamander cold" }))).toEqual(["4900"]);
    await ok(owner, "PinResource", "delete", { id: "4900" });
    expect(ids(await searchOk(anon, { query: "salamander" }))).toEqual([]);
  });
});
