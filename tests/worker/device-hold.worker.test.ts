// The device's hold on its accounts (the one-click switch), bounded: the device cookie's
// attributes, its rotation on every switch, a switch that never extends a session, an expired
// account asking for its password again, and sign-out everywhere ending the hold.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { runHousekeeping } from "~/server/housekeeping.server.ts";
import { Browser, CSRF, PASSWORD, seedAccounts, USERS, type Envelope } from "./accounts-helpers.ts";
import { attributeOf, fetchWorker } from "./fixtures.ts";

const DEVICE = "__Host-pinloom_device";
const DAY_MS = 86_400_000;

beforeAll(async () => {
  await seedAccounts();
});

type Entry = { id: string; username: string; email: string | null; isLoggedIn: boolean };

async function listed(browser: Browser): Promise<Entry[]> {
  const response = await browser.resource("UserSessionResource", "create", { session_accounts: true });
  expect(response.status).toBe(200);
  return (await response.json<{ resource_response: Envelope<{ session_accounts: Entry[] }> }>()).resource_response.data.session_accounts;
}

const switchTo = (browser: Browser, userId: number) => browser.resource("UserSessionResource", "create", { session_accounts: true, switch_to_user_id: String(userId) });

/** Another browser holding only this device cookie (as a copied cookie would). */
function holderOf(deviceToken: string): Browser {
  const other = new Browser();
  other.cookies.set(DEVICE, deviceToken);
  return other;
}

/** The device holding Ben and Ana (signed in last, so current). */
async function deviceWithBenAndAna(): Promise<Browser> {
  const browser = new Browser();
  await browser.login(USERS.ben.username);
  await browser.login(USERS.ana.username);
  return browser;
}

async function expireSessionOf(userId: number, expiresAt: number): Promise<void> {
  await env.DB.prepare("UPDATE sessions SET expires_at = ?2 WHERE user_id = ?1 AND revoked_at IS NULL").bind(userId, expiresAt).run();
}

const signedInAs = async (browser: Browser) => (await (await browser.fetch("/v3/users/me/?fields=email")).json<Envelope<{ email?: string }>>()).data?.email ?? null;

describe("the device cookie", () => {
  it("is __Host-, HttpOnly, Secure, SameSite=Strict, Path=/, no Domain, and lives 210 days from its last use", async () => {
    const browser = new Browser();
    const handshake = await browser.form("/v3/login/handshake/", { username_or_email: USERS.ana.username, password: PASSWORD, referrer: "" });
    const { data } = await handshake.json<Envelope<{ token: string }>>();
    const exchange = await browser.json("/v3/sessions/exchange/", { token: data.token, isRegistration: false });
    const line = exchange.headers.getSetCookie().find((cookie) => cookie.startsWith(`${DEVICE}=`))!;
    const attributes = line.split(";").map((part) => part.trim().toLowerCase());
    // 180 days of session and 30 of re-login window: 210 × 86,400 s.
    expect(attributes).toEqual(expect.arrayContaining(["httponly", "secure", "samesite=strict", "path=/", "max-age=18144000"]));
    expect(attributes.some((attribute) => attribute.startsWith("domain"))).toBe(false);
  });

  it("is sent again with the same token on the next login, so it outlives every session on the device", async () => {
    const browser = new Browser();
    await browser.login(USERS.ben.username);
    const first = browser.cookies.get(DEVICE);
    const handshake = await browser.form("/v3/login/handshake/", { username_or_email: USERS.ana.username, password: PASSWORD, referrer: "" });
    const exchange = await browser.json("/v3/sessions/exchange/", { token: (await handshake.json<Envelope<{ token: string }>>()).data.token, isRegistration: false });
    expect(exchange.headers.getSetCookie().find((cookie) => cookie.startsWith(`${DEVICE}=`))).toMatch(new RegExp(`^${DEVICE}=${first};`));
  });
});

