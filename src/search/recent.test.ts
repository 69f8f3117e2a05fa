import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { RECENT_CAP, addRecent, isOwnSearch, recentKey, removeRecent } from "./recent.ts";

describe("addRecent", () => {
  it.each([
    { list: [], query: "cats", expected: ["cats"] },
    { list: ["dogs"], query: "cats", expected: ["cats", "dogs"] },
    { list: ["dogs", "Cats", "birds"], query: "cATS", expected: ["cATS", "dogs", "birds"] },
    { list: ["dogs"], query: "  red   shoes ", expected: ["red shoes", "dogs"] },
    { list: ["dogs"], query: "   ", expected: ["dogs"] },
    { list: ["Ｃａｔｓ"], query: "cats", expected: ["cats"] },
  ])("$query onto $list", ({ list, query, expected }) => {
    expect(addRecent(list, query)).toEqual(expected);
  });

  it("caps the list at 20, dropping the oldest", () => {
    const list = Array.from({ length: RECENT_CAP }, (_, i) => `q${i}`);
    const next = addRecent(list, "new");
    expect(RECENT_CAP).toBe(20);
    expect(next).toHaveLength(20);
    expect(next[0]).toBe("new");
    expect(next).not.toContain("q19");
  });

  it("honours a smaller cap", () => {
    expect(addRecent(["a", "b", "c"], "d", 2)).toEqual(["d", "a"]);
  });

  it("properties: never more than the cap, no two equal ignoring case, newest first", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 12 }), { maxLength: 60 }), (queries) => {
        let list: string[] = [];
        for (const query of queries) {
          list = addRecent(list, query);
          expect(list.length).toBeLessThanOrEqual(RECENT_CAP);
          const keys = list.map(recentKey);
          expect(new Set(keys).size).toBe(keys.length);
          if (query.trim() !== "") expect(recentKey(list[0]!)).toBe(recentKey(query.normalize("NFKC").replace(/\s+/gu, " ").trim()));
        }
      }),
    );
  });
});

describe("removeRecent", () => {
  it("removes ignoring case and keeps the rest in order", () => {
    expect(removeRecent(["Cats", "dogs", "birds"], "CATS")).toEqual(["dogs", "birds"]);
  });
});

describe("isOwnSearch", () => {
  const headers = (values: Record<string, string>) => new Headers(values);
  it.each([
    [{ "x-requested-with": "XMLHttpRequest" }, false, true],
    [{ "sec-fetch-site": "same-origin" }, false, true],
    [{ "sec-fetch-site": "none" }, false, false],
    [{ "sec-fetch-site": "none" }, true, true],
    [{ "sec-fetch-site": "same-origin" }, true, true],
    [{ "sec-fetch-site": "cross-site" }, true, false],
    [{ "sec-fetch-site": "same-site" }, false, false],
    [{ "x-requested-with": "fetch" }, false, false],
    [{}, false, false],
    [{}, true, false],
  ])("%j (navigation %s) → %s", (values, navigation, expected) => {
    expect(isOwnSearch(headers(values), navigation)).toBe(expected);
  });
});
