// Profiles and boards against the built Worker: status codes, content, order,
// counts that leak nothing, secret boards answering like missing ones, locales, and crawlers.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { GOOGLEBOT_UA, attributeOf, countElements, get } from "./fixtures.ts";
import { BOARD_PRIVACIES } from "~/boards/board.ts";

/** Crawlers get structured data (application/ld+json), which is data, not script. */
const EXECUTABLE_SCRIPT = 'script:not([type="application/ld+json"]):not([type="application/json"])';

const T0 = 1_700_000_000_000;
/** Text that must reach no stranger: the secret board, its section and pins, and the protected board. */
const SECRETS = ["Surprise party for Maya", "Maya", "Holiday gift list", "Gift for Dad"];

interface SeedPin {
  id: number;
  pinner: number;
  board: number | null;
  title?: string;
  deleted?: boolean;
  hidden?: boolean;
  /** Make it the newest, so a grid that forgot to filter it would show it first. */
  newest?: boolean;
}

// ava's public board 10 holds, by position: 102, 101, 103 (sam's, boardless), a deleted, a
// hidden and a secret-born pin, then 201..260. Its sections: Soups (position 0), Pasta (1).
const PINS: SeedPin[] = [
  { id: 101, pinner: 1, board: 10, title: "Tomato orzo" },
  { id: 102, pinner: 1, board: 10, title: "Lentil soup" },
  { id: 103, pinner: 4, board: null, title: "Sam's flatbread" },
  { id: 104, pinner: 1, board: 10, title: "Gone chili", deleted: true, newest: true },
  { id: 105, pinner: 1, board: 10, title: "Hidden stew", hidden: true, newest: true },
  { id: 106, pinner: 1, board: 11, title: "Surprise party for Maya: balloon garland", newest: true },
  { id: 107, pinner: 1, board: 12, title: "Gift for Dad", newest: true },
  { id: 108, pinner: 1, board: 13, title: "Old flat shelving" },
  { id: 109, pinner: 1, board: null, title: "Boardless idea" },
  { id: 110, pinner: 1, board: 11, title: "Maya snack table", newest: true },
  { id: 111, pinner: 3, board: 20, title: "Private person's pin" },
  ...Array.from({ length: 60 }, (_, i): SeedPin => ({ id: 201 + i, pinner: 1, board: 10 })),
];
const BOARD_10_ORDER = [102, 101, 103, 104, 105, 110, ...Array.from({ length: 60 }, (_, i) => 201 + i)];
const BOARD_10_VISIBLE = BOARD_10_ORDER.filter((id) => ![104, 105, 110].includes(id));