describe("switching rotates the device token", () => {
  it("gives the device a new token on each switch; the old one lists nothing and switches nowhere", async () => {
    const browser = await deviceWithBenAndAna();
    const before = browser.cookies.get(DEVICE)!;

    const switched = await switchTo(browser, USERS.ben.id);
    expect(switched.status).toBe(200);
    const line = switched.headers.getSetCookie().find((cookie) => cookie.startsWith(`${DEVICE}=`))!;
    expect(line.toLowerCase()).toContain("samesite=strict");
    const after = browser.cookies.get(DEVICE)!;
    expect(after).not.toBe(before);
    expect(await signedInAs(browser)).toBe(USERS.ben.email);

    // The old token (a copy taken before the switch) holds nothing any more.
    const thief = holderOf(before);
    expect(await listed(thief)).toEqual([]);
    expect((await switchTo(thief, USERS.ana.id)).status).toBe(403);
    expect(await signedInAs(thief)).toBeNull();

    // The new one holds both accounts, and rotates again on the next switch.
    expect((await listed(browser)).map((entry) => entry.id).sort()).toEqual([String(USERS.ana.id), String(USERS.ben.id)]);
    expect((await switchTo(browser, USERS.ana.id)).status).toBe(200);
    expect(browser.cookies.get(DEVICE)).not.toBe(after);
    expect(await listed(holderOf(after))).toEqual([]);
  });

  it("lets one of two switches racing on the same token win, and the device keeps all its accounts", async () => {
    const browser = await deviceWithBenAndAna();
    const [first, second] = await Promise.all([switchTo(browser, USERS.ben.id), switchTo(browser, USERS.ben.id)]);
    const statuses = [first.status, second.status].sort();
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    // The loser sent no cookie: the browser holds the winner's device token.
    const loser = first.status === 200 ? second : first;
    expect(loser.headers.getSetCookie().some((cookie) => cookie.startsWith(`${DEVICE}=`))).toBe(false);
    expect((await listed(browser)).map((entry) => entry.id).sort()).toEqual([String(USERS.ana.id), String(USERS.ben.id)]);
  });

  it("keeps the target session's own expiry: a switch never extends it", async () => {
    const browser = await deviceWithBenAndAna();
    const expiresAt = Date.now() + 10 * DAY_MS;
    await expireSessionOf(USERS.ben.id, expiresAt);
    const switched = await switchTo(browser, USERS.ben.id);
    expect(switched.status).toBe(200);
    const session = await env.DB.prepare("SELECT expires_at FROM sessions WHERE user_id = ?1 AND revoked_at IS NULL").bind(USERS.ben.id).first<{ expires_at: number }>();
    expect(session?.expires_at).toBe(expiresAt);
    const cookie = switched.headers.getSetCookie().find((line) => line.startsWith("__Host-pinloom_sess="))!;
    const maxAge = Number(/max-age=(\d+)/i.exec(cookie)![1]);
    expect(maxAge).toBeGreaterThan(10 * 86_400 - 60);
    expect(maxAge).toBeLessThanOrEqual(10 * 86_400);
  });
});

describe("an account whose own session has expired", () => {
  it("is listed as not logged in, with no private details, and a switch asks for its password (401 code 19)", async () => {
    const browser = await deviceWithBenAndAna();
    await expireSessionOf(USERS.ben.id, Date.now() - DAY_MS);

    const entries = await listed(browser);
    expect(entries.find((entry) => entry.id === String(USERS.ben.id))).toMatchObject({ username: USERS.ben.username, email: null, isLoggedIn: false });
    expect(entries.find((entry) => entry.id === String(USERS.ana.id))).toMatchObject({ email: USERS.ana.email, isLoggedIn: true });

    const deviceBefore = browser.cookies.get(DEVICE);
    const refused = await switchTo(browser, USERS.ben.id);
    expect(refused.status).toBe(401);
    const body = (await refused.json<{ resource_response: Envelope & { error: { extra_data: unknown } } }>()).resource_response;
    expect(body.code).toBe(19);
    expect(body.message).toBe("Your session for this account has ended. Enter its password to switch to it again.");
    expect(body.error.extra_data).toEqual({ username_or_email: USERS.ben.username });
    expect(refused.headers.getSetCookie()).toEqual([]);
    expect(browser.cookies.get(DEVICE)).toBe(deviceBefore);
    expect(await signedInAs(browser)).toBe(USERS.ana.email);

    // The password brings it back on this device, signed in and switchable again.
    await browser.login(USERS.ben.username);
    expect(await signedInAs(browser)).toBe(USERS.ben.email);
    expect((await listed(browser)).find((entry) => entry.id === String(USERS.ben.id))).toMatchObject({ isLoggedIn: true });
    expect((await switchTo(browser, USERS.ana.id)).status).toBe(200);
  });

  it("is forgotten by the device 30 days after it expired: listed no more, and a switch is refused", async () => {
    const browser = await deviceWithBenAndAna();
    await expireSessionOf(USERS.ben.id, Date.now() - 31 * DAY_MS);
    expect((await listed(browser)).map((entry) => entry.id)).toEqual([String(USERS.ana.id)]);
    expect((await switchTo(browser, USERS.ben.id)).status).toBe(403);
  });

  it("stays on its device through housekeeping until the window ends; expired sessions of no device go at once", async () => {
    const now = Date.now();
    await env.DB.batch([
      env.DB.prepare("INSERT INTO sessions (id, user_id, created_at, expires_at, last_seen_at, device_id) VALUES ('hk-on-device', 2, 0, ?1, 0, 'hk-device')").bind(now - DAY_MS),
      env.DB.prepare("INSERT INTO sessions (id, user_id, created_at, expires_at, last_seen_at, device_id) VALUES ('hk-on-device-old', 2, 0, ?1, 0, 'hk-device')").bind(now - 31 * DAY_MS),
      env.DB.prepare("INSERT INTO sessions (id, user_id, created_at, expires_at, last_seen_at) VALUES ('hk-no-device', 2, 0, ?1, 0)").bind(now - 1),
    ]);
    await runHousekeeping(env.DB, now);
    const { results } = await env.DB.prepare("SELECT id FROM sessions WHERE id LIKE 'hk-%' ORDER BY id").all<{ id: string }>();
    expect(results.map((row) => row.id)).toEqual(["hk-on-device"]);
  });
});

