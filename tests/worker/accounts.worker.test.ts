// Accounts over HTTP (spec 000 §3, §4, §7, §8): CSRF, cookies, sessions, login, MFA, sign-out,
// switching, throttles, limited login and the switcher's batch, against the built Worker.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { issueToken } from "~/accounts/handshake.server.ts";
import { generateTotp } from "~/accounts/totp.ts";
import { RATE_RULES } from "~/server/rate-limit.server.ts";
import { Browser, CSRF, fillCounter, freshIp, MFA_SECRET, PASSWORD, seedAccounts, USERS, type Envelope } from "./accounts-helpers.ts";
import { BASE, fetchWorker } from "./fixtures.ts";

beforeAll(async () => {
  await seedAccounts();
});

const LOGIN_BODY = `username_or_email=ana&password=${encodeURIComponent(PASSWORD)}&referrer=`;

describe("CSRF on the account calls", () => {
  const bodies: Array<[string, string, BodyInit]> = [
    ["form", "application/x-www-form-urlencoded", LOGIN_BODY],
    ["JSON", "application/json", JSON.stringify({ username_or_email: "ana", password: PASSWORD })],
    ["text/plain", "text/plain", LOGIN_BODY],
    ["multipart", "multipart/form-data; boundary=x", `--x\r\nContent-Disposition: form-data; name="username_or_email"\r\n\r\nana\r\n--x--\r\n`],
  ];

  it.each(bodies)("refuses a %s login without the CSRF header", async (_name, type, body) => {
    const response = await fetchWorker("/v3/login/handshake/", { method: "POST", body, headers: { "content-type": type, origin: BASE, cookie: `csrftoken=${CSRF}` } });
    expect(response.status).toBe(403);
    expect((await response.json<Envelope>()).code).toBe(10);
  });

  it.each([
    ["another origin", { origin: "https://evil.example", cookie: `csrftoken=${CSRF}`, "x-csrftoken": CSRF }],
    ["no Origin and no Sec-Fetch-Site", { cookie: `csrftoken=${CSRF}`, "x-csrftoken": CSRF }],
    ["cross-site Sec-Fetch-Site", { "sec-fetch-site": "cross-site", cookie: `csrftoken=${CSRF}`, "x-csrftoken": CSRF }],
    ["no cookie", { origin: BASE, "x-csrftoken": CSRF }],
    ["a header that does not match the cookie", { origin: BASE, cookie: `csrftoken=${CSRF}`, "x-csrftoken": "d".repeat(64) }],
  ])("refuses %s", async (_name, headers) => {
    for (const path of ["/v3/login/handshake/", "/v3/sessions/exchange/", "/resource/UserSessionResource/delete/", "/v3/register/email/handshake/"]) {
      const response = await fetchWorker(path, { method: "POST", body: LOGIN_BODY, headers: { "content-type": "application/x-www-form-urlencoded", ...headers } });
      expect(response.status, path).toBe(403);
    }
  });
});

