import { describe, expect, it } from "vitest";
import { parseSearch, pinFilterPlan } from "./plan.ts";
import { searchOptionsSchema } from "./options.ts";

const parse = (input: Record<string, unknown>) => parseSearch(searchOptionsSchema.parse(input));

describe("parsing a search", () => {
  it("reads the query's words, then the applied guides' words, into one match", () => {
    const parsed = parse({ query: "  Red  Shoes ", applied_filters: "Summer, beach party" });
    expect(parsed.scope).toBe("pins");
    expect(parsed.query).toBe("Red Shoes");
    expect(parsed.tokens).toEqual(["red", "shoes", "summer", "beach", "party"]);
    expect(parsed.match).toBe('"red" AND "shoes" AND "summer" AND "beach" AND "party"');
  });

  it("has nothing to match for a query without words", () => {
    expect(parse({ query: "!!! ??", scope: "boards" })).toMatchObject({ scope: "boards", tokens: [], match: null });
  });

  it("binds bookmarks to what changes results, not to the order or case they were written in", () => {
    const key = parse({ query: "Red shoes", filters: "kind:image,created:30d", domains: ["a.example", "b.example"] }).key;
    expect(parse({ query: "red SHOES", filters: "created:30d, kind:image", domains: ["b.example", "a.example"] }).key).toBe(key);
    expect(parse({ query: "red shoes", filters: "kind:image,created:30d", domains: ["a.example", "b.example"], price_max: 20 }).key).not.toBe(key);
    expect(parse({ query: "red shoes", scope: "videos", filters: "kind:image,created:30d", domains: ["a.example", "b.example"] }).key).not.toBe(key);
  });

  it("plans pins of the applied kinds in the narrowest creation window", () => {
    const options = searchOptionsSchema.parse({ query: "shoes", filters: "kind:image,created:365d,kind:video,created:7d", product_filters: "home", price_min: 5, user: "ann", bubble_id: "food" });
    const parsed = parseSearch(options);
    expect(pinFilterPlan(options, { ...parsed, match: parsed.match! }, { id: 9 }, 1_000)).toEqual({
      match: '"shoes"',
      tokens: ["shoes"],
      scope: "pins",
      viewer: 9,
      anchor: 1_000,
      kinds: ["image", "video"],
      createdDays: 7,
      domains: [],
      categories: ["home"],
      priceMin: 5,
      priceMax: null,
      user: "ann",
      bubble: "food",
    });
  });
});