beforeAll(async () => {
  const db = env.DB;
  const user = (id: number, username: string, fullName: string, extra: { imageKey?: string | null; followers?: number; about?: string; isPrivate?: boolean; limited?: boolean } = {}) =>
    db
      .prepare(
        `INSERT INTO users (id, username, email, full_name, about, image_key, follower_count, following_count, is_private_profile, login_state, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 3, ?8, ?9, 0)`,
      )
      .bind(id, username, `${username}@pinloom.test`, fullName, extra.about ?? "", extra.imageKey === undefined ? `users/${id}` : extra.imageKey, extra.followers ?? 0, extra.isPrivate ? 1 : 0, extra.limited ? "limited" : "full");
  const board = (id: number, owner: number, name: string, slug: string, privacy: string, extra: { archived?: boolean; description?: string; updated?: number } = {}) =>
    db
      .prepare(
        `INSERT INTO boards (id, owner_id, name, slug, description, privacy, archived_at, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 0, ?8)`,
      )
      .bind(id, owner, name, slug, extra.description ?? "", privacy, extra.archived ? T0 : null, extra.updated ?? 0);
  const statements = [
    user(1, "ava", "Ava Thompson", { followers: 1234, about: "Cooking, plants and slow Sundays." }),
    user(2, "lou_limited", "Lou Harper", { limited: true }),
    user(3, "priv", "Private Person", { isPrivate: true }),
    user(4, "sam", "Sam Okafor"),
    user(5, "newbie", "", { imageKey: null }),
    user(6, "matrix", "Matrix Owner"),
    board(10, 1, "Weeknight dinners", "weeknight-dinners", "public", { description: "Fast food for slow evenings.", updated: 2 }),
    board(11, 1, "Surprise party for Maya", "surprise-party-for-maya", "secret", { updated: 9 }),
    board(12, 1, "Holiday gift list", "holiday-gift-list", "protected", { updated: 8 }),
    board(13, 1, "Old apartment ideas", "old-apartment-ideas", "public", { archived: true, updated: 7 }),
    board(14, 1, "Empty board", "empty-board", "public", { updated: 1 }),
    board(20, 3, "Private board", "private-board", "public"),
    board(21, 2, "Cozy reads", "cozy-reads", "public"),
    db.prepare("INSERT INTO board_sections (id, board_id, title, slug, position, created_at) VALUES (501, 10, 'Pasta', 'pasta', 1, 0), (502, 10, 'Soups', 'soups', 0, 0), (503, 11, 'Maya cake', 'maya-cake', 0, 0)"),
  ];
  // Every privacy, archived or not, for the SQL-against-rule check.
  BOARD_PRIVACIES.forEach((privacy, i) => {
    statements.push(board(30 + i * 2, 6, `Matrix ${privacy} live`, `${privacy}-live`, privacy));
    statements.push(board(31 + i * 2, 6, `Matrix ${privacy} archived`, `${privacy}-archived`, privacy, { archived: true }));
  });
  for (const pin of PINS) {
    statements.push(
      db
        .prepare(
          `INSERT INTO pins (id, pinner_id, board_id, kind, title, image_signature, dominant_color, is_deleted, is_hidden, created_at, updated_at)
           VALUES (?1, ?2, ?3, 'image', ?4, 'sig', '#a1b2c3', ?5, ?6, ?7, ?7)`,
        )
        .bind(pin.id, pin.pinner, pin.board, pin.title ?? `Pin ${pin.id}`, pin.deleted ? 1 : 0, pin.hidden ? 1 : 0, T0 + pin.id * 1000 + (pin.newest ? 10_000_000 : 0)),
      db
        .prepare("INSERT INTO pin_images VALUES (?1, '236x', ?2, 236, 354, '#a1b2c3'), (?1, '474x', ?3, 474, 711, '#a1b2c3')")
        .bind(pin.id, `/media/pins/${pin.id}/236x.jpg`, `/media/pins/${pin.id}/474x.jpg`),
    );
  }
  const save = (boardId: number, pinId: number, position: number, section: number | null = null) =>
    db
      .prepare("INSERT INTO board_pins (board_id, pin_id, section_id, saved_by, position, created_at) VALUES (?1, ?2, ?3, 1, ?4, 0)")
      .bind(boardId, pinId, section, position);
  const sections: Record<number, number> = { 102: 502, 105: 502, 101: 501, 104: 501, 110: 501 };
  BOARD_10_ORDER.forEach((pinId, index) => statements.push(save(10, pinId, index + 1, sections[pinId] ?? null)));
  statements.push(save(11, 106, 1, 503), save(11, 110, 2), save(12, 107, 1), save(13, 108, 1), save(20, 111, 1));
  await db.batch(statements);
});

const pinIds = (html: string) => [...html.matchAll(/href="\/pin\/(\d+)\/"/g)].map((m) => Number(m[1]));

/** Heading levels in document order, via the HTML parser. */
async function headingLevels(html: string): Promise<number[]> {
  const levels: number[] = [];
  await new HTMLRewriter()
    .on("h1, h2, h3, h4, h5, h6", {
      element(element) {
        levels.push(Number(element.tagName.slice(1)));
      },
    })
    .transform(new Response(html))
    .text();
  return levels;
}

async function expectAccessible(html: string) {
  const levels = await headingLevels(html);
  expect(levels.filter((level) => level === 1)).toHaveLength(1);
  expect(levels[0]).toBe(1);
  levels.forEach((level, i) => expect(level - (levels[i - 1] ?? 0), `heading ${i}`).toBeLessThanOrEqual(1));
  expect(await countElements(html, "img:not([alt])")).toBe(0);
  expect(await countElements(html, "main ul:not([aria-label]):not([aria-labelledby])")).toBe(0);
  expect(html).not.toMatch(/<a\b[^>]*>\s*<\/a>/);
}