describe("login and the session cookie", () => {
  it("sets a __Host- cookie: HttpOnly, Secure, SameSite=Lax, Path=/, no Domain", async () => {
    const browser = new Browser();
    const handshake = await browser.form("/v3/login/handshake/", { username_or_email: "  ana ", password: PASSWORD, referrer: "" });
    expect(handshake.status).toBe(200);
    const { data } = await handshake.json<Envelope<{ token: string }>>();
    const exchange = await browser.json("/v3/sessions/exchange/", { token: data.token, isRegistration: false });
    expect(exchange.status).toBe(200);
    const line = exchange.headers.getSetCookie().find((cookie) => cookie.startsWith("__Host-pinloom_sess="))!;
    const attributes = line.split(";").map((part) => part.trim().toLowerCase());
    expect(attributes).toEqual(expect.arrayContaining(["httponly", "secure", "samesite=lax", "path=/"]));
    expect(attributes.some((attribute) => attribute.startsWith("domain"))).toBe(false);
    const body = await exchange.json<Envelope<{ user: { id: string; username: string }; viewer_type: string; days_to_expiration: number }>>();
    expect(body.data).toMatchObject({ user: { id: "1", username: "ana" }, viewer_type: "AUTH", days_to_expiration: 180 });
    const me = await browser.fetch("/v3/users/me/");
    expect(me.status).toBe(200);
    expect((await me.json<Envelope>()).data).toEqual({
      full_name: "ana",
      email: USERS.ana.email,
      is_name_eligible_for_lead_form_autofill: true,
      is_email_eligible_for_lead_form_autofill: true,
    });
  });

  it("logs in by e-mail in any case", async () => {
    const body = await new Browser().login("ANA@pinloom.TEST");
    expect(body.data.user.id).toBe("1");
  });

  it("gives a new session id on every login; the previous one on this device stops working", async () => {
    const browser = new Browser();
    await browser.login("ana");
    const first = browser.session!;
    await browser.login("ana");
    const second = browser.session!;
    expect(second).not.toBe(first);
    const old = await fetchWorker("/v3/users/me/", { headers: { cookie: `__Host-pinloom_sess=${first}` } });
    expect(old.status).toBe(401);
    expect((await browser.fetch("/v3/users/me/")).status).toBe(200);
  });

  it("spends a login token once, even when two exchanges race", async () => {
    const browser = new Browser();
    const handshake = await browser.form("/v3/login/handshake/", { username_or_email: "ben", password: PASSWORD });
    const { data } = await handshake.json<Envelope<{ token: string }>>();
    const results = await Promise.all([0, 1, 2].map(() => new Browser().json("/v3/sessions/exchange/", { token: data.token, isRegistration: false })));
    expect(results.map((response) => response.status).sort()).toEqual([200, 401, 401]);
    const again = await browser.json("/v3/sessions/exchange/", { token: data.token, isRegistration: false });
    expect(again.status).toBe(401);
    const { count } = (await env.DB.prepare("SELECT COUNT(*) AS count FROM sessions WHERE user_id = 2 AND revoked_at IS NULL").first<{ count: number }>())!;
    expect(count).toBe(1);
  });

  it("refuses a login token exchanged as a registration, and a made-up token", async () => {
    const browser = new Browser();
    const { data } = await (await browser.form("/v3/login/handshake/", { username_or_email: "ana", password: PASSWORD })).json<Envelope<{ token: string }>>();
    expect((await browser.json("/v3/sessions/exchange/", { token: data.token, isRegistration: true })).status).toBe(401);
    expect((await browser.json("/v3/sessions/exchange/", { token: "x".repeat(43), isRegistration: false })).status).toBe(401);
  });

  it("answers an unknown account exactly like a wrong password, after the same hash work", async () => {
    const time = async (username: string) => {
      const start = performance.now();
      const response = await new Browser().form("/v3/login/handshake/", { username_or_email: username, password: "Wrong-password-1" });
      return { ms: performance.now() - start, status: response.status, body: await response.json<Envelope>() };
    };
    const wrong = await time("ben");
    const unknown = await time("nobody_here");
    const unknownEmail = await time("nobody@pinloom.test");
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    expect(unknownEmail.body).toEqual(wrong.body);
    expect(wrong.body).toMatchObject({ status: "failure", code: 2, data: null });
    // Both ran the full PBKDF2 (600,000 HMAC iterations): neither is a fraction of the other.
    expect(unknown.ms).toBeGreaterThan(wrong.ms * 0.5);
    expect(wrong.ms).toBeGreaterThan(unknown.ms * 0.5);
  });

  it("answers 401 to /v3/users/me/ when signed out and 400 for an unknown field", async () => {
    expect((await fetchWorker("/v3/users/me/")).status).toBe(401);
    const browser = new Browser();
    await browser.login("ben");
    const some = await browser.fetch("/v3/users/me/?fields=email,full_name");
    expect((await some.json<Envelope>()).data).toEqual({ email: USERS.ben.email, full_name: "ben" });
    expect((await browser.fetch("/v3/users/me/?fields=password_hash")).status).toBe(400);
  });
});