describe("sign out everywhere", () => {
  it("ends every session of the account, and with them every device's hold on it", async () => {
    const shared = await deviceWithBenAndAna();
    await shared.login(USERS.ben.username); // Ana is now held by the shared device, not current.
    const own = new Browser();
    await own.login(USERS.ana.username);

    const response = await own.fetch("/v3/users/me/sessions/", { method: "DELETE", body: "{}", headers: { "content-type": "application/json" } });
    expect(response.status).toBe(200);
    expect((await response.json<Envelope>()).data).toEqual({ signed_out: true });
    expect(response.headers.getSetCookie().some((line) => line.startsWith("__Host-pinloom_sess=;"))).toBe(true);
    expect(await signedInAs(own)).toBeNull();

    // The shared device no longer lists Ana, even as one to log in again, and cannot switch to her.
    expect((await listed(shared)).map((entry) => entry.id)).toEqual([String(USERS.ben.id)]);
    expect((await switchTo(shared, USERS.ana.id)).status).toBe(403);
    expect(await signedInAs(shared)).toBe(USERS.ben.email);
    const live = await env.DB.prepare("SELECT count(*) AS n FROM sessions WHERE user_id = ?1 AND revoked_at IS NULL").bind(USERS.ana.id).first<{ n: number }>();
    expect(live?.n).toBe(0);
  });

  it("is offered on the account settings page, and leads home once done", async () => {
    const browser = new Browser();
    await browser.login(USERS.ben.username);
    const html = await (await browser.fetch("/settings/account-settings")).text();
    expect(await attributeOf(html, "form[data-endpoint='/v3/users/me/sessions/']", "data-method")).toBe("DELETE");
    expect(await attributeOf(html, "form[data-endpoint='/v3/users/me/sessions/']", "data-redirect")).toBe("/");
    expect(await attributeOf(html, "form[data-endpoint='/v3/users/me/sessions/']", "aria-label")).toBe("Sign out everywhere");
  });

  it("is 401 signed out, 400 naming an unknown field, and refused without the CSRF header", async () => {
    expect((await new Browser().fetch("/v3/users/me/sessions/", { method: "DELETE" })).status).toBe(401);
    const browser = new Browser();
    await browser.login(USERS.ben.username);
    const bad = await browser.fetch("/v3/users/me/sessions/", { method: "DELETE", body: JSON.stringify({ everywhere: "yes" }), headers: { "content-type": "application/json" } });
    expect(bad.status).toBe(400);
    expect((await bad.json<Envelope>()).message_detail).toContain("everywhere");
    const forged = await fetchWorker("/v3/users/me/sessions/", { method: "DELETE", headers: { cookie: browser.cookieHeader(), origin: "https://evil.example", "x-csrftoken": CSRF } });
    expect(forged.status).toBe(403);
    expect(await signedInAs(browser)).toBe(USERS.ben.email);
  });
});
