// D1 failing or answering with its timeout while a page or an API call reads: a signed-out page
// answers from the edge cache when it has the page (however stale), else a 503 page with
// Retry-After that no crawler indexes; API reads answer the JSON error envelope with 503 and
// Retry-After. Never a stack trace, never a 200 with an empty page.
import { beforeAll, describe, expect, it } from "vitest";
import { countElements, BASE, BROWSER_UA, GOOGLEBOT_UA, seedWorld } from "./fixtures.ts";
import { D1_CONNECTION_LOST, D1_OVERLOADED, D1_TIMEOUT, Faults, LEAKS } from "./faults.ts";
import { pageCacheKey } from "~/server/page-cache.ts";

const faults = new Faults();
const page = (path: string, userAgent = BROWSER_UA) => faults.fetch(path, { headers: { "user-agent": userAgent } });
const cacheStatus = (response: Response) => response.headers.get("x-pinloom-cache");

beforeAll(async () => {
  await seedWorld([{ id: 101, title: "Lemon tart" }, { id: 102, title: "Fig jam" }]);
});

/** A 503 page a crawler will not index and a person can act on, in the request's language. */
async function expectUnavailablePage(response: Response, words = { title: "We&#39;ll be right back", retry: "Try again" }): Promise<void> {
  expect(response.status).toBe(503);
  expect(response.headers.get("retry-after")).toBe("10");
  expect(response.headers.get("cache-control")).toContain("no-store");
  expect(response.headers.get("content-type")).toContain("text/html");
  const html = await response.text();
  expect(html).not.toMatch(LEAKS);
  expect(await countElements(html, 'meta[name="robots"][content*="noindex"]')).toBe(1);
  expect(html).toContain(words.title);
  expect(html).toContain(words.retry);
  // Nothing of the page it could not load: no grid, no pin.
  expect(html).not.toContain("Lemon tart");
}

describe("a signed-out page read while D1 is out of reach, with nothing cached", () => {
  const pages = [
    ["close-up", "/pin/101/"],
    ["home", "/"],
    ["board", "/ana/weeknight-dinners/"],
    ["profile", "/ana/"],
    ["search", "/search/pins/?q=lemon"],
  ] as const;

  for (const [name, path] of pages) {
    it(`the ${name} page answers a 503 page with Retry-After`, async () => {
      faults.failD1({ message: D1_CONNECTION_LOST });
      try {
        await expectUnavailablePage(await page(path));
      } finally {
        faults.heal();
      }
      await faults.settle();
    });
  }

  it("a crawler gets the same 503, never a 200 it would index", async () => {
    faults.failD1({ message: D1_OVERLOADED });
    try {
      const response = await page("/pin/102/", GOOGLEBOT_UA);
      await expectUnavailablePage(response);
    } finally {
      faults.heal();
    }
  });

  it("D1 answering late with its timeout gives the same 503", async () => {
    faults.failD1({ message: D1_TIMEOUT, delayMs: 50 });
    try {
      await expectUnavailablePage(await page("/ana/"));
    } finally {
      faults.heal();
    }
  });

  it("a read that fails after others succeeded still gives the 503, not a partial page", async () => {
    // The pin, its images, comments and related pins come back; the social block's read fails.
    faults.failD1({ when: /did_it_images_count AS did_it_images_count/ });
    try {
      await expectUnavailablePage(await page("/pin/101/?related_cursor=none"));
      expect(faults.log.some((sql) => sql.includes("FROM pin_images"))).toBe(true);
    } finally {
      faults.heal();
    }
  });

  it("the 503 page speaks the visitor's language", async () => {
    faults.failD1();
    try {
      const french = await faults.fetch("/ana/", { headers: { "user-agent": BROWSER_UA, "accept-language": "fr" } });
      await expectUnavailablePage(french, { title: "Nous revenons tout de suite", retry: "Réessayer" });
    } finally {
      faults.heal();
    }
  });

  it("a bug is still a 500, not a 503: only storage being away is", async () => {
    faults.failD1({ message: "D1_ERROR: no such column: p.nothing: SQLITE_ERROR" });
    try {
      const response = await page("/pin/101/");
      expect(response.status).toBe(500);
      expect(response.headers.has("retry-after")).toBe(false);
      expect(await response.text()).not.toMatch(LEAKS);
    } finally {
      faults.heal();
    }
  });

  it("the sitemap answers 503 with Retry-After and no XML", async () => {
    faults.failD1();
    try {
      for (const path of ["/sitemap.xml", "/sitemaps/pins-1.xml"]) {
        const response = await faults.fetch(path);
        expect(response.status).toBe(503);
        expect(response.headers.get("retry-after")).toBe("10");
        const text = await response.text();
        expect(text).not.toContain("<urlset");
        expect(text).not.toMatch(LEAKS);
      }
    } finally {
      faults.heal();
    }
  });

  it("an API read answers the JSON error envelope with 503 and Retry-After", async () => {
    faults.failD1();
    try {
      const response = await faults.fetch(`/resource/PinResource/get/?data=${encodeURIComponent(JSON.stringify({ options: { id: "101" } }))}`);
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("10");
      const text = await response.text();
      expect(text).not.toMatch(LEAKS);
      expect(JSON.parse(text)).toEqual({
        resource_response: {
          status: "failure",
          code: 20,
          message: "Pinloom is briefly unavailable. Please try again in a moment.",
          data: null,
          error: {
            api_error_code: 20,
            code: 20,
            message: "Pinloom is briefly unavailable. Please try again in a moment.",
            message_detail: null,
            extra_data: null,
            http_status: 503,
          },
        },
      });
    } finally {
      faults.heal();
    }
  });
});

