// The isolate's session cache (src/accounts/session-cache.ts): a safe request may be answered
// with a session read a moment ago, but whatever revokes a session or changes what it carries
// is seen at once in the isolate that did it; writes always read D1; expiry is exact.
//
// Requests go to the built Worker (one isolate here). The cases that turn the clock call the
// session module itself, whose cache is its own instance, with `now` passed in.
import { env } from "cloudflare:workers";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { markSessionVerified, readSessionWith, sessionWritesBegin, sessionWritesDone, SESSION_COOKIE, signOutEverywhere, touchSession, type SessionCompanion } from "~/accounts/session.server.ts";
import { issueEmailVerification } from "~/accounts/handshake.server.ts";
import { recountUserPins } from "~/boards/counts.server.ts";
import { Browser, PASSWORD, USERS, seedAccounts, type Envelope } from "./accounts-helpers.ts";
import { fetchWorker } from "./fixtures.ts";
import { createSession } from "./session-fixture.ts";

const DAY = 86_400_000;

beforeAll(async () => {
  await seedAccounts();
});

interface StateViewer {
  email: string;
  nags: string[];
  is_private_profile: boolean;
}

/** The viewer GET /_/_/state answers for this cookie (null when signed out): a safe request, so a cached session may answer it. */
async function viewerFor(cookie: string): Promise<StateViewer | null> {
  const response = await fetchWorker("/_/_/state", { headers: { cookie } });
  expect(response.status).toBe(200);
  return (await response.json<Envelope<{ viewer?: StateViewer | null }>>()).data.viewer ?? null;
}

const sessionCookie = (browser: Browser) => `${SESSION_COOKIE}=${browser.session!}`;

async function signedIn(username: string): Promise<Browser> {
  const browser = new Browser();
  await browser.login(username);
  return browser;
}

/** Revokes a user's sessions behind the Worker's back, as another isolate's sign-out would. */
const revokeInD1 = (userId: number) => env.DB.prepare("UPDATE sessions SET revoked_at = ?2 WHERE user_id = ?1 AND revoked_at IS NULL").bind(userId, Date.now()).run();

describe("a session cached by the isolate", () => {
  it("answers reads for a moment after another isolate revoked it, but never a write", async () => {
    const browser = await signedIn(USERS.ben.username);
    const cookie = sessionCookie(browser);
    expect((await viewerFor(cookie))?.email).toBe(USERS.ben.email);
    await revokeInD1(USERS.ben.id);
    // Another isolate's revocation reaches this one within the cache's 5 s; this read is inside them.
    expect((await viewerFor(cookie))?.email).toBe(USERS.ben.email);
    // A write reads its session from D1: refused at once.
    const write = await browser.json("/v3/users/me/sessions/", {}, "DELETE");
    expect(write.status).toBe(401);
  });

  it("cannot refresh itself into a new session once another isolate revoked it", async () => {
    const browser = await signedIn(USERS.biz.username);
    const cookie = sessionCookie(browser);
    await env.DB.prepare("UPDATE sessions SET expires_at = ?2 WHERE user_id = ?1 AND revoked_at IS NULL").bind(USERS.biz.id, Date.now() + 30 * DAY).run();
    expect((await viewerFor(cookie))?.email).toBe(USERS.biz.email);
    await revokeInD1(USERS.biz.id);
    const live = () => env.DB.prepare("SELECT count(*) AS n FROM sessions WHERE user_id = ?1 AND revoked_at IS NULL").bind(USERS.biz.id).first<number>("n");
    expect(await live()).toBe(0);
    // The token refresh is a GET that mints a session: it asks D1, which says the session is gone.
    expect((await browser.fetch("/refresh_token")).status).toBe(401);
    expect(await live()).toBe(0);
  });
});

