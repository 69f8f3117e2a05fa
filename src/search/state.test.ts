import { describe, expect, it, beforeEach } from "vitest";
import {
  $queries,
  $recent,
  $skinTone,
  $typeaheadCache,
  INITIAL_SKIN_TONE,
  QUERIES_CACHE_MAX,
  TYPEAHEAD_CACHE_MAX,
  VIEWED_PINS_MAX,
  boundedSet,
  forgetSearch,
  invalidateQuery,
  matchingRecent,
  mergeRecent,
  productFiltersFromParams,
  queryKey,
  recordSearch,
  sanitizeRecent,
  searchActions,
  setShowSkinToneFilters,
  shownSearchText,
  startQuery,
  useSkinToneQuery,
  viewPin,
} from "./state.ts";
import { addDeviceRecent, clearDeviceRecent, DEVICE_RECENT_KEY, readDeviceRecent, removeDeviceRecent } from "./device-recent.client.ts";

class MemoryStorage {
  data = new Map<string, string>();
  getItem(key: string) {
    return this.data.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.data.set(key, value);
  }
  removeItem(key: string) {
    this.data.delete(key);
  }
}

describe("valid and invalid queries", () => {
  const key = queryKey("pins", "  Cake ");
  it("keys ignore case and whitespace but not scope", () => {
    expect(queryKey("pins", "cake")).toBe(key);
    expect(queryKey("boards", "cake")).not.toBe(key);
  });
  it("a started query is valid and a viewed pin joins its list once", () => {
    let queries = startQuery({}, key);
    expect(queries[key]).toEqual({ valid: true, pinIds: [] });
    queries = viewPin(viewPin(viewPin(queries, key, "1"), key, "2"), key, "1");
    expect(queries[key]!.pinIds).toEqual(["1", "2"]);
  });
  it("an invalidated or unknown query does not collect pins", () => {
    const queries = invalidateQuery(startQuery({}, key), key);
    expect(queries[key]!.valid).toBe(false);
    expect(viewPin(queries, key, "9")).toBe(queries);
    expect(viewPin({}, key, "9")).toEqual({});
  });
  it("restarting an invalid query makes it valid and empty again", () => {
    const queries = startQuery(viewPin(startQuery({}, key), key, "1"), key);
    expect(startQuery(invalidateQuery(queries, key), key)[key]).toEqual({ valid: true, pinIds: [] });
  });
  it("viewed pins and the cache are bounded", () => {
    let queries = startQuery({}, key);
    for (let i = 0; i < VIEWED_PINS_MAX + 5; i++) queries = viewPin(queries, key, String(i));
    expect(queries[key]!.pinIds).toHaveLength(VIEWED_PINS_MAX);
    expect(queries[key]!.pinIds[0]).toBe("5");
    let many = {};
    for (let i = 0; i < QUERIES_CACHE_MAX + 3; i++) many = startQuery(many, queryKey("pins", `q${i}`));
    expect(Object.keys(many)).toHaveLength(QUERIES_CACHE_MAX);
    expect(Object.keys(many)[0]).toBe(queryKey("pins", "q3"));
  });
});

describe("boundedSet", () => {
  it("moves a re-set key to the newest place and drops the oldest", () => {
    expect(Object.keys(boundedSet({ a: 1, b: 2, c: 3 }, "a", 4, 3))).toEqual(["b", "c", "a"]);
    expect(boundedSet({ a: 1, b: 2, c: 3 }, "d", 4, 3)).toEqual({ b: 2, c: 3, d: 4 });
  });
});

describe("recent searches", () => {
  it.each([
    ["pins", "recent"],
    ["boards", "recent"],
    ["my_pins", "recentPersonal"],
    ["my_content", "recentPersonal"],
  ] as const)("a %s search goes to %s", (scope, list) => {
    const state = recordSearch({ recent: [], recentPersonal: [] }, scope, "Cake");
    expect(state[list]).toEqual(["Cake"]);
  });
  it("caps at 20 and deduplicates ignoring case, newest spelling first", () => {
    let state = { recent: [] as string[], recentPersonal: [] as string[] };
    for (let i = 0; i < 25; i++) state = recordSearch(state, "pins", `query ${i}`);
    state = recordSearch(state, "pins", "QUERY 10");
    expect(state.recent).toHaveLength(20);
    expect(state.recent[0]).toBe("QUERY 10");
    expect(state.recent.filter((item) => item.toLowerCase() === "query 10")).toHaveLength(1);
  });
  it("forgets one search in both lists ignoring case", () => {
    expect(forgetSearch({ recent: ["Cake", "tea"], recentPersonal: ["CAKE"] }, "cake")).toEqual({ recent: ["tea"], recentPersonal: [] });
  });
  it("sanitizes stored values", () => {
    expect(sanitizeRecent("nope")).toEqual([]);
    expect(sanitizeRecent(["a", 3, null, "A", "b"])).toEqual(["a", "b"]);
    expect(sanitizeRecent(Array.from({ length: 30 }, (_, i) => `q${i}`))).toHaveLength(20);
  });
  it("merges the server's list before the device's", () => {
    expect(mergeRecent(["Tea", "cake"], ["CAKE", "soup"])).toEqual(["Tea", "cake", "soup"]);
  });
  it("matches recent searches by prefix ignoring case", () => {
    expect(matchingRecent(["Cake pops", "tea", "carrot cake"], "CA")).toEqual(["Cake pops", "carrot cake"]);
    expect(matchingRecent(["a", "b", "c"], "", 2)).toEqual(["a", "b"]);
  });
});

