// Board section pages, /{username}/{board}/{section}/: their own head (title, description,
// canonical, hreflang, JSON-LD), no script for crawlers, the pin grid paged like the board's, a
// link from the board page, the sitemap for public boards only, and the 404 rules: a section of
// a board the viewer may not see answers exactly like a section that does not exist.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { BoardRole } from "~/boards/policy.ts";
import { Browser } from "./accounts-helpers.ts";
import { GOOGLEBOT_UA, attributeOf, countElements } from "./fixtures.ts";
import { CAST, CAST_BOARDS, browserFor, seedCast } from "./roles-fixture.ts";

const EXECUTABLE_SCRIPT = 'script:not([type="application/ld+json"]):not([type="application/json"])';
const ARCHIVED_BOARD = 2003;
const SECTION = "/cast_owner/cast-corkboard/kitchen-ideas/";
const SECRET_SECTION = "/cast_owner/secret-plans/hidden-plans/";
const ARCHIVED_SECTION = "/cast_owner/old-stuff/old-shelf/";
const MISSING_SECTION = "/cast_owner/secret-plans/no-such-section/";
/** Pins in the big section: one more page than the board page's 50. */
const MANY = 52;

async function seedSections(): Promise<void> {
  const pin = (id: number, boardId: number, title: string, hidden = 0) =>
    env.DB.prepare(
      `INSERT INTO pins (id, pinner_id, board_id, kind, title, description, image_signature, dominant_color, is_hidden, created_at, updated_at)
       VALUES (?1, ?2, ?3, 'image', ?4, 'Something to look at', 'sig', '#a1b2c3', ?5, ?6, ?6)`,
    ).bind(id, CAST.owner, boardId, title, hidden, 1_700_000_000_000 + id);
  const image = (id: number) => env.DB.prepare("INSERT INTO pin_images VALUES (?1, '236x', ?2, 236, 354, '#a1b2c3'), (?1, '736x', ?3, 736, 1104, '#a1b2c3')").bind(id, `/media/pins/${id}/236x.jpg`, `/media/pins/${id}/736x.jpg`);
  const boardPin = (boardId: number, pinId: number, sectionId: number | null, position: number) =>
    env.DB.prepare("INSERT INTO board_pins (board_id, pin_id, section_id, saved_by, position, created_at) VALUES (?1, ?2, ?3, ?4, ?5, 0)").bind(boardId, pinId, sectionId, CAST.owner, position);
  const section = (id: number, boardId: number, title: string, slug: string) =>
    env.DB.prepare("INSERT INTO board_sections (id, board_id, title, slug, position, created_at) VALUES (?1, ?2, ?3, ?4, 0, 0)").bind(id, boardId, title, slug);
  const many = Array.from({ length: MANY }, (_, index) => 3300 + index);
  await env.DB.batch([
    env.DB.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, archived_at, created_at, updated_at) VALUES (?1, ?2, 'Old stuff', 'old-stuff', 'public', 1, 0, 0)").bind(ARCHIVED_BOARD, CAST.owner),
    section(4101, CAST_BOARDS.public, "Kitchen ideas", "kitchen-ideas"),
    section(4102, CAST_BOARDS.secret, "Hidden plans", "hidden-plans"),
    section(4103, ARCHIVED_BOARD, "Old shelf", "old-shelf"),
    section(4104, CAST_BOARDS.public, "Big section", "big-section"),
    pin(3101, CAST_BOARDS.public, "Open shelving"),
    pin(3102, CAST_BOARDS.public, "Not in any section"),
    pin(3103, CAST_BOARDS.public, "A hidden pin", 1),
    pin(3104, CAST_BOARDS.secret, "A secret pin"),
    ...[3101, 3102, 3103, 3104].map(image),
    boardPin(CAST_BOARDS.public, 3101, 4101, 1),
    boardPin(CAST_BOARDS.public, 3102, null, 2),
    boardPin(CAST_BOARDS.public, 3103, 4101, 3),
    boardPin(CAST_BOARDS.secret, 3104, 4102, 1),
    ...many.flatMap((id, index) => [pin(id, CAST_BOARDS.public, `Many ${index + 1}`), image(id), boardPin(CAST_BOARDS.public, id, 4104, 10 + index)]),
  ]);
}

const pinLinks = (html: string) => [...new Set([...html.matchAll(/href="\/pin\/(\d+)\/"/g)].map((match) => Number(match[1])))];
/** A page's HTML with what differs from one address to another taken out: the address itself and the request's own id. */
const normalised = (html: string, path: string) => html.split(path).join("{path}").replace(/"requestIdentifier":"[^"]*"/g, "");

beforeAll(async () => {
  await seedCast();
  await seedSections();
});

