// Cookie consent through the built Worker: the choice kept per browser (cookie) and per person
// (account), merged at sign-up and log-in, the stored ad identifier removed in the consent
// countries unless analytics and personalization are both allowed, and the events and
// attribution pings the choice lets through, counted in D1.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { Browser, USERS, seedAccounts, type Envelope } from "./accounts-helpers.ts";
import { BROWSER_UA, fetchWorker } from "./fixtures.ts";
import { eventKey } from "~/events/ingest.server.ts";
import { signAttributionToken } from "~/attribution/token.server.ts";
import { TEST_ATTRIBUTION_SECRET } from "./attribution-secret.ts";

interface ConsentAnswer {
  required: boolean;
  decided: boolean;
  allow_personalization_cookies: boolean;
  allow_analytic_cookies: boolean;
  allow_marketing_cookies: boolean;
}

const FRANCE = { "cf-ipcountry": "FR" };
const UNITED_STATES = { "cf-ipcountry": "US" };

const getConsent = (browser: Browser, headers: Record<string, string>) => browser.fetch("/v3/cookie_consent/", { headers });
const putConsent = (browser: Browser, body: Record<string, unknown>, headers: Record<string, string> = FRANCE) =>
  browser.fetch("/v3/cookie_consent/", { method: "PUT", body: JSON.stringify(body), headers: { "content-type": "application/json", ...headers } });
const choices = (personalization: boolean, analytics: boolean, marketing: boolean) => ({
  allow_personalization_cookies: personalization,
  allow_analytic_cookies: analytics,
  allow_marketing_cookies: marketing,
});

const accountConsent = (userId: number) =>
  env.DB.prepare("SELECT allow_personalization_cookies AS p, allow_analytic_cookies AS a, allow_marketing_cookies AS m, cookie_consent_at IS NOT NULL AS decided, epik FROM users WHERE id = ?1")
    .bind(userId)
    .first<{ p: number; a: number; m: number; decided: number; epik: string | null }>();

beforeAll(async () => {
  await seedAccounts();
});

describe("GET and PUT /v3/cookie_consent/", () => {
  it("asks in France and not in the United States, with every choice off until made", async () => {
    const browser = new Browser();
    expect((await (await getConsent(browser, FRANCE)).json<Envelope<ConsentAnswer>>()).data).toEqual({
      required: true,
      decided: false,
      allow_personalization_cookies: false,
      allow_analytic_cookies: false,
      allow_marketing_cookies: false,
    });
    expect((await (await getConsent(browser, UNITED_STATES)).json<Envelope<ConsentAnswer>>()).data).toMatchObject({ required: false, decided: false });
  });

  it("keeps a visitor's choice in a first-party cookie the page can read", async () => {
    const browser = new Browser();
    const saved = await putConsent(browser, choices(true, false, true));
    expect(saved.status).toBe(200);
    const line = saved.headers.getSetCookie().find((cookie) => cookie.startsWith("pinloom_consent="));
    expect(line).toMatch(/^pinloom_consent=p1a0m1; Path=\/; Max-Age=31536000; Secure; SameSite=Lax$/);
    expect((await (await getConsent(browser, FRANCE)).json<Envelope<ConsentAnswer>>()).data).toEqual({
      required: true,
      decided: true,
      allow_personalization_cookies: true,
      allow_analytic_cookies: false,
      allow_marketing_cookies: true,
    });
  });

  it("a forced country can add the question but never lift it", async () => {
    const browser = new Browser();
    const forcedIn = await getConsent(browser, { ...UNITED_STATES, "x-pinloom-force-country": "DE" });
    expect((await forcedIn.json<Envelope<ConsentAnswer>>()).data.required).toBe(true);
    const forcedOut = await getConsent(browser, { ...FRANCE, "x-pinloom-force-country": "US" });
    expect((await forcedOut.json<Envelope<ConsentAnswer>>()).data.required).toBe(true);
  });

  it("refuses a body without all three choices with a 400 naming the field, and stores nothing", async () => {
    const browser = new Browser();
    await browser.login(USERS.ben.username);
    const refused = await putConsent(browser, { allow_personalization_cookies: true, allow_marketing_cookies: "maybe" });
    expect(refused.status).toBe(400);
    const body = await refused.json<Envelope>();
    expect(body.message_detail).toContain("allow_analytic_cookies");
    expect(body.message_detail).toContain("allow_marketing_cookies");
    expect(refused.headers.getSetCookie().some((cookie) => cookie.startsWith("pinloom_consent="))).toBe(false);
    expect(await accountConsent(USERS.ben.id)).toMatchObject({ decided: 0 });
  });

  it("stores a signed-in person's choice on the account, and removes the ad identifier unless analytics and personalization are both allowed", async () => {
    const browser = new Browser();
    await browser.login(USERS.ana.username);
    await env.DB.prepare("UPDATE users SET epik = 'click-123' WHERE id = ?1").bind(USERS.ana.id).run();
    const both = await putConsent(browser, choices(true, true, false));
    expect(both.status).toBe(200);
    expect(await accountConsent(USERS.ana.id)).toEqual({ p: 1, a: 1, m: 0, decided: 1, epik: "click-123" });
    const analyticsOnly = await putConsent(browser, choices(false, true, true));
    expect(analyticsOnly.headers.getSetCookie()).toContain("pinloom_epik=; Path=/; Max-Age=0; Secure; SameSite=Lax");
    expect(await accountConsent(USERS.ana.id)).toEqual({ p: 0, a: 1, m: 1, decided: 1, epik: null });
  });

  it("keeps the ad identifier outside the consent countries whatever the choice", async () => {
    const browser = new Browser();
    await browser.login(USERS.biz.username);
    await env.DB.prepare("UPDATE users SET epik = 'click-456' WHERE id = ?1").bind(USERS.biz.id).run();
    expect((await putConsent(browser, choices(false, false, false), UNITED_STATES)).status).toBe(200);
    expect(await accountConsent(USERS.biz.id)).toEqual({ p: 0, a: 0, m: 0, decided: 1, epik: "click-456" });
  });
});

