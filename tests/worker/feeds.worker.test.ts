// Feeds paged by bookmark: the close-up's related pins, a board's pins, a profile's
// boards and its created and saved pins. Each resource pages to the end marker with no
// duplicate and no gap; secret boards and their pins answer 404 to all but their owner and
// accepted collaborators on every page; crawlers page with real links and get no script.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { SESSION_COOKIE } from "~/accounts/session.server.ts";
import { hashToken, newToken } from "~/accounts/tokens.ts";
import { GOOGLEBOT_UA, attributeOf, countElements, fetchWorker, get } from "./fixtures.ts";

const T0 = 1_700_000_000_000;
const EXECUTABLE_SCRIPT = 'script:not([type="application/ld+json"]):not([type="application/json"])';
const OWNER = 1;
const COLLABORATOR = 2;
const STRANGER = 3;
const INVITED = 4; // invited, not yet accepted

/** Board 10 (public): 30 visible pins and a hidden one, at positions out of id order (with a tie). */
const PUBLIC_PINS = Array.from({ length: 30 }, (_, i) => 1001 + i);
const position = (id: number) => (id === 1002 ? 7 : ((id * 37) % 101) / 4 - 12);
const BOARD_ORDER = [...PUBLIC_PINS].sort((a, b) => position(a) - position(b) || a - b);
/** Board 11 (secret): pins born there. */
const SECRET_PINS = [1100, 1101, 1102, 1103, 1104, 1105];

const cookies: Record<number, string> = {};

async function sessionFor(userId: number): Promise<string> {
  const token = newToken();
  const now = Date.now();
  await env.DB.prepare("INSERT INTO sessions (id, user_id, created_at, expires_at, last_seen_at) VALUES (?1, ?2, ?3, ?4, ?3)")
    .bind(await hashToken(token), userId, now, now + 86_400_000)
    .run();
  return `${SESSION_COOKIE}=${token}`;
}

beforeAll(async () => {
  const db = env.DB;
  const pin = (id: number, board: number, extra: { hidden?: boolean } = {}) => [
    db
      .prepare(
        `INSERT INTO pins (id, pinner_id, board_id, kind, title, image_signature, category, is_hidden, created_at, updated_at)
         VALUES (?1, 1, ?2, 'image', ?3, 'sig', 'food', ?4, ?5, ?5)`,
      )
      .bind(id, board, `Pin ${id}`, extra.hidden ? 1 : 0, T0 + id),
    db.prepare("INSERT INTO pin_images VALUES (?1, '236x', ?2, 236, 300, '#a1b2c3')").bind(id, `/media/pins/${id}/236x.jpg`),
    db.prepare("INSERT INTO board_pins (board_id, pin_id, saved_by, position, created_at) VALUES (?1, ?2, 1, ?3, ?4)").bind(board, id, position(id), T0 + id),
  ];
  const user = (id: number, username: string) =>
    db.prepare("INSERT INTO users (id, username, email, full_name, created_at) VALUES (?1, ?2, ?3, ?2, 0)").bind(id, username, `${username}@pinloom.test`);
  const board = (id: number, name: string, slug: string, privacy: string, created: number, updated: number) =>
    db
      .prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (?1, 1, ?2, ?3, ?4, ?5, ?6)")
      .bind(id, name, slug, privacy, created, updated);
  await db.batch([
    user(1, "ava"),
    user(2, "cleo"),
    user(3, "sam"),
    user(4, "pat"),
    board(10, "Weeknight dinners", "weeknight-dinners", "public", 1, 5),
    board(11, "Surprise party", "surprise-party", "secret", 5, 8),
    board(12, "apple pies", "apple-pies", "public", 2, 3),
    board(13, "Zucchini", "zucchini", "public", 3, 9),
    board(14, "banana bread", "banana-bread", "public", 4, 1),
    db.prepare("INSERT INTO board_collaborators (board_id, user_id, status, created_at) VALUES (11, 2, 'accepted', 0), (11, 4, 'new', 0)"),
    ...PUBLIC_PINS.flatMap((id) => pin(id, 10)),
    ...pin(1031, 10, { hidden: true }),
    ...SECRET_PINS.flatMap((id) => pin(id, 11)),
  ]);
  for (const id of [OWNER, COLLABORATOR, STRANGER, INVITED]) cookies[id] = await sessionFor(id);
});

