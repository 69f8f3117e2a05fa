// Every page kind's head in the demo world, as a signed-out visitor and a crawler read it:
// structured data (parses, the right @type, its required properties), a share image, a
// description of 50–160 characters in every served locale, the robots policy of search pages
// and of profiles with nothing public, and the locales a page advertises.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { attributeOf, get } from "./fixtures.ts";
import { seedDemoWorld } from "./seeded-world.ts";
import { FIXTURES } from "../../scripts/seed/world.ts";

const SITE = "https://pinloom.example";
const P = FIXTURES.pins;
type JsonLd = Record<string, unknown> & { "@type": string };

/** Users added beside the demo world: one whose only board is secret, one with nothing at all. */
const HUSH = { id: 990001, username: "hush_secret_only", board: 990101, pin: 990201 };
const BLANK = { id: 990002, username: "blank_new_account" };
let articlePath = "";

beforeAll(async () => {
  await seedDemoWorld();
  const now = 1_790_000_000_000;
  await env.DB.batch([
    env.DB.prepare("INSERT INTO users (id, username, email, full_name, created_at) VALUES (?1, ?2, ?3, 'Hush Quiet', 0)").bind(HUSH.id, HUSH.username, `${HUSH.username}@pinloom.test`),
    env.DB.prepare("INSERT INTO users (id, username, email, full_name, created_at) VALUES (?1, ?2, ?3, 'Blank Slate', 0)").bind(BLANK.id, BLANK.username, `${BLANK.username}@pinloom.test`),
    env.DB.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (?1, ?2, 'Quiet plans', 'quiet-plans', 'secret', 0, 0)").bind(HUSH.board, HUSH.id),
    env.DB.prepare(
      `INSERT INTO pins (id, pinner_id, board_id, kind, title, image_signature, dominant_color, created_at, updated_at)
       VALUES (?1, ?2, ?3, 'image', 'A quiet plan', 'sig', '#a1b2c3', ?4, ?4)`,
    ).bind(HUSH.pin, HUSH.id, HUSH.board, now),
    env.DB.prepare("INSERT INTO board_pins (board_id, pin_id, position, saved_by, created_at) VALUES (?1, ?2, 0, ?3, ?4)").bind(HUSH.board, HUSH.pin, HUSH.id, now),
  ]);
  const articles = await (await get("/sitemaps/articles-1.xml")).text();
  articlePath = new URL(/<loc>([^<]+)<\/loc>/.exec(articles)![1]!.replace(/&amp;/g, "&")).pathname;
}, 120_000);