describe("MFA (TOTP)", () => {
  it("asks for the code with 409 code 12, accepts a right code once, refuses a replay", async () => {
    const browser = new Browser();
    const password = await browser.form("/v3/login/handshake/", { username_or_email: USERS.noah.username, password: PASSWORD });
    expect(password.status).toBe(409);
    const challenge = await password.json<Envelope<{ token: string }>>();
    expect(challenge).toMatchObject({ status: "failure", code: 12 });
    expect(challenge.data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const wrong = await browser.form("/v3/login/mfa/handshake/", { username_or_email: USERS.noah.username, mfa_token: "000000", token: challenge.data.token });
    expect(wrong.status).toBe(401);
    expect((await wrong.json<Envelope>()).code).toBe(2);

    const code = await generateTotp(MFA_SECRET);
    const right = await browser.form("/v3/login/mfa/handshake/", { username_or_email: USERS.noah.username, mfa_token: code, token: challenge.data.token });
    expect(right.status).toBe(200);
    const { data } = await right.json<Envelope<{ token: string }>>();
    const exchange = await browser.json("/v3/sessions/exchange/", { token: data.token, isRegistration: false });
    expect(exchange.status).toBe(200);

    // The challenge is spent, and the same code is refused with a fresh challenge.
    const reuse = await browser.form("/v3/login/mfa/handshake/", { username_or_email: USERS.noah.username, mfa_token: code, token: challenge.data.token });
    expect(reuse.status).toBe(401);
    const again = await (await browser.form("/v3/login/handshake/", { username_or_email: USERS.noah.username, password: PASSWORD })).json<Envelope<{ token: string }>>();
    const replay = await browser.form("/v3/login/mfa/handshake/", { username_or_email: USERS.noah.username, mfa_token: code, token: again.data.token });
    expect(replay.status).toBe(401);
  });

  it("refuses a challenge used with another account's name", async () => {
    const browser = new Browser();
    const challenge = await (await browser.form("/v3/login/handshake/", { username_or_email: USERS.noah.username, password: PASSWORD })).json<Envelope<{ token: string }>>();
    const other = await browser.form("/v3/login/mfa/handshake/", { username_or_email: "ana", mfa_token: "123456", token: challenge.data.token });
    expect(other.status).toBe(401);
  });

  it("a wrong password on an MFA account is the same 401 as anywhere", async () => {
    const response = await new Browser().form("/v3/login/handshake/", { username_or_email: USERS.noah.username, password: "Nope-nope-1" });
    expect(response.status).toBe(401);
    expect((await response.json<Envelope>()).data).toBeNull();
  });
});

describe("throttling", () => {
  it("per account from one address: the 11th try in 15 minutes is 429, even with the right password", async () => {
    const ip = "203.0.113.90";
    for (let i = 0; i < 10; i++) {
      const response = await new Browser(ip).form("/v3/login/handshake/", { username_or_email: "ben", password: `Wrong-${i}-password` });
      expect(response.status).toBe(401);
    }
    const blocked = await new Browser(ip).form("/v3/login/handshake/", { username_or_email: "ben", password: PASSWORD });
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get("retry-after")).toMatch(/^\d+$/);
    // Someone guessing from elsewhere does not lock the owner out of their own address.
    expect((await new Browser("203.0.113.91").form("/v3/login/handshake/", { username_or_email: "ben", password: PASSWORD })).status).toBe(200);
    await env.DB.prepare("DELETE FROM rate_limits WHERE key LIKE 'login:%'").run();
  });

  it("per account from all addresses together: a ceiling against guessing spread over many", async () => {
    await fillCounter(`${RATE_RULES.loginPerAccount.name}:${USERS.ben.id}`, RATE_RULES.loginPerAccount.limit, RATE_RULES.loginPerAccount.windowMs);
    const blocked = await new Browser().form("/v3/login/handshake/", { username_or_email: "ben", password: PASSWORD });
    expect(blocked.status).toBe(429);
    await env.DB.prepare("DELETE FROM rate_limits WHERE key LIKE 'login:%'").run();
  });

  it("a successful login resets the account's counter", async () => {
    for (let i = 0; i < 3; i++) await new Browser().form("/v3/login/handshake/", { username_or_email: "biz_nobody@x.test", password: "x" });
    for (let i = 0; i < 3; i++) await new Browser().form("/v3/login/handshake/", { username_or_email: USERS.biz.username, password: "Wrong-password" });
    const key = `${RATE_RULES.loginPerAccount.name}:${USERS.biz.id}`;
    expect((await env.DB.prepare("SELECT count FROM rate_limits WHERE key = ?1").bind(key).first<{ count: number }>())?.count).toBe(3);
    await new Browser().login(USERS.biz.username);
    expect(await env.DB.prepare("SELECT count FROM rate_limits WHERE key = ?1").bind(key).first()).toBeNull();
  });

  it("per client address by CF-Connecting-IP; X-Forwarded-For is ignored", async () => {
    const ip = "203.0.113.77";
    await fillCounter(`${RATE_RULES.loginPerIp.name}:${ip}`, RATE_RULES.loginPerIp.limit, RATE_RULES.loginPerIp.windowMs);
    const blocked = await new Browser(ip).form("/v3/login/handshake/", { username_or_email: "ana", password: PASSWORD }, { "x-forwarded-for": "192.0.2.1" });
    expect(blocked.status).toBe(429);
    // Another address, claiming the blocked one in X-Forwarded-For, is not blocked.
    const other = await new Browser().form("/v3/login/handshake/", { username_or_email: "ana", password: PASSWORD }, { "x-forwarded-for": ip });
    expect(other.status).toBe(200);
  });

  it("sign-up per address, MFA per account, resend per account", async () => {
    const ip = "203.0.113.78";
    await fillCounter(`${RATE_RULES.signupPerIp.name}:${ip}`, RATE_RULES.signupPerIp.limit, RATE_RULES.signupPerIp.windowMs);
    const signup = await new Browser(ip).form("/v3/register/email/handshake/", signupFields({ username: "throttled1", email: "throttled1@pinloom.test" }));
    expect(signup.status).toBe(429);

    const browser = new Browser();
    const challenge = await (await browser.form("/v3/login/handshake/", { username_or_email: USERS.noah.username, password: PASSWORD })).json<Envelope<{ token: string }>>();
    await fillCounter(`${RATE_RULES.mfaPerAccount.name}:${USERS.noah.id}`, RATE_RULES.mfaPerAccount.limit, RATE_RULES.mfaPerAccount.windowMs);
    const mfa = await browser.form("/v3/login/mfa/handshake/", { username_or_email: USERS.noah.username, mfa_token: await generateTotp(MFA_SECRET), token: challenge.data.token });
    expect(mfa.status).toBe(429);
    await env.DB.prepare("DELETE FROM rate_limits WHERE key = ?1").bind(`${RATE_RULES.mfaPerAccount.name}:${USERS.noah.id}`).run();

    const ben = new Browser();
    await ben.login("ben");
    expect((await ben.fetch("/v3/users/email/verify/resend/", { method: "POST" })).status).toBe(200);
    await fillCounter(`${RATE_RULES.emailResendPerAccount.name}:${USERS.ben.id}`, RATE_RULES.emailResendPerAccount.limit, RATE_RULES.emailResendPerAccount.windowMs);
    expect((await ben.fetch("/v3/users/email/verify/resend/", { method: "POST" })).status).toBe(429);
  });
});

