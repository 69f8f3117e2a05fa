import { describe, expect, it } from "vitest";
import { BoundedLru } from "./bounded-lru.ts";

describe("BoundedLru", () => {
  it("answers within the time to live and drops the entry after it", () => {
    const lru = new BoundedLru<string>({ maxEntries: 10, maxBytes: 100, ttlMs: 1000 });
    lru.set("a", "A", 1, 5000);
    expect(lru.get("a", 5999)).toBe("A");
    expect(lru.get("a", 6000)).toBeUndefined();
    expect(lru.size).toBe(0);
    expect(lru.bytes).toBe(0);
  });

  it("evicts the least recently used past the entry bound, a read counting as a use", () => {
    const lru = new BoundedLru<number>({ maxEntries: 2, maxBytes: 100, ttlMs: 1000 });
    lru.set("a", 1, 1, 0);
    lru.set("b", 2, 1, 0);
    expect(lru.get("a", 1)).toBe(1);
    lru.set("c", 3, 1, 0);
    expect(lru.get("b", 2)).toBeUndefined();
    expect(lru.get("a", 2)).toBe(1);
    expect(lru.get("c", 2)).toBe(3);
  });

  it("evicts past the byte bound, counts a replaced entry once and refuses one bigger than the bound", () => {
    const lru = new BoundedLru<string>({ maxEntries: 10, maxBytes: 10, ttlMs: 1000 });
    lru.set("a", "A", 4, 0);
    lru.set("a", "A2", 4, 0);
    expect(lru.bytes).toBe(4);
    lru.set("b", "B", 4, 0);
    lru.set("c", "C", 4, 0);
    expect(lru.get("a", 1)).toBeUndefined();
    expect(lru.bytes).toBe(8);
    lru.set("huge", "H", 11, 0);
    expect(lru.get("huge", 1)).toBeUndefined();
    expect(lru.size).toBe(2);
    lru.delete("b");
    expect(lru.bytes).toBe(4);
    lru.clear();
    expect(lru.size).toBe(0);
  });

  it("refuses bounds that are not positive", () => {
    expect(() => new BoundedLru({ maxEntries: 0, maxBytes: 1, ttlMs: 1 })).toThrow(RangeError);
  });
});
