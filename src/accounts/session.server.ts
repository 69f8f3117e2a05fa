// Sessions: a random token in a `__Host-` cookie (HttpOnly, Secure, SameSite=Lax, path /),
// backed by a D1 row keyed by the token's SHA-256 (never KV: a revoked session must fail at
// once, everywhere). Every sign-up, login and account switch mints a new session id; sign-out
// revokes the row, so the old cookie is refused on the very next request.
//
// A safe request (GET, HEAD) may be answered from the isolate's session cache
// (session-cache.ts): a row read less than 5 s ago. Everything here that revokes a session or
// changes what a Session holds forgets the sessions it touches in this isolate, so the change
// is seen at once here and within 5 s elsewhere; a write always reads its session from D1.
//
// A device cookie ties the sessions started in one browser together: the account switcher
// lists the accounts with a live session on this device and switches between them without a
// password (spec 000 §6 "Account switching lists all accounts stored locally"). That hold is
// bounded: the device cookie is `__Host-`, HttpOnly, Secure and SameSite=Strict (only our own
// pages' calls need it), every switch rotates it (the old token holds nothing afterwards), a
// switch keeps the target session's own expiry (switching never extends it), an account whose
// session has expired is listed for a while only to ask for its password again, and signing
// out everywhere revokes every session of the account, the device's hold included.
import { clientIp } from "~/server/client-ip.ts";
import { cookieValue } from "~/context/cookies.ts";
import { hashToken, isTokenShaped, newToken } from "./tokens.ts";
import { viewerColumns, type ViewerUserRow } from "./viewer.ts";
import { viewerById, type ViewerRef } from "./viewer-ref.ts";
import { SessionCache, type SessionScope } from "./session-cache.ts";

export const SESSION_COOKIE = "__Host-pinloom_sess";
/**
 * Whether a Cookie header may name a session: the one test that decides whether a request
 * pays for a session read, and whether a shared page may answer it (src/app.ts).
 */
export const carriesSessionCookie = (cookieHeader: string | undefined): boolean => cookieHeader !== undefined && cookieHeader.includes(SESSION_COOKIE);
export const DEVICE_COOKIE = "__Host-pinloom_device";
/** A session lives this long; the client refreshes it once fewer than 90 days remain. */
export const SESSION_LIFETIME_MS = 180 * 24 * 60 * 60 * 1000;
/** Spec 000 §9 token refresh window. */
export const TOKEN_REFRESH_WINDOW_DAYS = 90;
const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * An expired session stays on its device this long, so the switcher can offer "log in again"
 * for its account (src/server/housekeeping.server.ts drops it afterwards).
 */
export const RELOGIN_WINDOW_MS = 30 * DAY_MS;
/** The device cookie outlives the newest session it was issued with by the re-login window, and no more. */
const DEVICE_LIFETIME_SECONDS = Math.floor((SESSION_LIFETIME_MS + RELOGIN_WINDOW_MS) / 1000);
/** last_seen_at is written at most this often per session, off the response path. */
const TOUCH_INTERVAL_MS = 60 * 60 * 1000;
/** Accounts one device may hold at once, signed in or waiting for their password again. */
const MAX_DEVICE_ACCOUNTS = 5;

interface SessionRow {
  session_id: string;
  session_created_at: number;
  expires_at: number;
  last_seen_at: number;
  device_id: string | null;
  verified_at: number | null;
}
type SessionWithUser = SessionRow & ViewerUserRow;

export interface Session {
  id: string;
  createdAt: number;
  expiresAt: number;
  lastSeenAt: number;
  deviceId: string | null;
  verifiedAt: number | null;
  user: ViewerUserRow;
}

/** `Set-Cookie` for a `__Host-` cookie: Secure, path /, no Domain (the prefix demands all three). */
function hostCookie(name: string, value: string, maxAgeSeconds: number, httpOnly = true, sameSite: "Lax" | "Strict" = "Lax"): string {
  return `${name}=${value}; Path=/; Max-Age=${maxAgeSeconds}; Secure; SameSite=${sameSite}${httpOnly ? "; HttpOnly" : ""}`;
}

/**
 * The device cookie: Strict, since only our own pages' calls (log-in, the switcher) read it; a
 * link followed from another site never carries it.
 */