function signupFields(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    email: "nina@pinloom.test",
    username: "nina_park",
    password: "Sunny-Day#42",
    first_name: "Nina",
    last_name: "Park",
    country: "US",
    locale: "en_US",
    referrer: "https://www.google.com/",
    ...overrides,
  };
}

describe("sign-up", () => {
  it("register handshake then exchange: a new, unverified e-mail account and its session", async () => {
    const browser = new Browser();
    const handshake = await browser.form("/v3/register/email/handshake/", signupFields({ birthday: "1990-04-02", utm_campaign: "autumn" }), { "x-pinloom-install-id": crypto.randomUUID() });
    expect(handshake.status).toBe(200);
    const { data } = await handshake.json<Envelope<{ token: string }>>();
    const exchange = await browser.json("/v3/sessions/exchange/", { token: data.token, isRegistration: true });
    expect(exchange.status).toBe(200);
    const body = await exchange.json<Envelope<{ user: { username: string; nags: string[]; first_name: string }; viewer_type: string }>>();
    expect(body.data.user).toMatchObject({ username: "nina_park", first_name: "Nina", nags: ["verify_email"] });
    const row = await env.DB.prepare("SELECT registration_type, email_verified, signup_referrer, signup_utm_campaign, age_in_years, password_hash FROM users WHERE username = 'nina_park'").first<Record<string, unknown>>();
    expect(row).toMatchObject({ registration_type: "email", email_verified: 0, signup_referrer: "https://www.google.com/", signup_utm_campaign: "autumn" });
    expect(String(row!.password_hash)).toMatch(/^pbkdf2-sha256\$6x100000\$/);
    // The new account logs in with its password.
    await new Browser().login("nina_park", "Sunny-Day#42");
  });

  it("a business: first_name is the business name, account_type business, is_partner 1", async () => {
    const fields = signupFields({ email: "shop@pinloom.test", username: "corner_shop", business_name: "Corner Shop" });
    delete (fields as Partial<typeof fields>).first_name;
    const handshake = await new Browser().form("/v3/register/partner/handshake/", fields);
    expect(handshake.status).toBe(200);
    const row = await env.DB.prepare("SELECT first_name, last_name, full_name, account_type, is_partner, business_name, registration_type FROM users WHERE username = 'corner_shop'").first();
    expect(row).toEqual({ first_name: "Corner Shop", last_name: "", full_name: "Corner Shop", account_type: "business", is_partner: 1, business_name: "Corner Shop", registration_type: "partner" });
  });

  it.each([
    ["email", { business_name: "Shop" }],
    ["partner", {}],
    ["facebook", {}],
    ["email", { facebook_id: "1234", facebook_token: "t" }],
  ])("the path /register/%s/ must match the type the body implies (%o)", async (type, extra) => {
    const response = await new Browser().form(`/v3/register/${type}/handshake/`, signupFields({ email: "rt@pinloom.test", username: "rt_user", ...extra }));
    expect(response.status).toBe(400);
    expect((await response.json<Envelope>()).message_detail).toMatch(/^registration_type: /);
  });

  it("a Facebook sign-up while Facebook is not configured is a clear 503 code 18", async () => {
    const response = await new Browser().form("/v3/register/facebook/handshake/", signupFields({ email: "fb@pinloom.test", username: "fb_user", facebook_id: "1234", facebook_token: "t" }));
    expect(response.status).toBe(503);
    expect(await response.json<Envelope>()).toMatchObject({ code: 18, message: "Continuing with Facebook isn't available here." });
  });

  it("under 13 by birthday is 409 code 13 and creates nothing", async () => {
    const now = new Date();
    const birthday = `${now.getUTCFullYear() - 12}-01-01`;
    const response = await new Browser().form("/v3/register/email/handshake/", signupFields({ email: "kid@pinloom.test", username: "kid_user", birthday }));
    expect(response.status).toBe(409);
    expect((await response.json<Envelope>()).code).toBe(13);
    expect(await env.DB.prepare("SELECT 1 FROM users WHERE username = 'kid_user'").first()).toBeNull();
  });

  it("e-mail and username taken are 409 code 6 naming the field", async () => {
    const email = await new Browser().form("/v3/register/email/handshake/", signupFields({ email: "ANA@pinloom.test", username: "fresh_name" }));
    expect(email.status).toBe(409);
    expect(await email.json<Envelope>()).toMatchObject({ code: 6, extra_data: { field: "email" } });
    const username = await new Browser().form("/v3/register/email/handshake/", signupFields({ email: "fresh@pinloom.test", username: "ANA" }));
    expect(await username.json<Envelope>()).toMatchObject({ code: 6, extra_data: { field: "username" } });
  });

  it("the password rule answers the spec's words", async () => {
    const response = await new Browser().form("/v3/register/email/handshake/", signupFields({ email: "pw@pinloom.test", username: "pw_user", password: "emoji😀password" }));
    expect(response.status).toBe(400);
    const body = await response.json<Envelope>();
    expect(body.message).toBe("Oops! Your password can only have letters, numbers and basic symbols.");
    expect(body.message_detail).toBe("password: Oops! Your password can only have letters, numbers and basic symbols.");
  });

  it("names each bad field in a 400", async () => {
    const response = await new Browser().form("/v3/register/email/handshake/", signupFields({ email: "nope", first_name: "x".repeat(31) }));
    expect(response.status).toBe(400);
    const detail = (await response.json<Envelope>()).message_detail!;
    expect(detail).toContain("email: has an invalid format");
    expect(detail).toContain("first_name: must be at most 30 characters");
  });

  it("UserRegisterResource signs up and starts the session in one step", async () => {
    const browser = new Browser();
    const response = await browser.resource("UserRegisterResource", "create", { ...signupFields({ email: "res@pinloom.test", username: "res_user" }) });
    expect(response.status).toBe(200);
    const body = await response.json<{ resource_response: Envelope<{ user: { username: string }; viewer_type: string }> }>();
    expect(body.resource_response.data).toMatchObject({ user: { username: "res_user" }, viewer_type: "AUTH" });
    expect(browser.session).toBeDefined();
    expect((await browser.fetch("/v3/users/me/")).status).toBe(200);
    const bad = await browser.resource("UserRegisterResource", "create", { ...signupFields({ email: "res2@pinloom.test", username: "res_user2", password: "tab\tpassword" }) });
    expect(bad.status).toBe(400);
    expect((await bad.json<{ resource_response: Envelope }>()).resource_response.message).toBe("Oops! Your password can only have letters, numbers and basic symbols.");
  });
});