interface Page<Item = { id: string }> {
  results: Item[];
  bookmark: string;
  endCursor?: string | null;
  hasNextPage?: boolean;
}

function resource(name: string, options: unknown, viewer?: number): Promise<Response> {
  return fetchWorker(`/resource/${name}/get/?data=${encodeURIComponent(JSON.stringify({ options }))}`, {
    headers: { accept: "application/json", "x-requested-with": "XMLHttpRequest", ...(viewer ? { cookie: cookies[viewer]! } : {}) },
  });
}

async function page<Item = { id: string }>(name: string, options: unknown, viewer?: number): Promise<Page<Item>> {
  const response = await resource(name, options, viewer);
  expect(response.status, JSON.stringify(options)).toBe(200);
  return (await response.json<{ resource_response: { data: Page<Item> } }>()).resource_response.data;
}

/** Every page of a feed until the end marker (bounded), with each page's size. */
async function pageThrough<Item = { id: string }>(name: string, options: Record<string, unknown>, viewer?: number) {
  const items: Item[] = [];
  const sizes: number[] = [];
  let bookmark: string | undefined;
  for (let pages = 0; pages < 40; pages++) {
    const result = await page<Item>(name, bookmark === undefined ? options : { ...options, bookmark }, viewer);
    items.push(...result.results);
    sizes.push(result.results.length);
    if (result.bookmark === "-end-") return { items, sizes };
    bookmark = result.bookmark;
  }
  throw new Error("no end marker after 40 pages");
}

const ids = (items: Array<{ id: string }>) => items.map((item) => Number(item.id));
const pinIdsIn = (html: string) => [...html.matchAll(/href="\/pin\/(\d+)\/"/g)].map((m) => Number(m[1]));

describe("RelatedPinsFeedResource (CloseupRelatedModulesFeedQuery)", () => {
  // The same category, newest first, never the pin itself, a hidden pin or a secret one.
  const EXPECTED = PUBLIC_PINS.filter((id) => id !== 1001).sort((a, b) => b - a);

  it("pages by 12 through every related pin once, with endCursor and hasNextPage, to the end marker", async () => {
    const pages: Page[] = [];
    let bookmark: string | undefined;
    for (let i = 0; i < 10; i++) {
      const result = await page("RelatedPinsFeedResource", bookmark ? { pin_id: "1001", bookmark } : { pin_id: "1001" });
      pages.push(result);
      if (result.bookmark === "-end-") break;
      expect(result.endCursor).toBe(result.bookmark);
      bookmark = result.bookmark;
    }
    expect(pages.map((p) => p.results.length)).toEqual([12, 12, 5]);
    expect(pages.map((p) => p.hasNextPage)).toEqual([true, true, false]);
    expect(pages.at(-1)!.endCursor).toBeNull();
    expect(pages.flatMap((p) => ids(p.results))).toEqual(EXPECTED);
  });

  it.each([
    ["a secret pin", "1100"],
    ["an unknown pin", "999999"],
  ])("%s has no related feed for a stranger: 404", async (_name, pinId) => {
    expect((await resource("RelatedPinsFeedResource", { pin_id: pinId })).status).toBe(404);
  });

  it.each([
    ["a bad bookmark", { pin_id: "1001", bookmark: "not a cursor!" }, /^options\.bookmark: /],
    ["a bad pin id", { pin_id: "abc" }, /^options\.pin_id: /],
    ["an unknown option", { pin_id: "1001", page_size: 3 }, /^options\.page_size: /],
  ])("%s is a 400 naming the field", async (_name, options, detail) => {
    const response = await resource("RelatedPinsFeedResource", options);
    expect(response.status).toBe(400);
    const body = await response.json<{ resource_response: { error: { message_detail: string } } }>();
    expect(body.resource_response.error.message_detail).toMatch(detail);
  });

  it("the close-up renders the first 12 and a crawlable link to the next page of related pins", async () => {
    const html = await (await get("/pin/1001/")).text();
    const related = /<section class="related"[\s\S]*?<\/section>/.exec(html)?.[0] ?? "";
    expect(pinIdsIn(related)).toEqual(EXPECTED.slice(0, 12));
    const next = await attributeOf(related, 'a[rel="next"]', "href");
    expect(next).toMatch(/^\/pin\/1001\/\?related_cursor=[A-Za-z0-9_-]+$/);
    expect(await attributeOf(related, "[data-feed-resource]", "data-feed-resource")).toBe("RelatedPinsFeedResource");

    const second = await (await get(next!)).text();
    const secondRelated = /<section class="related"[\s\S]*?<\/section>/.exec(second)?.[0] ?? "";
    expect(pinIdsIn(secondRelated)).toEqual(EXPECTED.slice(12, 24));
    expect(await attributeOf(second, 'link[rel="canonical"]', "href")).toBe("https://pinloom.example/pin/1001/");
  });

  it("a crawler gets the link and no script", async () => {
    const html = await (await get("/pin/1001/", { "user-agent": GOOGLEBOT_UA })).text();
    expect(await countElements(html, EXECUTABLE_SCRIPT)).toBe(0);
    expect(await countElements(html, 'section.related a[rel="next"]')).toBe(1);
  });
});

