import { describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { BUDGETS, MISSING_PIN_BASE, SEARCH_QUERIES, TYPEAHEAD_TERMS, budget, classFigures, latencyStats, measureSequential, percentile, resourcePath, searchTableRows, uncachedPath } from "./bench-search.mjs";

describe("bench-search", () => {
  it("takes nearest-rank percentiles of sorted latencies", () => {
    const sorted = Array.from({ length: 100 }, (_, index) => index + 1);
    expect(percentile(sorted, 50)).toBe(50);
    expect(percentile(sorted, 95)).toBe(95);
    expect(percentile(sorted, 99)).toBe(99);
    expect(percentile([7], 95)).toBe(7);
    expect(percentile([], 95)).toBeNull();
  });

  it("judges a budget on the sequential p95, gives the concurrent one beside it, and fails on failed requests", () => {
    const route = (sequential: number, concurrent: number, non2xx = 0) => ({
      sequential: { latency_p95_ms: sequential, non2xx, errors: 0, connections: 1 },
      concurrent: { latency_p95_ms: concurrent, non2xx: 0, errors: 0, connections: 10 },
    });
    expect(budget(route(29.9, 223), 30)).toEqual({ judges: "sequential", p95_ms_max: 30, sequential_p95_ms: 29.9, concurrent_p95_ms: 223, concurrent_connections: 10, pass: true });
    expect(budget(route(30, 5), 30).pass).toBe(false);
    expect(budget(route(3, 5, 1), 30).pass).toBe(false);
    expect(budget(null, 30)).toEqual({ judges: "sequential", p95_ms_max: 30, sequential_p95_ms: null, concurrent_p95_ms: null, concurrent_connections: null, pass: null });
    expect(BUDGETS).toEqual({ search_p95_ms: 30, typeahead_p95_ms: 15 });
  });

  it("pools every latency of a class and takes exact percentiles", () => {
    const rows = [
      { class: "common", latencies: [10, 30] },
      { class: "common", latencies: [20] },
      { class: "rare", latencies: [5] },
      { class: "none" },
    ];
    expect(classFigures(rows)).toEqual({
      common: { requests: 3, latency_p50_ms: 20, latency_p95_ms: 30, latency_p99_ms: 30, latency_avg_ms: 20 },
      rare: { requests: 1, latency_p50_ms: 5, latency_p95_ms: 5, latency_p99_ms: 5, latency_avg_ms: 5 },
    });
    expect(latencyStats([])).toEqual({ latency_p50_ms: null, latency_p95_ms: null, latency_p99_ms: null, latency_avg_ms: null });
  });

  it("measures one request at a time, round-robin, each path's latencies kept apart", async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const seen: string[] = [];
    const server: Server = createServer((request, response) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      seen.push(request.url ?? "");
      setTimeout(() => {
        inFlight--;
        response.writeHead(request.url === "/b" ? 404 : 200).end("ok");
      }, 2);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const { figures, byPath } = await measureSequential(url, ["/a", "/b", "/c"], { duration: 0.3, vary: (p: string, n: number) => (n === 0 ? `${p}?first` : p) });
      expect(maxInFlight).toBe(1);
      expect(seen.slice(0, 6)).toEqual(["/a?first", "/b", "/c", "/a", "/b", "/c"]);
      expect(figures.requests_total).toBe(seen.length);
      expect(figures.connections).toBe(1);
      expect(byPath.get("/a")!.length + byPath.get("/b")!.length + byPath.get("/c")!.length).toBe(seen.length);
      expect(figures.non2xx).toBe(byPath.get("/b")!.length);
      expect(figures.latency_p50_ms).toBeGreaterThanOrEqual(2);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
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

  it("forces a miss with a top_pin_id naming no pin, different per request, the other options kept", () => {
    const base = resourcePath("BaseSearchResource", { query: "linen shirt", scope: "videos" });
    const options = (p: string) => JSON.parse(new URL(`http://x${p}`).searchParams.get("data") ?? "").options;
    expect(options(uncachedPath(base, 7))).toEqual({ query: "linen shirt", scope: "videos", top_pin_id: String(MISSING_PIN_BASE + 7) });
    expect(uncachedPath(base, 7)).not.toBe(uncachedPath(base, 8));
    expect(new URL(`http://x${uncachedPath(base, 1)}`).pathname).toBe("/resource/BaseSearchResource/get/");
    // Still a valid top_pin_id (digits, at most 20).
    expect(options(uncachedPath(base, 1)).top_pin_id).toMatch(/^\d{1,20}$/);
  });

  it("prints a skipped phase as one line, a measured line as its sequential and concurrent rows", () => {
    expect(searchTableRows({ skipped: "engine missing" })).toEqual([["search", "-", "skipped", "", "", "", "", "", "engine missing"]]);
    const figures = (connections: number, p95: number) => ({ connections, rps: 50, latency_p50_ms: 10, latency_p95_ms: p95, latency_p99_ms: 40, non2xx: 0, ratio_to_healthz: 0.5 });
    const rows = searchTableRows({
      routes: [{ name: "search", path: "30 queries", sequential: figures(1, 20), concurrent: figures(10, 200) }],
      budgets: { search: budget({ sequential: { latency_p95_ms: 20, non2xx: 0, errors: 0 }, concurrent: { latency_p95_ms: 200, connections: 10 } }, 30) },
    });
    expect(rows.map((row: string[]) => [row[0], row[4], row[8]])).toEqual([
      ["search: search ×1", "20", "budget sequential p95 < 30 ms: PASS"],
      ["search: search ×10", "200", ""],
    ]);
  });
});