const deviceCookie = (token: string) => hostCookie(DEVICE_COOKIE, token, DEVICE_LIFETIME_SECONDS, true, "Strict");

export const clearCookie = (name: string) => hostCookie(name, "", 0);

/** Days until the session expires, rounded up; 0 or less once expired (spec 000 §4). */
export const daysToExpiration = (expiresAt: number, now = Date.now()) => Math.ceil((expiresAt - now) / DAY_MS);

function toSession(row: SessionWithUser): Session {
  const { session_id, session_created_at, expires_at, last_seen_at, device_id, verified_at, ...user } = row;
  return { id: session_id, createdAt: session_created_at, expiresAt: expires_at, lastSeenAt: last_seen_at, deviceId: device_id, verifiedAt: verified_at, user };
}

const sessionSelect = (s: string, u: string) => `SELECT ${s}.id AS session_id, ${s}.created_at AS session_created_at, ${s}.expires_at, ${s}.last_seen_at,
         ${s}.device_id, ${s}.verified_at, ${viewerColumns(u)}`;
const SESSION_SELECT = `${sessionSelect("s", "u")} FROM sessions s JOIN users u ON u.id = s.user_id`;
const SESSION_BY_ID = `${SESSION_SELECT} WHERE s.id = ?1 AND s.revoked_at IS NULL AND s.expires_at > ?2`;

/**
 * One value a page reads beside the session, in the session's own statement (one round trip,
 * one result): `sql` gives a scalar SQL expression (a subquery) about the session's user, who
 * is the ViewerRef it is handed (a column of the session row, with no values of its own).
 * `?1` in it is bound to `subject`; `?2` and `?3` are the session's own (its hash and the
 * time), so the SQL names no other parameter.
 */
export interface SessionCompanion {
  subject: string | number;
  sql: (viewer: ViewerRef) => string;
  /**
   * Names the value (with its subject) so the session cache may keep it beside the session:
   * it then answers until any request that may write ends in this isolate, or the session
   * leaves the cache. Without a key it is read every time.
   */
  key?: string;
}

/** The session's user inside the statement readSessionWith builds: its sessions row's alias. */
const SESSION_ROW = "session_row";
const sessionUser: ViewerRef = { sql: `${SESSION_ROW}.user_id`, binds: [] };
const SESSION_WITH_COMPANION_SELECT = sessionSelect(SESSION_ROW, "session_user");
const SESSION_WITH_COMPANION_FROM = `FROM sessions ${SESSION_ROW} JOIN users session_user ON session_user.id = ${SESSION_ROW}.user_id
  WHERE ${SESSION_ROW}.id = ?2 AND ${SESSION_ROW}.revoked_at IS NULL AND ${SESSION_ROW}.expires_at > ?3`;

/** Sessions read from D1 in this isolate a moment ago (session-cache.ts has the rule). */
const cache = new SessionCache<Session>();

/**
 * Drops the cached sessions in `scope` in this isolate; a read of them already under way is not
 * kept. Every write that revokes a session or changes what a Session holds calls it, after its
 * commit where it runs the statements itself (the request-context middleware does for the
 * viewer after every request that may write).
 */
export function forgetSessions(scope: SessionScope): void {
  cache.forget(scope);
}

/** Taken when a request that may write begins; handed to sessionWritesDone when it ends. */
export const sessionWritesBegin = (): number => cache.mark();

/**
 * A request that may write has ended, its writes committed: the forgets made since `mark`
 * (some before their write committed) are made again, so no read that raced them stays cached.
 */
export function sessionWritesDone(mark: number): void {
  cache.settle(mark);
}

/** The cache's name for a companion's value, or null when it has no key (never kept). */
const companionKey = (companion: SessionCompanion) => (companion.key === undefined ? null : `${companion.key}\u0000${companion.subject}`);

/** The companion's value for a session from the cache: kept beside it, else read alone in one small statement. */
async function companionOf(db: D1Database, companion: SessionCompanion, session: Session, now: number): Promise<unknown> {
  const key = companionKey(companion);
  const kept = key === null ? null : cache.companion(session.id, key, now);
  if (kept) return kept.value;
  const viewer = viewerById(session.user.id);
  const ticket = cache.begin();
  try {
    const row = await db
      .prepare(`SELECT ${companion.sql(viewer)} AS companion`)
      .bind(companion.subject, ...viewer.binds)
      .first<{ companion: unknown }>();
    const value = row?.companion ?? null;
    if (key !== null) cache.keepCompanion(session.id, key, value, ticket, now);
    return value;
  } catch (error) {
    // The companion is an extra: if its SQL fails, the session still stands.
    console.error(error);
    return null;
  }
}

