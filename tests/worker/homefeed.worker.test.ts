// The home feed: HomefeedResource pages through the same pins as the home page, and the page
// pages without script through a real "More ideas" link.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { GOOGLEBOT_UA, attributeOf, countElements, fetchWorker, get, seedWorld } from "./fixtures.ts";

/** Script a browser would run: anything but JSON data blocks (JSON-LD, the context). */
const EXECUTABLE_SCRIPT = 'script:not([type="application/ld+json"]):not([type="application/json"])';

// 30 visible pins (more than one page of 25), plus pins no feed may show.
const VISIBLE = Array.from({ length: 30 }, (_, index) => 201 + index);
const HIDDEN = [301, 302, 303];

beforeAll(async () => {
  await seedWorld([
    ...VISIBLE.map((id) => ({ id, title: `Visible ${id}` })),
    { id: 301, title: "Hidden pin", isHidden: true },
    { id: 302, title: "Deleted pin", isDeleted: true },
    { id: 303, title: "Secret pin", boardId: 11 },
  ]);
  // Two pins created at the same instant: the keyset must break the tie by id.
  await env.DB.prepare("UPDATE pins SET created_at = 1700000000210 WHERE id IN (209, 210)").run();
});

/** Newest first, ties by id descending: the home page's order. */
const EXPECTED = [...VISIBLE].sort((a, b) => b - a).map(String);

interface Page {
  results: Array<{ id: string; title: string; image: { url: string; width: number; height: number } }>;
  bookmark: string;
}

const homefeed = (options: unknown) =>
  fetchWorker(`/resource/HomefeedResource/get/?data=${encodeURIComponent(JSON.stringify({ options }))}`, {
    headers: { accept: "application/json", "x-requested-with": "XMLHttpRequest" },
  });

async function page(options: unknown): Promise<Page> {
  const response = await homefeed(options);
  expect(response.status).toBe(200);
  return (await response.json<{ resource_response: { data: Page } }>()).resource_response.data;
}

describe("HomefeedResource get", () => {
  it("pages through every visible pin exactly once, in order, and ends with the end marker", async () => {
    const seen: string[] = [];
    let bookmark: string | undefined;
    for (let pages = 0; pages < 50; pages++) {
      const result = await page(bookmark === undefined ? { page_size: 2 } : { bookmark, page_size: 2 });
      expect(result.results.length).toBeLessThanOrEqual(2);
      seen.push(...result.results.map((pin) => pin.id));
      if (result.bookmark === "-end-") break;
      bookmark = result.bookmark;
    }
    expect(seen).toEqual(EXPECTED);
    for (const hidden of HIDDEN) expect(seen).not.toContain(String(hidden));
  });

  it("gives 25 pins by default, with a bookmark, and cells carry their image size", async () => {
    const first = await page({});
    expect(first.results.map((pin) => pin.id)).toEqual(EXPECTED.slice(0, 25));
    expect(first.results[0]!.image).toMatchObject({ width: 236, height: 354 });
    const rest = await page({ bookmark: first.bookmark });
    expect(rest.results.map((pin) => pin.id)).toEqual(EXPECTED.slice(25));
    expect(rest.bookmark).toBe("-end-");
  });

  it.each([
    ["a malformed bookmark", { bookmark: "not a cursor!" }, /^options\.bookmark: /],
    ["a bookmark that decodes to nothing", { bookmark: "abc" }, /^options\.bookmark: /],
    ["page_size 51", { page_size: 51 }, /^options\.page_size: /],
    ["page_size 0", { page_size: 0 }, /^options\.page_size: /],
    ["an unknown option", { colour: "red" }, /^options\.colour: /],
  ])("%s is a 400 naming the field", async (_name, options, detail) => {
    const response = await homefeed(options);
    expect(response.status).toBe(400);
    const body = await response.json<{ resource_response: { error: { message_detail: string } } }>();
    expect(body.resource_response.error.message_detail).toMatch(detail);
  });
});

describe("the home page", () => {
  it("renders the first 25 pins and a real link to the next page", async () => {
    const html = await (await get("/")).text();
    expect(await countElements(html, "ul.pin-grid li.pin-cell")).toBe(25);
    expect(html).toContain(`href="/pin/${EXPECTED[0]}/"`);
    expect(html).not.toContain(`href="/pin/${EXPECTED[25]}/"`);
    for (const hidden of HIDDEN) expect(html).not.toContain(`href="/pin/${hidden}/"`);
    const next = await attributeOf(html, 'a[rel="next"]', "href");
    expect(next).toMatch(/^\/\?page_after=[A-Za-z0-9_-]+$/);
    expect(html).toContain("More ideas");
    expect(await attributeOf(html, 'meta[name="robots"]', "content")).not.toMatch(/noindex/);

    const second = await (await get(next!)).text();
    expect(await countElements(second, "ul.pin-grid li.pin-cell")).toBe(5);
    for (const id of EXPECTED.slice(25)) expect(second).toContain(`href="/pin/${id}/"`);
    expect(second).not.toContain(`href="/pin/${EXPECTED[0]}/"`);
    expect(await countElements(second, 'a[rel="next"]')).toBe(0);
    expect(await attributeOf(second, 'meta[name="robots"]', "content")).toMatch(/^noindex/);
  });

  it("translates the link", async () => {
    const html = await (await get("/?locale=fr")).text();
    expect(html).toMatch(/rel="next"[^>]*>Plus d(&#39;|')idées</);
  });

  it("/homefeed/ is the same page with / as its canonical URL", async () => {
    const html = await (await get("/homefeed/")).text();
    expect(await countElements(html, "ul.pin-grid li.pin-cell")).toBe(25);
    expect(await attributeOf(html, 'link[rel="canonical"]', "href")).toBe("https://pinloom.example/");
  });

  it("a person gets the feed script; crawlers get no executable script", async () => {
    const person = await (await get("/")).text();
    expect(await countElements(person, EXECUTABLE_SCRIPT)).toBeGreaterThan(1);
    for (const path of ["/", "/homefeed/", "/?server_only=1"]) {
      const html = await (await get(path, { "user-agent": GOOGLEBOT_UA })).text();
      expect(await countElements(html, EXECUTABLE_SCRIPT)).toBe(0);
      expect(await countElements(html, 'a[rel="next"]')).toBe(1);
    }
  });
});
