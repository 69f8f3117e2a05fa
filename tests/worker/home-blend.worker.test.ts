// The signed-in home feed: a blend of the people, boards and topics a person follows with
// popular pins, the same for a person all day, paged by bookmark without repeats, and never a
// pin of someone in a block with them or one they may not see. Plus the boards' "more ideas"
// tabs, and the signed-out feed left as it was.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { personalHomePage } from "~/home/home-feed.server.ts";
import { Browser } from "./accounts-helpers.ts";
import { browserAs } from "./social-fixture.ts";
import { fetchWorker } from "./fixtures.ts";

const V = 801; // the viewer
const Y = 802; // a person V follows
const Z = 803; // pins in a topic V follows
const W = 804; // popular pins, in a topic V does not follow
const B = 805; // blocked by V (a stale follow row of V's too)
const C = 806; // blocked V
const P = 807; // a private profile, pins in V's topic
const K = 808; // owns a board V follows
const TOPIC_X = 61;
const TOPIC_Q = 62;
const BOARDS = { y: 5802, ySecret: 5803, z: 5804, w: 5805, b: 5806, c: 5807, p: 5808, k: 5801, v: 5809 } as const;

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);
const FOLLOWED = new Set([...range(9001, 9004), ...range(9101, 9103), 9151, 9152].map(String));
const POPULAR = new Set(range(9201, 9220).map(String));
const NEVER = ["9005", "9006", "9007", "9008", "9301", "9302", "9401", "9402", "9501", "9601"];

beforeAll(async () => {
  const db = env.DB;
  const person = (id: number, name: string, privateProfile = 0) =>
    db.prepare("INSERT INTO users (id, username, email, full_name, first_name, email_verified, is_private_profile, created_at) VALUES (?1, ?2, ?3, ?2, ?2, 1, ?4, 0)").bind(id, name, `${name}@blend.test`, privateProfile);
  const board = (id: number, owner: number, privacy = "public") =>
    db.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, pin_count, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, 1, 0, ?1)").bind(id, owner, `Board ${id}`, `board-${id}`, privacy);
  const statements: D1PreparedStatement[] = [
    person(V, "vera"),
    person(Y, "yusuf"),
    person(Z, "zoe"),
    person(W, "wren"),
    person(B, "blocked_bo"),
    person(C, "blocker_cy"),
    person(P, "private_pia", 1),
    person(K, "kit"),
    board(BOARDS.y, Y),
    board(BOARDS.ySecret, Y, "secret"),
    board(BOARDS.z, Z),
    board(BOARDS.w, W),
    board(BOARDS.b, B),
    board(BOARDS.c, C),
    board(BOARDS.p, P),
    board(BOARDS.k, K),
    board(BOARDS.v, V),
    db.prepare("INSERT INTO interests (id, key, name) VALUES (?1, 'travel', 'Travel'), (?2, 'food_drinks', 'Recipes')").bind(TOPIC_X, TOPIC_Q),
    db.prepare("INSERT INTO follows (follower_id, target_type, target_id, explicit, created_at) VALUES (?1, 'user', ?2, 1, 0), (?1, 'interest', ?3, 1, 0), (?1, 'board', ?4, 1, 0), (?1, 'user', ?5, 1, 0)").bind(V, Y, TOPIC_X, BOARDS.k, B),
    db.prepare("INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (?1, ?2, 0), (?3, ?1, 0)").bind(V, B, C),
  ];
  const pin = (id: number, pinner: number, boardId: number, topic: number | null, extra: { hidden?: number; deleted?: number; unsafe?: number; saves?: number } = {}) => {
    statements.push(
      db
        .prepare(
          `INSERT INTO pins (id, pinner_id, board_id, kind, title, image_signature, is_hidden, is_deleted, is_unsafe, save_count, created_at, updated_at)
           VALUES (?1, ?2, ?3, 'image', ?4, 'sig', ?5, ?6, ?7, ?8, ?9, ?9)`,
        )
        .bind(id, pinner, boardId, `Pin ${id}`, extra.hidden ?? 0, extra.deleted ?? 0, extra.unsafe ?? 0, extra.saves ?? 0, 1_700_000_000_000 + id),
      db.prepare("INSERT INTO pin_images VALUES (?1, '236x', ?2, 236, 354, '#a1b2c3')").bind(id, `/media/pins/${id}/236x.jpg`),
      db.prepare("INSERT INTO board_pins (board_id, pin_id, saved_by, position, created_at) VALUES (?1, ?2, ?3, ?4, 0)").bind(boardId, id, pinner, -id),
    );
    if (topic !== null) statements.push(db.prepare("INSERT INTO pin_interests (pin_id, interest_id) VALUES (?1, ?2)").bind(id, topic));
  };
  for (const id of range(9001, 9004)) pin(id, Y, BOARDS.y, null);
  pin(9005, Y, BOARDS.ySecret, null);
  pin(9006, Y, BOARDS.y, null, { hidden: 1 });
  pin(9007, Y, BOARDS.y, null, { deleted: 1 });
  pin(9008, Y, BOARDS.y, null, { unsafe: 1 });
  for (const id of range(9101, 9103)) pin(id, Z, BOARDS.z, TOPIC_X);
  for (const id of [9151, 9152]) pin(id, K, BOARDS.k, null);
  for (const id of range(9201, 9220)) pin(id, W, BOARDS.w, TOPIC_Q, { saves: (id - 9200) * 10 });
  for (const id of [9301, 9302]) pin(id, B, BOARDS.b, TOPIC_X);
  for (const id of [9401, 9402]) pin(id, C, BOARDS.c, TOPIC_X);
  pin(9501, P, BOARDS.p, TOPIC_X);
  pin(9601, V, BOARDS.v, TOPIC_X);
  await db.batch(statements);
});

