// ApiCResource create → EVENTS queue → consumer, and GET /attribution_source/, through
// the built Worker. The queue is the real local one: its consumer (the built worker's queue
// handler) writes the rows, so the tests wait for them.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { Browser, USERS, fillCounter, seedAccounts } from "./accounts-helpers.ts";
import { BROWSER_UA, fetchWorker } from "./fixtures.ts";
import { createSession } from "./session-fixture.ts";
import { eventKey } from "~/events/ingest.server.ts";
import { signAttributionToken } from "~/attribution/token.server.ts";
import { TEST_ATTRIBUTION_SECRET } from "./attribution-secret.ts";

const NOW_NS = "1763820000000000000";
let serial = 0;
const event = (overrides: Record<string, unknown> = {}) => ({
  clientUUID: `wt-${Date.now().toString(36)}-${String(++serial).padStart(6, "0")}`,
  event_type: 13,
  view_type: 2,
  object_id_str: "101",
  time: NOW_NS,
  appState: "active",
  ...overrides,
});

async function storedRows(ids: string[], timeoutMs = 15_000): Promise<{ client_id: string; user_id: number | null; report_time_ns: string | null }[]> {
  const deadline = Date.now() + timeoutMs;
  const placeholders = ids.map((_, index) => `?${index + 1}`).join(", ");
  for (;;) {
    const { results } = await env.DB.prepare(`SELECT client_id, user_id, report_time_ns FROM events WHERE client_id IN (${placeholders}) ORDER BY client_id`)
      .bind(...ids)
      .all<{ client_id: string; user_id: number | null; report_time_ns: string | null }>();
    if (results.length >= ids.length || Date.now() > deadline) return results;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The stored ids of `events` sent by `sender` ("ip:…" signed out, "u:…" signed in). */
const keysOf = (sender: string, events: ReadonlyArray<{ clientUUID: string }>) => Promise.all(events.map((item) => eventKey(sender, item.clientUUID)));

const postEvents = (browser: Browser, events: unknown[], reportTime: unknown = NOW_NS) => browser.resource("ApiCResource", "create", { events, report_time: reportTime });

/** A pin promoted by Ana (the advertiser of the attribution pings below). */
const PROMOTED_PIN = 9001;

beforeAll(async () => {
  await seedAccounts();
  await env.DB.prepare("INSERT INTO pins (id, pinner_id, kind, title, image_signature, is_promoted, promoter_id, created_at, updated_at) VALUES (?1, ?2, 'image', 'Sofa', 'sig', 1, ?2, 0, 0)")
    .bind(PROMOTED_PIN, USERS.ana.id)
    .run();
});

describe("ApiCResource create", () => {
  it("stores a batch posted twice (a retry) exactly once", async () => {
    const browser = new Browser();
    const batch = [event(), event({ event_type: 14 }), event({ event_type: 1, view_data: { grid: "related" } })];
    const first = await postEvents(browser, batch);
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ resource_response: { status: "success", data: { accepted: 3 } } });
    expect((await postEvents(browser, batch)).status).toBe(200);
    const ids = (await keysOf(`ip:${browser.ip}`, batch)).sort();
    const rows = await storedRows(ids);
    expect(rows.map((row) => row.client_id)).toEqual(ids);
    // A moment more: the second delivery must not add anything.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const { results } = await env.DB.prepare(`SELECT count(*) AS n FROM events WHERE client_id IN (?1, ?2, ?3)`).bind(...ids).all<{ n: number }>();
    expect(results[0]!.n).toBe(3);
    expect(rows[0]!.report_time_ns).toBe(NOW_NS);
    expect(rows[0]!.user_id).toBeNull();
  }, 30_000);

  it("records the signed-in user on their events", async () => {
    const session = await createSession(USERS.ana.id);
    const browser = new Browser();
    browser.cookies.set("__Host-pinloom_sess", session.token);
    const item = event();
    expect((await postEvents(browser, [item])).status).toBe(200);
    const [row] = await storedRows(await keysOf(`u:${USERS.ana.id}`, [item]));
    expect(row?.user_id).toBe(USERS.ana.id);
  }, 30_000);

  it("keys events by sender: another sender's copy of an id blocks nothing", async () => {
    const victim = new Browser();
    const attacker = new Browser();
    const item = event();
    // The attacker sends the victim's next id first; the victim's own event is still stored.
    expect((await postEvents(attacker, [{ ...item, event_type: 999 }])).status).toBe(200);
    expect((await postEvents(victim, [item])).status).toBe(200);
    const [attackerKey, victimKey] = [...(await keysOf(`ip:${attacker.ip}`, [item])), ...(await keysOf(`ip:${victim.ip}`, [item]))];
    const rows = await storedRows([attackerKey!, victimKey!]);
    expect(rows).toHaveLength(2);
    const victimRow = await env.DB.prepare("SELECT event_type FROM events WHERE client_id = ?1").bind(victimKey).first<{ event_type: number }>();
    expect(victimRow?.event_type).toBe(13);
    // Nothing is stored under the raw id any more.
    expect(await env.DB.prepare("SELECT count(*) AS n FROM events WHERE client_id = ?1").bind(item.clientUUID).first<{ n: number }>()).toEqual({ n: 0 });
  }, 30_000);

  it.each([
    [[event(), event({ event_type: -1 })], "events[1].event_type"],
    [[event({ clientUUID: "short" })], "events[0].clientUUID"],
    [[event({ time: "soon" })], "events[0].time"],
    [[event({ secret: 1 })], "events[0].secret"],
    [[event({ appState: "asleep" })], "events[0].appState"],
  ])("refuses a bad record with a 400 naming it (%#) and stores none of the batch", async (events, field) => {
    const browser = new Browser();
    const response = await postEvents(browser, events);
    expect(response.status).toBe(400);
    const body = await response.json<{ resource_response: { error: { message_detail: string } } }>();
    expect(body.resource_response.error.message_detail).toContain(`${field}:`);
    const ids = await keysOf(`ip:${browser.ip}`, events as { clientUUID: string }[]);
    expect(await storedRows(ids, 1_000)).toEqual([]);
  });

  it("names report_time and unknown options", async () => {
    const missing = await new Browser().resource("ApiCResource", "create", { events: [event()] });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(await missing.json())).toContain("options.report_time");
    const extra = await new Browser().resource("ApiCResource", "create", { events: [], report_time: NOW_NS, tracking: true });
    expect(extra.status).toBe(400);
    expect(JSON.stringify(await extra.json())).toContain("options.tracking");
  });

  it("answers 413 past 100 events or 64 KiB", async () => {
    const browser = new Browser();
    const many = Array.from({ length: 101 }, () => event());
    expect((await postEvents(browser, many)).status).toBe(413);
    const big = Array.from({ length: 8 }, () => event({ aux_data: { text: "x".repeat(9_000) } }));
    expect((await postEvents(browser, big)).status).toBe(413);
    expect(await storedRows(await keysOf(`ip:${browser.ip}`, many.slice(0, 3)), 1_000)).toEqual([]);
  });

  it("goes through the CSRF check like every other write", async () => {
    const response = await fetchWorker("/resource/ApiCResource/create/", {
      method: "POST",
      headers: { "user-agent": BROWSER_UA, origin: "https://evil.example", "content-type": "application/json" },
      body: JSON.stringify({ options: { events: [event()], report_time: NOW_NS } }),
    });
    expect(response.status).toBe(403);
  });

  it("throttles per address when signed out", async () => {
    const browser = new Browser();
    await fillCounter(`events:subject:ip:${browser.ip}`, 600, 10 * 60_000);
    const response = await postEvents(browser, [event()]);
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toMatch(/^\d+$/);
  });

  it("throttles an IPv6 sender by its /64, not by single addresses", async () => {
    await fillCounter("events:subject:ip:2001:db8:e0:1::/64", 600, 10 * 60_000);
    const response = await postEvents(new Browser("2001:db8:e0:1:abcd::7"), [event()]);
    expect(response.status).toBe(429);
    expect((await postEvents(new Browser("2001:db8:e0:2::7"), [event()])).status).toBe(200);
  });
});

