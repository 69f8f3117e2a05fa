import { beforeAll, describe, expect, it } from "vitest";
import { purgePage, pageCacheKey, SHARED_CACHE_CONTROL } from "~/server/page-cache.ts";
import { BASE, GOOGLEBOT_UA, countElements, fetchWorker, get, seedWorld } from "./fixtures.ts";

beforeAll(async () => {
  await seedWorld([{ id: 101, title: "Lemon tart" }, { id: 102, title: "Fig jam" }, { id: 103, title: "Pear cake" }, { id: 104, title: "Plum pie" }]);
});

const status = (response: Response) => response.headers.get("x-pinloom-cache");

/** The store happens in waitUntil: ask again until the entry is there (bounded). */
async function untilHit(path: string, headers: Record<string, string> = {}): Promise<Response> {
  for (let attempt = 0; attempt < 40; attempt++) {
    const response = await get(path, headers);
    if (status(response) === "HIT") return response;
    await response.arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${path} never became a cache hit`);
}

describe("signed-out pages are shared through the edge cache", () => {
  it("the first visitor misses, the next one hits, with shared cache headers", async () => {
    const first = await get("/pin/101/");
    expect(status(first)).toBe("MISS");
    expect(first.headers.get("cache-control")).toBe(SHARED_CACHE_CONTROL);
    await first.arrayBuffer();
    const second = await untilHit("/pin/101/");
    expect(second.status).toBe(200);
    expect(await second.text()).toContain("Lemon tart");
    expect(second.headers.get("vary")).toContain("Accept-Language");
    // Hits from the Cache API and from the isolate's memory answer with the same headers.
    for (const hit of [second, await untilHit("/pin/101/")]) {
      expect(hit.headers.get("cache-control")).toBe(SHARED_CACHE_CONTROL);
      expect(hit.headers.has("x-pinloom-stored-at")).toBe(false);
      expect(hit.headers.get("content-type")).toContain("text/html");
      if (!hit.bodyUsed) await hit.arrayBuffer();
    }
  });

  it("a cached page carries nothing of the visitor who caused it", async () => {
    const first = await get("/pin/102/?invite_code=secret-invite-123", { "cf-ray": "ray-of-visitor-one", "cf-ipcountry": "BR", cookie: "" });
    const firstCookie = first.headers.get("set-cookie");
    const firstHtml = await first.text();
    expect(firstHtml).not.toContain("ray-of-visitor-one");
    const second = await untilHit("/pin/102/");
    const html = await second.text();
    for (const personal of ["ray-of-visitor-one", "secret-invite-123", '"country"', '"userAgent"', "requestIdentifier"]) expect(html).not.toContain(personal);
    expect(html).toContain('"renderMode":"shared"');
    // Each visitor without a token gets their own, issued after the cache: never stored, never shared.
    const token = (cookie: string | null) => /csrftoken=([a-f0-9]+)/.exec(cookie ?? "")?.[1];
    expect(token(second.headers.get("set-cookie"))).toBeDefined();
    expect(token(second.headers.get("set-cookie"))).not.toBe(token(firstCookie));
    expect(second.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
  });

  it("crawlers have their own script-free variant", async () => {
    await (await get("/pin/103/")).arrayBuffer();
    await untilHit("/pin/103/");
    const crawler = await get("/pin/103/", { "user-agent": GOOGLEBOT_UA });
    const html = await crawler.text();
    expect(await countElements(html, 'script:not([type="application/ld+json"]):not([type="application/json"])')).toBe(0);
    const again = await untilHit("/pin/103/", { "user-agent": GOOGLEBOT_UA });
    expect(await countElements(await again.text(), "astro-island")).toBe(0);
  });

  it("each locale has its own entry", async () => {
    await (await get("/pin/104/", { "accept-language": "fr" })).arrayBuffer();
    const french = await untilHit("/pin/104/", { "accept-language": "fr" });
    expect(await french.text()).toContain('lang="fr"');
    const arabic = await get("/pin/104/", { "accept-language": "ar" });
    expect(status(arabic)).toBe("MISS");
    expect(await arabic.text()).toContain('dir="rtl"');
  });

  it("tracking parameters share the entry; other parameters do not", () => {
    const key = (path: string) => pageCacheKey(new URL(path, BASE), "en_US", "full");
    expect(key("/pin/1/?utm_campaign=x&utm_content=y&fbclid=z")).toBe(key("/pin/1/"));
    expect(key("/search/pins/?q=tart&rs=typed")).toBe(key("/search/pins/?rs=typed&q=tart"));
    expect(key("/search/pins/?q=tart")).not.toBe(key("/search/pins/?q=cake"));
    expect(pageCacheKey(new URL("/pin/1/", BASE), "fr", "full")).not.toBe(key("/pin/1/"));
    expect(pageCacheKey(new URL("/pin/1/", BASE), "en_US", "bare")).not.toBe(key("/pin/1/"));
    // A new deploy does not serve the old build's renders (they name its hashed assets).
    expect(pageCacheKey(new URL("/pin/1/", BASE), "en_US", "full", "next-build")).not.toBe(key("/pin/1/"));
    // A URL naming its locale has its own head (canonical, hreflang): not the cookie's French page.
    expect(pageCacheKey(new URL("/pin/1/?locale=fr", BASE), "fr", "full")).not.toBe(pageCacheKey(new URL("/pin/1/", BASE), "fr", "full"));
    expect(pageCacheKey(new URL("/pin/1/?locale=nonsense", BASE), "fr", "full")).toBe(pageCacheKey(new URL("/pin/1/", BASE), "fr", "full"));
  });

  it("a URL with more parameters than a key holds is rendered, never stored", async () => {
    const junk = Array.from({ length: 10 }, (_, i) => `a${i}=1`).join("&");
    for (const cursor of ["first", "second"]) {
      const response = await get(`/pin/101/?${junk}&related_cursor=${cursor}`);
      expect(status(response)).toBe("BYPASS");
      expect(response.headers.get("cache-control") ?? "").not.toContain("s-maxage");
      await response.arrayBuffer();
    }
  });

  it("errors and missing pages are not shared", async () => {
    const missing = await get("/pin/999/");
    expect(missing.status).toBe(404);
    expect(status(missing)).toBe("BYPASS");
    await missing.arrayBuffer();
    expect(status(await get("/pin/999/"))).toBe("BYPASS");
  });

  it("a purge drops every locale and variant of a page from the edge cache", async () => {
    const build = (await untilHit("/pin/101/")).headers.get("x-app-version")!;
    await (await get("/pin/101/", { "user-agent": GOOGLEBOT_UA })).arrayBuffer();
    const cache = (caches as unknown as { default: Cache }).default;
    // The worker's own build names its entries (this test module's copy of the code says "dev").
    const keys = (["full", "bare"] as const).map((variant) => pageCacheKey(new URL("/pin/101/", BASE), "en_US", variant, build));
    await expect.poll(async () => (await Promise.all(keys.map((key) => cache.match(key)))).every(Boolean)).toBe(true);
    await purgePage(BASE, "/pin/101/", cache, build);
    for (const key of keys) expect(await cache.match(key)).toBeUndefined();
    // Copies held in memory by other isolates are fresh-only, so they end within FRESH_SECONDS.
  });

  it("a stale page that stopped being shareable is served once more, then dropped", async () => {
    // An old render of a page that now answers 404 (a board turned secret, a pin removed).
    const cache = (caches as unknown as { default: Cache }).default;
    const build = (await get("/healthz")).headers.get("x-app-version")!;
    const key = pageCacheKey(new URL("/pin/999/", BASE), "en_US", "full", build);
    const old = new Response("<!doctype html><title>Once public</title>", {
      headers: { "content-type": "text/html; charset=utf-8", "cache-control": "public, max-age=660", "x-pinloom-stored-at": String(Date.now() - 120_000) },
    });
    await cache.put(key, old);
    const stale = await get("/pin/999/");
    expect(status(stale)).toBe("STALE");
    expect(await stale.text()).toContain("Once public");
    await expect.poll(async () => (await cache.match(key)) === undefined).toBe(true);
    const after = await get("/pin/999/");
    expect(after.status).toBe(404);
    expect(await after.text()).not.toContain("Once public");
  });

  it("anything but a signed-out GET is private and never stored", async () => {
    const response = await fetchWorker("/pin/101/", { method: "POST", headers: { origin: BASE, cookie: `csrftoken=${"a".repeat(64)}`, "x-csrftoken": "a".repeat(64) } });
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    expect(status(response)).toBeNull();
  });
});