interface Page {
  results: Array<{ id: string }>;
  bookmark: string;
}

async function homefeed(browser: Browser, options: Record<string, unknown>): Promise<{ status: number; body: { resource_response: { data: Page; error?: { message_detail: string | null } } } }> {
  const response = await browser.resource("HomefeedResource", "get", options);
  return { status: response.status, body: await response.json() };
}

/** Every page of the feed, in order, as ids. */
async function wholeFeed(browser: Browser, options: Record<string, unknown>): Promise<string[]> {
  const ids: string[] = [];
  let bookmark: string | undefined;
  for (let round = 0; round < 40; round++) {
    const { status, body } = await homefeed(browser, bookmark === undefined ? options : { ...options, bookmark });
    expect(status).toBe(200);
    ids.push(...body.resource_response.data.results.map((pin) => pin.id));
    if (body.resource_response.data.bookmark === "-end-") return ids;
    bookmark = body.resource_response.data.bookmark;
  }
  throw new Error("the feed never ended");
}

describe("the signed-in home blend", () => {
  it("starts with the pins of the person, board and topic followed, a popular pin in every fifth cell", async () => {
    const vera = await browserAs(V);
    const { body } = await homefeed(vera, {});
    const ids = body.resource_response.data.results.map((pin) => pin.id);
    expect(ids).toHaveLength(25);
    // Nine followed pins: cells 1-4, 6-9 and 11; cells 5 and 10 are popular.
    expect(ids.slice(0, 4).every((id) => FOLLOWED.has(id))).toBe(true);
    expect(POPULAR.has(ids[4]!)).toBe(true);
    expect(POPULAR.has(ids[9]!)).toBe(true);
    expect(new Set([...ids.slice(0, 4), ...ids.slice(5, 9), ids[10]!])).toEqual(FOLLOWED);
    expect(ids.slice(11).every((id) => POPULAR.has(id))).toBe(true);
  });

  it("pages through every pin it may show exactly once, and none of a block or hidden from the viewer", async () => {
    const ids = await wholeFeed(await browserAs(V), { page_size: 4 });
    expect(ids).toHaveLength(FOLLOWED.size + POPULAR.size);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids)).toEqual(new Set([...FOLLOWED, ...POPULAR]));
    for (const id of NEVER) expect(ids).not.toContain(id);
  });

  it("gives the same order all day and another order the next day", async () => {
    const day = Date.UTC(2026, 0, 10, 9, 0, 0);
    const order = async (now: number) => (await personalHomePage(env.DB, { viewerId: V, now, size: 50, bookmark: null, tabBoardId: null, clearFirstAfterNux: false })).pins.map((pin) => pin.id);
    const morning = await order(day);
    expect(await order(day + 8 * 3_600_000)).toEqual(morning);
    expect(new Set(morning)).toEqual(new Set([...FOLLOWED, ...POPULAR]));
    const tomorrow = await order(day + 24 * 3_600_000);
    expect(tomorrow).not.toEqual(morning);
    expect(new Set(tomorrow)).toEqual(new Set(morning));
    // Through the API as well: two reads of the first page agree.
    const vera = await browserAs(V);
    const first = (await homefeed(vera, {})).body.resource_response.data.results.map((pin) => pin.id);
    const again = (await homefeed(vera, {})).body.resource_response.data.results.map((pin) => pin.id);
    expect(again).toEqual(first);
  });

  it("refuses a bookmark it did not write, naming it", async () => {
    const { status, body } = await homefeed(await browserAs(V), { bookmark: "WzE3MDAwMDAwMDAyMzAsMjMwXQ" });
    expect(status).toBe(400);
    expect(body.resource_response.error?.message_detail).toMatch(/^options\.bookmark: /);
  });
});

