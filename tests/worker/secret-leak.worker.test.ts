// A secret board, its name, its sections, its pins' membership and its
// counts never reach anyone but its owner and collaborators. This walks every public surface
// (pages, feeds, resources, sitemaps, meta tags) as a crawler, a signed-out visitor, a
// stranger and a follower, and looks for any trace of the secret board in what comes back.
// A surface added later joins by adding a line to SURFACES.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { BoardRole } from "~/boards/policy.ts";
import { Browser } from "./accounts-helpers.ts";
import { GOOGLEBOT_UA } from "./fixtures.ts";
import { CAST, CAST_BOARDS, SECRET_BOARD_NAME, browserFor, seedCast } from "./roles-fixture.ts";

const SECRET_SECTION = "Hidden section for the reveal";
const SECRET_PIN_TITLE = "Pinned only where nobody may look";
/** Words that appear only in the secret board's rows, so any hit is a leak. */
const SECRETS = [SECRET_BOARD_NAME, "secret-plans", SECRET_SECTION, "hidden-section-for-the-reveal", SECRET_PIN_TITLE, "A secret description"];

const PUBLIC_PIN = 3002;
const SECRET_PIN = 3001;
const SECRET_SECTION_ID = 4001;
/** A public pin nobody has saved to the secret board yet. */
const ANOTHER_PUBLIC_PIN = 3003;

async function seedSecrets(): Promise<void> {
  const pin = (id: number, boardId: number, title: string) =>
    env.DB.prepare(
      `INSERT INTO pins (id, pinner_id, board_id, kind, title, description, image_signature, dominant_color, created_at, updated_at)
       VALUES (?1, ?2, ?3, 'image', ?4, 'Something to look at', 'sig', '#a1b2c3', ?5, ?5)`,
    ).bind(id, CAST.owner, boardId, title, 1_700_000_000_000 + id);
  const image = (id: number) =>
    env.DB.prepare("INSERT INTO pin_images VALUES (?1, '236x', ?2, 236, 354, '#a1b2c3'), (?1, 'orig', ?2, 800, 1200, '#a1b2c3')").bind(id, `/media/pins/${id}/236x.jpg`);
  const boardPin = (boardId: number, pinId: number, sectionId: number | null) =>
    env.DB.prepare("INSERT INTO board_pins (board_id, pin_id, section_id, saved_by, position, created_at) VALUES (?1, ?2, ?3, ?4, 0, 0)").bind(boardId, pinId, sectionId, CAST.owner);
  await env.DB.batch([
    env.DB.prepare("UPDATE boards SET description = 'A secret description', pin_count = 2, section_count = 1 WHERE id = ?1").bind(CAST_BOARDS.secret),
    env.DB.prepare("INSERT INTO board_sections (id, board_id, title, slug, pin_count, created_at) VALUES (?1, ?2, ?3, 'hidden-section-for-the-reveal', 1, 0)").bind(SECRET_SECTION_ID, CAST_BOARDS.secret, SECRET_SECTION),
    pin(PUBLIC_PIN, CAST_BOARDS.public, "A pin anyone may see"),
    pin(SECRET_PIN, CAST_BOARDS.secret, SECRET_PIN_TITLE),
    pin(ANOTHER_PUBLIC_PIN, CAST_BOARDS.public, "Another pin anyone may see"),
    image(ANOTHER_PUBLIC_PIN),
    boardPin(CAST_BOARDS.public, ANOTHER_PUBLIC_PIN, null),
    image(PUBLIC_PIN),
    image(SECRET_PIN),
    boardPin(CAST_BOARDS.public, PUBLIC_PIN, null),
    // The public pin is also saved to the secret board, in its section: that membership is secret too.
    boardPin(CAST_BOARDS.secret, PUBLIC_PIN, SECRET_SECTION_ID),
    boardPin(CAST_BOARDS.secret, SECRET_PIN, null),
    // save_count counts the saves a stranger can see: the public board's only.
    env.DB.prepare("UPDATE pins SET save_count = 1 WHERE id IN (?1, ?2)").bind(PUBLIC_PIN, ANOTHER_PUBLIC_PIN),
  ]);
}

const resource = (name: string, options: Record<string, unknown>) => `/resource/${name}/get/?data=${encodeURIComponent(JSON.stringify({ options }))}`;

