// The search pages (/search/{scope}/?q=) through the built Worker: status, canonical, the tidy
// redirect (same-origin only), noindex, crawlers without script, caching, and secret content
// kept from strangers. Storage persists across this file: seeded once.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { attributeOf, BASE, BROWSER_UA, countElements, fetchWorker, GOOGLEBOT_UA, seedWorld } from "./fixtures.ts";
import { createSession, type TestSession } from "./session-fixture.ts";
import { listRecent } from "~/search/recent.server.ts";

const PUBLIC_PINS = [101, 102, 103, 104, 105, 106, 107];
const SECRET_PIN = 200;
const STRANGER = 2;
let owner: TestSession;
let stranger: TestSession;

beforeAll(async () => {
  await seedWorld([
    ...PUBLIC_PINS.map((id) => ({ id, title: `Lemon drizzle cake ${id}` })),
    { id: SECRET_PIN, title: "Lemon drizzle cake for the surprise", boardId: 11 },
    { id: 300, title: "Quince jelly", boardId: 10 },
  ]);
  await env.DB.prepare("INSERT INTO users (id, username, email, full_name, created_at) VALUES (?1, 'stranger', 'stranger@pinloom.test', 'Sam Stranger', 0)").bind(STRANGER).run();
  owner = await createSession(1);
  stranger = await createSession(STRANGER);
});

const page = (path: string, headers: Record<string, string> = {}) => fetchWorker(path, { headers: { "user-agent": BROWSER_UA, ...headers }, redirect: "manual" });

