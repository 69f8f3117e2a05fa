// Sessions this isolate read from D1 a moment ago, by their id (the token's SHA-256), so a
// signed-in page or call does not pay the session's round trip on every request.
//
// The rule (docs/decisions.md, Accounts): an entry answers for SESSION_CACHE_MS after its
// read, never past the session's own expiry, and only for safe requests (GET, HEAD): every
// other request reads its session from D1, so a session revoked anywhere can never write
// again. In the isolate that makes a change, the change is seen at once: whatever revokes a
// session or writes what a Session holds (its row or its user's) forgets the sessions it
// touches (forgetSessions in session.server.ts), by session, user or device, and the
// request-context middleware forgets the viewer's own sessions (and their device's) after every
// unsafe request, and repeats the forgets made while it ran. A read that began before a forget
// of its session, user or device is not kept, so a read that raced the write (began before it
// committed) cannot put the old row back. Other isolates see the change when their entry's
// time is up: within SESSION_CACHE_MS. A value read beside the session (a SessionCompanion
// with a key, such as the member page's state for a pin) is kept with its entry, and stops
// answering when any request that may write ends in the isolate, whoever made it.
import { BoundedLru } from "~/server/bounded-lru.ts";

/** How long a session read from D1 answers in an isolate: long enough for one page load's burst of requests. */
const SESSION_CACHE_MS = 5_000;
/** A Session's size, roughly (its user row is a few dozen short columns). */
const SESSION_BYTES = 2048;
/** Companion values kept per session, and the largest kept (characters of its JSON text). */
const MAX_COMPANIONS = 4;
const MAX_COMPANION_CHARS = 16_384;

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

/** Where a D1 read began: its result is kept only if nothing it covers was forgotten (or written) since. */
export interface ReadTicket {
  epoch: number;
  writes: number;
  startedAt: number;
}

interface Slot<S> {
  session: S;
  storedAt: number;
  /** Values read beside the session (SessionCompanion), by key, with the write count they were read at. */
  companions: Map<string, { value: unknown; writes: number }>;
}

const sizeOf = (slot: Slot<unknown>) => {
  let bytes = SESSION_BYTES;
  for (const { value } of slot.companions.values()) bytes += typeof value === "string" ? 2 * value.length : 64;
  return bytes;
};

/** A read slower than this is not kept: its race with a forget is judged on records kept longer. */
const MAX_READ_MS = 2_000;
/** How long a forget is remembered: longer than any read is kept, and than a request that writes runs. */
const FORGET_RECORD_MS = 60_000;

export class SessionCache<S extends SessionShape> {
  private readonly sessions: BoundedLru<Slot<S>>;
  /** Every forget's number: a read that began before a forget of its keys is not kept. */
  private epoch = 0;
  /**
   * Forgets and ends of requests that may write: a companion value (which may describe anyone's
   * rows, a pin made secret, a block) answers only while no write has ended in this isolate since it was read.
   */
  private writes = 0;
  /** The last forget of each user (`u:`), device (`d:`) or session (`s:`): its number and time, oldest first. */
  private readonly forgotten = new Map<string, { epoch: number; at: number }>();
  /** Reads begun before this forget number are not kept (the records overflowed and were dropped). */
  private keepFrom = 0;
  /** The forget number at which the records last overflowed. */
  private overflowedAt = -1;

  /** `maxSessions` kept at most; past `maxForgotten` forget records, every session is dropped. */
  constructor(
    maxSessions = 2048,
    private readonly maxForgotten = 4096,
  ) {
    this.sessions = new BoundedLru<Slot<S>>({ maxEntries: maxSessions, maxBytes: maxSessions * SESSION_BYTES * 2, ttlMs: SESSION_CACHE_MS });
  }

  get size(): number {
    return this.sessions.size;
  }

  /** The cached session of this id, if it is within its time and not expired: a copy. */
  get(id: string, now: number): S | null {
    const slot = this.live(id, now);
    return slot ? copyOf(slot.session) : null;
  }

  private live(id: string, now: number): Slot<S> | null {
    const slot = this.sessions.get(id, now);
    if (!slot) return null;
    if (slot.session.expiresAt <= now) {
      this.sessions.delete(id);
      return null;
    }
    return slot;
  }

  /** Taken just before a D1 read. `clock` is wall time (Date.now), never an injected one. */
  begin(clock = Date.now()): ReadTicket {
    return { epoch: this.epoch, writes: this.writes, startedAt: clock };
  }

  /** A companion value kept with a live cached session, if no write has ended here since it was read. */
  companion(id: string, key: string, now: number): { value: unknown } | null {
    const kept = this.live(id, now)?.companions.get(key);
    return kept && kept.writes === this.writes ? { value: kept.value } : null;
  }

