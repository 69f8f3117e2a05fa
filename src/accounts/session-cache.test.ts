import { describe, expect, it } from "vitest";
import { SESSION_CACHE_MS, SessionCache } from "./session-cache.ts";

interface TestSession {
  id: string;
  expiresAt: number;
  lastSeenAt: number;
  deviceId: string | null;
  user: { id: number; username: string };
}

const T = 1_000_000;
const session = (id: string, userId: number, deviceId: string | null = null, expiresAt = T + 60_000): TestSession => ({
  id,
  expiresAt,
  lastSeenAt: T,
  deviceId,
  user: { id: userId, username: `user${userId}` },
});

describe("the session cache", () => {
  it("answers a kept session for 5 s after its read, and not at 5 s", () => {
    expect(SESSION_CACHE_MS).toBe(5000);
    const cache = new SessionCache<TestSession>();
    cache.keep(session("a", 1), T);
    expect(cache.get("a", T + 4999)?.user.username).toBe("user1");
    expect(cache.get("a", T + 5000)).toBeNull();
  });

  it("never answers a session at or past its expiry, nor keeps an expired one", () => {
    const cache = new SessionCache<TestSession>();
    cache.keep(session("a", 1, null, T + 2000), T);
    expect(cache.get("a", T + 1999)?.id).toBe("a");
    expect(cache.get("a", T + 2000)).toBeNull();
    cache.keep(session("b", 2, null, T), T);
    expect(cache.get("b", T)).toBeNull();
  });

  it("hands out copies: a request changing its session changes nothing cached", () => {
    const cache = new SessionCache<TestSession>();
    cache.keep(session("a", 1), T);
    const first = cache.get("a", T)!;
    first.user.username = "changed";
    first.lastSeenAt = 0;
    expect(cache.get("a", T)).toEqual(session("a", 1));
  });

  it("forgets by session, by user and by device, and only those", () => {
    const filled = () => {
      const cache = new SessionCache<TestSession>();
      cache.keep(session("a", 1, "phone"), T);
      cache.keep(session("b", 1, "laptop"), T);
      cache.keep(session("c", 2, "phone"), T);
      cache.keep(session("d", 3, null), T);
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

  it("does not keep a forgotten user's, device's or session's row again for 5 s (a read that raced the write)", () => {
    const cache = new SessionCache<TestSession>();
    cache.forget({ userIds: [1], deviceIds: ["phone"], sessionIds: ["z"] }, T);
    cache.keep(session("a", 1), T + 4999);
    cache.keep(session("b", 2, "phone"), T + 4999);
    cache.keep(session("z", 3), T + 4999);
    cache.keep(session("c", 4), T + 4999);
    expect(cache.get("a", T + 4999)).toBeNull();
    expect(cache.get("b", T + 4999)).toBeNull();
    expect(cache.get("z", T + 4999)).toBeNull();
    expect(cache.get("c", T + 4999)?.id).toBe("c");
    cache.keep(session("a", 1), T + 5000);
    expect(cache.get("a", T + 5000)?.id).toBe("a");
  });

  it("records a touch on the cached copy", () => {
    const cache = new SessionCache<TestSession>();
    cache.keep(session("a", 1), T);
    cache.seen("a", T + 100, T + 100);
    expect(cache.get("a", T + 200)?.lastSeenAt).toBe(T + 100);
  });

  it("keeps at most its bound of sessions, the least recently used out first", () => {
    const cache = new SessionCache<TestSession>(2);
    cache.keep(session("a", 1), T);
    cache.keep(session("b", 2), T);
    cache.get("a", T);
    cache.keep(session("c", 3), T);
    expect(cache.size).toBe(2);
    expect(cache.get("b", T)).toBeNull();
    expect(cache.get("a", T)?.id).toBe("a");
  });

  it("past its bound of forgotten keys, drops everything and keeps nothing for 5 s", () => {
    const cache = new SessionCache<TestSession>(10, 2);
    cache.keep(session("a", 1), T);
    cache.forget({ userIds: [7, 8, 9] }, T);
    expect(cache.get("a", T)).toBeNull();
    cache.keep(session("a", 1), T + 4999);
    expect(cache.get("a", T + 4999)).toBeNull();
    cache.keep(session("a", 1), T + 5000);
    expect(cache.get("a", T + 5000)?.id).toBe("a");
  });
});
