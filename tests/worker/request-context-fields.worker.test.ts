// The embedded request context's fields read from the request (spec 000 §3): enableDefaultSuspense
// (shared renders), initialHandlerId (the page's route), isPrefetch, countryFromHostName,
// regionFromIp, isInternalIP, isManagedAdvertiser, unauthId and appTypeDetailed. A shared render
// carries only those every visitor of the URL shares.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { Browser } from "./accounts-helpers.ts";
import { BASE, BROWSER_UA, seedWorld } from "./fixtures.ts";
import { createSession } from "./session-fixture.ts";

const IPHONE_UA = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
const PARTNER = 77;
const PERSON = 78;

type Context = Record<string, unknown>;
const embedded = (html: string): Context => JSON.parse(/<script type="application\/json" id="pinloom-context">(.*?)<\/script>/s.exec(html)![1]!) as Context;

async function state(browser: Browser, sourceUrl: string, headers: Record<string, string> = {}): Promise<Context> {
  const response = await browser.fetch(`/_/_/state?source_url=${encodeURIComponent(sourceUrl)}`, { headers });
  expect(response.status).toBe(200);
  return (await response.json<{ data: Context }>()).data;
}

beforeAll(async () => {
  await seedWorld([{ id: 101 }]);
  await env.DB.batch([
    env.DB.prepare("INSERT INTO users (id, username, email, full_name, account_type, business_name, is_partner, domain_url, domain_verified, created_at) VALUES (?1, 'corner_shop', 'shop@pinloom.test', 'Corner Shop', 'business', 'Corner Shop', 1, 'https://corner.example', 1, 0)").bind(PARTNER),
    env.DB.prepare("INSERT INTO users (id, username, email, full_name, created_at) VALUES (?1, 'just_me', 'me@pinloom.test', 'Just Me', 0)").bind(PERSON),
  ]);
});

describe("a shared (signed-out) render", () => {
  it("embeds the page's handler and the loading boundary, and nothing per visitor", async () => {
    const html = await (await new Browser().fetch("/pin/101/", { headers: { "cf-connecting-ip": "10.1.2.3" } })).text();
    const context = embedded(html);
    expect(context).toMatchObject({ renderMode: "shared", enableDefaultSuspense: true, initialHandlerId: "/pin/[id]", countryFromHostName: null });
    for (const personal of ["unauthId", "isInternalIP", "isPrefetch", "regionFromIp", "appTypeDetailed", "isManagedAdvertiser"]) expect(context, personal).not.toHaveProperty(personal);
  });
});

describe("the viewer's state (GET /_/_/state)", () => {
  it("describes the page asked about, outside any loading boundary", async () => {
    const data = await state(new Browser(), "/cast_owner/cast-corkboard/kitchen-ideas/");
    expect(data).toMatchObject({ enableDefaultSuspense: false, initialHandlerId: "/[username]/[board]/[section]", isPrefetch: false, countryFromHostName: null, regionFromIp: null, isManagedAdvertiser: false, appTypeDetailed: "desktop_web" });
    expect((await state(new Browser(), "/today/"))["initialHandlerId"]).toBe("/today");
  });

  it("gives a signed-out browser a stable unauthId from its CSRF cookie, another browser another, and none signed in", async () => {
    const browser = new Browser();
    const first = (await state(browser, "/"))["unauthId"];
    expect(first).toMatch(/^[0-9a-f]{16}$/);
    expect((await state(browser, "/today/"))["unauthId"]).toBe(first);
    const other = new Browser();
    other.cookies.set("csrftoken", "d".repeat(64));
    expect((await state(other, "/"))["unauthId"]).not.toBe(first);
    const none = new Browser();
    none.cookies.delete("csrftoken");
    expect((await state(none, "/"))["unauthId"]).toBeNull();
    const signedIn = new Browser();
    signedIn.cookies.set("__Host-pinloom_sess", (await createSession(PERSON)).token);
    expect((await state(signedIn, "/"))["unauthId"]).toBeNull();
  });

  it("knows an internal address from a public one", async () => {
    expect((await state(new Browser("10.1.2.3"), "/"))["isInternalIP"]).toBe(true);
    expect((await state(new Browser("203.0.113.9"), "/"))["isInternalIP"]).toBe(false);
  });

  it("names the web client by device class", async () => {
    expect((await state(new Browser(), "/", { "user-agent": IPHONE_UA }))["appTypeDetailed"]).toBe("mobile_web");
    expect((await state(new Browser(), "/", { "user-agent": BROWSER_UA }))["appTypeDetailed"]).toBe("desktop_web");
  });

  it("marks a verified partner account as a managed advertiser, and nobody else", async () => {
    const partner = new Browser();
    partner.cookies.set("__Host-pinloom_sess", (await createSession(PARTNER)).token);
    expect((await state(partner, "/"))["isManagedAdvertiser"]).toBe(true);
    const person = new Browser();
    person.cookies.set("__Host-pinloom_sess", (await createSession(PERSON)).token);
    expect((await state(person, "/"))["isManagedAdvertiser"]).toBe(false);
  });

  it("reads the region from the edge's IP data", async () => {
    const { exports } = await import("cloudflare:workers");
    const request = new Request(new URL("/_/_/state", BASE), { headers: { "user-agent": BROWSER_UA }, cf: { country: "CA", regionCode: "QC" } } as RequestInit);
    const data = (await (await exports.default.fetch(request)).json<{ data: Context }>()).data;
    expect(data["regionFromIp"]).toBe("QC");
  });
});

describe("a personal (signed-in) render", () => {
  it("says whether the browser fetched it as a prefetch", async () => {
    const browser = new Browser();
    browser.cookies.set("__Host-pinloom_sess", (await createSession(PERSON)).token);
    const prefetched = embedded(await (await browser.fetch("/today/", { headers: { "sec-purpose": "prefetch" } })).text());
    expect(prefetched).toMatchObject({ renderMode: "personal", isPrefetch: true, enableDefaultSuspense: false, initialHandlerId: "/today" });
    expect(embedded(await (await browser.fetch("/today/")).text())["isPrefetch"]).toBe(false);
  });
});
