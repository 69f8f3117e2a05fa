// Sessions this isolate read from D1 a moment ago, by their id (the token's SHA-256), so a
// signed-in page or call does not pay the session's round trip on every request.
//
// The rule (docs/decisions.md, Accounts): an entry answers for SESSION_CACHE_MS after its
// read, never past the session's own expiry, and only for safe requests (GET, HEAD): every
// other request reads its session from D1, so a session revoked anywhere can never write
// again. In the isolate that makes a change, the change is seen at once: whatever revokes a
// session or writes what a Session holds (its row or its user's) forgets the sessions it
// touches (forgetSessions in session.server.ts), by session, user or device, and the request-context middleware
// forgets the viewer's own sessions (and their device's) around every unsafe request. A
// forgotten user, device or session is not cached again for SESSION_CACHE_MS, so a read that
// raced the write (began before it committed) cannot put the old row back. Other isolates see
// the change when their entry's time is up: within SESSION_CACHE_MS.
import { BoundedLru } from "~/server/bounded-lru.ts";

/** How long a session read from D1 answers in an isolate: long enough for one page load's burst of requests. */
export const SESSION_CACHE_MS = 5_000;
/** A Session's size, roughly (its user row is a few dozen short columns): the byte bound follows the entry bound. */
const SESSION_BYTES = 2048;

/** What the cache needs of a session (src/accounts/session.server.ts's Session). */
interface SessionShape {
  id: string;
  expiresAt: number;
  lastSeenAt: number;
  deviceId: string | null;
  user: { id: number };
}

/** What forget drops: any cached session matching one of these. */
export interface SessionScope {
  sessionIds?: Iterable<string>;
  userIds?: Iterable<number>;
  deviceIds?: Iterable<string | null>;
}

const keysOf = (session: SessionShape) => [`s:${session.id}`, `u:${session.user.id}`, ...(session.deviceId ? [`d:${session.deviceId}`] : [])];

/** A copy for one request: nothing a request does to its session reaches the cache. */
const copyOf = <S extends SessionShape>(session: S): S => ({ ...session, user: { ...session.user } });

export class SessionCache<S extends SessionShape> {
  private readonly sessions: BoundedLru<S>;
  /** When each user (`u:`), device (`d:`) or session (`s:`) was last forgotten, oldest first. */
  private readonly forgotten = new Map<string, number>();
  /** Until when no session is stored at all (the forgotten keys overflowed and were dropped). */
  private refuseAllUntil = 0;

  /** `maxSessions` kept at most; past `maxForgotten` forgotten keys, everything is dropped for a lifetime. */
  constructor(
    maxSessions = 2048,
    private readonly maxForgotten = 4096,
  ) {
    this.sessions = new BoundedLru<S>({ maxEntries: maxSessions, maxBytes: maxSessions * SESSION_BYTES, ttlMs: SESSION_CACHE_MS });
  }

  get size(): number {
    return this.sessions.size;
  }

  /** The cached session of this id, if it is within its time and not expired: a copy. */
  get(id: string, now: number): S | null {
    const session = this.sessions.get(id, now);
    if (!session) return null;
    if (session.expiresAt <= now) {
      this.sessions.delete(id);
      return null;
    }
    return copyOf(session);
  }

  /** Keeps a session just read from D1, unless something it belongs to was forgotten less than SESSION_CACHE_MS ago. */
  keep(session: S, now: number): void {
    if (this.recentlyForgotten(session, now) || session.expiresAt <= now) return;
    this.sessions.set(session.id, copyOf(session), SESSION_BYTES, now);
  }

  /** touchSession wrote last_seen_at: the cached copy says so, so the next request does not write it again. */
  seen(id: string, lastSeenAt: number, now: number): void {
    const session = this.sessions.get(id, now);
    if (session) session.lastSeenAt = lastSeenAt;
  }

  /**
   * Drops every cached session in the scope and refuses to cache them again for
   * SESSION_CACHE_MS: a read that began before the write that caused this committed must not
   * put the old row back.
   */
  forget(scope: SessionScope, now: number): void {
    const keys: string[] = [];
    for (const id of scope.sessionIds ?? []) keys.push(`s:${id}`);
    for (const id of scope.userIds ?? []) keys.push(`u:${id}`);
    for (const id of scope.deviceIds ?? []) if (id) keys.push(`d:${id}`);
    if (keys.length === 0) return;
    for (const key of keys) {
      this.forgotten.delete(key);
      this.forgotten.set(key, now);
    }
    if (this.forgotten.size > this.maxForgotten) {
      // Too many to remember: drop every session, and cache none until the dropped keys would have lapsed.
      this.forgotten.clear();
      this.sessions.clear();
      this.refuseAllUntil = now + SESSION_CACHE_MS;
      return;
    }
    // Re-inserted when forgotten, so the oldest come first: drop those past their time.
    for (const [key, at] of this.forgotten) {
      if (now - at < SESSION_CACHE_MS) break;
      this.forgotten.delete(key);
    }
    const dropped = new Set(keys);
    this.sessions.deleteWhere((_id, session) => keysOf(session).some((key) => dropped.has(key)));
  }

  private recentlyForgotten(session: S, now: number): boolean {
    if (now < this.refuseAllUntil) return true;
    if (this.forgotten.size === 0) return false;
    return keysOf(session).some((key) => {
      const at = this.forgotten.get(key);
      return at !== undefined && now - at < SESSION_CACHE_MS;
    });
  }
}