/** The page as anyone would see it, with the requested path and the per-request context taken out. */
const normalized = (html: string, path: string) =>
  html.replaceAll(path, "{path}").replace(/<script type="application\/json" id="pinloom-context">[\s\S]*?<\/script>/, "");

describe("profile page", () => {
  it("shows the person, their public boards and their created pins", async () => {
    const response = await get("/ava/");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toMatch(/<h1[^>]*>Ava Thompson<\/h1>/);
    expect(html).toContain("@ava");
    expect(html).toContain("Cooking, plants and slow Sundays.");
    expect(html).toContain("1,234 followers");
    expect(await attributeOf(html, 'link[rel="canonical"]', "href")).toBe("https://pinloom.example/ava/");
    expect(html).toContain("<title>Ava Thompson (@ava) · Pinloom</title>");
    expect(await attributeOf(html, "img.profile-avatar", "src")).toBe("/media/users/1/large.jpg");
    expect(await attributeOf(html, "img.profile-avatar", "width")).toBe("140");
    expect(await attributeOf(html, "img.profile-avatar", "height")).toBe("140");
    expect(await attributeOf(html, "img.profile-avatar", "alt")).toBe("Profile picture of Ava Thompson");
  });

  it("lists public, unarchived boards only, with covers and visible pin counts, and counts what it lists", async () => {
    const html = await (await get("/ava/")).text();
    const boardLinks = [...html.matchAll(/<a class="board-card-link" href="([^"]+)"/g)].map((m) => m[1]);
    expect(boardLinks).toEqual(["/ava/weeknight-dinners/", "/ava/empty-board/"]);
    expect(await countElements(html, "ul.board-cards > li")).toBe(2);
    expect(html).toContain("2 boards");
    expect(html).toContain(`${BOARD_10_VISIBLE.length} pins`);
    expect(html).toContain("0 pins");
    // The cover is the first visible pin by position.
    expect(await attributeOf(html, "img.board-cover", "src")).toBe("/media/pins/102/236x.jpg");
    for (const hidden of ["old-apartment-ideas", "Old apartment ideas", "holiday-gift-list", "surprise-party-for-maya"]) expect(html).not.toContain(hidden);
  });

  it("shows the first 25 created pins the public may see, newest first", async () => {
    const html = await (await get("/ava/")).text();
    const created = /<ul[^>]*id="profile-created"[\s\S]*?<\/ul>/.exec(html)?.[0] ?? "";
    expect(pinIds(created)).toEqual(Array.from({ length: 25 }, (_, i) => 260 - i));
    expect(await countElements(html, 'ul.pin-grid[aria-label="Created pins"] > li')).toBe(25);
  });

  it("has one h1, ordered headings, named lists and images with alt", async () => {
    await expectAccessible(await (await get("/ava/")).text());
  });

  it("a user with nothing yet gets empty states, named by username", async () => {
    const response = await get("/newbie/");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toMatch(/<h1[^>]*>newbie<\/h1>/);
    expect(html).toContain("No boards to show yet.");
    expect(html).toContain("No pins to show yet.");
    expect(html).toContain("0 boards");
    await expectAccessible(html);
  });

  it("matches the username in any case, without a trailing slash too, and names one canonical URL", async () => {
    for (const path of ["/AVA/", "/ava"]) {
      const response = await get(path);
      expect(response.status).toBe(200);
      expect(await attributeOf(await response.text(), 'link[rel="canonical"]', "href")).toBe("https://pinloom.example/ava/");
    }
  });

  it.each(["/nobody/", "/priv/", "/lou_limited/", "/not.a.user/"])("%s is the same 404 page as an unknown user", async (path) => {
    const unknown = await get("/nobody/", { "user-agent": GOOGLEBOT_UA });
    const response = await get(path, { "user-agent": GOOGLEBOT_UA });
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain("Page not found");
    expect(await attributeOf(html, 'meta[name="robots"]', "content")).toContain("noindex");
    expect(normalized(html, path)).toBe(normalized(await unknown.text(), "/nobody/"));
    expect(html).not.toContain("Private Person");
    expect(html).not.toContain("Lou Harper");
  });
});

