// The client runtime's server side: X-App-Version on every answer (pages, JSON, errors, the floor),
// the same version in the page's manifest and context, no runtime for crawlers, and
// GET /_/_/state for shared renders.
import { beforeAll, describe, expect, it } from "vitest";
import { attributeOf, BROWSER_UA, fetchWorker, get, GOOGLEBOT_UA, seedWorld } from "./fixtures.ts";
import { env } from "cloudflare:workers";
import { hashPassword } from "~/accounts/password.ts";
import { Browser, PASSWORD } from "./accounts-helpers.ts";
import { assignExperiments, HOME_FEED_RESTORE_EXPERIMENT } from "~/experiments/experiments.ts";

const manifestOf = (html: string) => JSON.parse(/<script type="application\/json" id="pinloom-manifest">([^<]*)<\/script>/.exec(html)?.[1] ?? "null") as { version: string } | null;
const contextOf = (html: string) => JSON.parse(/<script type="application\/json" id="pinloom-context">([^<]*)<\/script>/.exec(html)?.[1] ?? "null") as Record<string, unknown> | null;

beforeAll(async () => {
  await seedWorld([{ id: 101 }]);
  // The world's pin owner, ana, gets a password to sign in with.
  await env.DB.prepare("UPDATE users SET password_hash = ?1 WHERE id = 1").bind(await hashPassword(PASSWORD, new Uint8Array(16).fill(1))).run();
});

describe("X-App-Version", () => {
  it("is on every kind of answer, the same build everywhere", async () => {
    const answers = await Promise.all([
      get("/"),
      get("/pin/101/"),
      get("/healthz"),
      get("/no-such-page/"),
      get("/resource/NoSuchResource/get/?data=%7B%7D"),
      fetchWorker("/v3/spam/fingerprints/", { method: "POST", headers: { origin: "https://evil.test" } }),
    ]);
    const versions = answers.map((response) => response.headers.get("x-app-version"));
    expect(versions[0]).toMatch(/^[0-9a-z-]{4,64}$/);
    expect(new Set(versions)).toEqual(new Set([versions[0]]));
    expect(answers.map((response) => response.status)).toEqual([200, 200, 200, 404, expect.any(Number), 403]);
  });

  it("matches the version the page's runtime was built with", async () => {
    const response = await get("/pin/101/");
    const html = await response.text();
    expect(manifestOf(html)?.version).toBe(response.headers.get("x-app-version"));
    expect(contextOf(html)?.["appVersion"]).toBe(response.headers.get("x-app-version"));
  });
});

describe("the runtime entry", () => {
  it("is on a person's page", async () => {
    const html = await (await get("/pin/101/")).text();
    expect(manifestOf(html)).not.toBeNull();
    expect(await attributeOf(html, "video[data-autoplay], img.pin-media", "class")).toContain("pin-media");
  });

  it.each([
    ["a crawler", "/pin/101/", { "user-agent": GOOGLEBOT_UA }],
    ["server_only", "/pin/101/?server_only=1", { "user-agent": BROWSER_UA }],
  ])("is left out for %s", async (_name, path, headers) => {
    const html = await (await fetchWorker(path, { headers })).text();
    expect(manifestOf(html)).toBeNull();
    expect(html).not.toMatch(/<script(?![^>]*application\/(ld\+)?json)[^>]*>/);
  });
});

describe("GET /_/_/state", () => {
  it("answers a signed-out viewer's full state for the page it names, never cached", async () => {
    const response = await get(`/_/_/state?source_url=${encodeURIComponent("/pin/101/?invite_code=abc&locale=fr&utm_campaign=spring")}`, { "cf-ipcountry": "DE" });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const body = await response.json<{ status: string; data: Record<string, unknown> }>();
    expect(body.status).toBe("success");
    expect(body.data).toMatchObject({
      renderMode: "personal",
      loginState: "UNAUTH",
      viewer: null,
      country: "DE",
      locale: "fr",
      fullPath: "/pin/101/?invite_code=abc&locale=fr&utm_campaign=spring",
      inviteCode: "abc",
      utmCampaign: "spring",
      landingPageType: "closeup",
      appVersion: response.headers.get("x-app-version"),
      experiments: {},
    });
    expect(body.data["userAgent"]).toMatchObject({ browserName: expect.any(String) });
  });

  it("answers for the request itself without source_url", async () => {
    const body = await (await get("/_/_/state")).json<{ data: Record<string, unknown> }>();
    expect(body.data["fullPath"]).toBe("/_/_/state");
  });

  it("carries the signed-in viewer and days to expiry", async () => {
    const browser = new Browser();
    await browser.login("ana");
    const body = await (await browser.fetch("/_/_/state?source_url=%2F")).json<{ data: Record<string, unknown> }>();
    expect(body.data).toMatchObject({ loginState: "AUTH", viewer: { id: "1", username: "ana" }, fullPath: "/" });
    expect(body.data["daysToExpiration"]).toBeGreaterThan(0);
    // Experiment groups by account id: the same answer in the state and in her pages' own context.
    expect(body.data["experiments"]).toEqual(assignExperiments(1));
    expect(Object.keys(body.data["experiments"] as object)).toContain(HOME_FEED_RESTORE_EXPERIMENT);
    const html = await (await browser.fetch("/")).text();
    const embedded = JSON.parse(/<script type="application\/json" id="pinloom-context">(.*?)<\/script>/s.exec(html)![1]!) as Record<string, unknown>;
    expect(embedded["experiments"]).toEqual(assignExperiments(1));
  });

  it.each([
    ["an absolute URL", "https://evil.test/pin/1/"],
    ["a protocol-relative URL", "//evil.test/"],
    ["a backslash trick", "/\\evil.test/"],
    ["no leading slash", "pin/1/"],
    ["an overlong path", `/${"a".repeat(2048)}`],
  ])("refuses %s as source_url with a 400 naming the field", async (_name, source) => {
    const response = await get(`/_/_/state?source_url=${encodeURIComponent(source)}`);
    expect(response.status).toBe(400);
    const body = await response.json<Record<string, unknown>>();
    expect(JSON.stringify(body)).toContain("source_url");
    expect(JSON.stringify(body)).not.toContain("evil.test");
  });
});