describe("sign-out, switching and stored accounts", () => {
  it("sign-out revokes at once: the old cookie is 401 on /v3/users/me/", async () => {
    const browser = new Browser();
    await browser.login("ana");
    const cookie = browser.session!;
    const response = await browser.resource("UserSessionResource", "delete", { disable_auth_failure_redirect: true, reason: "user_logout" });
    expect(response.status).toBe(200);
    expect((await response.json<{ resource_response: Envelope }>()).resource_response.data).toEqual({ redirect_url: "/" });
    expect(response.headers.getSetCookie().some((line) => line.startsWith("__Host-pinloom_sess=;"))).toBe(true);
    const old = await fetchWorker("/v3/users/me/", { headers: { cookie: `__Host-pinloom_sess=${cookie}` } });
    expect(old.status).toBe(401);
    // Signed out already: still a success.
    expect((await browser.resource("UserSessionResource", "delete", {})).status).toBe(200);
  });

  it.each([
    ["/pin/100001/", "/pin/100001/"],
    ["//evil.example", "/"],
    ["https://evil.example/", "/"],
    ["/\\evil.example", "/"],
    ["/%2F%2Fevil.example", "/"],
    ["%2F%2Fevil.example", "/"],
    ["/%5Cevil.example", "/"],
    ["/%252F%252Fevil.example", "/"],
    ["/\t/evil.example", "/"],
    ["javascript:alert(1)", "/"],
  ])("sign-out with next=%j redirects to %s", async (next, expected) => {
    const response = await new Browser().resource("UserSessionResource", "delete", { next });
    expect((await response.json<{ resource_response: Envelope<{ redirect_url: string }> }>()).resource_response.data.redirect_url).toBe(expected);
  });

  it("lists this device's accounts, switches with a new id, and leaves the other account signed in", async () => {
    const browser = new Browser();
    await browser.login("ana");
    const anaCookie = browser.session!;
    await browser.login(USERS.biz.username);
    const bizCookie = browser.session!;

    const list = await browser.resource("UserSessionResource", "create", { session_accounts: true });
    const entries = (await list.json<{ resource_response: Envelope<{ session_accounts: Array<Record<string, unknown>> }> }>()).resource_response.data.session_accounts;
    expect(entries.map((entry) => entry.id).sort()).toEqual(["1", "3"]);
    expect(entries.find((entry) => entry.id === "3")).toEqual({
      id: "3",
      username: USERS.biz.username,
      email: USERS.biz.email,
      fullName: USERS.biz.username,
      imageMediumUrl: null,
      imageLargeUrl: null,
      owners: [],
      partner: { contact_email: USERS.biz.email, ownership_email: USERS.biz.email, business_name: "Bake & Bloom Studio", is_linked_business: false },
      businesses: [],
      isLoggedIn: true,
    });

    const switched = await browser.resource("UserSessionResource", "create", { session_accounts: true, switch_to_user_id: "1" });
    expect(switched.status).toBe(200);
    const body = await switched.json<{ resource_response: Envelope<{ user: { id: string } }> }>();
    expect(body.resource_response.data.user.id).toBe("1");
    expect(browser.session).not.toBe(anaCookie);
    const me = await (await browser.fetch("/v3/users/me/?fields=email")).json<Envelope>();
    expect(me.data).toEqual({ email: USERS.ana.email });
    // The account switched away from is still signed in; ana's previous id is not.
    expect((await fetchWorker("/v3/users/me/", { headers: { cookie: `__Host-pinloom_sess=${bizCookie}` } })).status).toBe(200);
    expect((await fetchWorker("/v3/users/me/", { headers: { cookie: `__Host-pinloom_sess=${anaCookie}` } })).status).toBe(401);

    const stored = await (await browser.fetch("/refresh_stored_accounts")).json<Envelope<{ session_accounts: unknown[] }>>();
    expect(stored.data.session_accounts).toHaveLength(2);
  });

  it("refuses to switch to an account not signed in on this device", async () => {
    const browser = new Browser();
    await browser.login("ana");
    const response = await browser.resource("UserSessionResource", "create", { session_accounts: true, switch_to_user_id: String(USERS.ben.id) });
    expect(response.status).toBe(403);
  });

  it("stored accounts are [] on a device with none", async () => {
    const body = await (await new Browser().fetch("/refresh_stored_accounts")).json<Envelope<{ session_accounts: unknown[] }>>();
    expect(body.data.session_accounts).toEqual([]);
  });
});

