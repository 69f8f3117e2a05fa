// What an account gives away and who may change it: a shared (edge-cached) render carries no
// visitor's country, /v3/batch/ describes a private account only to a device it is signed in
// on, an e-mail change needs the password and ends the old address's verification links, and
// an account of someone under 16 stays private.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { SESSION_COOKIE } from "~/accounts/session.server.ts";
import { Browser, PASSWORD, seedAccounts, USERS, type Envelope } from "./accounts-helpers.ts";
import { createSession } from "./session-fixture.ts";

beforeAll(async () => {
  await seedAccounts();
  await env.DB.prepare("UPDATE users SET is_private_profile = 1 WHERE id = ?1").bind(USERS.ben.id).run();
});

describe("a shared render", () => {
  it("carries no visitor's country in its island props, and sign-up takes the request's own", async () => {
    const first = await new Browser().fetch("/signup/", { headers: { "cf-ipcountry": "FR" } });
    const html = await first.text();
    expect(html).not.toMatch(/country&quot;:\[0,&quot;FR/);
    const signup = await new Browser().fetch("/v3/register/email/handshake/", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "cf-ipcountry": "DE" },
      body: new URLSearchParams({ email: "de@pinloom.test", username: "from_de", password: "Sunny-Day#42", first_name: "Dee", country: "", locale: "de", referrer: "" }).toString(),
    });
    expect(signup.status).toBe(200);
    const row = await env.DB.prepare("SELECT country FROM users WHERE username = 'from_de'").first<{ country: string }>();
    expect(row?.country).toBe("DE");
  });
});

describe("/v3/batch/", () => {
  const batch = (browser: Browser, ids: number[]) =>
    browser.fetch("/v3/batch/", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ requests: JSON.stringify(ids.map((id) => ({ method: "GET", path: `/v3/users/${id}/` }))) }).toString(),
    });

  it("describes a private or limited account to nobody but a device it is signed in on", async () => {
    const stranger = await (await batch(new Browser(), [USERS.ana.id, USERS.ben.id, USERS.lou.id])).json<Envelope<Record<string, { status: string }>>>();
    expect(stranger.data[`/v3/users/${USERS.ana.id}/`]?.status).toBe("success");
    expect(stranger.data[`/v3/users/${USERS.ben.id}/`]?.status).toBe("failure");
    expect(stranger.data[`/v3/users/${USERS.lou.id}/`]?.status).toBe("failure");
    const own = new Browser();
    await own.login(USERS.ben.username);
    const mine = await (await batch(own, [USERS.ben.id])).json<Envelope<Record<string, { status: string; data: { email: string } }>>>();
    expect(mine.data[`/v3/users/${USERS.ben.id}/`]).toMatchObject({ status: "success", data: { email: USERS.ben.email } });
  });
});

describe("an e-mail change", () => {
  it("kills the verification links sent to the old address", async () => {
    const ana = new Browser();
    await ana.login(USERS.ana.username);
    await env.DB.prepare("UPDATE users SET email_verified = 0 WHERE id = ?1").bind(USERS.ana.id).run();
    expect((await ana.fetch("/v3/users/email/verify/resend/", { method: "POST" })).status).toBe(200);
    const live = () => env.DB.prepare("SELECT count(*) AS n FROM auth_tokens WHERE user_id = ?1 AND purpose = 'email_verify' AND used_at IS NULL").bind(USERS.ana.id).first<{ n: number }>();
    expect((await live())?.n).toBe(1);
    const change = await ana.fetch("/v3/users/settings/email/", {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "someone-else@pinloom.test", current_password: PASSWORD }),
    });
    expect(change.status).toBe(200);
    expect((await live())?.n).toBe(0);
  });
});

describe("changing the login e-mail", () => {
  it("asks for the account password, and a wrong one changes nothing", async () => {
    const noah = new Browser();
    await noah.login(USERS.biz.username);
    const put = (body: Record<string, string>) =>
      noah.fetch("/v3/users/settings/email/", { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const missing = await put({ email: "taken-over@pinloom.test" });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(await missing.json())).toContain("current_password");
    expect((await put({ email: "taken-over@pinloom.test", current_password: "Not-the-password-1" })).status).toBe(400);
    const row = await env.DB.prepare("SELECT email FROM users WHERE id = ?1").bind(USERS.biz.id).first<{ email: string }>();
    expect(row?.email).toBe(USERS.biz.email);
    expect((await put({ email: "biz-new@pinloom.test", current_password: PASSWORD })).status).toBe(200);
  });
});

describe("an account of someone under 16", () => {
  it("stays private and lets only people it follows mention or message it", async () => {
    await env.DB.prepare("INSERT INTO users (id, username, email, full_name, is_under_16, is_under_18, is_private_profile, created_at) VALUES (90, 'young', 'young@pinloom.test', 'Young One', 1, 1, 1, 0)").run();
    const young = new Browser();
    young.cookies.set(SESSION_COOKIE, (await createSession(90)).token);
    const put = (path: string, body: Record<string, unknown>) =>
      young.fetch(path, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const publicProfile = await put("/v3/users/settings/privacy/", { is_private_profile: false });
    expect(publicProfile.status).toBe(400);
    expect(JSON.stringify(await publicProfile.json())).toContain("is_private_profile: Accounts of people under 16 stay private.");
    const anyone = await put("/v3/users/settings/messages/", { from: "anyone", contact_requests: false, read_receipts: false });
    expect(anyone.status).toBe(400);
    expect(JSON.stringify(await anyone.json())).toContain("from: Accounts of people under 16 can only allow people they follow.");
    expect((await put("/v3/users/settings/messages/", { from: "following", contact_requests: false, read_receipts: false })).status).toBe(200);
    const row = await env.DB.prepare("SELECT is_private_profile FROM users WHERE id = 90").first<{ is_private_profile: number }>();
    expect(row?.is_private_profile).toBe(1);
  });
});