export interface SessionReadOptions {
  /**
   * Whether a session cached in this isolate may answer (a safe request's read). False for a
   * request that may write: it reads D1, so a session revoked on any isolate never writes.
   */
  cached?: boolean;
}

/**
 * The session and a companion's value, in one statement. The value is null when the cookie
 * names no session; read in the same statement, it describes the very session returned. When
 * the session comes from the isolate's cache, so does a companion with a key, until a write
 * ends in this isolate (see SessionCompanion.key); else it is read on its own, for the
 * session's user, in one statement.
 */
export async function readSessionWith(
  db: D1Database,
  request: Request,
  companion: SessionCompanion | null,
  now = Date.now(),
  { cached = true }: SessionReadOptions = {},
): Promise<{ session: Session | null; companion: unknown }> {
  const token = cookieValue(request.headers.get("cookie"), SESSION_COOKIE);
  if (!isTokenShaped(token)) return { session: null, companion: null };
  const id = await hashToken(token);
  if (cached) {
    const known = cache.get(id, now);
    if (known) return { session: known, companion: companion ? await companionOf(db, companion, known, now) : null };
  }
  const ticket = cache.begin();
  const keep = (session: Session | null) => {
    if (session && cached) cache.keep(session, ticket, now);
    return session;
  };
  const alone = async () => {
    const row = await db.prepare(SESSION_BY_ID).bind(id, now).first<SessionWithUser>();
    return { session: keep(row ? toSession(row) : null), companion: null };
  };
  if (!companion) return alone();
  let row: (SessionWithUser & { companion: unknown }) | null;
  try {
    row = await db
      .prepare(`${SESSION_WITH_COMPANION_SELECT}, ${companion.sql(sessionUser)} AS companion ${SESSION_WITH_COMPANION_FROM}`)
      .bind(companion.subject, id, now)
      .first();
  } catch (error) {
    // The companion is an extra: if its SQL fails, the session is still read, alone.
    console.error(error);
    return alone();
  }
  if (!row) return { session: null, companion: null };
  const { companion: value, ...session } = row;
  const read = toSession(session);
  keep(read);
  const key = companionKey(companion);
  if (cached && key !== null) cache.keepCompanion(read.id, key, value, ticket, now);
  return { session: read, companion: value };
}

/**
 * Writes last_seen_at when it is older than an hour; the caller runs it in waitUntil. The
 * cached copy takes the new time at once, so the requests after this one do not write it again.
 */
export function touchSession(db: D1Database, session: Session, now = Date.now()): Promise<unknown> | null {
  if (now - session.lastSeenAt < TOUCH_INTERVAL_MS) return null;
  cache.seen(session.id, now, now);
  return db.prepare("UPDATE sessions SET last_seen_at = ?2 WHERE id = ?1").bind(session.id, now).run();
}

/**
 * The device id of a request, minting a cookie when it has none. The cookie is sent again even
 * when it exists, so it lives as long as the newest session started on the device.
 */
async function deviceOf(request: Request): Promise<{ deviceId: string; setCookie: string }> {
  const existing = cookieValue(request.headers.get("cookie"), DEVICE_COOKIE);
  const token = isTokenShaped(existing) ? existing : newToken();
  return { deviceId: await hashToken(token), setCookie: deviceCookie(token) };
}

export interface NewSession {
  token: string;
  id: string;
  expiresAt: number;
  /** Set-Cookie values to send: the session cookie, and the device cookie unless withDevice is false. */
  cookies: string[];
  /** Statements to run in the caller's batch: the session row (and revocations it implies). */
  statements: D1PreparedStatement[];
  /** The cached sessions those revocations may touch: forgotten again once the batch committed. */
  touches: SessionScope;
}

/**
 * A fresh session for `userId` on this request's device. The caller runs `statements` in its
 * own batch (with the token spend or the sign-up rows), so a session never exists without
 * the write that justified it. Any older session of the same user on this device is revoked
 * in the same batch (one session per account per device, a new id on every login and
 * switch); other accounts' sessions on the device stay signed in for the switcher.
 *
 * `withDevice: false` starts a session outside the device's account list: for a cross-site
 * hand-off (the country-domain session), whose request cannot carry the SameSite=Lax device
 * cookie, so minting one would replace the browser's real device and orphan its accounts.
 */
