// The session core: a cookie naming a live D1 session makes the request signed in; revoked,
// expired or malformed cookies do not, and are dropped. Signed-in pages are never shared.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { newToken } from "~/accounts/tokens.ts";
import { readSessionWith, SESSION_COOKIE, type SessionCompanion } from "~/accounts/session.server.ts";
import { GOOGLEBOT_UA, countElements, get, seedWorld } from "./fixtures.ts";
import { createSession } from "./session-fixture.ts";

const DAY = 86_400_000;

/** A session cookie for `userId`, optionally already expired or revoked. */
async function sessionFor(userId: number, { expiresIn = 100 * DAY, revoked = false } = {}): Promise<string> {
  const session = await createSession(userId);
  const now = Date.now();
  await env.DB.prepare("UPDATE sessions SET expires_at = ?2, revoked_at = ?3 WHERE id = ?1").bind(session.id, now + expiresIn, revoked ? now : null).run();
  return session.cookie;
}

function embeddedContext(html: string): Record<string, unknown> {
  const match = /<script type="application\/json" id="pinloom-context">(.*?)<\/script>/s.exec(html);
  expect(match).not.toBeNull();
  return JSON.parse(match![1]!) as Record<string, unknown>;
}

beforeAll(async () => {
  // Pin 102 sits on Ana's secret board 11; Cy collaborates on it, Dee was only invited.
  await seedWorld([{ id: 101 }, { id: 102, boardId: 11, title: "Balloons for Maya" }]);
  await env.DB.batch([
    env.DB.prepare("INSERT INTO users (id, username, email, full_name, first_name, login_state, created_at) VALUES (2, 'lou', 'lou@pinloom.test', 'Lou Park', 'Lou', 'limited', 0)"),
    env.DB.prepare("INSERT INTO users (id, username, email, full_name, created_at) VALUES (3, 'cy', 'cy@pinloom.test', 'Cy Ode', 0), (4, 'dee', 'dee@pinloom.test', 'Dee Ray', 0)"),
    env.DB.prepare("INSERT INTO board_collaborators (board_id, user_id, status, created_at) VALUES (11, 3, 'accepted', 0), (11, 4, 'new', 0)"),
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

describe("a pin on a secret board", () => {
  it.each([
    ["its board's owner", 1, 200],
    ["an accepted collaborator", 3, 200],
    ["someone only invited", 4, 404],
    ["another signed-in person", 2, 404],
  ] as const)("%s gets %i", async (_who, userId, status) => {
    const response = await get("/pin/102/", { cookie: await sessionFor(userId) });
    expect(response.status).toBe(status);
    const html = await response.text();
    if (status === 404) expect(html).not.toContain("Maya");
    else expect(html).toContain("Balloons for Maya");
  });

  it("is missing to signed-out visitors and crawlers", async () => {
    expect((await get("/pin/102/")).status).toBe(404);
    expect((await get("/pin/102/", { "user-agent": GOOGLEBOT_UA })).status).toBe(404);
  });
});

describe("the log-in islands' strings", () => {
  const PASSWORD_RULE = "Oops! Your password can only have letters, numbers and basic symbols.";
  const count = (html: string, text: string) => html.split(text).length - 1;

  it("come once per signed-out page, in one JSON block shared by the header's and the Save modal", async () => {
    const html = await (await get("/pin/101/")).text();
    expect(await countElements(html, 'astro-island[component-url*="AuthModal"]')).toBe(2);
    expect(await countElements(html, 'script[type="application/json"]#pinloom-auth-strings')).toBe(1);
    expect(count(html, PASSWORD_RULE)).toBe(1);
  });

  it("are not there for crawlers, and come once for signed-in people, not in the account menu's props", async () => {
    expect(count(await (await get("/pin/101/", { "user-agent": GOOGLEBOT_UA })).text(), PASSWORD_RULE)).toBe(0);
    const signedIn = await (await get("/pin/101/", { cookie: await sessionFor(1) })).text();
    expect(await countElements(signedIn, 'script[type="application/json"]#pinloom-auth-strings')).toBe(1);
    expect(await countElements(signedIn, 'astro-island[component-url*="AccountMenu"]')).toBe(1);
    expect(count(signedIn, PASSWORD_RULE)).toBe(1);
  });
});

describe("a value read beside the session (readSessionWith)", () => {
  const request = (cookie: string) => new Request("https://pinloom.test/pin/101/", { headers: { cookie } });
  // The companion's SQL names the session's user through the ViewerRef it is handed.
  const usernameOf: SessionCompanion = { subject: "x", sql: (viewer) => `(SELECT username || ':' || ?1 FROM users WHERE id = ${viewer.sql})` };

  it("is about the very session read, in the same statement", async () => {
    const { session, companion } = await readSessionWith(env.DB, request(await sessionFor(3)), usernameOf);
    expect(session?.user.username).toBe("cy");
    expect(companion).toBe("cy:x");
  });

  it("carries whether the account has a password, never the password's hash", async () => {
    const original = await env.DB.prepare("SELECT password_hash FROM users WHERE id = 3").first<string | null>("password_hash");
    const setHash = (hash: string | null) => env.DB.prepare("UPDATE users SET password_hash = ?1 WHERE id = 3").bind(hash).run();
    await setHash("pbkdf2-sha256$6$salt$hash");
    const withPassword = (await readSessionWith(env.DB, request(await sessionFor(3)), usernameOf)).session!.user;
    await setHash(null);
    const without = (await readSessionWith(env.DB, request(await sessionFor(3)), usernameOf)).session!.user;
    await setHash(original);
    expect([withPassword.has_password, without.has_password]).toEqual([1, 0]);
    expect(withPassword).not.toHaveProperty("password_hash");
    expect(JSON.stringify(withPassword)).not.toContain("pbkdf2");
  });

  it("is null with the session when the session is revoked or expired", async () => {
    for (const cookie of [await sessionFor(3, { revoked: true }), await sessionFor(3, { expiresIn: -DAY })]) {
      expect(await readSessionWith(env.DB, request(cookie), usernameOf)).toEqual({ session: null, companion: null });
    }
  });

  it("never costs the session: a companion whose SQL fails reads the session alone", async () => {
    const broken: SessionCompanion = { subject: 0, sql: () => "(SELECT no_such_column FROM users)" };
    const { session, companion } = await readSessionWith(env.DB, request(await sessionFor(4)), broken);
    expect(session?.user.username).toBe("dee");
    expect(companion).toBeNull();
  });
});