describe("board page", () => {
  it("shows the board, its owner, its visible pin count and its sections", async () => {
    const response = await get("/ava/weeknight-dinners/");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toMatch(/<h1[^>]*>Weeknight dinners<\/h1>/);
    expect(html).toContain("Fast food for slow evenings.");
    expect(html).toMatch(/A board by <a href="\/ava\/"[^>]*>Ava Thompson<\/a>/);
    expect(html).toContain(`${BOARD_10_VISIBLE.length} pins`);
    expect(await attributeOf(html, 'link[rel="canonical"]', "href")).toBe("https://pinloom.example/ava/weeknight-dinners/");
    expect(html).toContain("<title>Weeknight dinners · Ava Thompson on Pinloom</title>");
    // Sections by position, each counting only the pins a stranger may see.
    expect(await countElements(html, 'ul.section-list[aria-labelledby="sections-heading"] > li')).toBe(2);
    expect(html.indexOf(">Soups<")).toBeGreaterThan(-1);
    expect(html.indexOf(">Soups<")).toBeLessThan(html.indexOf(">Pasta<"));
    expect([...html.matchAll(/class="section-count"[^>]*>([^<]*)</g)].map((m) => m[1])).toEqual(["1 pin", "1 pin"]);
  });

  it("lists the first 50 visible pins in board order", async () => {
    const html = await (await get("/ava/weeknight-dinners/")).text();
    expect(pinIds(html)).toEqual(BOARD_10_VISIBLE.slice(0, 50));
    for (const hidden of [104, 105, 110]) expect(pinIds(html)).not.toContain(hidden);
  });

  it("has one h1, ordered headings, named lists and images with alt", async () => {
    await expectAccessible(await (await get("/ava/weeknight-dinners/")).text());
  });

  it("an empty public board says so", async () => {
    const response = await get("/ava/empty-board/");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("No pins on this board yet.");
    expect(html).toContain("0 pins");
  });

  it.each([
    ["a secret board", "/ava/surprise-party-for-maya/"],
    ["a protected board", "/ava/holiday-gift-list/"],
    ["an archived board", "/ava/old-apartment-ideas/"],
    ["a public board of a private profile", "/priv/private-board/"],
    ["a public board of a limited account", "/lou_limited/cozy-reads/"],
    ["a board of an unknown user", "/nobody/weeknight-dinners/"],
    ["a malformed slug", "/ava/weeknight.dinners/"],
  ])("%s is the same 404 as an unknown board, for people and crawlers", async (_name, path) => {
    for (const headers of [{}, { "user-agent": GOOGLEBOT_UA }]) {
      const unknown = await get("/ava/no-such-board/", headers);
      const response = await get(path, headers);
      expect(response.status).toBe(404);
      expect(response.status).toBe(unknown.status);
      expect(response.headers.get("content-type")).toBe(unknown.headers.get("content-type"));
      expect(response.headers.get("content-security-policy")).toBe(unknown.headers.get("content-security-policy"));
      const html = await response.text();
      expect(html).toContain("Page not found");
      expect(normalized(html, path)).toBe(normalized(await unknown.text(), "/ava/no-such-board/"));
    }
  });

  it("the database and the visibility rule agree on every privacy, archived or not", async () => {
    const profile = await (await get("/matrix/")).text();
    const { results } = await env.DB.prepare("SELECT owner_id, privacy, archived_at, slug, name FROM boards WHERE owner_id = 6").all<{
      owner_id: number;
      privacy: (typeof BOARD_PRIVACIES)[number];
      archived_at: number | null;
      slug: string;
      name: string;
    }>();
    expect(results).toHaveLength(6);
    for (const row of results) {
      // Written out from the rule: a stranger sees a board only when it is public and not archived.
      const visible = row.privacy === "public" && row.archived_at === null;
      expect(profile.includes(`href="/matrix/${row.slug}/"`), row.slug).toBe(visible);
      expect(profile.includes(row.name), row.name).toBe(visible);
      expect((await get(`/matrix/${row.slug}/`)).status, row.slug).toBe(visible ? 200 : 404);
    }
    expect(profile).toContain("1 board");
  });
});

