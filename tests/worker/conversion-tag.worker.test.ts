// The conversion tag: its script served cacheable and small, events accepted cross-site from an
// advertiser's page and stored once per event id, refused with the field named and kept for tag
// health, unknown tags 404, a flood throttled; the hub's screens and test events for members only.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { fetchWorker } from "./fixtures.ts";
import { browserAs } from "./social-fixture.ts";

const OWNER = 41;
const STRANGER = 42;
const BUSINESS = 4100;
const ACCOUNT = 4110;
const TAG = 4120;
const SHOP = "https://shop.example";
const OWNER_HASH = "a06fb686407a9a3456db608bd15d7f2bb20112abdc4a9a3643d4d86d86070990";

beforeAll(async () => {
  const person = (id: number, name: string) => env.DB.prepare("INSERT INTO users (id, username, email, full_name, created_at) VALUES (?1, ?2, ?3, ?2, 0)").bind(id, name, `${name}@tag.test`);
  await env.DB.batch([
    person(OWNER, "tagowner"),
    person(STRANGER, "tagstranger"),
    env.DB.prepare(
      `INSERT INTO businesses (id, owner_id, profile_id, name, vertical, country, locale, onboarding, created_at, updated_at)
       VALUES (?1, ?2, ?2, 'Basket Co', 'HOME', 'US', 'en_US', '{}', 0, 0)`,
    ).bind(BUSINESS, OWNER),
    env.DB.prepare("INSERT INTO business_members (business_id, user_id, role, created_at) VALUES (?1, ?2, 'ADMIN', 0)").bind(BUSINESS, OWNER),
    env.DB.prepare("INSERT INTO ad_accounts (id, business_id, name, country, currency, created_by, created_at, updated_at) VALUES (?1, ?2, 'Basket Co US', 'US', 'USD', ?3, 0, 0)").bind(ACCOUNT, BUSINESS, OWNER),
    env.DB.prepare("INSERT INTO conversion_tags (id, business_id, ad_account_id, name, created_by, created_at, updated_at) VALUES (?1, ?2, ?3, 'Shop tag', ?4, 0, 0)").bind(TAG, BUSINESS, ACCOUNT, OWNER),
  ]);
});

let address = 0;
/** A POST as the tag sends it from the advertiser's page: cross-site, text/plain, no cookies. */
function send(body: unknown, tag = TAG, ip = `203.0.113.${++address % 250}`): Promise<Response> {
  return fetchWorker(`/ct/${tag}/events/`, {
    method: "POST",
    body: typeof body === "string" ? body : JSON.stringify(body),
    headers: { "content-type": "text/plain;charset=UTF-8", origin: SHOP, "sec-fetch-site": "cross-site", "cf-connecting-ip": ip },
  });
}

const stored = (eventId: string) => env.DB.prepare("SELECT COUNT(*) AS n FROM conversion_events WHERE ad_account_id = ?1 AND event_id = ?2").bind(ACCOUNT, eventId).first<{ n: number }>();

