import { describe, expect, it } from "vitest";
import { dayOf, daySeed, decodeBlendBookmark, encodeBlendBookmark, interleave, type BlendBookmark } from "./blend.ts";

const rows = (ids: number[], firstRank: number) => ids.map((id, index) => ({ id, rank: firstRank - index }));
const START: BlendBookmark = { followed: null, popular: null };

describe("the day seed", () => {
  it("is the same for a person all day and differs between days and people", () => {
    const day = dayOf(Date.UTC(2026, 10, 27, 0, 0, 1));
    expect(dayOf(Date.UTC(2026, 10, 27, 23, 59, 59))).toBe(day);
    expect(dayOf(Date.UTC(2026, 10, 28, 0, 0, 0))).toBe(day + 1);
    expect(daySeed(7, day)).toBe(daySeed(7, day));
    expect(daySeed(7, day)).not.toBe(daySeed(7, day + 1));
    expect(daySeed(7, day)).not.toBe(daySeed(8, day));
    expect(daySeed(7, day)).toBeGreaterThanOrEqual(0);
    expect(daySeed(7, day)).toBeLessThan(2 ** 31);
  });
});

describe("blend bookmarks", () => {
  it("round-trip both streams' places", () => {
    const bookmark: BlendBookmark = { followed: { rank: 812, id: 4411 }, popular: "end" };
    expect(decodeBlendBookmark(encodeBlendBookmark(bookmark))).toEqual(bookmark);
    expect(decodeBlendBookmark(encodeBlendBookmark({ followed: null, popular: { rank: -3, id: 9 } }))).toEqual({ followed: null, popular: { rank: -3, id: 9 } });
  });

  it("refuses anything the blend did not write", () => {
    expect(decodeBlendBookmark("not a bookmark!")).toBeNull();
    expect(decodeBlendBookmark("abc")).toBeNull();
    // A keyset cursor of the shared feed: [created_at, id].
    expect(decodeBlendBookmark("WzE3MDAwMDAwMDAyMzAsMjMwXQ")).toBeNull();
    expect(decodeBlendBookmark("x".repeat(300))).toBeNull();
  });
});

describe("interleave", () => {
  it("puts a popular pin in every fifth cell while followed pins last", () => {
    const followed = rows([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], 100);
    const popular = rows([91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101], 50);
    const page = interleave(followed, popular, 10, START);
    expect(page.rows.map((row) => row.id)).toEqual([1, 2, 3, 4, 91, 5, 6, 7, 8, 92]);
    expect(page.next).toEqual({ followed: { rank: 93, id: 8 }, popular: { rank: 49, id: 92 } });
  });

  it("fills the page from the other stream when one runs dry, and ends when both have", () => {
    const page = interleave(rows([1, 2], 100), rows([91, 92, 93, 94], 50), 10, START);
    expect(page.rows.map((row) => row.id)).toEqual([1, 2, 91, 92, 93, 94]);
    expect(page.next).toBeNull();
  });

  it("keeps a stream's place when the page used none of it, and its end once ended", () => {
    const page = interleave(rows([1, 2, 3, 4], 100), [], 3, { followed: null, popular: "end" });
    expect(page.rows.map((row) => row.id)).toEqual([1, 2, 3]);
    expect(page.next).toEqual({ followed: { rank: 98, id: 3 }, popular: "end" });
  });

  it("never puts one pin on a page twice", () => {
    const page = interleave(rows([1, 2, 3, 4], 100), rows([3, 9], 50), 6, START);
    expect(page.rows.map((row) => row.id)).toEqual([1, 2, 3, 4, 9]);
  });
});
