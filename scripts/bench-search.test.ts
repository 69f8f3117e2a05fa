import { describe, expect, it } from "vitest";
import { BUDGETS, SEARCH_QUERIES, TYPEAHEAD_TERMS, budget, percentile, resourcePath, searchTableRows } from "./bench-search.mjs";

describe("bench-search", () => {
  it("takes nearest-rank percentiles of sorted latencies", () => {
    const sorted = Array.from({ length: 100 }, (_, index) => index + 1);
    expect(percentile(sorted, 50)).toBe(50);
    expect(percentile(sorted, 95)).toBe(95);
    expect(percentile(sorted, 99)).toBe(99);
    expect(percentile([7], 95)).toBe(7);
    expect(percentile([], 95)).toBeNull();
  });

  it("passes a budget only under the limit and without failed requests", () => {
    expect(budget({ latency_p95_ms: 29.9, non2xx: 0, errors: 0 }, 30).pass).toBe(true);
    expect(budget({ latency_p95_ms: 30, non2xx: 0, errors: 0 }, 30).pass).toBe(false);
    expect(budget({ latency_p95_ms: 3, non2xx: 1, errors: 0 }, 30).pass).toBe(false);
    expect(budget(null, 30)).toEqual({ p95_ms_max: 30, measured_p95_ms: null, pass: null });
    expect(BUDGETS).toEqual({ search_p95_ms: 30, typeahead_p95_ms: 15 });
  });

  it("covers the brief's query kinds with at least 20 queries and 1-6 character prefixes", () => {
    expect(SEARCH_QUERIES.length).toBeGreaterThanOrEqual(20);
    const classes = new Set(SEARCH_QUERIES.map((entry) => entry.class));
    for (const kind of ["common", "rare", "multi", "filter", "page2", "boards", "users"]) expect(classes.has(kind), kind).toBe(true);
    for (const term of TYPEAHEAD_TERMS) expect(term.length >= 1 && term.length <= 6, term).toBe(true);
    expect(new Set(TYPEAHEAD_TERMS.map((term) => term.length))).toEqual(new Set([1, 2, 3, 4, 5, 6]));
  });

  it("builds resource GET paths the resource route parses", () => {
    const url = new URL(`http://x${resourcePath("BaseSearchResource", { query: "linen shirt", scope: "boards" })}`);
    expect(url.pathname).toBe("/resource/BaseSearchResource/get/");
    expect(JSON.parse(url.searchParams.get("data") ?? "")).toEqual({ options: { query: "linen shirt", scope: "boards" } });
  });

  it("prints a skipped phase as one line", () => {
    expect(searchTableRows({ skipped: "engine missing" })).toEqual([["search", "-", "skipped", "", "", "", "", "", "engine missing"]]);
  });
});
