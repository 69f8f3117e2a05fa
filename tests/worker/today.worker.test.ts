// The Today tab: /today/ lists published articles by UTC day, newest first, for people and
// crawlers (complete HTML, JSON-LD, canonical, hreflang, no script for crawlers), pages by
// ?before=, sits in the page cache and the navigation; TodayTabResource,
// TodayArticleFeedResource and RelatedArticlesResource answer in the feed shapes.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { BROWSER_UA, GOOGLEBOT_UA, attributeOf, countElements, fetchWorker, get, seedWorld } from "./fixtures.ts";

const EXECUTABLE_SCRIPT = 'script:not([type="application/ld+json"]):not([type="application/json"])';
const at = (day: number, hour: number) => Date.UTC(2026, 8, day, hour);

const resource = (name: string, options: Record<string, unknown>) => `/resource/${name}/get/?data=${encodeURIComponent(JSON.stringify({ options }))}`;
async function data<T>(path: string): Promise<{ status: number; data: T; message: string }> {
  const response = await get(path);
  const body = await response.json<{ resource_response: { data: T } }>();
  // A refusal's words (message, and message_detail naming the field) are all in the envelope.
  return { status: response.status, data: body.resource_response.data, message: JSON.stringify(body.resource_response) };
}

interface Item {
  type: string;
  id: string;
  title: string;
  url: string;
  date: string;
  segment: string;
  cover_image: { url: string } | null;
}

beforeAll(async () => {
  // Pin 101 public, 102 on the secret board: its cover never shows.
  await seedWorld([{ id: 101 }, { id: 102, boardId: 11 }, { id: 104 }]);
  const insert = env.DB.prepare(
    `INSERT INTO today_articles (id, title, subtitle, body, content_type, is_shopping, cover_pin_id, author_id, published_at, updated_at, is_published)
     VALUES (?1, ?2, ?3, 'Body.', ?4, ?5, ?6, NULL, ?7, ?7, ?8)`,
  );
  const days = [18, 17, 16, 15, 14, 13, 12, 11, 10].map((day, index) => insert.bind(10 + index, `Day story ${day}`, null, day === 16 ? 1 : 3, 0, null, at(day, 12), 1));
  await env.DB.batch([
    insert.bind(1, "Cozy Autumn Reads", "Books for rainy days", 1, 0, 101, at(21, 9), 1),
    insert.bind(2, "Gifts under $50!", null, 1, 1, 102, at(21, 15), 1),
    insert.bind(3, "Crème brûlée à la maison", null, 2, 0, null, at(20, 8), 1),
    insert.bind(4, "Unpublished draft", null, 0, 0, null, at(22, 8), 0),
    ...days,
    env.DB.prepare("INSERT INTO today_article_pins (article_id, pin_id, position) VALUES (1, 101, 1), (1, 104, 2), (2, 104, 1)"),
  ]);
});

