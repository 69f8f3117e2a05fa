import { describe, expect, it } from "vitest";
import { filtersFor, oneBar, priceBuckets, productFiltersOf } from "./filters.ts";

describe("filter chips", () => {
  it("offers kinds and creation windows on pins, creation windows only on the other pin scopes, none elsewhere", () => {
    expect(filtersFor("pins", ["created:7d"]).map((chip) => chip.id)).toEqual([
      "kind:image",
      "kind:video",
      "kind:recipe",
      "kind:product",
      "kind:article",
      "kind:story",
      "kind:carousel",
      "created:7d",
      "created:30d",
      "created:365d",
    ]);
    expect(filtersFor("videos", [])).toEqual([
      { id: "created:7d", applied: false },
      { id: "created:30d", applied: false },
      { id: "created:365d", applied: false },
    ]);
    expect(filtersFor("boards", ["created:7d"])).toEqual([]);
    expect(filtersFor("users", [])).toEqual([]);
  });

  it("puts applied chips first in the quick bar and shows at most six", () => {
    expect(oneBar(filtersFor("pins", ["created:30d", "kind:video"]))).toEqual([
      { id: "kind:video", applied: true },
      { id: "created:30d", applied: true },
      { id: "kind:image", applied: false },
      { id: "kind:recipe", applied: false },
      { id: "kind:product", applied: false },
      { id: "kind:article", applied: false },
    ]);
  });
});

describe("price ranges", () => {
  it.each<[number[], Array<{ min: number; max: number }>]>([
    [[], []],
    [[5], [{ min: 5, max: 5 }]],
    [[1, 100], [{ min: 1, max: 1 }, { min: 100, max: 100 }]],
    // Seven prices in quarters of 1, 2, 2 and 2.
    [[1, 2, 2, 5, 8, 9, 20], [{ min: 1, max: 1 }, { min: 2, max: 2 }, { min: 5, max: 8 }, { min: 9, max: 20 }]],
    // Quarters that would start inside the previous range are merged into it.
    [[3, 3, 3, 3, 3, 10], [{ min: 3, max: 10 }]],
  ])("%j → %j", (prices, ranges) => {
    expect(priceBuckets(prices)).toEqual(ranges);
  });
});

describe("product filters from facet columns", () => {
  it("reads price, domains and categories, and answers nothing for absent or empty facets", () => {
    expect(productFiltersOf({ price_json: '{"min":4,"max":80}', domains_json: '[{"domain":"shop.example","count":3}]', categories_json: '[{"id":"home","count":2}]' })).toEqual({
      price: { min: 4, max: 80 },
      domains: [{ domain: "shop.example", count: 3 }],
      categories: [{ id: "home", count: 2 }],
    });
    expect(productFiltersOf({ price_json: '{"min":null,"max":null}', domains_json: null, categories_json: null })).toEqual({ price: null, domains: [], categories: [] });
    expect(productFiltersOf(null)).toEqual({ price: null, domains: [], categories: [] });
  });
});