describe("BoardFeedResource", () => {
  it("pages a public board in board order (fractional and tied positions) with no duplicate and no gap", async () => {
    const { items, sizes } = await pageThrough("BoardFeedResource", { board_id: "10", page_size: 7 });
    expect(ids(items)).toEqual(BOARD_ORDER);
    expect(sizes).toEqual([7, 7, 7, 7, 2]);
  });

  it.each([
    ["signed out", undefined],
    ["a stranger", STRANGER],
    ["an invitee who has not accepted", INVITED],
  ])("a secret board is a 404 for %s, first page and with a bookmark", async (_name, viewer) => {
    expect((await resource("BoardFeedResource", { board_id: "11" }, viewer)).status).toBe(404);
    // A bookmark from a board they may see does not open one they may not.
    const publicPage = await page("BoardFeedResource", { board_id: "10", page_size: 2 }, viewer);
    expect((await resource("BoardFeedResource", { board_id: "11", bookmark: publicPage.bookmark }, viewer)).status).toBe(404);
    const unknown = await resource("BoardFeedResource", { board_id: "99" }, viewer);
    expect(unknown.status).toBe(404);
  });

  it.each([
    ["its owner", OWNER],
    ["an accepted collaborator", COLLABORATOR],
  ])("a secret board pages for %s", async (_name, viewer) => {
    const { items } = await pageThrough("BoardFeedResource", { board_id: "11", page_size: 4 }, viewer);
    expect(ids(items).sort()).toEqual(SECRET_PINS);
  });

  it("the board page: 404 to strangers, the board with its count to owner and collaborator", async () => {
    for (const viewer of [undefined, STRANGER, INVITED]) {
      const response = await get("/ava/surprise-party/", viewer ? { cookie: cookies[viewer]! } : {});
      expect(response.status).toBe(404);
      const html = await response.text();
      expect(html).not.toContain("Surprise party");
      expect(html).not.toContain("/pin/110");
    }
    for (const viewer of [OWNER, COLLABORATOR]) {
      const response = await get("/ava/surprise-party/", { cookie: cookies[viewer]! });
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("private, no-store");
      const html = await response.text();
      expect(html).toContain("6 pins");
      expect(pinIdsIn(html).sort()).toEqual(SECRET_PINS);
    }
  });

  it("the public board pages without script through ?page_after=, noindex", async () => {
    const html = await (await get("/ava/weeknight-dinners/", { "user-agent": GOOGLEBOT_UA })).text();
    expect(await countElements(html, EXECUTABLE_SCRIPT)).toBe(0);
    // 30 pins fit the first page of 50: no next link.
    expect(await countElements(html, 'a[rel="next"]')).toBe(0);
    const first = await page("BoardFeedResource", { board_id: "10", page_size: 5 });
    const second = await (await get(`/ava/weeknight-dinners/?page_after=${first.bookmark}`)).text();
    expect(pinIdsIn(second)).toEqual(BOARD_ORDER.slice(5));
    expect(await attributeOf(second, 'meta[name="robots"]', "content")).toMatch(/^noindex/);
  });
});

