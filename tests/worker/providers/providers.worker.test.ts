// Turnstile, Facebook and Google configured, against the local fakes of fakes.ts (which speak
// Siteverify, Graph debug_token and tokeninfo at the real URLs via miniflare's outbound hook).
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { Browser, seedAccounts, USERS, type Envelope } from "../accounts-helpers.ts";
import { BROWSER_UA, fetchWorker } from "../fixtures.ts";
import { FAKE_CONFIG } from "./fakes.ts";

beforeAll(async () => {
  await seedAccounts();
});

let counter = 0;
function signup(overrides: Record<string, string> = {}): Record<string, string> {
  counter++;
  return {
    email: `p${counter}@pinloom.test`,
    username: `provider_${counter}`,
    password: "Sunny-Day#42",
    first_name: "Pat",
    country: "FR",
    locale: "fr",
    referrer: "",
    ...overrides,
  };
}

const b64 = (value: unknown) => btoa(JSON.stringify(value)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
function idToken(claims: Record<string, unknown>, signature = "google-signed"): string {
  return `${b64({ alg: "RS256", kid: "fake" })}.${b64({
    iss: "https://accounts.google.com",
    aud: FAKE_CONFIG.GOOGLE_CLIENT_ID,
    exp: Math.floor(Date.now() / 1000) + 600,
    ...claims,
  })}.${signature}`;
}

describe("Turnstile (the human check)", () => {
  it("puts the widget on the sign-up page, and admits its origin in that page's CSP only", async () => {
    const page = await fetchWorker("/signup/", { headers: { "user-agent": BROWSER_UA } });
    expect(page.status).toBe(200);
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/script-src[^;]*https:\/\/challenges\.cloudflare\.com/);
    expect(csp).toMatch(/frame-src https:\/\/challenges\.cloudflare\.com/);
    const html = await page.text();
    expect(html).toContain(FAKE_CONFIG.TURNSTILE_SITE_KEY);
    expect(html).toMatch(/<body[^>]*data-human-check="turnstile"/);
    const home = await fetchWorker("/", { headers: { "user-agent": BROWSER_UA } });
    expect(home.headers.get("content-security-policy") ?? "").not.toContain("challenges.cloudflare.com");
  });

  it("sign-up needs a token once Turnstile is configured", async () => {
    const response = await new Browser().form("/v3/register/email/handshake/", signup());
    expect(response.status).toBe(400);
    expect((await response.json<Envelope>()).message_detail).toBe("recaptcha_v3_token: is required");
  });

  it("a passing token signs up; the same token again, a failing one, or another site's is 401 code 18", async () => {
    const pass = await new Browser().form("/v3/register/email/handshake/", signup({ recaptcha_v3_token: "pass:pinloom.test:1" }));
    expect(pass.status).toBe(200);
    for (const token of ["pass:pinloom.test:1", "no-such-token", "pass:evil.example:2"]) {
      const response = await new Browser().form("/v3/register/email/handshake/", signup({ recaptcha_v3_token: token }));
      expect(response.status, token).toBe(401);
      expect(await response.json<Envelope>(), token).toMatchObject({ code: 18, message: "We couldn't confirm you're a person. Please try again." });
    }
  });

  it("PUT /v3/sessions/verify/ marks the session verified; an outage is 502 code 18", async () => {
    const browser = new Browser();
    await browser.login("ana");
    const ok = await browser.json("/v3/sessions/verify/", { recaptcha_token: "pass:pinloom.test:3" }, "PUT");
    expect(ok.status).toBe(200);
    expect((await ok.json<Envelope>()).data).toEqual({ verified: true });
    const row = await env.DB.prepare("SELECT verified_at FROM sessions WHERE user_id = 1 AND revoked_at IS NULL").first<{ verified_at: number | null }>();
    expect(row?.verified_at).toBeGreaterThan(0);
    const outage = await browser.json("/v3/sessions/verify/", { recaptcha_token: "outage" }, "PUT");
    expect(outage.status).toBe(502);
    expect((await outage.json<Envelope>()).code).toBe(18);
    expect((await new Browser().json("/v3/sessions/verify/", { recaptcha_token: "pass:pinloom.test:4" }, "PUT")).status).toBe(401);
  });
});