describe("a signed-out page read while D1 is out of reach, with the page cached", () => {
  const cache = () => (caches as unknown as { default: Cache }).default;

  /** Puts a render of `path` in the edge cache as if it had been stored `ageSeconds` ago. */
  async function cachedRender(path: string, ageSeconds: number, body: string): Promise<void> {
    const build = (await faults.fetch("/healthz")).headers.get("x-app-version")!;
    const key = pageCacheKey(new URL(path, BASE), "en_US", "full", build);
    await cache().put(
      key,
      new Response(body, {
        headers: { "content-type": "text/html; charset=utf-8", "cache-control": "public, max-age=90000", "x-pinloom-stored-at": String(Date.now() - ageSeconds * 1000) },
      }),
    );
  }

  it("a page rendered before the outage is served from the cache, and stays there", async () => {
    const first = await page("/pin/101/");
    expect(first.status).toBe(200);
    expect(await first.text()).toContain("Lemon tart");
    await faults.settle();
    faults.failD1();
    try {
      for (let visit = 0; visit < 2; visit++) {
        const again = await page("/pin/101/");
        expect(again.status).toBe(200);
        expect(await again.text()).toContain("Lemon tart");
        await faults.settle();
      }
    } finally {
      faults.heal();
    }
  });

  it("a stale page is served, and the failed refresh behind it does not drop it", async () => {
    await cachedRender("/pin/102/", 120, "<!doctype html><title>Fig jam, as it was</title>");
    faults.failD1();
    try {
      const stale = await page("/pin/102/");
      expect(stale.status).toBe(200);
      expect(cacheStatus(stale)).toBe("STALE");
      expect(await stale.text()).toContain("Fig jam, as it was");
      // The background refresh failed (storage away): the old page is still there to serve.
      await faults.settle();
      const again = await page("/pin/102/");
      expect(again.status).toBe(200);
      expect(await again.text()).toContain("Fig jam, as it was");
      await faults.settle();
    } finally {
      faults.heal();
    }
  });

  it("a page past its stale window answers from the cache only while storage fails", async () => {
    await cachedRender("/ana/weeknight-dinners/", 2 * 60 * 60, "<!doctype html><title>Weeknight dinners, two hours ago</title>");
    faults.failD1();
    try {
      const old = await page("/ana/weeknight-dinners/");
      expect(old.status).toBe(200);
      expect(cacheStatus(old)).toBe("STALE");
      expect(await old.text()).toContain("two hours ago");
      await faults.settle();
    } finally {
      faults.heal();
    }
    // Storage back: the page is rendered afresh, not served two hours old.
    const fresh = await page("/ana/weeknight-dinners/");
    expect(fresh.status).toBe(200);
    expect(cacheStatus(fresh)).toBe("MISS");
    const html = await fresh.text();
    expect(html).not.toContain("two hours ago");
    expect(html).toContain("Weeknight dinners");
    await faults.settle();
  });
});