function decode(text: string): string {
  return text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

function jsonLdOf(html: string): JsonLd[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((match) => JSON.parse(match[1]!) as JsonLd);
}

function blockOf(html: string, type: string): JsonLd {
  const block = jsonLdOf(html).find((candidate) => candidate["@type"] === type);
  expect(block, `a ${type} block`).toBeDefined();
  expect(block!["@context"]).toBe("https://schema.org");
  return block!;
}

async function meta(html: string, key: string): Promise<string | null> {
  const value = (await attributeOf(html, `meta[property="${key}"]`, "content")) ?? (await attributeOf(html, `meta[name="${key}"]`, "content"));
  return value === null ? null : decode(value);
}

async function page(path: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await get(path, headers);
  expect(response.status, path).toBeLessThan(500);
  return response.text();
}

describe("structured data", () => {
  it("home: WebSite with a SearchAction on the real search URL, and the Organization", async () => {
    const html = await page("/");
    const site = blockOf(html, "WebSite");
    expect(site.url).toBe(`${SITE}/`);
    expect(site.name).toBe("Pinloom");
    const action = site.potentialAction as Record<string, unknown>;
    expect(action["@type"]).toBe("SearchAction");
    expect((action.target as Record<string, unknown>).urlTemplate).toBe(`${SITE}/search/pins/?q={search_term_string}`);
    expect(action["query-input"]).toBe("required name=search_term_string");
    // The template, filled in, is a search page that answers without a redirect.
    expect((await get("/search/pins/?q=cake")).status).toBe(200);
    const organization = blockOf(html, "Organization");
    expect(organization.name).toBe("Pinloom");
    expect(organization.url).toBe(`${SITE}/`);
    expect(organization.logo).toBe(`${SITE}/images/pinloom-logo.png`);
  });

  it("board: a CollectionPage listing its pins in order, each a close-up that opens", async () => {
    const html = await page("/sam/lisbon-trip/");
    const collection = blockOf(html, "CollectionPage");
    expect(collection.url).toBe(`${SITE}/sam/lisbon-trip/`);
    expect(collection.name).toBe("Lisbon trip");
    const list = collection.mainEntity as { "@type": string; numberOfItems: number; itemListElement: Array<{ position: number; url: string }> };
    expect(list["@type"]).toBe("ItemList");
    expect(list.itemListElement.length).toBeGreaterThan(0);
    expect(list.numberOfItems).toBe(list.itemListElement.length);
    expect(list.itemListElement.map((item) => item.position)).toEqual(list.itemListElement.map((_, index) => index + 1));
    // The same pins, in the same order, as the grid the page shows.
    const gridPins = [...html.matchAll(/<li[^>]*>\s*<a[^>]*href="(\/pin\/\d+\/)"/g)].map((match) => `${SITE}${match[1]}`);
    expect(list.itemListElement.map((item) => item.url)).toEqual([...new Set(gridPins)].slice(0, list.itemListElement.length));
    // The hidden and unsafe pins of this board are never listed; every listed one opens.
    const urls = list.itemListElement.map((item) => item.url);
    expect(urls).not.toContain(`${SITE}/pin/${P.hidden}/`);
    for (const url of urls) expect((await get(new URL(url).pathname)).status, url).toBe(200);
  });

  it("profile: a ProfilePage about a Person", async () => {
    const profile = blockOf(await page("/demo/"), "ProfilePage");
    expect(profile.url).toBe(`${SITE}/demo/`);
    const person = profile.mainEntity as Record<string, unknown>;
    expect(person["@type"]).toBe("Person");
    expect(person.name).toBe("Ava Thompson");
    expect(person.alternateName).toBe("@demo");
    expect(person.url).toBe(`${SITE}/demo/`);
  });

  it("profile of a business account: a ProfilePage about an Organization, by its business name", async () => {
    const profile = blockOf(await page("/bakeandbloom/"), "ProfilePage");
    const business = profile.mainEntity as Record<string, unknown>;
    expect(business["@type"]).toBe("Organization");
    expect(business.name).toBe("Bake & Bloom Studio");
    expect(business.url).toBe(`${SITE}/bakeandbloom/`);
  });

  it.each([
    ["image", P.image, ["SocialMediaPosting"]],
    ["video", P.video, ["VideoObject"]],
    ["recipe", P.recipe, ["Recipe"]],
    ["product", P.product, ["Product"]],
  ])("%s pin: its type, with a name, an image and a breadcrumb", async (_, id, types) => {
    const html = await page(`/pin/${id}/`);
    for (const type of types) {
      const block = blockOf(html, type);
      expect(block.url).toBe(`${SITE}/pin/${id}/`);
      expect(typeof block.name === "string" && block.name.length > 0).toBe(true);
      expect(String(block.image ?? block.thumbnailUrl)).toMatch(/^https:\/\/pinloom\.example\/media\//);
    }
    const crumbs = blockOf(html, "BreadcrumbList").itemListElement as Array<{ position: number; item: string }>;
    expect(crumbs.at(-1)?.item).toBe(`${SITE}/pin/${id}/`);
  });

  it("video pin: VideoObject's required thumbnail and upload date", async () => {
    const video = blockOf(await page(`/pin/${P.video}/`), "VideoObject");
    expect(String(video.thumbnailUrl)).toMatch(/^https:\/\/pinloom\.example\//);
    expect(typeof video.uploadDate).toBe("string");
  });

  it("product pin: a Product with an Offer carrying price and currency", async () => {
    const product = blockOf(await page(`/pin/${P.product}/`), "Product");
    const offer = product.offers as Record<string, unknown>;
    expect(["Offer", "AggregateOffer"]).toContain(offer["@type"]);
    expect(typeof offer.priceCurrency).toBe("string");
  });

  it("article: an Article with a headline, an image, a date and a publisher", async () => {
    const article = blockOf(await page(articlePath), "Article");
    expect(article.url).toBe(`${SITE}${articlePath}`);
    expect(typeof article.headline).toBe("string");
    expect(String(article.image)).toMatch(/^https:\/\/pinloom\.example\//);
    expect(typeof article.datePublished).toBe("string");
    expect((article.publisher as Record<string, unknown>)["@type"]).toBe("Organization");
  });
});

describe("share images", () => {
  it("home has the site's 1200×630 image, with its alt text", async () => {
    const html = await page("/");
    expect(await meta(html, "og:image")).toBe(`${SITE}/images/pinloom-share.png`);
    expect(await meta(html, "og:image:width")).toBe("1200");
    expect(await meta(html, "og:image:height")).toBe("630");
    expect(await meta(html, "og:image:alt")).toBe("Pinloom: ideas to discover and save to boards");
    expect(await meta(html, "twitter:card")).toBe("summary_large_image");
  });

  it("the site's image is served", async () => {
    const response = await get("/images/pinloom-share.png");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("image/png");
    await response.arrayBuffer();
  });

  it.each([
    ["board", "/sam/lisbon-trip/", "A pin from Lisbon trip, a board by"],
    ["profile", "/demo/", "A pin from Ava Thompson's profile on Pinloom"],
  ])("%s: a visible pin's 600x315 rendition", async (_, path, alt) => {
    const html = await page(path);
    const image = await meta(html, "og:image");
    expect(image).toMatch(/^https:\/\/pinloom\.example\/media\/.+\/600x315\.jpg$/);
    expect(await meta(html, "og:image:width")).toBe("600");
    expect(await meta(html, "og:image:height")).toBe("315");
    expect(await meta(html, "og:image:alt")).toContain(alt);
    const row = await env.DB.prepare("SELECT pin_id FROM pin_images WHERE url = ?1 AND size = '600x315'").bind(new URL(image!).pathname).first<{ pin_id: number }>();
    expect(row, "the image is a pin's stored rendition").not.toBeNull();
    expect((await get(`/pin/${row!.pin_id}/`)).status).toBe(200);
  });

  it("a profile with nothing public to show falls back to the site's image", async () => {
    expect(await meta(await page(`/${BLANK.username}/`), "og:image")).toBe(`${SITE}/images/pinloom-share.png`);
  });

  it.each([
    ["search", "/search/pins/?q=cake"],
    ["login", "/login/"],
    ["not found", "/no-such-person-here/"],
  ])("%s has a share image", async (_, path) => {
    expect(await meta(await page(path), "og:image")).toMatch(/^https:\/\/pinloom\.example\//);
  });

  it("a pin shares its own picture", async () => {
    expect(await meta(await page(`/pin/${P.image}/`), "og:image")).toMatch(/^https:\/\/pinloom\.example\/media\//);
  });
});

describe("descriptions", () => {
  const PATHS = () => [
    "/",
    `/pin/${P.image}/`,
    `/pin/${P.video}/`,
    `/pin/${P.story}/`,
    `/pin/${P.recipe}/`,
    `/pin/${P.article}/`,
    `/pin/${P.product}/`,
    "/demo/weeknight-dinners/",
    "/sam/lisbon-trip/",
    "/demo/",
    "/bakeandbloom/",
    `/${BLANK.username}/`,
    "/search/pins/?q=cake",
    "/search/pins/",
    articlePath,
    "/login/",
    "/signup/",
    "/no-such-person-here/",
  ];

  it.each(["en_US", "fr", "ar_SA"])("every page kind in %s has 50 to 160 characters", async (locale) => {
    const short: string[] = [];
    for (const path of PATHS()) {
      const html = await page(path, locale === "en_US" ? {} : { cookie: `pinloom_locale=${locale}` });
      const description = (await meta(html, "description")) ?? "";
      if (description.length < 50 || description.length > 160) short.push(`${path}: ${description.length} "${description}"`);
      expect(await meta(html, "og:description")).toBe(description);
    }
    expect(short).toEqual([]);
  });
});

describe("robots policy", () => {
  it("search result pages are noindex, follow", async () => {
    for (const path of ["/search/pins/?q=cake", "/search/boards/?q=dinner", "/search/people/?q=ava", "/search/pins/"]) {
      expect(await meta(await page(path), "robots"), path).toBe("noindex, follow");
    }
  });

  it("a profile whose only board is secret is noindex, and out of the sitemap", async () => {
    const response = await get(`/${HUSH.username}/`);
    expect(response.status).toBe(200);
    expect(await meta(await response.text(), "robots")).toBe("noindex, follow");
    expect(await (await get("/sitemaps/profiles-1.xml")).text()).not.toContain(HUSH.username);
  });

  it("an account with no content is noindex", async () => {
    expect(await meta(await page(`/${BLANK.username}/`), "robots")).toBe("noindex, follow");
  });

  it("a profile with public boards and pins stays indexable", async () => {
    expect(await meta(await page("/demo/"), "robots")).toBe("index, follow, max-image-preview:large");
    expect(await (await get("/sitemaps/profiles-1.xml")).text()).toContain(`${SITE}/demo/<`);
  });
});

describe("locales in the head", () => {
  // Spec 000 §9's 45, as BCP 47 tags, in the order of their ids.
  const COMPLETE = [
    "af-ZA", "ar-SA", "bg-BG", "bn-IN", "cs-CZ", "da-DK", "de", "el-GR", "en-AU", "en-GB", "en-IN", "en-US", "es-419", "es-AR", "es-ES",
    "es-MX", "es-US", "fi-FI", "fr", "he-IL", "hi-IN", "hr-HR", "hu-HU", "id-ID", "it", "ja", "ko-KR", "ms-MY", "nb-NO", "nl", "pl-PL",
    "pt-BR", "pt-PT", "ro-RO", "ru-RU", "sk-SK", "sv-SE", "te-IN", "th-TH", "tl-PH", "tr", "uk-UA", "vi-VN", "zh-CN", "zh-TW",
  ];

  it("advertises every complete locale, and English at one URL", async () => {
    const html = await page(`/pin/${P.image}/`);
    const alternates = [...html.matchAll(/<link rel="alternate" href="([^"]+)" hreflang="([^"]+)"/g)].map((match) => [match[2]!, decode(match[1]!)]);
    expect(alternates.map(([lang]) => lang)).toEqual([...COMPLETE, "x-default"]);
    const canonical = await attributeOf(html, 'link[rel="canonical"]', "href");
    expect(canonical).toBe(`${SITE}/pin/${P.image}/`);
    expect(Object.fromEntries(alternates)["en-US"]).toBe(canonical);
    expect(Object.fromEntries(alternates)["x-default"]).toBe(canonical);
    expect(Object.fromEntries(alternates)["fr"]).toBe(`${SITE}/pin/${P.image}/?locale=fr`);
    expect(Object.fromEntries(alternates)["es-419"]).toBe(`${SITE}/pin/${P.image}/?locale=es_419`);
  });

  it.each([
    ["?locale=de", `/pin/${P.image}/?locale=de`, {}, { lang: "de", dir: "ltr", query: "de", og: "de_DE", visit: "Website besuchen" }],
    ["?locale=he_IL", `/pin/${P.image}/?locale=he_IL`, {}, { lang: "he-IL", dir: "rtl", query: "he_IL", og: "he_IL", visit: "מעבר לאתר" }],
    ["Accept-Language: de", `/pin/${P.image}/`, { "accept-language": "de-DE,de;q=0.9" }, { lang: "de", dir: "ltr", query: "de", og: "de_DE", visit: "Website besuchen" }],
    ["a cookie naming ja", `/pin/${P.image}/`, { cookie: "pinloom_locale=ja" }, { lang: "ja", dir: "ltr", query: "ja", og: "ja_JP", visit: "サイトにアクセス" }],
  ])("a locale asked for by %s is its own page, in its own words and direction", async (_, path, headers, want) => {
    const html = await page(path, headers);
    expect(await attributeOf(html, "html", "lang")).toBe(want.lang);
    expect(await attributeOf(html, "html", "dir")).toBe(want.dir);
    expect(await attributeOf(html, 'link[rel="canonical"]', "href")).toBe(`${SITE}/pin/${P.image}/?locale=${want.query}`);
    expect(await meta(html, "og:locale")).toBe(want.og);
    expect(html).toContain(want.visit);
  });

  it("a complete locale is its own page, canonical to its own URL, with the right og:locale", async () => {
    const french = await page("/?locale=fr");
    expect(await attributeOf(french, "html", "lang")).toBe("fr");
    expect(await attributeOf(french, 'link[rel="canonical"]', "href")).toBe(`${SITE}/?locale=fr`);
    expect(await meta(french, "og:locale")).toBe("fr_FR");
    const arabic = await page("/", { "accept-language": "ar" });
    expect([await attributeOf(arabic, "html", "lang"), await attributeOf(arabic, "html", "dir")]).toEqual(["ar-SA", "rtl"]);
    expect(await attributeOf(arabic, 'link[rel="canonical"]', "href")).toBe(`${SITE}/?locale=ar_SA`);
  });

  it("the sitemap names each page once, at its English URL, with every language version", async () => {
    const xml = await (await get("/sitemaps/pins-1.xml")).text();
    const page = `${SITE}/pin/${P.image}/`;
    expect(xml.split(`<loc>${page}</loc>`).length).toBe(2);
    const entry = xml.slice(xml.indexOf(`<loc>${page}</loc>`), xml.indexOf("</url>", xml.indexOf(`<loc>${page}</loc>`)));
    expect([...entry.matchAll(/hreflang="([^"]+)"/g)].map((match) => match[1])).toEqual([...COMPLETE, "x-default"]);
    expect(entry).toContain(`hreflang="he-IL" href="${page}?locale=he_IL"`);
  });
});