describe("merging at sign-up and log-in", () => {
  const signUp = (browser: Browser, username: string) =>
    browser.fetch("/v3/register/email/handshake/", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...FRANCE },
      body: new URLSearchParams({ email: `${username}@pinloom.test`, username, password: "Sunny-Day#42", first_name: "Robin", country: "FR", locale: "fr", referrer: "" }).toString(),
    });
  const userNamed = (username: string) => env.DB.prepare("SELECT id FROM users WHERE username = ?1").bind(username).first<{ id: number }>();

  it("a new account takes the choice and the ad identifier its browser held before sign-up", async () => {
    const browser = new Browser();
    browser.cookies.set("pinloom_consent", "p1a1m0");
    browser.cookies.set("pinloom_epik", "landing-789");
    expect((await signUp(browser, "consent_merge")).status).toBe(200);
    const user = await userNamed("consent_merge");
    expect(await accountConsent(user!.id)).toEqual({ p: 1, a: 1, m: 0, decided: 1, epik: "landing-789" });
  });

  it("a new account in France drops the ad identifier when its browser did not allow both", async () => {
    const browser = new Browser();
    browser.cookies.set("pinloom_consent", "p0a1m1");
    browser.cookies.set("pinloom_epik", "landing-790");
    expect((await signUp(browser, "consent_no_adid")).status).toBe(200);
    const user = await userNamed("consent_no_adid");
    expect(await accountConsent(user!.id)).toEqual({ p: 0, a: 1, m: 1, decided: 1, epik: null });
  });

  it("a new account whose browser chose nothing has chosen nothing", async () => {
    expect((await signUp(new Browser(), "consent_none")).status).toBe(200);
    const user = await userNamed("consent_none");
    expect(await accountConsent(user!.id)).toEqual({ p: 0, a: 0, m: 0, decided: 0, epik: null });
  });

  it("log-in: an account that never chose adopts the browser's choice; one that chose sets the browser's cookie to its own", async () => {
    await env.DB.prepare("UPDATE users SET cookie_consent_at = NULL, allow_personalization_cookies = 0, allow_analytic_cookies = 0, allow_marketing_cookies = 0 WHERE id = ?1")
      .bind(USERS.noah.id)
      .run();
    await env.DB.prepare("UPDATE users SET has_mfa_enabled = 0 WHERE id = ?1").bind(USERS.noah.id).run();
    const first = new Browser();
    first.cookies.set("pinloom_consent", "p1a0m0");
    await first.login(USERS.noah.username);
    expect(await accountConsent(USERS.noah.id)).toMatchObject({ p: 1, a: 0, m: 0, decided: 1 });
    const second = new Browser();
    second.cookies.set("pinloom_consent", "p1a1m1");
    await second.login(USERS.noah.username);
    expect(await accountConsent(USERS.noah.id)).toMatchObject({ p: 1, a: 0, m: 0, decided: 1 });
    expect(second.cookies.get("pinloom_consent")).toBe("p1a0m0");
  });
});