describe("in the isolate that made the change, at once", () => {
  it("sign-out: the old cookie is signed out on the next read", async () => {
    const browser = await signedIn(USERS.ana.username);
    const cookie = sessionCookie(browser);
    expect((await viewerFor(cookie))?.email).toBe(USERS.ana.email);
    expect((await browser.resource("UserSessionResource", "delete", {})).status).toBe(200);
    expect(await viewerFor(cookie)).toBeNull();
  });

  it("sign out everywhere: the account's session on another device is signed out on its next read", async () => {
    const here = await signedIn(USERS.ana.username);
    const there = await signedIn(USERS.ana.username);
    const thereCookie = sessionCookie(there);
    expect((await viewerFor(thereCookie))?.email).toBe(USERS.ana.email);
    expect((await here.json("/v3/users/me/sessions/", {}, "DELETE")).status).toBe(200);
    expect(await viewerFor(thereCookie)).toBeNull();
  });

  it("a new login on the same device: the session it replaces is signed out", async () => {
    const browser = await signedIn(USERS.ana.username);
    const first = sessionCookie(browser);
    expect((await viewerFor(first))?.email).toBe(USERS.ana.email);
    await browser.login(USERS.ana.username);
    expect(sessionCookie(browser)).not.toBe(first);
    expect(await viewerFor(first)).toBeNull();
    expect((await viewerFor(sessionCookie(browser)))?.email).toBe(USERS.ana.email);
  });

  it("an account switch: the target's older session on the device is signed out", async () => {
    const browser = await signedIn(USERS.ben.username);
    const benFirst = sessionCookie(browser);
    await browser.login(USERS.ana.username);
    expect((await viewerFor(benFirst))?.email).toBe(USERS.ben.email);
    const switched = await browser.resource("UserSessionResource", "create", { session_accounts: true, switch_to_user_id: String(USERS.ben.id) });
    expect(switched.status).toBe(200);
    expect(await viewerFor(benFirst)).toBeNull();
    expect((await viewerFor(sessionCookie(browser)))?.email).toBe(USERS.ben.email);
  });

  it("a token refresh: the replaced session is signed out", async () => {
    const browser = await signedIn(USERS.biz.username);
    const old = sessionCookie(browser);
    await env.DB.prepare("UPDATE sessions SET expires_at = ?2 WHERE user_id = ?1 AND revoked_at IS NULL").bind(USERS.biz.id, Date.now() + 30 * DAY).run();
    expect((await viewerFor(old))?.email).toBe(USERS.biz.email);
    const refreshed = await browser.fetch("/refresh_token");
    expect((await refreshed.json<Envelope>()).data).toEqual({ days_to_expiration: 180 });
    expect(await viewerFor(old)).toBeNull();
  });

  it("a password change: the account's other sessions are signed out, this one stays", async () => {
    const here = await signedIn(USERS.biz.username);
    const there = await signedIn(USERS.biz.username);
    const thereCookie = sessionCookie(there);
    expect((await viewerFor(thereCookie))?.email).toBe(USERS.biz.email);
    const changed = await here.json("/v3/users/settings/password/", { current_password: PASSWORD, new_password: "A brand new pass 3" }, "PUT");
    expect(changed.status).toBe(200);
    expect(await viewerFor(thereCookie)).toBeNull();
    expect((await viewerFor(sessionCookie(here)))?.email).toBe(USERS.biz.email);
    // Put the password back for the other tests.
    expect((await here.json("/v3/users/settings/password/", { current_password: "A brand new pass 3", new_password: PASSWORD }, "PUT")).status).toBe(200);
  });

  it("the viewer's own write shows on their next read: a profile made private", async () => {
    const browser = await signedIn(USERS.ben.username);
    const cookie = sessionCookie(browser);
    expect((await viewerFor(cookie))?.is_private_profile).toBe(false);
    expect((await browser.json("/v3/users/settings/privacy/", { is_private_profile: true }, "PUT")).status).toBe(200);
    expect((await viewerFor(cookie))?.is_private_profile).toBe(true);
    expect((await browser.json("/v3/users/settings/privacy/", { is_private_profile: false }, "PUT")).status).toBe(200);
    expect((await viewerFor(cookie))?.is_private_profile).toBe(false);
  });

  it("an e-mail verified through its link (a GET, signed in or not): the viewer stops asking for it", async () => {
    const browser = await signedIn(USERS.ben.username);
    const cookie = sessionCookie(browser);
    expect((await viewerFor(cookie))?.nags).toEqual(["verify_email"]);
    const token = await issueEmailVerification(env.DB, USERS.ben.id);
    const verified = await fetchWorker(`/v3/users/email/verify/?token=${token}`, { redirect: "manual" });
    expect(verified.headers.get("location")).toBe("/email-verified/?result=verified");
    expect((await viewerFor(cookie))?.nags).toEqual([]);
  });
});