describe("the tag script", () => {
  it("is served as JavaScript, cacheable, with an ETag that answers 304, under 2 KB gzipped", async () => {
    const response = await fetchWorker(`/ct/${TAG}.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("public, max-age=3600, stale-while-revalidate=86400");
    expect(response.headers.get("set-cookie")).toBeNull();
    const etag = response.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const script = await response.text();
    expect(script).toContain(`"https://pinloom.test/ct/${TAG}/events/"`);
    const gzipped = await new Response(new Blob([script]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer();
    expect(gzipped.byteLength).toBeLessThan(2048);
    const again = await fetchWorker(`/ct/${TAG}.js`, { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
  });

  it("is not found for an unknown tag", async () => {
    expect((await fetchWorker("/ct/999999.js")).status).toBe(404);
  });
});

describe("events from the tag", () => {
  it("are accepted cross-site without a CSRF token, readable by the page, and stored with the tag's account", async () => {
    const response = await send({ events: [{ event_name: "checkout", event_id: "order-1", value: 24, currency: "usd", order_quantity: 2, click_id: "1234567890123" }] });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("set-cookie")).toBeNull();
    expect(await response.json()).toEqual({ status: "success", data: { received: 1, stored: 1 } });
    const row = await env.DB.prepare("SELECT tag_id, source, event_name, is_test, value_micro, currency, order_quantity, click_id FROM conversion_events WHERE event_id = 'order-1'").first();
    expect(row).toEqual({ tag_id: TAG, source: "TAG", event_name: "checkout", is_test: 0, value_micro: 24_000_000, currency: "USD", order_quantity: 2, click_id: "1234567890123" });
    const tag = await env.DB.prepare("SELECT last_fired_event FROM conversion_tags WHERE id = ?1").bind(TAG).first<{ last_fired_event: string }>();
    expect(JSON.parse(tag!.last_fired_event)).toMatchObject({ event_type: "checkout" });
  });

  it("store the same event id once however often it arrives", async () => {
    const event = { event_name: "add_to_cart", event_id: "cart-7" };
    expect(await (await send({ events: [event] })).json()).toMatchObject({ data: { received: 1, stored: 1 } });
    expect(await (await send({ events: [event, event] })).json()).toMatchObject({ data: { received: 2, stored: 0 } });
    expect(await stored("cart-7")).toEqual({ n: 1 });
  });

  it("match a person by an address sent in the clear, hashing it", async () => {
    // sha256("tagowner@tag.test"), from `printf %s tagowner@tag.test | sha256sum`.
    await env.DB.prepare("INSERT INTO email_match (email_sha256, user_id) VALUES (?1, ?2)").bind(OWNER_HASH, OWNER).run();
    await send({ events: [{ event_name: "signup", event_id: "signup-1", em: " TagOwner@tag.test " }] });
    expect(await env.DB.prepare("SELECT user_id FROM conversion_events WHERE event_id = 'signup-1'").first()).toEqual({ user_id: OWNER });
  });

  it("refuse a bad field with a 400 naming it, store nothing of the batch, and keep the error for tag health", async () => {
    const response = await send({ events: [{ event_name: "lead", event_id: "lead-ok" }, { event_name: "purchase", event_id: "p-1" }] });
    expect(response.status).toBe(400);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(JSON.stringify(await response.json())).toContain("events.1.event_name");
    expect(await stored("lead-ok")).toEqual({ n: 0 });
    expect(await env.DB.prepare("SELECT field, reason, event_name FROM conversion_tag_errors WHERE tag_id = ?1").bind(TAG).all().then((rows) => rows.results)).toEqual([
      { field: "event_name", reason: "validation.invalidValue", event_name: "purchase" },
    ]);
    expect((await send("not json")).status).toBe(400);
    expect((await send({ events: [] })).status).toBe(400);
    expect((await send({ events: Array.from({ length: 21 }, (_, index) => ({ event_name: "lead", event_id: `l-${index}` })) })).status).toBe(400);
    expect((await send("x".repeat(17 * 1024))).status).toBe(413);
  });

  it("answer 404 for an unknown tag", async () => {
    expect((await send({ events: [{ event_name: "lead", event_id: "x" }] }, 999999)).status).toBe(404);
  });

  it("answer a preflight for senders that use JSON", async () => {
    const response = await fetchWorker(`/ct/${TAG}/events/`, { method: "OPTIONS", headers: { origin: SHOP, "access-control-request-method": "POST", "access-control-request-headers": "content-type" } });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-allow-methods")).toContain("POST");
  });

  it("are throttled per tag and address: the 121st request in a minute gets 429", async () => {
    const ip = "198.51.100.77";
    // The throttle counts in fixed minutes: start early in one so all 121 land in it.
    const into = Date.now() % 60_000;
    if (into > 45_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - into + 50));
    const statuses: number[] = [];
    for (let index = 0; index < 121; index++) statuses.push((await send({ events: [{ event_name: "page_visit", event_id: `flood-${index}` }] }, TAG, ip)).status);
    expect(statuses.slice(0, 120).every((status) => status === 200)).toBe(true);
    expect(statuses[120]).toBe(429);
    // Another address is not held back.
    expect((await send({ events: [{ event_name: "page_visit", event_id: "calm-1" }] }, TAG, "198.51.100.78")).status).toBe(200);
  }, 90_000);
});

describe("the hub's tag screens", () => {
  it("show test events live to a member and refuse a stranger", async () => {
    await send({ events: [{ event_name: "add_to_cart", event_id: "test-cart-1", is_test: true, value: 24, currency: "USD" }] });
    const owner = await browserAs(OWNER);
    const answer = await owner.fetch(`/v3/businesses/${BUSINESS}/conversion_tags/${TAG}/test_events/?after=0`);
    expect(answer.status).toBe(200);
    const items = ((await answer.json()) as { data: { items: Array<Record<string, unknown>> } }).data.items;
    expect(items.map((item) => [item["eventName"], item["eventId"], item["valueMicro"]])).toEqual([["add_to_cart", "test-cart-1", 24_000_000]]);
    const newer = await owner.fetch(`/v3/businesses/${BUSINESS}/conversion_tags/${TAG}/test_events/?after=${String(items[0]!["id"])}`);
    expect(((await newer.json()) as { data: { items: unknown[] } }).data.items).toEqual([]);
    expect((await (await browserAs(STRANGER)).fetch(`/v3/businesses/${BUSINESS}/conversion_tags/${TAG}/test_events/`)).status).toBe(404);
    expect((await owner.fetch(`/v3/businesses/${BUSINESS}/conversion_tags/${TAG}/test_events/?after=x`)).status).toBe(400);
  });

  it("render the snippet, manual setup, test events, tag health and conversion health", async () => {
    const response = await (await browserAs(OWNER)).fetch(`/business/hub/${BUSINESS}/tags/${TAG}/`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(`https://pinloom.test/ct/${TAG}.js`);
    for (const id of ["tag", "manual", "test", "health", "conversions"]) expect(html).toContain(`id="${id}"`);
    expect(html).toContain("test-cart-1");
    // The refused event name, as tag health words it.
    expect(html).toContain("must be one of");
    expect((await (await browserAs(STRANGER)).fetch(`/business/hub/${BUSINESS}/tags/${TAG}/`)).status).toBe(404);
  });

  it("serve a public sample shop page for a known tag and 404 for an unknown one", async () => {
    const page = await fetchWorker(`/ct/test/${TAG}/`, { headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36" } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`data-script="/ct/${TAG}.js"`);
    expect((await fetchWorker("/ct/test/999999/")).status).toBe(404);
  });
});
