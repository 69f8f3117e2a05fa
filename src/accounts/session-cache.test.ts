import { describe, expect, it } from "vitest";
import { SessionCache } from "./session-cache.ts";

interface TestSession {
  id: string;
  expiresAt: number;
  lastSeenAt: number;
  deviceId: string | null;
  user: { id: number; username: string };
}

const T = 1_000_000;

/** A read begun and kept at once (no forget between), at `now`. */
function kept(cache: SessionCache<TestSession>, value: TestSession, now: number): void {
  cache.keep(value, cache.begin(now), now, now);
}
const session = (id: string, userId: number, deviceId: string | null = null, expiresAt = T + 60_000): TestSession => ({
  id,
  expiresAt,
  lastSeenAt: T,
  deviceId,
  user: { id: userId, username: `user${userId}` },
});

describe("the session cache", () => {
  it("answers a kept session for 5 s after its read, and not at 5 s", () => {
    const cache = new SessionCache<TestSession>();
    kept(cache, session("a", 1), T);
    expect(cache.get("a", T + 4999)?.user.username).toBe("user1");
    expect(cache.get("a", T + 5000)).toBeNull();
  });

  it("never answers a session at or past its expiry, nor keeps an expired one", () => {
    const cache = new SessionCache<TestSession>();
    kept(cache, session("a", 1, null, T + 2000), T);
    expect(cache.get("a", T + 1999)?.id).toBe("a");
    expect(cache.get("a", T + 2000)).toBeNull();
    kept(cache, session("b", 2, null, T), T);
    expect(cache.get("b", T)).toBeNull();
  });

  it("hands out copies: a request changing its session changes nothing cached", () => {
    const cache = new SessionCache<TestSession>();
    kept(cache, session("a", 1), T);
    const first = cache.get("a", T)!;
    first.user.username = "changed";
    first.lastSeenAt = 0;
    expect(cache.get("a", T)).toEqual(session("a", 1));
  });

  it("forgets by session, by user and by device, and only those", () => {
    const filled = () => {
      const cache = new SessionCache<TestSession>();
      kept(cache, session("a", 1, "phone"), T);
      kept(cache, session("b", 1, "laptop"), T);
      kept(cache, session("c", 2, "phone"), T);
      kept(cache, session("d", 3, null), T);
      return cache;
    };
    const left = (cache: SessionCache<TestSession>) => ["a", "b", "c", "d"].filter((id) => cache.get(id, T) !== null);
    const bySession = filled();
    bySession.forget({ sessionIds: ["b"] }, T);
    expect(left(bySession)).toEqual(["a", "c", "d"]);
    const byUser = filled();
    byUser.forget({ userIds: [1] }, T);
    expect(left(byUser)).toEqual(["c", "d"]);
    const byDevice = filled();
    byDevice.forget({ deviceIds: ["phone", null] }, T);
    expect(left(byDevice)).toEqual(["b", "d"]);
  });

  it("does not keep a read that began before a forget of its session, user or device", () => {
    const cache = new SessionCache<TestSession>();
    const ticket = cache.begin(T);
    cache.forget({ userIds: [1], deviceIds: ["phone"], sessionIds: ["z"] }, T + 1);
    for (const value of [session("a", 1), session("b", 2, "phone"), session("z", 3), session("c", 4)]) cache.keep(value, ticket, T + 2, T + 2);
    expect(["a", "b", "z", "c"].filter((id) => cache.get(id, T + 2) !== null)).toEqual(["c"]);
    // A read begun after the forget is kept.
    kept(cache, session("a", 1), T + 3);
    expect(cache.get("a", T + 3)?.id).toBe("a");
  });

  it("does not keep a read that took more than 2 s", () => {
    const cache = new SessionCache<TestSession>();
    const ticket = cache.begin(T);
    cache.keep(session("a", 1), ticket, T + 2001, T + 2001);
    expect(cache.get("a", T + 2001)).toBeNull();
    cache.keep(session("a", 1), ticket, T + 2000, T + 2000);
    expect(cache.get("a", T + 2000)?.id).toBe("a");
  });

  it("settles a request that wrote: what it forgot before its commit is forgotten again, with reads begun meanwhile", () => {
    const cache = new SessionCache<TestSession>();
    const mark = cache.mark();
    // The write is built: its sessions are forgotten before the batch commits.
    cache.forget({ deviceIds: ["phone"] }, T);
    // A read begun now sees the old row (not yet revoked) and is kept...
    kept(cache, session("a", 1, "phone"), T + 1);
    expect(cache.get("a", T + 1)?.id).toBe("a");
    const racing = cache.begin(T + 1);
    // ...until the request ends, its batch committed.
    cache.settle(mark, T + 2);
    expect(cache.get("a", T + 2)).toBeNull();
    cache.keep(session("a", 1, "phone"), racing, T + 3, T + 3);
    expect(cache.get("a", T + 3)).toBeNull();
    // Sessions nothing forgot stay.
    kept(cache, session("b", 2, "laptop"), T + 4);
    cache.settle(cache.mark(), T + 5);
    expect(cache.get("b", T + 5)?.id).toBe("b");
  });

  it("records a touch on the cached copy", () => {
    const cache = new SessionCache<TestSession>();
    kept(cache, session("a", 1), T);
    cache.seen("a", T + 100, T + 100);
    expect(cache.get("a", T + 200)?.lastSeenAt).toBe(T + 100);
  });

  it("keeps at most its bound of sessions, the least recently used out first", () => {
    const cache = new SessionCache<TestSession>(2);
    kept(cache, session("a", 1), T);
    kept(cache, session("b", 2), T);
    cache.get("a", T);
    kept(cache, session("c", 3), T);
    expect(cache.size).toBe(2);
    expect(cache.get("b", T)).toBeNull();
    expect(cache.get("a", T)?.id).toBe("a");
  });

  it("past its bound of forget records, drops every session and every read begun before", () => {
    const cache = new SessionCache<TestSession>(10, 2);
    const mark = cache.mark();
    kept(cache, session("a", 1), T);
    const before = cache.begin(T);
    cache.forget({ userIds: [7, 8, 9] }, T);
    expect(cache.get("a", T)).toBeNull();
    cache.keep(session("a", 1), before, T + 1, T + 1);
    expect(cache.get("a", T + 1)).toBeNull();
    kept(cache, session("a", 1), T + 2);
    expect(cache.get("a", T + 2)?.id).toBe("a");
    // A request that began before the overflow cannot know what to repeat: it repeats everything.
    cache.settle(mark, T + 3);
    expect(cache.get("a", T + 3)).toBeNull();
  });
});