describe("BoardsFeedResource", () => {
  const boardNames = (items: Array<{ name: string }>) => items.map((board) => board.name);
  it.each([
    ["last_saved", ["Zucchini", "Weeknight dinners", "apple pies", "banana bread"]],
    ["newest", ["banana bread", "Zucchini", "apple pies", "Weeknight dinners"]],
    ["alphabetical", ["apple pies", "banana bread", "Weeknight dinners", "Zucchini"]],
  ] as const)("pages a stranger through the public boards by %s, two at a time", async (sort, names) => {
    const { items, sizes } = await pageThrough<{ name: string; pinCountText: string }>("BoardsFeedResource", { username: "ava", sort, page_size: 2 });
    expect(boardNames(items)).toEqual(names);
    expect(sizes).toEqual([2, 2]);
    expect(items.find((board) => board.name === "Weeknight dinners")!.pinCountText).toBe("30 pins");
  });

  it.each([
    ["its owner", OWNER],
    ["a collaborator", COLLABORATOR],
  ])("lists the secret board for %s", async (_name, viewer) => {
    const { items } = await pageThrough<{ name: string }>("BoardsFeedResource", { username: "ava", sort: "alphabetical", page_size: 2 }, viewer);
    expect(boardNames(items)).toEqual(["apple pies", "banana bread", "Surprise party", "Weeknight dinners", "Zucchini"]);
  });

  it("refuses a bookmark of another sort order", async () => {
    const first = await page("BoardsFeedResource", { username: "ava", sort: "alphabetical", page_size: 1 });
    const response = await resource("BoardsFeedResource", { username: "ava", sort: "newest", bookmark: first.bookmark });
    expect(response.status).toBe(400);
  });

  it("the profile page sorts its boards by ?sort= on the server, with links for each order", async () => {
    const html = await (await get("/ava/?sort=alphabetical")).text();
    const boards = /<ul[^>]*id="profile-boards"[\s\S]*?<\/ul>/.exec(html)?.[0] ?? "";
    expect([...boards.matchAll(/class="board-name"[^>]*>([^<]+)</g)].map((m) => m[1])).toEqual(["apple pies", "banana bread", "Weeknight dinners", "Zucchini"]);
    expect(await attributeOf(html, 'a[aria-current="true"][data-sort-order]', "href")).toBe("/ava/?sort=alphabetical");
    expect(await attributeOf(html, 'a[data-sort-order="newest"]', "href")).toBe("/ava/?sort=newest");
    expect(html).toContain("4 boards");
    const owner = await (await get("/ava/", { cookie: cookies[OWNER]! })).text();
    expect(owner).toContain("5 boards");
  });
});

describe("UserPinsResource", () => {
  const NEWEST = [...PUBLIC_PINS].sort((a, b) => b - a);
  it.each(["created", "saved"] as const)("pages a stranger through %s pins, newest first, secret ones never", async (feed) => {
    const { items } = await pageThrough("UserPinsResource", { username: "ava", feed, page_size: 4 });
    expect(ids(items)).toEqual(NEWEST);
  });

  it("the owner's saved pins include the secret board's", async () => {
    const { items } = await pageThrough("UserPinsResource", { username: "ava", feed: "saved", page_size: 9 }, OWNER);
    expect(ids(items)).toEqual([...SECRET_PINS, ...PUBLIC_PINS].sort((a, b) => b - a));
  });

  it("a hidden or unknown profile is a 404 on every page", async () => {
    expect((await resource("UserPinsResource", { username: "nobody" })).status).toBe(404);
    await env.DB.prepare("UPDATE users SET is_private_profile = 1 WHERE id = 4").run();
    expect((await resource("UserPinsResource", { username: "pat" })).status).toBe(404);
    expect((await resource("BoardsFeedResource", { username: "pat" })).status).toBe(404);
  });

  it("the profile gives crawlers next links for created and saved pins, and no script", async () => {
    const html = await (await get("/ava/", { "user-agent": GOOGLEBOT_UA })).text();
    expect(await countElements(html, EXECUTABLE_SCRIPT)).toBe(0);
    const created = await attributeOf(html, 'a[rel="next"][href*="created_after="]', "href");
    expect(created).toMatch(/^\/ava\/\?created_after=[A-Za-z0-9_-]+$/);
    expect(await attributeOf(html, 'a[rel="next"][href*="saved_after="]', "href")).toMatch(/^\/ava\/\?saved_after=/);
    const second = await (await get(created!, { "user-agent": GOOGLEBOT_UA })).text();
    const grid = /<ul[^>]*id="profile-created"[\s\S]*?<\/ul>/.exec(second)?.[0] ?? "";
    expect(pinIdsIn(grid)).toEqual(NEWEST.slice(25));
    expect(await attributeOf(second, 'meta[name="robots"]', "content")).toMatch(/^noindex/);
  });
});
