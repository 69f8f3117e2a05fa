// Editorial articles: /today/{segment}/{slug}/{id}/ renders, redirects a wrong segment or slug
// to the canonical path with 301, and answers 404 for anything that is not a published article.
// Storage persists across this file: seeded once.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { BROWSER_UA, GOOGLEBOT_UA, attributeOf, countElements, fetchWorker, get, seedWorld } from "./fixtures.ts";

const EXECUTABLE_SCRIPT = 'script:not([type="application/ld+json"]):not([type="application/json"])';
const PUBLISHED = 1_790_000_000_000; // 2026-09-21
const UPDATED = PUBLISHED + 86_400_000;

/** A request that does not follow redirects (a service-binding fetch follows them by default). */
function getManual(path: string): Promise<Response> {
  return fetchWorker(path, { headers: { "user-agent": BROWSER_UA }, redirect: "manual" });
}

const BEST = "/today/best/cozy-autumn-reads/1/";
const SHOP = "/today/shop/gifts-under-50/2/";
const FRENCH = "/today/trending/cr%C3%A8me-br%C3%BBl%C3%A9e-%C3%A0-la-maison/3/";

beforeAll(async () => {
  // Pin 101 on a public board, 102 on the secret one (never shown), 103 hidden.
  await seedWorld([{ id: 101 }, { id: 102, boardId: 11 }, { id: 103, isHidden: true }, { id: 104 }]);
  const insert = env.DB.prepare(
    `INSERT INTO today_articles (id, title, subtitle, body, content_type, is_shopping, cover_pin_id, author_id, published_at, updated_at, is_published)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)`,
  );
  await env.DB.batch([
    insert.bind(
      1,
      "Cozy Autumn Reads",
      "Books for rainy days",
      "First paragraph about <b>books</b>.\n\nSecond paragraph.",
      1,
      0,
      101,
      1,
      PUBLISHED,
      UPDATED,
      1,
    ),
    insert.bind(2, "Gifts under $50!", null, "Small gifts.", 1, 1, null, null, PUBLISHED, PUBLISHED, 1),
    insert.bind(3, "Crème brûlée à la maison", null, "Un dessert.", 2, 0, null, 1, PUBLISHED, PUBLISHED, 1),
    insert.bind(4, "Unpublished draft", null, "Not yet.", 0, 0, null, 1, PUBLISHED, PUBLISHED, 0),
    env.DB.prepare(
      "INSERT INTO today_article_pins (article_id, pin_id, position) VALUES (1, 104, 1), (1, 101, 2), (1, 102, 3), (1, 103, 4)",
    ),
  ]);
});

describe("an article page", () => {
  it("renders the title, subtitle, author, date, escaped body and visible pins", async () => {
    const response = await getManual(BEST);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toMatch(/<h1 id="article-title" dir="auto"[^>]*>Cozy Autumn Reads<\/h1>/);
    expect(html).toContain("Books for rainy days");
    expect(html).toContain("By Ana Lima");
    expect(html).toContain("September 21, 2026");
    expect(html).toContain("First paragraph about &lt;b&gt;books&lt;/b&gt;.");
    expect(await countElements(html, '.article-body p[dir="auto"]')).toBe(2);
    // Pins in position order, never one on a secret board or a hidden one.
    const cells = [...html.matchAll(/href="\/pin\/(\d+)\/"/g)].map((match) => match[1]);
    expect(cells).toEqual(["104", "101"]);
    expect(html).not.toContain("Surprise party for Maya");
  });

  it("has the canonical, og:type article, the cover image and Article + BreadcrumbList JSON-LD", async () => {
    const html = await (await get(BEST)).text();
    expect(await attributeOf(html, 'link[rel="canonical"]', "href")).toBe(`https://pinloom.example${BEST}`);
    expect(await attributeOf(html, 'meta[property="og:type"]', "content")).toBe("article");
    expect(await attributeOf(html, 'meta[property="og:image"]', "content")).toContain("/media/pins/101/orig.jpg");
    const blocks = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
      (match) => JSON.parse(match[1]!) as Record<string, unknown>,
    );
    expect(blocks.map((block) => block["@type"])).toEqual(["Article", "BreadcrumbList"]);
    expect(blocks[0]).toMatchObject({
      headline: "Cozy Autumn Reads",
      datePublished: new Date(PUBLISHED).toISOString(),
      dateModified: new Date(UPDATED).toISOString(),
      author: { "@type": "Person", name: "Ana Lima" },
      publisher: { "@type": "Organization", name: "Pinloom" },
      image: "https://pinloom.example/media/pins/101/orig.jpg",
    });
  });

  it("renders a shopping article with no cover, author or pins", async () => {
    const response = await get(SHOP);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("Gifts under $50!");
    expect(html).toContain("By the Pinloom editors");
    expect(html).toContain("No pins to show in this story yet.");
  });

  it("renders a non-Latin slug at its encoded canonical path, without redirecting", async () => {
    const response = await getManual(FRENCH);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Crème brûlée à la maison");
    // The same slug written unencoded is the same URL once parsed: no redirect either.
    const unencoded = await getManual("/today/trending/crème-brûlée-à-la-maison/3/");
    expect(unencoded.status).toBe(200);
    await unencoded.arrayBuffer();
  });

  it("gives crawlers no executable script, but keeps the JSON-LD", async () => {
    const html = await (await get(BEST, { "user-agent": GOOGLEBOT_UA })).text();
    expect(await countElements(html, EXECUTABLE_SCRIPT)).toBe(0);
    expect(await countElements(html, 'script[type="application/ld+json"]')).toBe(2);
  });
});