describe("device recent store", () => {
  it("adds, removes and clears through storage", () => {
    const storage = new MemoryStorage();
    addDeviceRecent(storage, "cake");
    addDeviceRecent(storage, "tea");
    expect(addDeviceRecent(storage, "Cake")).toEqual(["Cake", "tea"]);
    expect(removeDeviceRecent(storage, "TEA")).toEqual(["Cake"]);
    expect(readDeviceRecent(storage)).toEqual(["Cake"]);
    clearDeviceRecent(storage);
    expect(storage.getItem(DEVICE_RECENT_KEY)).toBeNull();
  });
  it("survives garbage and a missing storage", () => {
    const storage = new MemoryStorage();
    storage.setItem(DEVICE_RECENT_KEY, "{not json");
    expect(readDeviceRecent(storage)).toEqual([]);
    expect(readDeviceRecent(null)).toEqual([]);
    expect(addDeviceRecent(null, "x")).toEqual(["x"]);
  });
  it("caps at 20", () => {
    const storage = new MemoryStorage();
    for (let i = 0; i < 30; i++) addDeviceRecent(storage, `q${i}`);
    expect(readDeviceRecent(storage)).toHaveLength(20);
    expect(readDeviceRecent(storage)[0]).toBe("q29");
  });
});

describe("skin-tone filter state", () => {
  it("counts a query once until another query runs", () => {
    let state = useSkinToneQuery(INITIAL_SKIN_TONE, "braids");
    state = useSkinToneQuery(state, "BRAIDS");
    expect(state.skinToneQueryUses).toEqual({ numQueryUses: 1, lastQuery: "braids" });
    state = useSkinToneQuery(state, "makeup");
    expect(state.skinToneQueryUses).toEqual({ numQueryUses: 2, lastQuery: "makeup" });
    expect(useSkinToneQuery(state, "   ")).toBe(state);
  });
  it("shows and hides the filters", () => {
    const shown = setShowSkinToneFilters(INITIAL_SKIN_TONE, true);
    expect(shown.showSkinToneFilters).toBe(true);
    expect(setShowSkinToneFilters(shown, true)).toBe(shown);
  });
});

describe("product filters from the URL", () => {
  it.each([
    ["price_min=5&price_max=20", { priceMin: 5, priceMax: 20, domains: [], categories: [] }],
    ["price_min=-1&price_max=abc", { priceMin: null, priceMax: null, domains: [], categories: [] }],
    ["domains=Shop.example,bad%20host&domains=b.example", { priceMin: null, priceMax: null, domains: ["shop.example", "b.example"], categories: [] }],
    ["product_filters=home_decor,Home_Decor,x!", { priceMin: null, priceMax: null, domains: [], categories: ["home_decor"] }],
  ])("%s", (query, expected) => {
    expect(productFiltersFromParams(new URLSearchParams(query))).toEqual(expected);
  });
});

describe("search text shown elsewhere", () => {
  it.each([
    [null, "/search/pins/", " cake  pops ", "cake pops"],
    ["tea", "/search/boards/", "", "tea"],
    ["tea", "/pin/12/", "cake", "tea"],
    [null, "/", null, null],
  ])("previous %s, page %s?q=%s → %s", (previous, path, q, expected) => {
    expect(shownSearchText(previous, path, q)).toBe(expected);
  });
});

describe("stores", () => {
  beforeEach(() => {
    $queries.set({});
    $recent.set({ recent: [], recentPersonal: [] });
    $skinTone.set(INITIAL_SKIN_TONE);
    $typeaheadCache.set({});
  });
  it("a started search is valid, recent and counted", () => {
    searchActions.start("pins", "Cake");
    searchActions.viewPin("pins", "cake", "7");
    expect($queries.get()[queryKey("pins", "cake")]).toEqual({ valid: true, pinIds: ["7"] });
    expect($recent.get().recent).toEqual(["Cake"]);
    expect($skinTone.get().skinToneQueryUses.numQueryUses).toBe(1);
    searchActions.invalidate("pins", "cake");
    expect($queries.get()[queryKey("pins", "cake")]!.valid).toBe(false);
  });
  it("the typeahead cache is keyed by term, expires and holds at most 50 terms", () => {
    searchActions.cacheTypeahead("Ca", { items: [1] }, 1000);
    expect(searchActions.typeahead("ca", 500, 1200)).toEqual({ items: [1] });
    expect(searchActions.typeahead("ca", 500, 1600)).toBeNull();
    for (let i = 0; i < TYPEAHEAD_CACHE_MAX + 10; i++) searchActions.cacheTypeahead(`t${i}`, i, 2000);
    expect(Object.keys($typeaheadCache.get())).toHaveLength(TYPEAHEAD_CACHE_MAX);
    expect(searchActions.typeahead("t0", 10_000, 2000)).toBeNull();
  });
});