describe("token refresh (spec 000 §4, 90 days)", () => {
  it("leaves a young session alone and rotates one inside the window", async () => {
    const browser = new Browser();
    await browser.login("ben");
    const young = browser.session!;
    const first = await browser.fetch("/refresh_token");
    expect((await first.json<Envelope>()).data).toEqual({ days_to_expiration: 180 });
    expect(browser.session).toBe(young);

    await env.DB.prepare("UPDATE sessions SET expires_at = ?1 WHERE user_id = 2 AND revoked_at IS NULL").bind(Date.now() + 30 * 86_400_000).run();
    const second = await browser.fetch("/refresh_token");
    expect((await second.json<Envelope>()).data).toEqual({ days_to_expiration: 180 });
    expect(browser.session).not.toBe(young);
    expect((await fetchWorker("/v3/users/me/", { headers: { cookie: `__Host-pinloom_sess=${young}` } })).status).toBe(401);
    expect((await browser.fetch("/v3/users/me/")).status).toBe(200);
  });

  it("is 401 signed out", async () => {
    expect((await fetchWorker("/refresh_token")).status).toBe(401);
  });
});

describe("limited login and guards", () => {
  it("a limited account's session is LIMITED_LOGIN with the limited viewer", async () => {
    const body = await new Browser().login(USERS.lou.username);
    expect(body.data.viewer_type).toBe("LIMITED_LOGIN");
    expect(body.data.user).toEqual({ email: USERS.lou.email, firstName: USERS.lou.username, hasPassword: true, imageUrl: null, isConnectedToFacebook: false, isConnectedToGoogle: false });
  });

  it("fingerprints: 401 signed out, 403 code 17 for limited login, 200 for a full login", async () => {
    expect((await new Browser().json("/v3/spam/fingerprints/", { fingerprint: "abc123" })).status).toBe(401);
    const lou = new Browser();
    await lou.login(USERS.lou.username);
    const refused = await lou.json("/v3/spam/fingerprints/", { fingerprint: "abc123" });
    expect(refused.status).toBe(403);
    expect((await refused.json<Envelope>()).code).toBe(17);
    const ana = new Browser();
    await ana.login("ana");
    expect((await ana.json("/v3/spam/fingerprints/", { fingerprint: "abc123" })).status).toBe(200);
    expect(await env.DB.prepare("SELECT user_id FROM fingerprints WHERE fingerprint = 'abc123'").all()).toMatchObject({ results: [{ user_id: 1 }] });
    expect((await ana.json("/v3/spam/fingerprints/", { fingerprint: "<script>" })).status).toBe(400);
  });
});

