// Creating a pin from a website, against the built Worker: FindPinImagesResource reads a page's
// images (at most 50, absolute, blocked hosts dropped) with its title, description and link;
// fetching refuses private addresses on every redirect, stops reading a long page, takes only
// HTML and keeps its reading in KV; a found image is imported as an upload through the same path
// as a chosen file. The pages are served by tests/worker/fixture-sites.ts, never the network.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { Browser, fillCounter } from "./accounts-helpers.ts";
import { call, type ResourceAnswer } from "./boards-helpers.ts";
import { FIXTURE_SITE } from "./fixture-sites.ts";
import { GPS_SECRET, PNG_2X2 } from "./photo-fixture.ts";
import { browserAs, scalar } from "./social-fixture.ts";

const PEOPLE = { finder: 2301, importer: 2302, limited: 2303 } as const;
const IMPORT_PATH = "/v3/media/uploads/from-url/";
const CACHE_PREFIX = "find-images:v1:";

interface Found {
  url: string;
  title: string;
  description: string;
  link: string;
  items: Array<{ src: string; width: number | null; height: number | null; alt: string }>;
}

let finder: Browser;

beforeAll(async () => {
  await env.DB.batch([
    ...Object.entries(PEOPLE).map(([name, id]) =>
      env.DB.prepare("INSERT INTO users (id, username, email, full_name, first_name, email_verified, created_at) VALUES (?1, ?2, ?3, ?2, ?2, 1, 0)").bind(id, `web_${name}`, `${name}@from-website.test`),
    ),
    env.DB.prepare("INSERT INTO link_domains (domain, is_blocked) VALUES ('blocked.example', 1)"),
  ]);
  finder = await browserAs(PEOPLE.finder);
});

const find = (url: string, browser: Browser = finder): Promise<ResourceAnswer<Found>> => call<Found>(browser, "FindPinImagesResource", "get", { url, source: "pin_create" });

async function found(url: string): Promise<Found> {
  const answer = await find(url);
  expect(answer.status, JSON.stringify(answer.error)).toBe(200);
  return answer.data;
}

