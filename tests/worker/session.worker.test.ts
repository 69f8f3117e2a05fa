// The session core: a cookie naming a live D1 session makes the request signed in; revoked,
// expired or malformed cookies do not, and are dropped. Signed-in pages are never shared.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { hashToken, newToken } from "../../src/accounts/tokens.ts";
import { SESSION_COOKIE } from "../../src/accounts/session.server.ts";
import { GOOGLEBOT_UA, get, seedWorld } from "./fixtures.ts";

const DAY = 86_400_000;

async function sessionFor(userId: number, { expiresIn = 100 * DAY, revoked = false } = {}): Promise<string> {
  const token = newToken();
  const now = Date.now();
  await env.DB.prepare(
    "INSERT INTO sessions (id, user_id, created_at, expires_at, last_seen_at, revoked_at) VALUES (?1, ?2, ?3, ?4, ?3, ?5)",
  )
    .bind(await hashToken(token), userId, now, now + expiresIn, revoked ? now : null)
    .run();
  return `${SESSION_COOKIE}=${token}`;
}

function embeddedContext(html: string): Record<string, unknown> {
  const match = /<script type="application\/json" id="pinloom-context">(.*?)<\/script>/s.exec(html);
  expect(match).not.toBeNull();
  return JSON.parse(match![1]!) as Record<string, unknown>;
}

beforeAll(async () => {
  await seedWorld();
  await env.DB.batch([
    env.DB.prepare("INSERT INTO users (id, username, email, full_name, first_name, login_state, created_at) VALUES (2, 'lou', 'lou@pinloom.test', 'Lou Park', 'Lou', 'limited', 0)"),
  ]);
});

describe("a live session", () => {
  it("signs the request in, renders privately and embeds the viewer with its days to expiry", async () => {
    const response = await get("/pin/101/", { cookie: await sessionFor(1, { expiresIn: 30 * DAY }) });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const context = embeddedContext(await response.text());
    expect(context.loginState).toBe("AUTH");
    expect(context.isAuthenticated).toBe(true);
    expect(context.renderMode).toBe("personal");
    expect((context.viewer as { username: string }).username).toBe("ana");
    expect(context.daysToExpiration).toBe(30);
    expect(context.limitedViewer).toBeNull();
  });

  it("of a limited-login account is LIMITED_LOGIN with the limited viewer only", async () => {
    const context = embeddedContext(await (await get("/pin/101/", { cookie: await sessionFor(2) })).text());
    expect(context.loginState).toBe("LIMITED_LOGIN");
    expect(context.isAuthenticated).toBe(false);
    expect(context.viewer).toBeNull();
    expect(context.limitedViewer).toMatchObject({ email: "lou@pinloom.test", firstName: "Lou", hasPassword: false });
  });
});

describe("a dead or forged session cookie", () => {
  const cases: Array<[string, () => Promise<string>]> = [
    ["revoked", () => sessionFor(1, { revoked: true })],
    ["expired", () => sessionFor(1, { expiresIn: -1 })],
    ["unknown", async () => `${SESSION_COOKIE}=${newToken()}`],
    ["malformed", async () => `${SESSION_COOKIE}=not-a-token'--`],
  ];
  it.each(cases)("%s: the request is signed out and the cookie is cleared", async (_name, cookie) => {
    const response = await get("/pin/101/", { cookie: await cookie() });
    expect(response.status).toBe(200);
    const context = embeddedContext(await response.text());
    expect(context.loginState).toBe("UNAUTH");
    expect(context.viewer).toBeUndefined();
    const cleared = response.headers.getSetCookie().find((line) => line.startsWith(`${SESSION_COOKIE}=`));
    expect(cleared).toMatch(/Max-Age=0/);
    expect(cleared).toMatch(/Secure/);
  });
});

describe("the sign-up prompt", () => {
  it("is in a signed-out person's page, never in a signed-in one or a crawler's", async () => {
    const signedOut = await (await get("/pin/101/")).text();
    expect(signedOut).toContain('id="signup-prompt"');
    const signedIn = await (await get("/pin/101/", { cookie: await sessionFor(1) })).text();
    expect(signedIn).not.toContain('id="signup-prompt"');
    const crawler = await (await get("/pin/101/", { "user-agent": GOOGLEBOT_UA })).text();
    expect(crawler).not.toContain('id="signup-prompt"');
  });
});