export async function startSession(db: D1Database, request: Request, userId: number, now = Date.now(), { withDevice = true } = {}): Promise<NewSession> {
  const token = newToken();
  const id = await hashToken(token);
  const expiresAt = now + SESSION_LIFETIME_MS;
  const cookies = [hostCookie(SESSION_COOKIE, token, Math.floor(SESSION_LIFETIME_MS / 1000))];
  const userAgent = (request.headers.get("user-agent") ?? "").slice(0, 300);
  const ip = clientIp(request);
  const insert = (deviceId: string | null) =>
    db
      .prepare(
        `INSERT INTO sessions (id, user_id, created_at, expires_at, last_seen_at, user_agent, ip, device_id)
         VALUES (?1, ?2, ?3, ?4, ?3, ?5, ?6, ?7)`,
      )
      .bind(id, userId, now, expiresAt, userAgent, ip, deviceId);
  if (!withDevice) return { token, id, expiresAt, cookies, statements: [insert(null)], touches: {} };

  const { deviceId, setCookie } = await deviceOf(request);
  // The batch revokes this user's older session on the device and the device's least recently
  // used beyond the limit: forgotten now, and again when the request ends (or replaceSession
  // commits), after the caller's batch.
  const touches = { userIds: [userId], deviceIds: [deviceId] };
  forgetSessions(touches);
  const statements = [
    db
      .prepare("UPDATE sessions SET revoked_at = ?3 WHERE device_id = ?1 AND user_id = ?2 AND revoked_at IS NULL")
      .bind(deviceId, userId, now),
    insert(deviceId),
    // Bound the accounts on one device (those waiting for their password count too): the least
    // recently used beyond the limit are signed out.
    db
      .prepare(
        `UPDATE sessions SET revoked_at = ?2 WHERE device_id = ?1 AND revoked_at IS NULL AND id NOT IN (
           SELECT id FROM sessions WHERE device_id = ?1 AND revoked_at IS NULL AND expires_at > ?3
           ORDER BY last_seen_at DESC, created_at DESC LIMIT ${MAX_DEVICE_ACCOUNTS})`,
      )
      .bind(deviceId, now, now - RELOGIN_WINDOW_MS),
  ];
  cookies.push(setCookie);
  return { token, id, expiresAt, cookies, statements, touches };
}

/** Revokes one session at once (sign-out). */
function revokeSession(db: D1Database, sessionId: string, now = Date.now()): D1PreparedStatement {
  return db.prepare("UPDATE sessions SET revoked_at = ?2 WHERE id = ?1 AND revoked_at IS NULL").bind(sessionId, now);
}

/** Revokes every session of an account, on every device (sign out everywhere): no device holds it afterwards. */
export async function signOutEverywhere(db: D1Database, userId: number, now = Date.now()): Promise<void> {
  await db.prepare("UPDATE sessions SET revoked_at = ?2 WHERE user_id = ?1 AND revoked_at IS NULL").bind(userId, now).run();
  forgetSessions({ userIds: [userId] });
}

/** Live sessions on a device, one per account, most recently used first. */
export async function deviceSessions(db: D1Database, deviceId: string, now = Date.now()): Promise<Session[]> {
  return (await deviceHolds(db, deviceId, now)).filter((session) => session.expiresAt > now);
}

/**
 * The accounts a device holds, most recently used first: live sessions, and sessions expired
 * within the re-login window (their account asks for its password again). Revoked ones never.
 */
export async function deviceHolds(db: D1Database, deviceId: string, now = Date.now()): Promise<Session[]> {
  const { results } = await db
    .prepare(
      `${SESSION_SELECT} WHERE s.device_id = ?1 AND s.revoked_at IS NULL AND s.expires_at > ?2
       ORDER BY s.last_seen_at DESC LIMIT ${MAX_DEVICE_ACCOUNTS}`,
    )
    .bind(deviceId, now - RELOGIN_WINDOW_MS)
    .all<SessionWithUser>();
  return results.map(toSession);
}