describe("the session module's cache, by the clock", () => {
  const request = (token: string) => new Request("https://pinloom.test/", { headers: { cookie: `${SESSION_COOKIE}=${token}` } });
  // Each case has its own minute, so what one forgets (for 5 s) never reaches the next.
  let minute = 0;
  let T = 0;
  beforeEach(() => {
    minute += 1;
    T = Date.now() + minute * 60_000;
  });

  it("answers from memory for 5 s, then reads D1 again", async () => {
    const made = await createSession(USERS.ana.id, T);
    expect((await readSessionWith(env.DB, request(made.token), null, T))?.session?.id).toBe(made.id);
    await env.DB.prepare("UPDATE sessions SET revoked_at = ?2 WHERE id = ?1").bind(made.id, T).run();
    expect((await readSessionWith(env.DB, request(made.token), null, T + 4999)).session?.id).toBe(made.id);
    expect((await readSessionWith(env.DB, request(made.token), null, T + 5000)).session).toBeNull();
  });

  it("never answers an expired session, cached or not", async () => {
    const made = await createSession(USERS.ana.id, T);
    await env.DB.prepare("UPDATE sessions SET expires_at = ?2 WHERE id = ?1").bind(made.id, T + 1000).run();
    expect((await readSessionWith(env.DB, request(made.token), null, T))?.session?.expiresAt).toBe(T + 1000);
    expect((await readSessionWith(env.DB, request(made.token), null, T + 999)).session?.id).toBe(made.id);
    expect((await readSessionWith(env.DB, request(made.token), null, T + 1000)).session).toBeNull();
  });

  it("a write's read (cached: false) goes to D1", async () => {
    const made = await createSession(USERS.ana.id, T);
    expect((await readSessionWith(env.DB, request(made.token), null, T)).session?.id).toBe(made.id);
    await env.DB.prepare("UPDATE sessions SET revoked_at = ?2 WHERE id = ?1").bind(made.id, T).run();
    expect((await readSessionWith(env.DB, request(made.token), null, T + 1, { cached: false })).session).toBeNull();
  });

  it("sign out everywhere and a human check are seen at once", async () => {
    const made = await createSession(USERS.ana.id, T);
    const read = async (at: number) => (await readSessionWith(env.DB, request(made.token), null, at)).session;
    expect((await read(T))?.verifiedAt).toBeNull();
    await markSessionVerified(env.DB, made.id, T + 10);
    expect((await read(T + 20))?.verifiedAt).toBe(T + 10);
    await signOutEverywhere(env.DB, USERS.ana.id, T + 30);
    expect(await read(T + 40)).toBeNull();
  });

  it("someone else's write to the viewer's counters (a recount) is seen at once", async () => {
    const made = await createSession(USERS.ben.id, T);
    const pinCount = async (at: number) => (await readSessionWith(env.DB, request(made.token), null, at)).session?.user.pin_count;
    expect(await pinCount(T)).toBe(0);
    await env.DB.prepare("INSERT INTO pins (id, pinner_id, board_id, kind, title, image_signature, created_at, updated_at) VALUES (9901, ?1, NULL, 'image', 'Counted', 'sig', 0, 0)").bind(USERS.ben.id).run();
    await recountUserPins(env.DB, [USERS.ben.id]).run();
    await env.DB.prepare("DELETE FROM pins WHERE id = 9901").run();
    expect(await pinCount(T + 10)).toBe(1);
  });

  it("touches last_seen_at once an hour, also when the session comes from memory", async () => {
    const made = await createSession(USERS.ana.id, T - 2 * 60 * 60 * 1000);
    const read = async (at: number) => (await readSessionWith(env.DB, request(made.token), null, at)).session!;
    const first = await read(T);
    const touch = touchSession(env.DB, first, T);
    expect(touch).not.toBeNull();
    await touch;
    const lastSeen = async () => (await env.DB.prepare("SELECT last_seen_at FROM sessions WHERE id = ?1").bind(made.id).first<{ last_seen_at: number }>())!.last_seen_at;
    expect(await lastSeen()).toBe(T);
    // The next request, answered from memory, knows it was just seen: no second write.
    const second = await read(T + 1000);
    expect(second.lastSeenAt).toBe(T);
    expect(touchSession(env.DB, second, T + 1000)).toBeNull();
  });

  it("keeps a companion with a key beside the cached session, until a write ends in the isolate or 5 s pass", async () => {
    const made = await createSession(USERS.ana.id, T);
    const nameOf: SessionCompanion = { subject: "x", key: "full-name", sql: (viewer) => `(SELECT full_name FROM users WHERE id = ${viewer.sql})` };
    const read = async (at: number) => (await readSessionWith(env.DB, request(made.token), nameOf, at)).companion;
    const rename = (name: string) => env.DB.prepare("UPDATE users SET full_name = ?2 WHERE id = ?1").bind(USERS.ana.id, name).run();
    expect(await read(T)).toBe("ana");
    await rename("Ana Elsewhere");
    expect(await read(T + 4999)).toBe("ana");
    // The session's entry lapsed: both are read again.
    expect(await read(T + 5000)).toBe("Ana Elsewhere");
    await rename("Ana Here");
    expect(await read(T + 5001)).toBe("Ana Elsewhere");
    // A request that may write ended in this isolate: whoever wrote, the value is read again.
    sessionWritesDone(sessionWritesBegin());
    expect(await read(T + 5002)).toBe("Ana Here");
    await rename("ana");
  });

  it("reads a companion's value on its own, for the cached session's user, every time", async () => {
    const made = await createSession(USERS.ana.id, T);
    const emailOf: SessionCompanion = { subject: "x", sql: (viewer) => `(SELECT email || ':' || ?1 FROM users WHERE id = ${viewer.sql})` };
    expect((await readSessionWith(env.DB, request(made.token), emailOf, T)).companion).toBe(`${USERS.ana.email}:x`);
    await env.DB.prepare("UPDATE users SET email = 'ana.changed@pinloom.test' WHERE id = ?1").bind(USERS.ana.id).run();
    const cached = await readSessionWith(env.DB, request(made.token), emailOf, T + 10);
    // The session is the cached one (its user's e-mail as read at T); the companion is read now.
    expect(cached.session?.user.email).toBe(USERS.ana.email);
    expect(cached.companion).toBe("ana.changed@pinloom.test:x");
    await env.DB.prepare("UPDATE users SET email = ?2 WHERE id = ?1").bind(USERS.ana.id, USERS.ana.email).run();
  });
});