  /** Keeps a companion value read for a cached session, unless a write ended (or a forget came) since the read began. */
  keepCompanion(id: string, key: string, value: unknown, ticket: ReadTicket, now: number, clock = Date.now()): void {
    if (ticket.writes !== this.writes || clock - ticket.startedAt > MAX_READ_MS) return;
    if (typeof value === "string" && value.length > MAX_COMPANION_CHARS) return;
    const slot = this.live(id, now);
    if (!slot) return;
    if (!slot.companions.has(key) && slot.companions.size >= MAX_COMPANIONS) slot.companions.clear();
    slot.companions.set(key, { value, writes: ticket.writes });
    // Stored again with its own time, so its size counts the values it carries now.
    this.sessions.set(id, slot, sizeOf(slot), slot.storedAt);
  }

  /**
   * Keeps a session just read from D1 (stored at `now`, which may be injected), unless the read
   * raced a forget of anything it belongs to (began before it), or took too long to judge.
   */
  keep(session: S, ticket: ReadTicket, now: number, clock = Date.now()): void {
    if (session.expiresAt <= now || ticket.epoch < this.keepFrom || clock - ticket.startedAt > MAX_READ_MS) return;
    for (const key of keysOf(session)) {
      const record = this.forgotten.get(key);
      if (record && record.epoch > ticket.epoch) return;
    }
    this.sessions.set(session.id, { session: copyOf(session), storedAt: now, companions: new Map() }, SESSION_BYTES, now);
  }

  /** touchSession wrote last_seen_at: the cached copy says so, so the next request does not write it again. */
  seen(id: string, lastSeenAt: number, now: number): void {
    const slot = this.sessions.get(id, now);
    if (slot) slot.session.lastSeenAt = lastSeenAt;
  }

  /**
   * Drops every cached session in the scope; a read of them already under way is not kept. Call
   * it after the write has committed (a read begun before the commit is then refused, one begun
   * after reads the new row); a forget made before its write commits is repeated when the
   * request ends (see settle).
   */
  forget(scope: SessionScope, clock = Date.now()): void {
    const keys: string[] = [];
    for (const id of scope.sessionIds ?? []) keys.push(`s:${id}`);
    for (const id of scope.userIds ?? []) keys.push(`u:${id}`);
    for (const id of scope.deviceIds ?? []) if (id) keys.push(`d:${id}`);
    if (keys.length === 0) return;
    this.epoch += 1;
    this.writes += 1;
    for (const key of keys) {
      this.forgotten.delete(key);
      this.forgotten.set(key, { epoch: this.epoch, at: clock });
    }
    // Oldest first: records past their time are dropped.
    for (const [key, record] of this.forgotten) {
      if (clock - record.at <= FORGET_RECORD_MS) break;
      this.forgotten.delete(key);
    }
    if (this.forgotten.size > this.maxForgotten) {
      // Too many to remember: drop every session, and keep no read begun before now.
      this.forgotten.clear();
      this.dropAll();
      this.overflowedAt = this.epoch;
      return;
    }
    const dropped = new Set(keys);
    this.sessions.deleteWhere((_id, slot) => keysOf(slot.session).some((key) => dropped.has(key)));
  }

  private dropAll(): void {
    this.sessions.clear();
    this.keepFrom = this.epoch;
  }

  /** The current forget number: taken when a request that may write begins. */
  mark(): number {
    return this.epoch;
  }

  /**
   * Forgets again everything forgotten since `mark`: when a request that may write ends, its
   * writes have committed, so a forget it made while building them (before the commit) is now
   * exact. Other requests' forgets in the meantime are repeated too, which is only cautious.
   * Every companion value read before now stops answering.
   */
  settle(mark: number, clock = Date.now()): void {
    // A write ended: every companion value read before it is stale, whoever wrote.
    this.writes += 1;
    // The records it would repeat were dropped: repeat everything.
    if (mark < this.overflowedAt) {
      this.epoch += 1;
      this.dropAll();
      return;
    }
    const keys = [...this.forgotten].filter(([, record]) => record.epoch > mark).map(([key]) => key);
    if (keys.length === 0) return;
    const scope = { sessionIds: [] as string[], userIds: [] as number[], deviceIds: [] as string[] };
    for (const key of keys) {
      const value = key.slice(2);
      if (key.startsWith("s:")) scope.sessionIds.push(value);
      else if (key.startsWith("u:")) scope.userIds.push(Number(value));
      else scope.deviceIds.push(value);
    }
    this.forget(scope, clock);
  }
}