describe("the Today page", () => {
  it("lists seven days of published articles, newest day and article first, with an older page", async () => {
    const response = await get("/today/");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toMatch(/<h1[^>]*>Today<\/h1>/);
    const days = [...html.matchAll(/<time datetime="(\d{4}-\d{2}-\d{2})"/g)].map((match) => match[1]);
    expect(days).toEqual(["2026-09-21", "2026-09-20", "2026-09-18", "2026-09-17", "2026-09-16", "2026-09-15", "2026-09-14"]);
    expect(html).toContain("September 21, 2026");
    const links = [...html.matchAll(/href="(\/today\/[a-z]+\/[^"]+\/\d+\/)"/g)].map((match) => match[1]);
    expect(links.slice(0, 3)).toEqual(["/today/shop/gifts-under-50/2/", "/today/best/cozy-autumn-reads/1/", "/today/trending/cr%C3%A8me-br%C3%BBl%C3%A9e-%C3%A0-la-maison/3/"]);
    expect(html).not.toContain("Unpublished draft");
    expect(html).not.toContain("Day story 13");
    // The public pin's cover shows; the secret board's pin never does.
    expect(html).toContain("/media/pins/101/236x.jpg");
    expect(html).not.toContain("/media/pins/102/");
    expect(await attributeOf(html, ".today-pages a", "href")).toBe("/today/?before=2026-09-14");
  });

  it("has its head: title, canonical, hreflang alternates, index, CollectionPage and BreadcrumbList JSON-LD", async () => {
    const html = await (await get("/today/")).text();
    expect(html).toContain("<title>Today on Pinloom</title>");
    expect(await attributeOf(html, 'link[rel="canonical"]', "href")).toBe("https://pinloom.example/today/");
    const alternates = [...html.matchAll(/<link rel="alternate" href="([^"]+)" hreflang="([^"]+)"/g)].map((match) => [match[2], match[1]]);
    expect(alternates).toEqual(
      expect.arrayContaining([
        ["fr", "https://pinloom.example/today/?locale=fr"],
        ["ar-SA", "https://pinloom.example/today/?locale=ar_SA"],
        ["x-default", "https://pinloom.example/today/"],
      ]),
    );
    expect(await attributeOf(html, 'meta[name="robots"]', "content")).not.toMatch(/noindex/);
    const blocks = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((match) => JSON.parse(match[1]!) as Record<string, unknown>);
    expect(blocks.map((block) => block["@type"])).toEqual(["CollectionPage", "BreadcrumbList"]);
    const list = (blocks[0]!["mainEntity"] as { itemListElement: Array<{ url: string; name: string }> }).itemListElement;
    expect(list[0]).toEqual({ "@type": "ListItem", position: 1, url: "https://pinloom.example/today/shop/gifts-under-50/2/", name: "Gifts under $50!" });
    // Two on the 21st, one on the 20th, one on each of the five days before.
    expect(list).toHaveLength(8);
  });

  it("gives crawlers the whole page with no executable script, and keeps the JSON-LD", async () => {
    const html = await (await get("/today/", { "user-agent": GOOGLEBOT_UA })).text();
    expect(await countElements(html, EXECUTABLE_SCRIPT)).toBe(0);
    expect(await countElements(html, 'script[type="application/ld+json"]')).toBe(2);
    expect(html).toContain("Cozy Autumn Reads");
    expect(html).toContain("Day story 14");
  });

  it("pages back by ?before=, noindex and canonical to /today/", async () => {
    const response = await get("/today/?before=2026-09-14");
    expect(response.status).toBe(200);
    const html = await response.text();
    const days = [...html.matchAll(/<time datetime="(\d{4}-\d{2}-\d{2})"/g)].map((match) => match[1]);
    expect(days).toEqual(["2026-09-13", "2026-09-12", "2026-09-11", "2026-09-10"]);
    expect(await attributeOf(html, 'meta[name="robots"]', "content")).toMatch(/noindex/);
    expect(await attributeOf(html, 'link[rel="canonical"]', "href")).toBe("https://pinloom.example/today/");
    expect(html).toContain('href="/today/"');
    expect(html).not.toContain("?before=");
  });

  it("answers 404 for a malformed or impossible date and for a page with nothing on it", async () => {
    for (const path of ["/today/?before=yesterday", "/today/?before=2026-02-31", "/today/?before=2001-01-01"]) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).toContain("Page not found");
    }
  });

  it("is in the navigation, marked current on the Today page", async () => {
    const home = await (await get("/")).text();
    expect(home).toMatch(/<nav aria-label="Main">[\s\S]*?<a href="\/today\/">Today<\/a>/);
    expect(await (await get("/today/")).text()).toMatch(/<a href="\/today\/" aria-current="page">Today<\/a>/);
  });

  it("is shared through the page cache like other signed-out pages", async () => {
    const first = await get("/today/?cache=probe");
    expect(first.headers.get("x-pinloom-cache")).toBe("MISS");
    await first.arrayBuffer();
    let status: string | null = null;
    for (let attempt = 0; attempt < 40 && status !== "HIT"; attempt++) {
      const again = await get("/today/?cache=probe");
      status = again.headers.get("x-pinloom-cache");
      await again.arrayBuffer();
      if (status !== "HIT") await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(status).toBe("HIT");
  });

  it("answers in French with the French words", async () => {
    const html = await (await fetchWorker("/today/?locale=fr", { headers: { "user-agent": BROWSER_UA } })).text();
    expect(html).toMatch(/<h1[^>]*>Aujourd&#39;hui<\/h1>|<h1[^>]*>Aujourd'hui<\/h1>/);
    expect(html).toContain("21 septembre 2026");
  });
});