/** Every public surface that could name a board or list its pins. */
const SURFACES = [
  "/",
  "/homefeed/",
  "/cast_owner/",
  "/cast_owner/?sort=alphabetical",
  "/cast_owner/cast-corkboard/",
  "/cast_owner/secret-plans/",
  `/pin/${PUBLIC_PIN}/`,
  `/pin/${SECRET_PIN}/`,
  `/pin/${SECRET_PIN}/sent/`,
  "/robots.txt",
  "/sitemap.xml",
  "/sitemaps/pins-1.xml",
  "/sitemaps/boards-1.xml",
  "/sitemaps/profiles-1.xml",
  "/sitemaps/sections-1.xml",
  "/cast_owner/secret-plans/hidden-section-for-the-reveal/",
  `/pin/${SECRET_PIN}/repin/`,
  resource("BoardsFeedResource", { username: "cast_owner" }),
  resource("BoardFeedResource", { board_id: String(CAST_BOARDS.secret) }),
  resource("BoardFeedResource", { board_id: String(CAST_BOARDS.public) }),
  resource("UserPinsResource", { username: "cast_owner" }),
  resource("UserPinsResource", { username: "cast_owner", feed: "saved" }),
  resource("RelatedPinsFeedResource", { pin_id: String(PUBLIC_PIN) }),
  resource("PinResource", { id: String(PUBLIC_PIN) }),
  resource("PinResource", { id: String(SECRET_PIN) }),
  resource("HomefeedResource", {}),
  resource("BoardResource", { board_id: String(CAST_BOARDS.secret) }),
  resource("BoardResource", { board_id: String(CAST_BOARDS.public) }),
  resource("BoardSectionsResource", { board_id: String(CAST_BOARDS.secret) }),
  resource("BoardSectionPinsResource", { section_id: String(SECRET_SECTION_ID) }),
  resource("BoardCollaboratorsResource", { board_id: String(CAST_BOARDS.secret) }),
  resource("BoardPickerResource", { pin_id: String(PUBLIC_PIN) }),
  resource("ReactionsResource", { pin_id: String(PUBLIC_PIN) }),
  `/v3/boards/${CAST_BOARDS.secret}/`,
  `/v3/pins/${PUBLIC_PIN}/board_title_suggestions/`,
];

const OUTSIDERS: Array<BoardRole | "crawler"> = ["crawler", "signed_out", "stranger", "follower"];

async function browserAs(who: BoardRole | "crawler"): Promise<Browser> {
  return who === "crawler" ? new Browser() : browserFor(who);
}

describe("a secret board never reaches anyone outside it", () => {
  beforeAll(async () => {
    await seedCast();
    await seedSecrets();
  });

  for (const who of OUTSIDERS) {
    it(`leaves no trace for a ${who}`, async () => {
      const browser = await browserAs(who);
      const headers = who === "crawler" ? { "user-agent": GOOGLEBOT_UA } : undefined;
      const leaks: string[] = [];
      for (const path of SURFACES) {
        const response = await browser.fetch(path, headers ? { headers } : {});
        expect(response.status, path).toBeLessThan(500);
        const body = await response.text();
        // A 404 page may echo the address the visitor typed; anything else is a leak.
        for (const secret of SECRETS) if (!path.includes(secret) && body.includes(secret)) leaks.push(`${path} → ${secret}`);
        if (body.includes(`/pin/${SECRET_PIN}/`) && !path.startsWith(`/pin/${SECRET_PIN}/`)) leaks.push(`${path} → link to the secret pin`);
      }
      expect(leaks).toEqual([]);
    });
  }

  it("answers the secret board and its only pin exactly like missing ones", async () => {
    const stranger = await browserFor("stranger");
    for (const path of ["/cast_owner/secret-plans/", `/pin/${SECRET_PIN}/`]) {
      expect((await stranger.fetch(path)).status, path).toBe(404);
    }
    expect((await stranger.fetch(resource("BoardFeedResource", { board_id: String(CAST_BOARDS.secret) }))).status).toBe(404);
  });

  it("counts only the public board on the owner's profile for outsiders", async () => {
    const stranger = await browserFor("stranger");
    const html = await (await stranger.fetch("/cast_owner/")).text();
    expect(html).toContain("Cast corkboard");
    expect(html).toMatch(/\b1 board\b/);
    const boards = await (await stranger.fetch(resource("BoardsFeedResource", { username: "cast_owner" }))).json<{ resource_response: { data: { results: Array<{ name: string; pinCount: number }> } } }>();
    expect(boards.resource_response.data.results.map((board) => [board.name, board.pinCount])).toEqual([["Cast corkboard", 2]]);
  });

  it("moves no public count when its owner saves a public pin into it", async () => {
    const visitor = new Browser();
    const savesLine = async () => /Saved \d+ times?/.exec(await (await visitor.fetch(`/pin/${ANOTHER_PUBLIC_PIN}/?fresh=${Math.random()}`)).text())?.[0];
    const before = await savesLine();
    const owner = await browserFor("owner");
    const saved = await owner.resource("RepinResource", "create", { pin_id: String(ANOTHER_PUBLIC_PIN), board_id: String(CAST_BOARDS.secret) });
    expect(saved.status).toBe(200);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM board_pins WHERE board_id = ?1 AND pin_id = ?2").bind(CAST_BOARDS.secret, ANOTHER_PUBLIC_PIN).first("n")).toBe(1);
    expect(before).toBeDefined();
    expect(await savesLine()).toBe(before);
    const stranger = await browserFor("stranger");
    const html = await (await stranger.fetch("/cast_owner/")).text();
    expect(html).toMatch(/\b1 board\b/);
  });

  it("shows the secret board to its owner and collaborators", async () => {
    for (const role of ["owner", "collaborator_write", "collaborator_delete"] as const) {
      const browser = await browserFor(role);
      const response = await browser.fetch("/cast_owner/secret-plans/");
      expect(response.status, role).toBe(200);
      const html = await response.text();
      expect(html, role).toContain(SECRET_BOARD_NAME);
      expect(html, role).toContain(SECRET_SECTION);
    }
  });
});