describe("secrets reach no stranger", () => {
  const pages = [
    "/",
    "/ava/",
    "/ava/weeknight-dinners/",
    "/ava/empty-board/",
    "/ava/surprise-party-for-maya/",
    "/ava/surprise-party-for-maya/?locale=fr",
    "/ava/holiday-gift-list/",
    "/ava/old-apartment-ideas/",
    "/ava/?locale=ar_SA",
    "/pin/101/",
    "/pin/106/",
    "/pin/107/",
    "/pin/110/",
    "/sam/",
  ];
  it.each(pages)("%s names no secret board, section or pin", async (path) => {
    for (const headers of [{}, { "user-agent": GOOGLEBOT_UA }]) {
      const html = await (await get(path, headers)).text();
      for (const secret of SECRETS) expect(html, `${path}: ${secret}`).not.toContain(secret);
    }
  });
});

describe("routing", () => {
  it("/pin/{id}/ is still the pin page, not a board called {id} of a user called pin", async () => {
    const response = await get("/pin/101/");
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/<h1[^>]*>Tomato orzo<\/h1>/);
    const missing = await get("/pin/999999/");
    expect(missing.status).toBe(404);
  });

  it("/404 is still the 404 page", async () => {
    expect((await get("/404")).status).toBe(404);
  });
});

describe("translated at the edge", () => {
  it("French", async () => {
    const profile = await (await get("/ava/", { "accept-language": "fr" })).text();
    expect(await attributeOf(profile, "html", "lang")).toBe("fr");
    expect(profile).toMatch(/1\s234 abonnés/u);
    expect(profile).toContain("Tableaux");
    expect(profile).toContain("2 tableaux");
    expect(profile).toContain("Épingles créées");
    expect(profile).toContain("Photo de profil de Ava Thompson");
    const board = await (await get("/ava/weeknight-dinners/", { "accept-language": "fr" })).text();
    expect(board).toContain(`${BOARD_10_VISIBLE.length} épingles`);
    expect(board).toMatch(/Un tableau de <a href="\/ava\/"[^>]*>Ava Thompson<\/a>/);
    expect(board).toContain("Sections");
  });

  it("Arabic, right to left, with its plural forms", async () => {
    const profile = await (await get("/ava/", { "accept-language": "ar-SA" })).text();
    expect(await attributeOf(profile, "html", "lang")).toBe("ar-SA");
    expect(await attributeOf(profile, "html", "dir")).toBe("rtl");
    expect(profile).toContain("اللوحات");
    expect(profile).toContain("لوحتان"); // two boards: the dual form
    expect(profile).toContain("الدبابيس المُنشأة");
    expect(await attributeOf(profile, "h1", "dir")).toBe("auto");
    const board = await (await get("/ava/weeknight-dinners/", { "accept-language": "ar-SA" })).text();
    expect(await attributeOf(board, "html", "dir")).toBe("rtl");
    expect(board).toContain("الأقسام");
    expect(board).toContain("دبوس واحد"); // each section holds one visible pin
    expect(board).toContain("لوحة من إنشاء");
  });
});

describe("crawlers", () => {
  it.each(["/ava/", "/ava/weeknight-dinners/", "/ava/surprise-party-for-maya/", "/nobody/"])("%s has no executable script for a bot", async (path) => {
    const html = await (await get(path, { "user-agent": GOOGLEBOT_UA })).text();
    expect(await countElements(html, EXECUTABLE_SCRIPT)).toBe(0);
    expect(await countElements(html, "astro-island")).toBe(0);
  });

  it("a bot gets the same content as a person", async () => {
    const person = await (await get("/ava/weeknight-dinners/")).text();
    const bot = await (await get("/ava/weeknight-dinners/", { "user-agent": GOOGLEBOT_UA })).text();
    expect(pinIds(bot)).toEqual(pinIds(person));
    expect(await countElements(bot, EXECUTABLE_SCRIPT)).toBe(0);
  });
});