describe("GET /attribution_source/", () => {
  const ping = (query: string, ip = "203.0.113.9", site: string | null = "same-origin") =>
    fetchWorker(`/attribution_source/?${query}`, { headers: { "user-agent": BROWSER_UA, "cf-connecting-ip": ip, ...(site === null ? {} : { "sec-fetch-site": site }) } });
  const pings = async (sourceEventId: string) =>
    (await env.DB.prepare("SELECT count(*) AS n FROM attribution_pings WHERE source_event_id = ?1").bind(sourceEventId).first<{ n: number }>())?.n;

  /** The token the promoted pin's page carries (what the page's markup gives the ping). */
  const pageToken = () => signAttributionToken(TEST_ATTRIBUTION_SECRET, { pinId: String(PROMOTED_PIN), advertiserId: String(USERS.ana.id) });

  it("registers the source with a JSON header and stores the ping", async () => {
    const response = await ping(`source_event_id=18446744073709551615&destination=https%3A%2F%2Fshop.example%2Fsofa%3Fa%3D1&source_event_type=view&advertiser_id=${USERS.ana.id}&campaign_id=7&pin_id=${PROMOTED_PIN}&token=${await pageToken()}`);
    expect(response.status).toBe(204);
    expect(JSON.parse(response.headers.get("attribution-reporting-register-source")!)).toEqual({
      source_event_id: "18446744073709551615",
      destination: "https://shop.example",
      expiry: "86400",
      priority: "1",
    });
    const row = await env.DB.prepare("SELECT * FROM attribution_pings WHERE source_event_id = '18446744073709551615'").first<Record<string, unknown>>();
    expect(row).toMatchObject({ destination: "https://shop.example", source_event_type: "view", expiry_seconds: 86_400, priority: "1", advertiser_id: String(USERS.ana.id), campaign_id: "7", pin_id: PROMOTED_PIN });
  });

  it("stores a replayed ping once", async () => {
    const query = `source_event_id=4242&destination=https%3A%2F%2Fshop.example&source_event_type=click&advertiser_id=${USERS.ana.id}&pin_id=${PROMOTED_PIN}&token=${await pageToken()}`;
    expect((await ping(query)).status).toBe(204);
    const again = await ping(query);
    expect(again.status).toBe(204);
    expect(again.headers.get("attribution-reporting-register-source")).not.toBeNull();
    expect(await pings("4242")).toBe(1);
  });

  it.each([
    ["a cross-site page", "5001", "cross-site", `advertiser_id=@ANA&pin_id=${PROMOTED_PIN}`],
    ["a request without Sec-Fetch-Site", "5002", null, `advertiser_id=@ANA&pin_id=${PROMOTED_PIN}`],
    ["another advertiser's pin", "5003", "same-origin", `advertiser_id=999&pin_id=${PROMOTED_PIN}`],
    ["a pin nobody promotes", "5004", "same-origin", "advertiser_id=@ANA&pin_id=1"],
    ["no pin", "5005", "same-origin", "advertiser_id=@ANA"],
  ])("answers a forged ping (%s) 204 with no header and stores nothing", async (_, id, site, extra) => {
    const response = await ping(`source_event_id=${id}&destination=https%3A%2F%2Fshop.example&source_event_type=click&${extra.replace("@ANA", String(USERS.ana.id))}`, "203.0.113.10", site);
    expect(response.status).toBe(204);
    expect(response.headers.get("attribution-reporting-register-source")).toBeNull();
    expect(await pings(id)).toBe(0);
  });

  it.each([
    ["source_event_id=1&destination=https%3A%2F%2Fa.example&source_event_type=click&expiry=60", "expiry"],
    ["source_event_id=1&destination=mailto%3Aa%40b.example&source_event_type=click", "destination"],
    ["source_event_id=1&destination=https%3A%2F%2Fa.example&source_event_type=click&evil=1", "evil"],
    ["destination=https%3A%2F%2Fa.example&source_event_type=click", "source_event_id"],
  ])("refuses %s naming %s, storing nothing", async (query, field) => {
    const before = await env.DB.prepare("SELECT count(*) AS n FROM attribution_pings").first<{ n: number }>();
    const response = await ping(query);
    expect(response.status).toBe(400);
    expect(response.headers.get("attribution-reporting-register-source")).toBeNull();
    expect(((await response.json()) as { message_detail: string }).message_detail).toContain(`${field}:`);
    const after = await env.DB.prepare("SELECT count(*) AS n FROM attribution_pings").first<{ n: number }>();
    expect(after?.n).toBe(before?.n);
  });

  it("refuses and does not store pings past the address's limit", async () => {
    await fillCounter("attribution:ip:203.0.113.77", 600, 10 * 60_000);
    const response = await ping("source_event_id=777&destination=https%3A%2F%2Fa.example&source_event_type=click", "203.0.113.77");
    expect(response.status).toBe(429);
    const row = await env.DB.prepare("SELECT count(*) AS n FROM attribution_pings WHERE source_event_id = '777'").first<{ n: number }>();
    expect(row?.n).toBe(0);
  });

  it("counts an IPv6 address by its /64", async () => {
    await fillCounter("attribution:ip:2001:db8:a7:1::/64", 600, 10 * 60_000);
    const query = `source_event_id=778&destination=https%3A%2F%2Fa.example&source_event_type=click&advertiser_id=${USERS.ana.id}&pin_id=${PROMOTED_PIN}`;
    expect((await ping(query, "2001:db8:a7:1:ffff::2")).status).toBe(429);
    expect(await pings("778")).toBe(0);
  });
});