export interface DeviceSwitch {
  id: string;
  expiresAt: number;
  /** The device's id once the switch is applied. */
  deviceId: string;
  /** The session cookie and the device's new cookie: send them only when `applied` says so. */
  cookies: string[];
  /** One batch: the new session, the device's rotation, the old session's revocation. */
  statements: D1PreparedStatement[];
  /** Whether the batch switched (false when the target's live session was gone by then). */
  applied: (results: D1Result[]) => boolean;
}

/**
 * A switch to `target`'s account (a live session the device `deviceId` holds), without a
 * password. The new session copies the target's (its expiry and human check: a switch never
 * extends a session), and the device gets a new token: every session on it moves to the new
 * id, so the old cookie holds nothing from then on. Each statement is conditional on the new
 * session row, so when the target's session expired or the device was rotated by another
 * request in the meantime, the batch changes nothing and the caller sends no cookie.
 */
export async function switchOnDevice(db: D1Database, request: Request, deviceId: string, target: Session, now = Date.now()): Promise<DeviceSwitch> {
  const userId = target.user.id;
  const token = newToken();
  const id = await hashToken(token);
  const deviceToken = newToken();
  const nextDeviceId = await hashToken(deviceToken);
  const userAgent = (request.headers.get("user-agent") ?? "").slice(0, 300);
  // The batch moves every session of the device and revokes the target's other one there.
  forgetSessions({ userIds: [userId], deviceIds: [deviceId] });
  const statements = [
    db
      .prepare(
        `INSERT INTO sessions (id, user_id, created_at, expires_at, last_seen_at, user_agent, ip, device_id, verified_at)
         SELECT ?1, user_id, ?2, expires_at, ?2, ?3, ?4, ?5, verified_at FROM sessions
         WHERE device_id = ?6 AND user_id = ?7 AND revoked_at IS NULL AND expires_at > ?2
         ORDER BY last_seen_at DESC LIMIT 1`,
      )
      .bind(id, now, userAgent, clientIp(request), nextDeviceId, deviceId, userId),
    db.prepare("UPDATE sessions SET device_id = ?2 WHERE device_id = ?1 AND EXISTS (SELECT 1 FROM sessions WHERE id = ?3)").bind(deviceId, nextDeviceId, id),
    db.prepare("UPDATE sessions SET revoked_at = ?4 WHERE device_id = ?1 AND user_id = ?2 AND id != ?3 AND revoked_at IS NULL").bind(nextDeviceId, userId, id, now),
  ];
  const sessionCookie = hostCookie(SESSION_COOKIE, token, Math.max(0, Math.floor((target.expiresAt - now) / 1000)));
  return { id, expiresAt: target.expiresAt, deviceId: nextDeviceId, cookies: [sessionCookie, deviceCookie(deviceToken)], statements, applied: (results) => results[0]?.meta.changes === 1 };
}

/** The human check passed for this session. */
export async function markSessionVerified(db: D1Database, sessionId: string, now = Date.now()): Promise<void> {
  await db.prepare("UPDATE sessions SET verified_at = ?2 WHERE id = ?1").bind(sessionId, now).run();
  forgetSessions({ sessionIds: [sessionId] });
}

/** A browser fingerprint seen for this account (spec 000 §7), first and last sighting kept. */
export async function recordFingerprint(db: D1Database, userId: number, fingerprint: string, now = Date.now()): Promise<void> {
  await db
    .prepare(
      `INSERT INTO fingerprints (user_id, fingerprint, first_seen_at, last_seen_at) VALUES (?1, ?2, ?3, ?3)
       ON CONFLICT(user_id, fingerprint) DO UPDATE SET last_seen_at = excluded.last_seen_at`,
    )
    .bind(userId, fingerprint, now)
    .run();
}

/** Ends one session and stores its successor in one batch (a token refresh: the old id stops at once). */
export async function replaceSession(db: D1Database, oldSessionId: string, next: NewSession): Promise<void> {
  await db.batch([revokeSession(db, oldSessionId), ...next.statements]);
  // A GET (the token refresh) commits this: no request end repeats what startSession forgot.
  forgetSessions({ ...next.touches, sessionIds: [oldSessionId] });
}

export async function endSession(db: D1Database, sessionId: string): Promise<void> {
  await revokeSession(db, sessionId).run();
  forgetSessions({ sessionIds: [sessionId] });
}
