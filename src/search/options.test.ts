import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { zodProblems } from "~/domain/errors.ts";
import { MAX_QUERY_LENGTH, normalizeQuery, searchOptionsSchema, searchUrl } from "./options.ts";

describe("normalizeQuery", () => {
  it.each([
    ["  red   shoes  ", "red shoes"],
    ["tab\tand\nnewline", "tab and newline"],
    ["ｆｕｌｌ　ｗｉｄｔｈ", "full width"],
    ["é", "é"],
    ["", ""],
  ])("%j → %j", (input, expected) => {
    expect(normalizeQuery(input)).toBe(expected);
  });

  it("keeps at most 200 characters", () => {
    expect(Array.from(normalizeQuery("a".repeat(500)))).toHaveLength(MAX_QUERY_LENGTH);
    expect(Array.from(normalizeQuery("😀".repeat(300)))).toHaveLength(MAX_QUERY_LENGTH);
  });

  it("is idempotent", () => {
    fc.assert(fc.property(fc.string({ maxLength: 300 }), (text) => normalizeQuery(normalizeQuery(text)) === normalizeQuery(text)));
  });
});

function fieldsOf(input: Record<string, unknown>): string[] {
  const parsed = searchOptionsSchema.safeParse(input);
  if (parsed.success) return [];
  return zodProblems(parsed.error, "", input).map((problem) => problem.field);
}

describe("searchOptionsSchema", () => {
  it("accepts the minimal and the full option set", () => {
    expect(searchOptionsSchema.parse({ query: "  cats " })).toEqual({ query: "cats" });
    const full = {
      query: "lamp",
      scope: "buyable_pins",
      rs: "typed",
      filters: "kind:product,created:30d",
      applied_filters: "brass,modern",
      product_filters: "home_decor",
      domains: ["example.com"],
      price_min: 1,
      price_max: 20,
      page_size: 10,
      bookmark: "abc_-1",
      user: "someone_1",
      top_pin_id: "123",
      source_id: "src-1",
      bubble_id: "home_decor",
      personalization_signature: "sig=1",
    };
    expect(searchOptionsSchema.parse(full)).toEqual(full);
  });

  it.each<[string, Record<string, unknown>]>([
    ["query", { query: "" }],
    ["query", { query: "   " }],
    ["query", {}],
    ["query", { query: 5 }],
    ["scope", { query: "a", scope: "everything" }],
    ["rs", { query: "a", rs: "magic" }],
    ["filters", { query: "a", filters: "KIND:video" }],
    ["filters", { query: "a", filters: "kind:unknown" }],
    ["filters", { query: "a", filters: Array.from({ length: 11 }, () => "kind:video").join(",") }],
    ["applied_filters", { query: "a", applied_filters: "a,b,c,d,e,f" }],
    ["applied_filters", { query: "a", applied_filters: "x".repeat(41) }],
    ["product_filters", { query: "a", product_filters: "Bad Id" }],
    ["product_filters", { query: "a", product_filters: Array.from({ length: 11 }, (_, i) => `c${i}`).join(",") }],
    ["domains", { query: "a", domains: "example.com" }],
    ["domains.0", { query: "a", domains: ["https://example.com"] }],
    ["domains.0", { query: "a", domains: ["Example.com"] }],
    ["domains", { query: "a", domains: Array.from({ length: 11 }, (_, i) => `d${i}.com`) }],
    ["price_min", { query: "a", price_min: -1 }],
    ["price_min", { query: "a", price_min: "1" }],
    ["price_max", { query: "a", price_max: -2 }],
    ["price_max", { query: "a", price_min: 10, price_max: 5 }],
    ["page_size", { query: "a", page_size: 0 }],
    ["page_size", { query: "a", page_size: 51 }],
    ["page_size", { query: "a", page_size: 2.5 }],
    ["bookmark", { query: "a", bookmark: "not a bookmark!" }],
    ["user", { query: "a", user: "bad user" }],
    ["user", { query: "a", user: "x".repeat(31) }],
    ["top_pin_id", { query: "a", top_pin_id: "12a" }],
    ["top_pin_id", { query: "a", top_pin_id: "1".repeat(21) }],
    ["source_id", { query: "a", source_id: "a b" }],
    ["bubble_id", { query: "a", bubble_id: "x".repeat(65) }],
    ["personalization_signature", { query: "a", personalization_signature: "sig!" }],
    ["unknown_option", { query: "a", unknown_option: 1 }],
  ])("a bad %s is refused naming the field", (field, input) => {
    expect(fieldsOf(input)).toContain(field);
  });
});

describe("searchUrl", () => {
  it.each<[Parameters<typeof searchUrl>, string]>([
    [["pins", "  red  shoes "], "/search/pins/?q=red+shoes"],
    [["boards", "cats", { rs: "direct_navigation" }], "/search/boards/?q=cats"],
    [["pins", "cats", { rs: "typed", filters: "kind:video, created:7d" }], "/search/pins/?q=cats&rs=typed&filters=kind%3Avideo%2Ccreated%3A7d"],
    [["buyable_pins", "lamp", { domains: ["a.com"], price_min: 0, price_max: 5 }], "/search/buyable_pins/?q=lamp&domains=a.com&price_min=0&price_max=5"],
    [["pins", "a&b"], "/search/pins/?q=a%26b"],
  ])("%j → %s", (args, expected) => {
    expect(searchUrl(...args)).toBe(expected);
  });
});