describe("batch (the switcher's GET v3/users/{id}/)", () => {
  it("private fields only for this device's accounts", async () => {
    const browser = new Browser();
    await browser.login("ana");
    await browser.login(USERS.biz.username);
    const requests = [1, 3, 2, 999].map((id) => ({ method: "GET", path: `/v3/users/${id}/`, params: { fields: "user.email,user.full_name" } }));
    const response = await browser.form("/v3/batch/", { requests: JSON.stringify(requests) });
    expect(response.status).toBe(200);
    const data = (await response.json<Envelope<Record<string, { status: string; code?: number; data?: Record<string, unknown> }>>>()).data;
    expect(data["/v3/users/1/"]).toMatchObject({ status: "success", data: { id: "1", email: USERS.ana.email, isLoggedIn: true } });
    expect(data["/v3/users/3/"]?.data?.partner).toMatchObject({ business_name: "Bake & Bloom Studio" });
    expect(data["/v3/users/2/"]).toMatchObject({ status: "success", data: { id: "2", username: "ben", email: null, partner: null, isLoggedIn: false } });
    expect(data["/v3/users/999/"]).toEqual({ status: "failure", code: 4 });
  });

  it("bounds the list at 10 and refuses other paths", async () => {
    const browser = new Browser();
    const many = Array.from({ length: 11 }, (_, i) => ({ method: "GET", path: `/v3/users/${i + 1}/` }));
    expect((await browser.form("/v3/batch/", { requests: JSON.stringify(many) })).status).toBe(400);
    expect((await browser.form("/v3/batch/", { requests: JSON.stringify([{ method: "GET", path: "/v3/boards/1/" }]) })).status).toBe(400);
    expect((await browser.form("/v3/batch/", { requests: JSON.stringify([{ method: "DELETE", path: "/v3/users/1/" }]) })).status).toBe(400);
  });
});