describe("a section page", () => {
  it("shows its title, board, owner and only the pins a stranger may see", async () => {
    const response = await new Browser().fetch(SECTION);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toMatch(/<h1 dir="auto"[^>]*>Kitchen ideas<\/h1>/);
    expect(html).toContain('href="/cast_owner/cast-corkboard/"');
    expect(pinLinks(html)).toEqual([3101]);
    expect(html).toContain("1 pin");
  });

  it("has its own head: title, description, canonical, hreflang and CollectionPage + BreadcrumbList JSON-LD", async () => {
    const html = await (await new Browser().fetch(SECTION)).text();
    expect(html).toContain("<title>Kitchen ideas · Cast corkboard by cast_owner on Pinloom</title>");
    expect(await attributeOf(html, 'meta[name="description"]', "content")).toContain("Explore Kitchen ideas, a section of Cast corkboard, a board by cast_owner on Pinloom.");
    expect(await attributeOf(html, 'link[rel="canonical"]', "href")).toBe(`https://pinloom.example${SECTION}`);
    expect(await attributeOf(html, 'link[rel="alternate"][hreflang="fr"]', "href")).toBe(`https://pinloom.example${SECTION}?locale=fr`);
    expect(await attributeOf(html, 'meta[name="robots"]', "content")).not.toMatch(/noindex/);
    const blocks = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((match) => JSON.parse(match[1]!) as Record<string, unknown>);
    expect(blocks.map((block) => block["@type"])).toEqual(["CollectionPage", "BreadcrumbList"]);
    expect(blocks[0]).toMatchObject({
      name: "Kitchen ideas",
      isPartOf: { "@type": "CollectionPage", name: "Cast corkboard", url: "https://pinloom.example/cast_owner/cast-corkboard/" },
      mainEntity: { numberOfItems: 1, itemListElement: [{ position: 1, url: "https://pinloom.example/pin/3101/", name: "Open shelving" }] },
    });
    expect((blocks[1]!["itemListElement"] as Array<{ name: string }>).map((crumb) => crumb.name)).toEqual(["Pinloom", "cast_owner", "Cast corkboard", "Kitchen ideas"]);
  });

  it("gives crawlers complete HTML with no executable script", async () => {
    const html = await (await new Browser().fetch(SECTION, { headers: { "user-agent": GOOGLEBOT_UA } })).text();
    expect(await countElements(html, EXECUTABLE_SCRIPT)).toBe(0);
    expect(await countElements(html, 'script[type="application/ld+json"]')).toBe(2);
    expect(html).toContain("Open shelving");
  });

  it("pages its pins like the board page: 50, then a crawlable noindex next page, and the resource", async () => {
    const browser = new Browser();
    const first = await (await browser.fetch("/cast_owner/cast-corkboard/big-section/")).text();
    expect(pinLinks(first)).toHaveLength(50);
    const next = await attributeOf(first, ".feed-more a", "href");
    expect(next).toMatch(/^\/cast_owner\/cast-corkboard\/big-section\/\?page_after=/);
    const second = await browser.fetch(next!.replace(/&amp;/g, "&"));
    expect(second.status).toBe(200);
    const html = await second.text();
    expect(pinLinks(html)).toEqual([3350, 3351]);
    expect(await attributeOf(html, 'meta[name="robots"]', "content")).toMatch(/noindex/);
    expect(await attributeOf(first, "[data-feed-resource]", "data-feed-resource")).toBe("BoardSectionPinsResource");
    expect((await attributeOf(first, "[data-feed-resource]", "data-feed-options"))?.replace(/&quot;/g, '"')).toBe('{"section_id":"4104"}');
  });

  it("is linked from its board's page", async () => {
    const html = await (await new Browser().fetch("/cast_owner/cast-corkboard/")).text();
    expect(html).toContain(`href="${SECTION}"`);
    expect(html).toContain('href="/cast_owner/cast-corkboard/big-section/"');
  });
});

describe("a section's 404 rules", () => {
  const outsiders: BoardRole[] = ["signed_out", "stranger", "follower"];

  it("answers a secret or archived board's section exactly like a missing one to those who may not see the board", async () => {
    for (const role of outsiders) {
      const browser = await browserFor(role);
      const missing = await browser.fetch(MISSING_SECTION);
      expect(missing.status, role).toBe(404);
      const missingHtml = normalised(await missing.text(), MISSING_SECTION);
      for (const path of [SECRET_SECTION, ARCHIVED_SECTION]) {
        const response = await browser.fetch(path);
        expect(response.status, `${role} ${path}`).toBe(404);
        const html = await response.text();
        expect(normalised(html, path), `${role} ${path}`).toBe(missingHtml);
        expect(html).not.toContain("Hidden plans");
        expect(html).not.toContain("A secret pin");
      }
    }
  });

  it("answers 404 for an unknown board, an unknown user and a malformed slug", async () => {
    const browser = new Browser();
    for (const path of ["/cast_owner/no-board/kitchen-ideas/", "/nobody_here/cast-corkboard/kitchen-ideas/", "/cast_owner/cast-corkboard/bad%20slug/"]) {
      expect((await browser.fetch(path)).status, path).toBe(404);
    }
  });

  it("shows a secret or archived board's section to its owner and collaborators, never indexed", async () => {
    for (const role of ["owner", "collaborator_write"] as const) {
      const browser = await browserFor(role);
      const response = await browser.fetch(SECRET_SECTION);
      expect(response.status, role).toBe(200);
      const html = await response.text();
      expect(html).toContain("Hidden plans");
      expect(pinLinks(html)).toEqual([3104]);
      expect(await attributeOf(html, 'meta[name="robots"]', "content")).toMatch(/noindex/);
    }
    expect((await (await browserFor("owner")).fetch(ARCHIVED_SECTION)).status).toBe(200);
  });
});

describe("the sections sitemap", () => {
  it("lists public boards' sections only", async () => {
    const index = await (await new Browser().fetch("/sitemap.xml")).text();
    expect(index).toContain("/sitemaps/sections-1.xml");
    const xml = await (await new Browser().fetch("/sitemaps/sections-1.xml")).text();
    expect(xml).toContain(`<loc>https://pinloom.example${SECTION}</loc>`);
    expect(xml).toContain("<loc>https://pinloom.example/cast_owner/cast-corkboard/big-section/</loc>");
    expect(xml).not.toContain("hidden-plans");
    expect(xml).not.toContain("old-shelf");
  });
});