describe("TodayTabResource", () => {
  it("answers the newest day with the days either side", async () => {
    const { status, data: tab } = await data<{ date: string; articles: Item[]; previous_date: string | null; next_date: string | null }>(resource("TodayTabResource", {}));
    expect(status).toBe(200);
    expect(tab.date).toBe("2026-09-21");
    expect(tab.articles.map((article) => [article.type, article.id, article.segment])).toEqual([
      ["todayarticle", "2", "shop"],
      ["todayarticle", "1", "best"],
    ]);
    expect(tab.articles[0]!.cover_image).toBeNull();
    expect(tab.articles[1]!.cover_image?.url).toBe("/media/pins/101/236x.jpg");
    expect(tab.previous_date).toBe("2026-09-20");
    expect(tab.next_date).toBeNull();
  });

  it("answers a given day, 404 for a day without articles and 400 for a date that is not one", async () => {
    const { data: tab } = await data<{ date: string; articles: Item[]; previous_date: string; next_date: string }>(resource("TodayTabResource", { date: "2026-09-20" }));
    expect([tab.date, tab.previous_date, tab.next_date]).toEqual(["2026-09-20", "2026-09-18", "2026-09-21"]);
    expect(tab.articles.map((article) => article.title)).toEqual(["Crème brûlée à la maison"]);
    expect((await get(resource("TodayTabResource", { date: "2026-09-19" }))).status).toBe(404);
    expect((await get(resource("TodayTabResource", { date: "2026-09-22" }))).status).toBe(404);
    const bad = await data(resource("TodayTabResource", { date: "2026-13-01" }));
    expect(bad.status).toBe(400);
    expect(bad.message).toContain("date");
  });
});

describe("TodayArticleFeedResource", () => {
  it("pages every published article newest first by bookmark, to the end marker", async () => {
    const seen: string[] = [];
    let bookmark: string | undefined;
    for (let page = 0; page < 10; page++) {
      const { status, data: answer } = await data<{ results: Item[]; bookmark: string }>(resource("TodayArticleFeedResource", { page_size: 5, ...(bookmark ? { bookmark } : {}) }));
      expect(status).toBe(200);
      seen.push(...answer.results.map((item) => item.id));
      if (answer.bookmark === "-end-") break;
      bookmark = answer.bookmark;
    }
    expect(seen).toEqual(["2", "1", "3", "10", "11", "12", "13", "14", "15", "16", "17", "18"]);
  });

  it("refuses a bookmark it did not write and a page size over 50", async () => {
    expect((await get(resource("TodayArticleFeedResource", { bookmark: "nope" }))).status).toBe(400);
    expect((await get(resource("TodayArticleFeedResource", { page_size: 51 }))).status).toBe(400);
  });
});

describe("RelatedArticlesResource", () => {
  it("puts articles sharing pins first, then the same segment, then the nearest in time", async () => {
    const { status, data: answer } = await data<{ results: Item[]; bookmark: string }>(resource("RelatedArticlesResource", { article_id: "1" }));
    expect(status).toBe(200);
    // 2 shares pin 104; 12 (the 16th) is "best" like 1; then 3, a day before 1.
    expect(answer.results.slice(0, 3).map((item) => item.id)).toEqual(["2", "12", "3"]);
    expect(answer.results.map((item) => item.id)).not.toContain("1");
    expect(answer.results.map((item) => item.id)).not.toContain("4");
    expect(answer.bookmark).toBe("-end-");
  });

  it("gives an article page its \"More stories\", in the same order", async () => {
    const html = await (await get("/today/best/cozy-autumn-reads/1/")).text();
    const section = html.slice(html.indexOf('id="article-related-heading"'));
    expect(section).toContain(">More stories</h2>");
    const links = [...section.matchAll(/href="(\/today\/[^"]+)"/g)].map((match) => match[1]);
    expect(links.slice(0, 3)).toEqual(["/today/shop/gifts-under-50/2/", "/today/best/day-story-16/12/", "/today/trending/cr%C3%A8me-br%C3%BBl%C3%A9e-%C3%A0-la-maison/3/"]);
    expect(links).toHaveLength(6);
  });

  it("answers 404 for an unpublished or unknown article and 400 for an id that is not one", async () => {
    expect((await get(resource("RelatedArticlesResource", { article_id: "4" }))).status).toBe(404);
    expect((await get(resource("RelatedArticlesResource", { article_id: "999" }))).status).toBe(404);
    const bad = await data(resource("RelatedArticlesResource", { article_id: "x1" }));
    expect(bad.status).toBe(400);
    expect(bad.message).toContain("article_id");
  });
});