describe("canonical redirects", () => {
  it.each([
    ["a wrong slug", "/today/best/wrong-slug/1/", BEST],
    ["an old title's slug", "/today/best/cozy-autumn/1/", BEST],
    ["a wrong segment", "/today/trending/cozy-autumn-reads/1/", BEST],
    ["an unknown segment", "/today/whatever/cozy-autumn-reads/1/", BEST],
    ["both wrong", "/today/article/x/2/", SHOP],
    ["no trailing slash", "/today/best/cozy-autumn-reads/1", BEST],
    ["an upper-case slug", "/today/best/Cozy-Autumn-Reads/1/", BEST],
  ])("%s → 301 to the canonical path", async (_, path, canonical) => {
    const response = await getManual(path);
    expect(response.status).toBe(301);
    expect(new URL(response.headers.get("location")!, "https://pinloom.test").pathname).toBe(canonical);
    await response.arrayBuffer();
  });

  it("keeps the query string", async () => {
    const response = await getManual("/today/trending/old-slug/1/?locale=fr&utm_source=newsletter");
    expect(response.status).toBe(301);
    const location = new URL(response.headers.get("location")!, "https://pinloom.test");
    expect(location.pathname).toBe(BEST);
    expect(location.search).toBe("?locale=fr&utm_source=newsletter");
    await response.arrayBuffer();
  });
});

describe("missing articles", () => {
  it.each([
    ["an unknown id", "/today/best/cozy-autumn-reads/999/"],
    ["an unpublished article", "/today/trending/unpublished-draft/4/"],
    ["a non-numeric id", "/today/best/cozy-autumn-reads/abc/"],
    ["a zero id", "/today/best/cozy-autumn-reads/0/"],
    ["a padded id", "/today/best/cozy-autumn-reads/01/"],
    ["an id past 2^53", "/today/best/cozy-autumn-reads/99999999999999999/"],
  ])("%s is a 404 page", async (_, path) => {
    const response = await get(path);
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain("Page not found");
    expect(html).not.toContain("Unpublished draft");
    expect(await attributeOf(html, 'meta[name="robots"]', "content")).toContain("noindex");
  });
});

describe("translations", () => {
  it("renders in French", async () => {
    const response = await get(`${BEST}?locale=fr`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('lang="fr"');
    expect(html).toContain("Par Ana Lima");
    expect(html).toContain("Publié le 21 septembre 2026");
    expect(html).toContain("Les épingles de cet article");
  });

  it("renders in Arabic, right to left", async () => {
    const response = await get(`${BEST}?locale=ar_SA`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('dir="rtl"');
    expect(html).toContain("بقلم Ana Lima");
    expect(html).toContain("الدبابيس في هذه القصة");
  });
});