describe("search page", () => {
  it("renders results with the canonical URL of the normalized query, kept out of the index with its links followed", async () => {
    const response = await page("/search/pins/?q=lemon+drizzle");
    expect(response.status).toBe(200);
    const html = await response.text();
    const canonical = new URL((await attributeOf(html, 'link[rel="canonical"]', "href"))!);
    expect(canonical.pathname + canonical.search).toBe("/search/pins/?q=lemon+drizzle");
    expect(await attributeOf(html, `link[rel="alternate"][href*="locale=fr"]`, "href")).toMatch(/\/search\/pins\/\?q=lemon\+drizzle(&|&amp;)locale=fr$/);
    expect(await attributeOf(html, 'meta[name="robots"]', "content")).toBe("noindex, follow");
    for (const id of PUBLIC_PINS) expect(html).toContain(`href="/pin/${id}/"`);
    expect(await countElements(html, "#search-grid li")).toBe(PUBLIC_PINS.length);
    expect(html).toContain('"@type":"SearchResultsPage"');
    expect(html).toContain('"@type":"ItemList"');
    // Tabs are links, the filters a GET form.
    expect(await countElements(html, 'nav.search-tabs a[aria-current="page"]')).toBe(1);
    expect(await attributeOf(html, "form.search-filters-form", "method")).toBe("get");
  });

  it("is shared between signed-out visitors and private for signed-in ones", async () => {
    const shared = await page("/search/pins/?q=lemon");
    expect(shared.headers.get("cache-control")).toContain("s-maxage");
    const personal = await page("/search/pins/?q=lemon", { cookie: stranger.cookie });
    expect(personal.status).toBe(200);
    expect(personal.headers.get("cache-control")).toBe("private, no-store");
  });

  it("never shows a secret board's pin to a stranger or a signed-out visitor, and shows it to its owner", async () => {
    for (const headers of [{}, { cookie: stranger.cookie }]) {
      const html = await (await page("/search/pins/?q=surprise", headers)).text();
      expect(html).not.toContain(`/pin/${SECRET_PIN}/`);
      expect(html).not.toContain("for the surprise");
    }
    const mine = await (await page("/search/pins/?q=surprise", { cookie: owner.cookie })).text();
    expect(mine).toContain(`/pin/${SECRET_PIN}/`);
  });

  it("remembers a signed-in person's page-1 search on the server, from our pages or a typed URL only", async () => {
    await page("/search/pins/?q=Quince", { cookie: stranger.cookie, "sec-fetch-site": "same-origin" });
    await page("/search/pins/?q=Typed+in", { cookie: stranger.cookie, "sec-fetch-site": "none" });
    await page("/search/pins/?q=Sent+by+another+site", { cookie: stranger.cookie, "sec-fetch-site": "cross-site" });
    await page("/search/pins/?q=No+fetch+metadata", { cookie: stranger.cookie });
    const recent = await listRecent(env.DB, STRANGER);
    expect(recent).toEqual(expect.arrayContaining(["Quince", "Typed in"]));
    expect(recent).not.toContain("Sent by another site");
    expect(recent).not.toContain("No fetch metadata");
  });

  it("lists the recent searches on the landing, personal ones on the personal scopes", async () => {
    await page("/search/my_pins/?q=Jelly+jars", { cookie: stranger.cookie, "sec-fetch-site": "same-origin" });
    const landing = await (await page("/search/pins/", { cookie: stranger.cookie })).text();
    expect(landing).toContain('href="/search/pins/?q=Quince&amp;rs=recent"');
    expect(landing).not.toContain("Jelly jars");
    const personal = await (await page("/search/my_pins/", { cookie: stranger.cookie })).text();
    expect(personal).toContain("Jelly jars");
    expect(personal).not.toContain("Quince");
  });

  it.each([
    ["/search/pins/?q=%20Lemon%20%20drizzle%20", "/search/pins/?q=Lemon+drizzle"],
    ["/search/pins/?q=lemon&filters=kind:image&filters=created:30d", "/search/pins/?q=lemon&filters=kind%3Aimage%2Ccreated%3A30d"],
    ["/search/pins/?q=lemon&filters=bogus&price_min=", "/search/pins/?q=lemon"],
    ["/search/boards/?q=%20%20", "/search/boards/"],
  ])("%s redirects (301) to its tidy form %s", async (from, to) => {
    const response = await page(from);
    expect(response.status).toBe(301);
    expect(new URL(response.headers.get("location")!, BASE).href).toBe(`${BASE}${to}`);
  });

  it("redirects only within the site, whatever the query holds", async () => {
    for (const path of ["/search/pins/?q=%2F%2Fevil.example", "/search/pins/?q=https://evil.example/&junk=1", "/search/pins/?q=%5C%5Cevil.example%20"]) {
      const response = await page(path);
      if (response.status === 301) {
        const location = response.headers.get("location")!;
        expect(location.startsWith("/search/pins/?q=")).toBe(true);
        expect(new URL(location, BASE).origin).toBe(BASE);
      } else expect(response.status).toBe(200);
    }
  });

  it("answers 404 for an unknown scope", async () => {
    const response = await page("/search/pinz/?q=lemon");
    expect(response.status).toBe(404);
    expect(await attributeOf(await response.text(), 'meta[name="robots"]', "content")).toContain("noindex");
  });

  it.each([
    ["no results", "/search/pins/?q=zzzyyyxxx"],
    ["fewer than 5 results", "/search/pins/?q=quince"],
    ["a one-character query", "/search/pins/?q=l"],
    ["a later page", "/search/pins/?q=lemon&bookmark=abc"],
    ["the landing", "/search/pins/"],
  ])("is noindex for %s", async (_, path) => {
    const response = await page(path);
    expect([200, 400]).toContain(response.status);
    expect(await attributeOf(await response.text(), 'meta[name="robots"]', "content")).toContain("noindex");
  });

  it("gives crawlers complete HTML and no client script", async () => {
    const response = await page("/search/pins/?q=lemon+drizzle", { "user-agent": GOOGLEBOT_UA });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(await countElements(html, 'script:not([type="application/ld+json"])')).toBe(0);
    expect(await countElements(html, "astro-island")).toBe(0);
    expect(await countElements(html, "#search-grid li")).toBe(PUBLIC_PINS.length);
    expect(await attributeOf(html, 'header form[role="search"]', "action")).toBe("/search/pins/");
  });

  it("asks signed-out visitors to log in for their own pins", async () => {
    const response = await page("/search/my_pins/?q=lemon");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('href="/login/?next=');
    expect(html).not.toContain("/pin/101/");
  });

  it("lists boards and people in their own lists", async () => {
    const boards = await (await page("/search/boards/?q=weeknight")).text();
    expect(await countElements(boards, "ul.search-boards li")).toBe(1);
    expect(boards).not.toContain("Surprise party");
    const users = await (await page("/search/users/?q=ana")).text();
    expect(await countElements(users, "ul.search-users li")).toBeGreaterThanOrEqual(1);
    expect(users).toContain('href="/ana/"');
  });
});