describe("Facebook (Graph debug_token)", () => {
  const fb = (userId: string, state = "valid", appId: string = FAKE_CONFIG.FACEBOOK_APP_ID) => `fb:${appId}:${userId}:${state}`;

  it("signs up with a valid token for that Facebook user, then logs in with Facebook", async () => {
    const fields = signup({ facebook_id: "777", facebook_token: fb("777"), recaptcha_v3_token: "pass:pinloom.test:10" });
    delete (fields as Partial<typeof fields>).password;
    const response = await new Browser().form("/v3/register/facebook/handshake/", fields);
    expect(response.status).toBe(200);
    const row = await env.DB.prepare("SELECT registration_type, facebook_id, password_hash, connected_networks FROM users WHERE facebook_id = '777'").first();
    expect(row).toEqual({ registration_type: "facebook", facebook_id: "777", password_hash: null, connected_networks: '{"facebook":{}}' });

    const browser = new Browser();
    const login = await browser.form("/v3/login/facebook/handshake/", { facebook_id: "777", facebook_token: fb("777") });
    expect(login.status).toBe(200);
    const { data } = await login.json<Envelope<{ token: string }>>();
    const exchange = await browser.json("/v3/sessions/exchange/", { token: data.token, isRegistration: false });
    const session = await exchange.json<Envelope<{ user: { username: string; has_password: boolean } }>>();
    expect(session.data.user).toMatchObject({ username: fields.username, has_password: false });
  });

  it.each([
    ["another user's token", fb("778")],
    ["another app's token", fb("779", "valid", "9999")],
    ["an invalid token", fb("779", "invalid")],
    ["garbage", "not-a-token"],
  ])("refuses %s with 401 code 18", async (_name, token) => {
    const fields = signup({ facebook_id: "779", facebook_token: token, recaptcha_v3_token: `pass:pinloom.test:fb-${counter}` });
    const response = await new Browser().form("/v3/register/facebook/handshake/", fields);
    expect(response.status).toBe(401);
    expect((await response.json<Envelope>()).code).toBe(18);
  });

  it("a Facebook outage is 502 code 18; an unknown Facebook account is the login 401", async () => {
    expect((await new Browser().form("/v3/login/facebook/handshake/", { facebook_id: "1", facebook_token: "outage" })).status).toBe(502);
    const unknown = await new Browser().form("/v3/login/facebook/handshake/", { facebook_id: "555", facebook_token: fb("555") });
    expect(unknown.status).toBe(401);
    expect((await unknown.json<Envelope>()).code).toBe(2);
  });
});

describe("Google (tokeninfo)", () => {
  it("links a verified Google e-mail to the verified account with that e-mail and logs in", async () => {
    const browser = new Browser();
    const login = await browser.form("/v3/login/google/handshake/", { id_token: idToken({ sub: "1001", email: USERS.ana.email, email_verified: true }) });
    expect(login.status).toBe(200);
    const { data } = await login.json<Envelope<{ token: string }>>();
    const exchange = await browser.json("/v3/sessions/exchange/", { token: data.token, isRegistration: false });
    expect((await exchange.json<Envelope<{ user: { id: string } }>>()).data.user.id).toBe("1");
    expect(await env.DB.prepare("SELECT google_id FROM users WHERE id = 1").first()).toEqual({ google_id: "1001" });
    // Next time the Google id alone finds the account.
    expect((await new Browser().form("/v3/login/google/handshake/", { id_token: idToken({ sub: "1001" }) })).status).toBe(200);
  });

  it("never links to an account whose own e-mail is unverified", async () => {
    const response = await new Browser().form("/v3/login/google/handshake/", { id_token: idToken({ sub: "1002", email: USERS.ben.email, email_verified: true }) });
    expect(response.status).toBe(401);
    expect((await response.json<Envelope>()).code).toBe(2);
  });

  it("an MFA account still asks for its code after Google", async () => {
    await env.DB.prepare("UPDATE users SET google_id = '1003' WHERE id = ?1").bind(USERS.noah.id).run();
    const response = await new Browser().form("/v3/login/google/handshake/", { id_token: idToken({ sub: "1003" }) });
    expect(response.status).toBe(409);
    expect((await response.json<Envelope>()).code).toBe(12);
  });

  it.each([
    ["another audience", idToken({ sub: "1001", aud: "someone-else.apps.googleusercontent.com" }), 401],
    ["another issuer", idToken({ sub: "1001", iss: "https://evil.example" }), 401],
    ["a bad signature", idToken({ sub: "1001" }, "forged"), 401],
    ["an expired token", idToken({ sub: "1001", exp: Math.floor(Date.now() / 1000) - 60 }), 401],
    ["an outage", "outage", 502],
  ])("refuses %s (code 18)", async (_name, token, status) => {
    const response = await new Browser().form("/v3/login/google/handshake/", { id_token: token });
    expect(response.status).toBe(status);
    expect((await response.json<Envelope>()).code).toBe(18);
  });
});

describe("country-domain sessions (CCTLD_HOSTS configured)", () => {
  it("hands a session to a country domain once, only from one of our own origins", async () => {
    const browser = new Browser();
    await browser.login("ana");
    const minted = await browser.form("/vx/users/cctld_token/", { host: "pinloom.de" });
    expect(minted.status).toBe(200);
    const { data } = await minted.json<Envelope<{ token: string; url: string }>>();
    expect(data.url).toBe("https://pinloom.de/cctld_session/");

    const post = (origin: string) =>
      fetchWorker(data.url, { method: "POST", body: new URLSearchParams({ token: data.token }).toString(), headers: { "content-type": "application/x-www-form-urlencoded", origin } });
    const foreign = await post("https://evil.example");
    expect(foreign.status).toBe(403);
    const handed = await post("https://pinloom.test");
    expect(handed.status).toBe(200);
    expect(handed.headers.getSetCookie().some((line) => line.startsWith("__Host-pinloom_sess="))).toBe(true);
    expect((await handed.json<Envelope<{ user: { id: string } }>>()).data.user.id).toBe("1");
    expect((await post("https://pinloom.test")).status).toBe(401);
  });

  it("defaults to the first other domain and refuses one that is not configured", async () => {
    const browser = new Browser();
    await browser.login("ana");
    const minted = await browser.fetch("/vx/users/cctld_token/", { method: "POST" });
    expect((await minted.json<Envelope<{ url: string }>>()).data.url).toBe("https://pinloom.fr/cctld_session/");
    expect((await browser.form("/vx/users/cctld_token/", { host: "evil.example" })).status).toBe(400);
  });
});