describe("FindPinImagesResource", () => {
  it("answers at most 50 images, in page order", async () => {
    const page = await found(`${FIXTURE_SITE}/many`);
    expect(page.items).toHaveLength(50);
    expect(page.items[0]).toEqual({ src: `${FIXTURE_SITE}/og.jpg`, width: null, height: null, alt: "" });
    expect(page.items[1]).toEqual({ src: `${FIXTURE_SITE}/photos/1.jpg`, width: 600, height: 800, alt: "Photo 1" });
    expect(page.items[49]!.src).toBe(`${FIXTURE_SITE}/photos/49.jpg`);
  });

  it("resolves every kind of relative address against the page, and reads its title, description and canonical link", async () => {
    const page = await found(`${FIXTURE_SITE}/relative/page.html`);
    expect(page).toEqual({
      url: `${FIXTURE_SITE}/relative/page.html`,
      title: "Weeknight noodles & greens",
      description: "Ready in 20 minutes \u2014 or less.",
      link: `${FIXTURE_SITE}/recipes/noodles/`,
      items: [
        { src: "https://cdn.fixture.example/og/noodles.jpg", width: 1200, height: 630, alt: "A bowl of noodles" },
        { src: `${FIXTURE_SITE}/relative/share.jpg`, width: null, height: null, alt: "" },
        { src: `${FIXTURE_SITE}/relative/bowl.jpg`, width: 640, height: 960, alt: "Bowl" },
        { src: `${FIXTURE_SITE}/chopsticks.png`, width: null, height: null, alt: "Chopsticks" },
        { src: `${FIXTURE_SITE}/img/greens.webp?w=1&h=2`, width: null, height: null, alt: "Greens" },
        { src: "https://static.fixture.example/steam.jpg", width: null, height: null, alt: "Steam" },
        { src: `${FIXTURE_SITE}/relative/large.jpg`, width: 1280, height: 1920, alt: "Responsive" },
        { src: `${FIXTURE_SITE}/relative/lazy.jpg`, width: null, height: null, alt: "Lazy" },
      ],
    });
  });

  it("drops images on a blocked host or its subdomains, and answers the page's own address for a blocked canonical link", async () => {
    const page = await found(`${FIXTURE_SITE}/blocked`);
    expect(page.items.map((item) => item.src)).toEqual(["https://fine.fixture.example/c.jpg", `${FIXTURE_SITE}/d.jpg`]);
    expect(page.link).toBe(`${FIXTURE_SITE}/blocked`);
  });

  it("refuses a page on a blocked host without reading it", async () => {
    const answer = await find("https://shop.blocked.example/page");
    expect(answer.status).toBe(400);
    expect(answer.error?.message_detail).toBe("url: Links to this site can't be added to Pins");
  });

  it("follows a redirect to a public page", async () => {
    const page = await found(`${FIXTURE_SITE}/redirect-to-page`);
    expect(page.url).toBe(`${FIXTURE_SITE}/relative/page.html`);
    expect(page.items).toHaveLength(8);
  });

  it.each([
    ["a loopback address", "/redirect-private"],
    ["a loopback address written as one number", "/redirect-decimal"],
    ["an IPv4-mapped IPv6 link-local address", "/redirect-mapped"],
  ])("refuses a redirect to %s", async (_name, path) => {
    const answer = await find(`${FIXTURE_SITE}${path}`);
    expect(answer.status).toBe(400);
    expect(answer.error?.message_detail).toBe("url: This page sends visitors on to a private network address, so it can't be read");
  });

  it("gives up on a page that keeps redirecting", async () => {
    const answer = await find(`${FIXTURE_SITE}/redirect-loop`);
    expect(answer.status).toBe(400);
    expect(answer.error?.message_detail).toBe("url: This page redirects more than 4 times, so it can't be read");
  });

  it.each([
    ["localhost", "http://localhost/"],
    ["a private address", "http://192.168.1.1/"],
    ["cloud metadata", "http://169.254.169.254/latest/meta-data/"],
    ["an IPv6 loopback", "http://[::1]/"],
    ["an .internal name", "http://metadata.google.internal/"],
  ])("refuses %s given directly", async (_name, url) => {
    const answer = await find(url);
    expect(answer.status).toBe(400);
    expect(answer.error?.message_detail).toBe("url: This address is on a private network. Enter the address of a public web page");
  });

  it("reads no further than the first megabyte of a page", async () => {
    const page = await found(`${FIXTURE_SITE}/huge`);
    expect(page.items).toEqual([{ src: `${FIXTURE_SITE}/first.jpg`, width: null, height: null, alt: "Before the limit" }]);
  });

  it("gives up on a page that stops sending after 8 seconds", async () => {
    const started = Date.now();
    const answer = await find(`${FIXTURE_SITE}/slow`);
    expect(answer.status).toBe(400);
    expect(answer.error?.message_detail).toBe("url: This page took too long to answer. Try again later");
    expect(Date.now() - started).toBeGreaterThanOrEqual(8_000);
  });

  it("refuses an answer that is not HTML with a 400 naming url", async () => {
    const answer = await find(`${FIXTURE_SITE}/data.json`);
    expect(answer.status).toBe(400);
    expect(answer.error?.message_detail).toBe("url: This address isn't a web page. Enter the address of a page with images");
  });

  it("refuses a page in a character set it cannot read with the same 400, never a 500", async () => {
    const answer = await find(`${FIXTURE_SITE}/utf16`);
    expect(answer.status).toBe(400);
    expect(answer.error?.message_detail).toBe("url: This address isn't a web page. Enter the address of a page with images");
  });

  it("says which error a page answered with", async () => {
    const answer = await find(`${FIXTURE_SITE}/missing`);
    expect(answer.status).toBe(400);
    expect(answer.error?.message_detail).toBe("url: This page answered with an error (404)");
  });

  it.each([
    ["another scheme", { url: "ftp://files.example/" }, "url: Enter a web address that starts with http:// or https://"],
    ["a 2,049-character address", { url: `${FIXTURE_SITE}/${"a".repeat(2049 - FIXTURE_SITE.length - 1)}` }, "options.url: must be at most 2048 characters"],
    ["no address", {}, "options.url: is required"],
    ["an unknown option", { url: `${FIXTURE_SITE}/many`, colour: "red" }, "options.colour: is not a known option"],
    ["another source", { url: `${FIXTURE_SITE}/many`, source: "search" }, "options.source"],
  ])("refuses %s with a 400 naming the field", async (_name, options, detail) => {
    const answer = await call(finder, "FindPinImagesResource", "get", options);
    expect(answer.status).toBe(400);
    expect(answer.error?.message_detail).toContain(detail);
  });

  it("keeps a page's reading in KV and answers from it without fetching the page again", async () => {
    const hits = async () => Number(await (await fetch(`${FIXTURE_SITE}/__hits/counted`)).text());
    const keysBefore = new Set((await env.CACHE.list({ prefix: CACHE_PREFIX })).keys.map((key) => key.name));
    const first = await found(`${FIXTURE_SITE}/counted`);
    expect(first.items).toEqual([{ src: `${FIXTURE_SITE}/counted.jpg`, width: null, height: null, alt: "Counted" }]);
    // The same page, written differently, is the same cache entry.
    await found("HTTPS://PAGES.fixture.example:443/counted#top");
    expect(await hits()).toBe(1);

    const added = (await env.CACHE.list({ prefix: CACHE_PREFIX })).keys.map((key) => key.name).filter((name) => !keysBefore.has(name));
    expect(added).toHaveLength(1);
    await env.CACHE.put(
      added[0]!,
      JSON.stringify({
        url: `${FIXTURE_SITE}/counted`,
        title: "From the cache",
        description: "Stored earlier",
        canonical: null,
        images: [
          { src: "https://cdn.fixture.example/cached.jpg", width: 300, height: 400, alt: "Cached" },
          { src: "https://blocked.example/cached.jpg", width: null, height: null, alt: "Blocked since" },
        ],
      }),
    );
    expect(await found(`${FIXTURE_SITE}/counted`)).toEqual({
      url: `${FIXTURE_SITE}/counted`,
      title: "From the cache",
      description: "Stored earlier",
      link: `${FIXTURE_SITE}/counted`,
      items: [{ src: "https://cdn.fixture.example/cached.jpg", width: 300, height: 400, alt: "Cached" }],
    });
    expect(await hits()).toBe(1);
  });

  it("is refused to a signed-out visitor", async () => {
    expect((await find(`${FIXTURE_SITE}/many`, new Browser())).status).toBe(401);
  });

  it("is paced per person", async () => {
    const limited = await browserAs(PEOPLE.limited);
    await fillCounter(`from-website:user:${PEOPLE.limited}`, 120, 10 * 60_000);
    expect((await find(`${FIXTURE_SITE}/many`, limited)).status).toBe(429);
  });
});