describe("events and attribution obey the choice", () => {
  const NOW_NS = "1763820000000000000";
  let serial = 0;
  const event = (eventType: number) => ({ clientUUID: `consent-${Date.now().toString(36)}-${++serial}`, event_type: eventType, view_type: 2, object_id_str: "101", time: NOW_NS, appState: "active" });
  /** A page view (analytics) and a runtime fetch-error report (kept whatever the choice). */
  const batch = () => ({ view: event(13), report: event(9002) });

  /** Waits for the essential event (queued in the same batch as the view), then counts both. */
  async function stored(sender: string, sent: { view: { clientUUID: string }; report: { clientUUID: string } }): Promise<{ view: number; report: number }> {
    const [view, report] = await Promise.all([eventKey(sender, sent.view.clientUUID), eventKey(sender, sent.report.clientUUID)]);
    const count = async (key: string) => (await env.DB.prepare("SELECT count(*) AS n FROM events WHERE client_id = ?1").bind(key).first<{ n: number }>())?.n ?? 0;
    const deadline = Date.now() + 15_000;
    while ((await count(report)) === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    return { view: await count(view), report: await count(report) };
  }
  const post = (browser: Browser, events: unknown[], headers: Record<string, string>) =>
    browser.fetch("/resource/ApiCResource/create/", {
      method: "POST",
      body: JSON.stringify({ options: { events, report_time: NOW_NS } }),
      headers: { "content-type": "application/json", ...headers },
    });

  it("in France before any choice: the view is not stored, the runtime report is", async () => {
    const browser = new Browser();
    const sent = batch();
    const response = await post(browser, [sent.view, sent.report], FRANCE);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ resource_response: { data: { accepted: 1 } } });
    expect(await stored(`ip:${browser.ip}`, sent)).toEqual({ view: 0, report: 1 });
  }, 30_000);

  it("in France with analytics allowed by the cookie: both are stored", async () => {
    const browser = new Browser();
    browser.cookies.set("pinloom_consent", "p0a1m0");
    const sent = batch();
    expect((await post(browser, [sent.view, sent.report], FRANCE)).status).toBe(200);
    expect(await stored(`ip:${browser.ip}`, sent)).toEqual({ view: 1, report: 1 });
  }, 30_000);

  it("in the United States before any choice: both are stored; after rejecting all, only the report", async () => {
    const browser = new Browser();
    const before = batch();
    expect((await post(browser, [before.view, before.report], UNITED_STATES)).status).toBe(200);
    expect(await stored(`ip:${browser.ip}`, before)).toEqual({ view: 1, report: 1 });
    browser.cookies.set("pinloom_consent", "p0a0m0");
    const after = batch();
    expect((await post(browser, [after.view, after.report], UNITED_STATES)).status).toBe(200);
    expect(await stored(`ip:${browser.ip}`, after)).toEqual({ view: 0, report: 1 });
  }, 30_000);

  it("signed in, the account's choice counts, not the browser's cookie", async () => {
    const browser = new Browser();
    await browser.login(USERS.ben.username);
    await env.DB.prepare("UPDATE users SET allow_analytic_cookies = 0, cookie_consent_at = 1 WHERE id = ?1").bind(USERS.ben.id).run();
    browser.cookies.set("pinloom_consent", "p1a1m1");
    const sent = batch();
    expect((await post(browser, [sent.view, sent.report], FRANCE)).status).toBe(200);
    expect(await stored(`u:${USERS.ben.id}`, sent)).toEqual({ view: 0, report: 1 });
  }, 30_000);

  it("an attribution ping without marketing consent in France is answered without a source and not stored", async () => {
    const PROMOTED_PIN = 9101;
    await env.DB.prepare("INSERT INTO pins (id, pinner_id, kind, title, image_signature, is_promoted, promoter_id, created_at, updated_at) VALUES (?1, ?2, 'image', 'Lamp', 'sig', 1, ?2, 0, 0)")
      .bind(PROMOTED_PIN, USERS.ana.id)
      .run();
    const token = await signAttributionToken(TEST_ATTRIBUTION_SECRET, { pinId: String(PROMOTED_PIN), advertiserId: String(USERS.ana.id) });
    const ping = (sourceEventId: string, cookie: string) =>
      fetchWorker(
        `/attribution_source/?source_event_id=${sourceEventId}&destination=https%3A%2F%2Fshop.example&source_event_type=view&advertiser_id=${USERS.ana.id}&pin_id=${PROMOTED_PIN}&token=${token}`,
        { headers: { "user-agent": BROWSER_UA, "cf-connecting-ip": "203.0.113.77", "sec-fetch-site": "same-origin", cookie, ...FRANCE } },
      );
    const pings = async (sourceEventId: string) =>
      (await env.DB.prepare("SELECT count(*) AS n FROM attribution_pings WHERE source_event_id = ?1").bind(sourceEventId).first<{ n: number }>())?.n;
    const refused = await ping("5151", "pinloom_consent=p1a1m0");
    expect(refused.status).toBe(204);
    expect(refused.headers.get("attribution-reporting-register-source")).toBeNull();
    expect(await pings("5151")).toBe(0);
    const allowed = await ping("5152", "pinloom_consent=p0a0m1");
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get("attribution-reporting-register-source")).not.toBeNull();
    expect(await pings("5152")).toBe(1);
  });
});

describe("the banner's place in the page", () => {
  it("a person's page carries the hidden banner and its script; a crawler's carries neither", async () => {
    const person = await (await new Browser().fetch("/", { headers: FRANCE })).text();
    expect(person).toMatch(/<section class="consent-banner"[^>]*id="pinloom-consent"[^>]*hidden/);
    const crawler = await (await fetchWorker("/", { headers: { "user-agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", ...FRANCE } })).text();
    expect(crawler).not.toContain("pinloom-consent");
    expect(crawler).not.toMatch(/<script(?![^>]*application\/(ld\+)?json)/);
  });
});