describe("home tabs", () => {
  it("offers a tab per board of the person's with pins, and its more ideas are the board's topics' other pins", async () => {
    const vera = await browserAs(V);
    const ids = await wholeFeed(vera, { tab_board_id: String(BOARDS.v), tab_index: 1 });
    // Topic X's pins that V may see, that are not V's own and not on the board: Z's three.
    expect(ids.sort()).toEqual(["9101", "9102", "9103"]);
    const page = await vera.fetch(`/?tab_board=${BOARDS.v}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`href="/?tab_board=${BOARDS.v}" aria-current="page" data-tab-index="1"`);
    expect(html).toContain('href="/pin/9101/"');
    expect(html).not.toContain('href="/pin/9301/"');
  });

  it("refuses a tab that is not one of theirs, or at the wrong index, naming the option", async () => {
    const vera = await browserAs(V);
    const other = await homefeed(vera, { tab_board_id: String(BOARDS.y) });
    expect(other.status).toBe(400);
    expect(other.body.resource_response.error?.message_detail).toMatch(/^options\.tab_board_id: /);
    const moved = await homefeed(vera, { tab_board_id: String(BOARDS.v), tab_index: 3 });
    expect(moved.status).toBe(400);
    expect(moved.body.resource_response.error?.message_detail).toMatch(/^options\.tab_index: /);
    // The page opens the blend instead.
    const page = await vera.fetch(`/?tab_board=${BOARDS.y}`);
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe("/");
  });
});

describe("the home page", () => {
  it("renders the signed-in blend in its order, and says once that it comes from onboarding's choices", async () => {
    await env.DB.prepare("UPDATE users SET first_home_feed_after_nux = 1, onboarding_step = 'done' WHERE id = ?1").bind(V).run();
    const vera = await browserAs(V);
    const first = await (await vera.fetch("/")).text();
    expect(first).toContain("Your home feed starts from the topics and creators you picked.");
    expect(await env.DB.prepare("SELECT first_home_feed_after_nux AS flag FROM users WHERE id = ?1").bind(V).first("flag")).toBe(0);
    const expected = (await homefeed(vera, {})).body.resource_response.data.results.map((pin) => pin.id);
    const shown = [...first.matchAll(/href="\/pin\/(\d+)\/"/g)].map((match) => match[1]);
    expect([...new Set(shown)]).toEqual(expected);
    // A new session reads the cleared flag: no notice the second time.
    const later = await (await (await browserAs(V)).fetch("/")).text();
    expect(later).not.toContain("Your home feed starts from the topics and creators you picked.");
  });

  it("keeps the signed-out feed as it was: newest first, for no one", async () => {
    const response = await fetchWorker(`/resource/HomefeedResource/get/?data=${encodeURIComponent(JSON.stringify({ options: {} }))}`, { headers: { accept: "application/json" } });
    const ids = (await response.json<{ resource_response: { data: Page } }>()).resource_response.data.results.map((pin) => pin.id);
    // Everything a stranger may see, newest (highest id here) first: the blocked pairs' pins too.
    const expected = [9601, 9402, 9401, 9302, 9301, ...range(9201, 9220).reverse(), 9152, 9151, 9103, 9102, 9101, 9004, 9003, 9002, 9001].map(String).slice(0, 25);
    expect(ids).toEqual(expected);
  });
});

describe("a long home feed", () => {
  it("goes on past its ranked window with older pins, newest first, still without repeats", async () => {
    // 320 more of W's pins, older than every other: the ranked window (300 newest) is full and
    // the rest come after it.
    const more = range(20001, 20320);
    const statements = more.flatMap((id) => [
      env.DB.prepare("INSERT INTO pins (id, pinner_id, board_id, kind, title, image_signature, created_at, updated_at) VALUES (?1, ?2, ?3, 'image', ?4, 'sig', ?5, ?5)").bind(id, W, BOARDS.w, `Pin ${id}`, 1_600_000_000_000 + id),
      env.DB.prepare("INSERT INTO pin_images VALUES (?1, '236x', ?2, 236, 354, '#a1b2c3')").bind(id, `/media/pins/${id}/236x.jpg`),
    ]);
    await env.DB.batch(statements);
    const ids = await wholeFeed(await browserAs(V), { page_size: 50 });
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids)).toEqual(new Set([...FOLLOWED, ...POPULAR, ...more.map(String)]));
    // The oldest pins end the feed, newest first.
    expect(ids.slice(-3)).toEqual(["20003", "20002", "20001"]);
  });
});