type UploadEnvelope = { status: string; data: { id: string; kind: string; content_type: string; width: number; height: number; status: string; images: Record<string, { url: string }> } | null; message_detail?: string | null };

async function importImage(browser: Browser, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: UploadEnvelope }> {
  const response = await browser.fetch(IMPORT_PATH, { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json", ...headers } });
  return { status: response.status, json: await response.json<UploadEnvelope>() };
}

async function stored(userId: number): Promise<{ objects: number; rows: number }> {
  const listed = await env.MEDIA.list({ prefix: `uploads/${userId}/` });
  return { objects: listed.objects.length, rows: (await scalar<number>("SELECT COUNT(*) FROM media_uploads WHERE user_id = ?1", userId)) ?? 0 };
}

describe("importing a found image", () => {
  it("stores it as an upload: measured, cut to every size, without its metadata", async () => {
    const importer = await browserAs(PEOPLE.importer);
    const { status, json } = await importImage(importer, { url: `${FIXTURE_SITE}/images/photo.png` });
    expect(status, JSON.stringify(json)).toBe(200);
    expect(json.data).toMatchObject({ kind: "image", content_type: "image/png", width: 2, height: 2, status: "uploaded" });
    expect(Object.keys(json.data!.images).sort()).toEqual(["136x136", "170x", "236x", "474x", "564x", "600x315", "60x60", "736x", "orig"]);
    const row = await env.DB.prepare("SELECT user_id, kind FROM media_uploads WHERE id = ?1").bind(json.data!.id).first();
    expect(row).toEqual({ user_id: PEOPLE.importer, kind: "image" });
    const original = await env.MEDIA.get(`uploads/${PEOPLE.importer}/${json.data!.id}/orig.png`);
    expect(new TextDecoder("latin1").decode(await original!.arrayBuffer())).not.toContain(GPS_SECRET);
  });

  it.each([
    ["a URL that is not an image", `${FIXTURE_SITE}/images/not-image.jpg`, "url: This address isn't a JPEG, PNG, WebP or GIF image"],
    ["an HTML page", `${FIXTURE_SITE}/many`, "url: This address isn't a JPEG, PNG, WebP or GIF image"],
    ["an image redirecting to a private address", `${FIXTURE_SITE}/redirect-image-private`, "url: This page sends visitors on to a private network address, so it can't be read"],
    ["a private address", "http://10.0.0.5/photo.png", "url: This address is on a private network. Enter the address of a public web page"],
    ["a blocked host", "https://blocked.example/photo.png", "url: Links to this site can't be added to Pins"],
    ["no url", undefined, "url: is required"],
  ])("refuses %s with a 400 naming url, storing nothing", async (_name, url, detail) => {
    const importer = await browserAs(PEOPLE.importer);
    const before = await stored(PEOPLE.importer);
    const { status, json } = await importImage(importer, url === undefined ? {} : { url });
    expect(status).toBe(400);
    expect(json.message_detail).toBe(detail);
    expect(await stored(PEOPLE.importer)).toEqual(before);
  });

  it("refuses a signed-out visitor with 401 and a call without the CSRF token with 403", async () => {
    const url = `${FIXTURE_SITE}/images/photo.png`;
    expect((await importImage(new Browser(), { url })).status).toBe(401);
    const noToken = await browserAs(PEOPLE.importer);
    noToken.cookies.delete("csrftoken");
    const before = await stored(PEOPLE.importer);
    expect((await importImage(noToken, { url }, { "x-csrftoken": "" })).status).toBe(403);
    expect(await stored(PEOPLE.importer)).toEqual(before);
  });
});

describe("previewing a found image", () => {
  const preview = (browser: Browser, url: string) => browser.fetch(`${IMPORT_PATH}?url=${encodeURIComponent(url)}`);

  it("answers the image's own bytes, typed by them, kept by the browser alone", async () => {
    const response = await preview(finder, `${FIXTURE_SITE}/images/photo.png`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("cache-control")).toBe("private, max-age=3600");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(btoa(String.fromCharCode(...new Uint8Array(await response.arrayBuffer())))).toBe(PNG_2X2);
  });

  it.each([
    ["a URL that is not an image", `${FIXTURE_SITE}/images/not-image.jpg`, "url: This address isn't a JPEG, PNG, WebP or GIF image"],
    ["a redirect to a private address", `${FIXTURE_SITE}/redirect-image-private`, "url: This page sends visitors on to a private network address, so it can't be read"],
    ["a private address", "http://[fd00::1]/photo.png", "url: This address is on a private network. Enter the address of a public web page"],
  ])("refuses %s with a 400 naming url", async (_name, url, detail) => {
    const response = await preview(finder, url);
    expect(response.status).toBe(400);
    expect((await response.json<{ message_detail: string }>()).message_detail).toBe(detail);
  });

  it("refuses a call without an address, and a signed-out visitor", async () => {
    const missing = await finder.fetch(IMPORT_PATH);
    expect(missing.status).toBe(400);
    expect((await missing.json<{ message_detail: string }>()).message_detail).toBe("url: is required");
    expect((await preview(new Browser(), `${FIXTURE_SITE}/images/photo.png`)).status).toBe(401);
  });

  it("answers only the site's own pages: another site's request is a 403", async () => {
    const url = `${IMPORT_PATH}?url=${encodeURIComponent(`${FIXTURE_SITE}/images/photo.png`)}`;
    expect((await finder.fetch(url, { headers: { "sec-fetch-site": "cross-site" } })).status).toBe(403);
    expect((await finder.fetch(url, { headers: { "sec-fetch-site": "same-origin" } })).status).toBe(200);
  });
});