describe("configured-off services and the country-domain hand-off", () => {
  it("PUT /v3/sessions/verify/ is 503 code 18 without Turnstile", async () => {
    const browser = new Browser();
    await browser.login("ana");
    const response = await browser.json("/v3/sessions/verify/", { recaptcha_token: "t" }, "PUT");
    expect(response.status).toBe(503);
    expect((await response.json<Envelope>()).code).toBe(18);
  });

  it("Google and Facebook login are 503 code 18 without configuration", async () => {
    expect((await new Browser().form("/v3/login/google/handshake/", { id_token: "x.y.z" })).status).toBe(503);
    expect((await new Browser().form("/v3/login/facebook/handshake/", { facebook_id: "1", facebook_token: "t" })).status).toBe(503);
  });

  it("POST /vx/users/cctld_token/ is 404 without country domains, 401 signed out", async () => {
    expect((await new Browser().fetch("/vx/users/cctld_token/", { method: "POST" })).status).toBe(401);
    const browser = new Browser();
    await browser.login("ana");
    expect((await browser.fetch("/vx/users/cctld_token/", { method: "POST" })).status).toBe(404);
  });
});

describe("e-mail verification", () => {
  it("resend answers sent:true for an unverified account and sent:false once verified", async () => {
    const cal = new Browser(freshIp());
    await cal.login(USERS.cal.username);
    expect((await (await cal.fetch("/v3/users/email/verify/resend/", { method: "POST" })).json<Envelope>()).data).toEqual({ sent: true });
    const ana = new Browser();
    await ana.login("ana");
    expect((await (await ana.fetch("/v3/users/email/verify/resend/", { method: "POST" })).json<Envelope>()).data).toEqual({ sent: false });
    expect((await new Browser().fetch("/v3/users/email/verify/resend/", { method: "POST" })).status).toBe(401);
  });

  it("the e-mailed link verifies once", async () => {
    const issued = await issueToken(env.DB, USERS.cal.id, "email_verify");
    await issued.statement.run();
    const first = await fetchWorker(`/v3/users/email/verify/?token=${issued.token}`, { redirect: "manual" });
    expect(first.headers.get("location")).toBe("/email-verified/?result=verified");
    expect(await env.DB.prepare("SELECT email_verified FROM users WHERE id = ?1").bind(USERS.cal.id).first()).toEqual({ email_verified: 1 });
    const again = await fetchWorker(`/v3/users/email/verify/?token=${issued.token}`, { redirect: "manual" });
    expect(again.headers.get("location")).toBe("/email-verified/?result=invalid");
  });

  it("a made-up verification link lands on the link-expired page without verifying", async () => {
    const response = await fetchWorker(`/v3/users/email/verify/?token=${"a".repeat(43)}`, { redirect: "manual" });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/email-verified/?result=invalid");
  });
});
