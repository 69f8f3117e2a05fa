// Search latency at 100,000 pins, measured through the Worker, against its budgets.
//
//   node scripts/bench-search.mjs [--duration 10] [--connections 10] [--warmup 2] [--build] [--no-seed]
//
// Also a phase of `npm run bench` (scripts/bench.mjs; `--no-search` skips it). Seeds the
// 100,000-pin world into .wrangler/search-bench-state when it is missing or was seeded by
// other seed code (the stamp of scripts/seed.ts --if-stale), serves the BUILT worker on it and
// measures, in one run: /healthz (the baseline), BaseSearchResource get over a rotating set of
// queries (common, rare, multi-word, filtered, page 2 by bookmark, boards and users scopes) and
// AdvancedTypeaheadResource over prefixes of 1 to 6 characters.
//
// Each line is measured twice:
// - SEQUENTIAL (one request at a time, round-robin over the line's set for the duration): the
//   per-request latency the budgets judge. Local D1 runs one statement at a time, so with 10
//   connections a request mostly waits for the 9 ahead of it (/healthz itself: p95 24 ms at 10
//   connections on the 2-core machine): a concurrent p95 measures the queue, not search.
//   Every latency is kept per query, so each query and each class of query has its own
//   p50/p95/p99 too.
// - CONCURRENT (`--connections`, autocannon): throughput and latency under load, reported
//   beside it with the ratio to /healthz measured at the same concurrency.
// Signed-out search answers are cached (src/search/answer-cache.server.ts): `search` measures
// traffic as it comes (repeated queries hit), `search_uncached` the same queries forced to
// miss (see uncachedPath), so both the cached and the engine's own cost are in every run.
// The targets are BUDGETS with pass/fail in the JSON, never timed tests: a shared
// machine makes absolute milliseconds a report, not an assertion.
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { ROOT, clearThrottles, ensureBuilt, fmtDuration, migrate, parseArgs, seedIfEmpty, startWorker } from "./lib/server.mjs";

export const SEARCH_STATE = ".wrangler/search-bench-state";
export const SEARCH_PINS = 100_000;
/** The search latency targets: p95 through the Worker. */
export const BUDGETS = { search_p95_ms: 30, typeahead_p95_ms: 15 };
/** Which figure a budget judges: per-request latency, requests one at a time. */
export const BUDGET_JUDGES = "sequential";

/**
 * The rotating query set. Terms were chosen from the 100,000-pin world (scripts/seed/world.ts
 * and scripts/seed/vocabulary.ts, default seed): `class` says what each exercises. `page2`
 * entries are fetched once for page 1 and measured on the page its bookmark names.
 */
export const SEARCH_QUERIES = [
  // Common: thousands of matching pins (counts: matching pins of the default 100k world).
  { class: "common", options: { query: "recipe" } }, // 5,140
  { class: "common", options: { query: "outfit ideas" } }, // 3,151
  { class: "common", options: { query: "velvet sofa" } }, // 2,756
  { class: "common", options: { query: "chicken" } }, // 2,215
  { class: "common", options: { query: "kitchen" } }, // 2,027
  // Medium: hundreds.
  { class: "medium", options: { query: "linen shirt" } }, // 1,194
  { class: "medium", options: { query: "lisbon" } }, // 506
  { class: "medium", options: { query: "garlic" } }, // 493
  { class: "medium", options: { query: "kohlrabi" } }, // 446
  // Rare: a handful (the vocabulary's tail, a photo author's name, showcase pins).
  { class: "rare", options: { query: "cavernous" } }, // 17
  { class: "rare", options: { query: "ruddy" } }, // 11
  { class: "rare", options: { query: "magdalena" } }, // 1
  { class: "rare", options: { query: "wool-blend overshirt" } }, // 1
  { class: "rare", options: { query: "brown butter banana bread" } }, // 1
  // Multi-word: AND of terms with different selectivity.
  { class: "multi", options: { query: "macrame plant hanger" } }, // 765
  { class: "multi", options: { query: "road trip kyoto" } }, // 80
  { class: "multi", options: { query: "scandinavian kitchen" } }, // 72
  { class: "multi", options: { query: "easy chicken soup" } }, // 5
  // No match: the typo and few-results paths.
  { class: "none", options: { query: "easy vegetarian soup" } }, // 0
  // Filters and product options.
  { class: "filter", options: { query: "pasta", filters: "kind:recipe" } },
  { class: "filter", options: { query: "autumn", filters: "created:365d" } },
  { class: "filter", options: { query: "coat", scope: "buyable_pins", price_min: 20, price_max: 120 } },
  { class: "filter", options: { query: "terrarium", scope: "videos" } },
  // Page 2 through the bookmark of page 1.
  { class: "page2", options: { query: "salad" } }, // 2,942
  { class: "page2", options: { query: "terrarium" } }, // 724
  // Other scopes.
  { class: "boards", options: { query: "weeknight dinners", scope: "boards" } }, // 224 boards
  { class: "boards", options: { query: "travel", scope: "boards" } }, // 338 boards
  { class: "users", options: { query: "reilly", scope: "users" } }, // 27 people
  { class: "users", options: { query: "graham", scope: "users" } }, // 24 people
  { class: "users", options: { query: "smith", scope: "users" } }, // 18 people
];

/** Typeahead terms: prefixes of 1 to 6 characters of common and rare words. */
export const TYPEAHEAD_TERMS = ["s", "l", "m", "ch", "ki", "ca", "lin", "pas", "tra", "sala", "kohl", "reci", "lisbo", "garli", "weekni", "scandi", "cavern", "reilly"];

const round = (n, d = 2) => (Number.isFinite(n) ? Math.round(n * 10 ** d) / 10 ** d : null);

export function resourcePath(name, options) {
  return `/resource/${name}/get/?data=${encodeURIComponent(JSON.stringify({ options }))}`;
}

/** Nearest-rank percentile of sorted numbers. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

/**
 * Signed-out searches are answered from the answer cache (src/search/answer-cache.server.ts)
 * once ranked, so after warm-up the `search` line measures mostly hits. The `search_uncached`
 * line asks the same queries with a top_pin_id naming no pin, different on every request: it
 * is part of the cached search's key but changes no result (the top pin leads only when it is
 * a candidate), so every request pays the whole engine. Page-2 queries are left out of it
 * (their bookmark is bound to the options, top_pin_id included).
 */
export const MISSING_PIN_BASE = 900_000_000_000;
export function uncachedPath(p, n) {
  const url = new URL(p, "http://bench");
  const data = JSON.parse(url.searchParams.get("data") ?? "{}");
  return resourcePath(url.pathname.split("/")[2], { ...data.options, top_pin_id: String(MISSING_PIN_BASE + n) });
}

/** Per-request bound: a query slower than this counts as a timeout (and an error) of its line. */
export const REQUEST_TIMEOUT_S = 30;

/** A different client address per request, as real traffic has: search and typeahead are throttled per address. */
let clientSerial = 0;
const nextClientIp = () => {
  const n = ++clientSerial;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
};

/** p50/p95/p99 (nearest rank) and mean of unsorted latencies, rounded. */
export function latencyStats(latencies) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const sum = sorted.reduce((total, n) => total + n, 0);
  return {
    latency_p50_ms: round(percentile(sorted, 50)),
    latency_p95_ms: round(percentile(sorted, 95)),
    latency_p99_ms: round(percentile(sorted, 99)),
    latency_avg_ms: sorted.length > 0 ? round(sum / sorted.length) : null,
  };
}

/**
 * One request at a time for `duration` seconds, round-robin over `paths` (each path's
 * latencies kept apart), every response's body read before the next request starts;
 * `vary(path, n)` may rewrite the n-th request's path. Returns the line's figures and
 * `byPath` (path → latencies in ms).
 * @param {string} url
 * @param {string[]} paths
 * @param {{ duration: number, fetchImpl?: typeof fetch, vary?: (path: string, n: number) => string }} options
 */
export async function measureSequential(url, paths, { duration, fetchImpl = fetch, vary = (p) => p }) {
  const latencies = [];
  const byPath = new Map(paths.map((p) => [p, []]));
  const statusCodes = {};
  let non2xx = 0;
  let errors = 0;
  const started = performance.now();
  const until = started + duration * 1000;
  for (let i = 0; performance.now() < until; i++) {
    const p = paths[i % paths.length];
    const t = performance.now();
    try {
      const response = await fetchImpl(url + vary(p, i), { headers: { "cf-connecting-ip": nextClientIp() }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_S * 1000) });
      await response.arrayBuffer();
      const ms = performance.now() - t;
      latencies.push(ms);
      byPath.get(p).push(ms);
      statusCodes[response.status] = (statusCodes[response.status] ?? 0) + 1;
      if (response.status < 200 || response.status > 299) non2xx++;
    } catch {
      errors++;
    }
  }
  const elapsed = (performance.now() - started) / 1000;
  return {
    figures: { connections: 1, rps: round(latencies.length / elapsed, 1), ...latencyStats(latencies), requests_total: latencies.length, non2xx, errors, status_codes: statusCodes },
    byPath,
  };
}

/** autocannon over `paths` (each connection cycles through them), every latency kept. */
function measure(url, paths, { connections, duration, headers, vary = (p) => p }) {
  return new Promise((resolve, reject) => {
    const latencies = [];
    let serial = 0;
    const setupRequest = (request) => ({ ...request, path: vary(request.path, serial++), headers: { ...request.headers, "cf-connecting-ip": nextClientIp() } });
    const instance = autocannon(
      {
        url,
        connections,
        duration,
        pipelining: 1,
        timeout: REQUEST_TIMEOUT_S,
        requests: paths.map((p) => ({ method: "GET", path: p, headers: { ...headers }, setupRequest })),
      },
      (error, result) => {
        if (error) return reject(error);
        resolve({
          connections,
          rps: round(result.requests.average, 1),
          ...latencyStats(latencies),
          requests_total: result.requests.total,
          non2xx: result.non2xx,
          errors: result.errors,
          timeouts: result.timeouts,
          status_codes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([k, v]) => [k, v.count])),
        });
      },
    );
    instance.on("response", (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  });
}

async function getJson(url) {
  const response = await fetch(url);
  const text = await response.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON: reported by status below
  }
  return { status: response.status, json, text };
}

/**
 * Resolves the query set against the running worker: page-1 probes (status, results on the
 * page), page-2 paths from bookmarks. Throws when the resource is not served at all.
 */
async function planSearch(base) {
  const planned = [];
  for (const entry of SEARCH_QUERIES) {
    const first = resourcePath("BaseSearchResource", entry.options);
    const probe = await getJson(base + first);
    if (probe.status === 404 && /resource/i.test(probe.text) && planned.length === 0) {
      throw new Error(`BaseSearchResource is not served (404): the search engine is not in this build`);
    }
    const data = probe.json?.resource_response?.data;
    if (probe.status !== 200 || !data) {
      planned.push({ ...entry, path: first, status: probe.status, results: null, note: probe.text.slice(0, 200) });
      continue;
    }
    if (entry.class === "page2") {
      if (typeof data.bookmark !== "string" || data.bookmark === "-end-") {
        planned.push({ ...entry, path: first, status: 200, results: data.results?.length ?? 0, note: "no page 2: page 1 ended" });
        continue;
      }
      const second = resourcePath("BaseSearchResource", { ...entry.options, bookmark: data.bookmark });
      const page2 = await getJson(base + second);
      planned.push({ ...entry, path: second, status: page2.status, results: page2.json?.resource_response?.data?.results?.length ?? null });
      continue;
    }
    planned.push({ ...entry, path: first, status: 200, results: data.results?.length ?? 0, more: data.bookmark !== "-end-" });
  }
  return planned;
}

/**
 * Waits until the database answers a cheap search promptly: D1 runs one query at a time, so
 * requests a line left queued (a slow query in flight when its time ran out) would otherwise
 * be charged to the next line. Returns the ms waited.
 */
async function drain(base) {
  const started = Date.now();
  const probe = base + resourcePath("BaseSearchResource", { query: "ruddy", scope: "users" });
  while (Date.now() - started < 120_000) {
    const t = performance.now();
    try {
      await (await fetch(probe, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_S * 1000) })).arrayBuffer();
    } catch {
      // timed out: still busy
    }
    if (performance.now() - t < 250) break;
  }
  return Date.now() - started;
}

/**
 * A budget's verdict: judged on the sequential p95 (BUDGET_JUDGES), the concurrent p95 given
 * beside it. Passes only under the limit and without a failed request in the judged run.
 */
export function budget(route, limit) {
  const sequential = route?.sequential ?? null;
  const concurrent = route?.concurrent ?? null;
  const entry = {
    judges: BUDGET_JUDGES,
    p95_ms_max: limit,
    sequential_p95_ms: sequential?.latency_p95_ms ?? null,
    concurrent_p95_ms: concurrent?.latency_p95_ms ?? null,
    concurrent_connections: concurrent?.connections ?? null,
    pass: null,
  };
  if (!sequential || sequential.latency_p95_ms === null) return entry;
  entry.pass = sequential.non2xx === 0 && sequential.errors === 0 && sequential.latency_p95_ms < limit;
  return entry;
}

/** Per-class figures of a sequential run: every latency of the class's queries pooled. */
export function classFigures(rows) {
  const classes = new Map();
  for (const row of rows) {
    if (!row.latencies) continue;
    const pooled = classes.get(row.class) ?? [];
    pooled.push(...row.latencies);
    classes.set(row.class, pooled);
  }
  return Object.fromEntries([...classes].map(([name, latencies]) => [name, { requests: latencies.length, ...latencyStats(latencies) }]));
}

/**
 * The whole phase: seed if stale, serve, measure, stop. Returns the `search` object of the
 * bench JSON; never throws for a missing engine (recorded as `skipped`), throws for a
 * worker that cannot start.
 */
export async function runSearchBench({ duration = 10, connections = 10, warmup = 2, seed = true, log = console.log } = {}) {
  const result = {
    world: { state: SEARCH_STATE, pins: SEARCH_PINS },
    options: { duration_s: duration, connections, warmup_s: warmup },
    // A shared machine: the 1/5/15-minute load averages around the measurement (cpus: machine.cpus).
    machine: { cpus: os.cpus().length, load_before: os.loadavg().map((n) => round(n)), load_after: null },
    budgets: { search: budget(null, BUDGETS.search_p95_ms), typeahead: budget(null, BUDGETS.typeahead_p95_ms) },
    routes: [],
    queries: [],
  };
  await migrate(SEARCH_STATE);
  if (seed) {
    const started = Date.now();
    await seedIfEmpty(SEARCH_STATE, { ifStale: true, pins: SEARCH_PINS });
    result.world.seed_check_s = round((Date.now() - started) / 1000, 1);
  } else {
    log("[bench:search] --no-seed: not seeding");
  }
  await clearThrottles(SEARCH_STATE);
  const stamp = path.join(ROOT, SEARCH_STATE, "pinloom-seed.json");
  if (existsSync(stamp)) result.world.seeded = JSON.parse(readFileSync(stamp, "utf8"));

  const server = await startWorker({ persistTo: SEARCH_STATE });
  try {
    log(`[bench:search] worker on ${server.url}; ${duration} s × ${connections} connections per line`);
    let planned;
    try {
      planned = await planSearch(server.url);
    } catch (error) {
      result.skipped = error instanceof Error ? error.message : String(error);
      log(`[bench:search] skipped: ${result.skipped}`);
      return result;
    }
    const searchPaths = planned.filter((entry) => entry.status === 200).map((entry) => entry.path);
    const typeaheadProbes = [];
    for (const term of TYPEAHEAD_TERMS) {
      const p = resourcePath("AdvancedTypeaheadResource", { term });
      const probe = await getJson(server.url + p);
      const items = probe.json?.resource_response?.data?.items;
      typeaheadProbes.push({ term, path: p, status: probe.status, items: Array.isArray(items) ? items.length : null });
    }
    const typeaheadPaths = typeaheadProbes.map((probe) => probe.path);
    const uncachedPaths = planned.filter((entry) => entry.status === 200 && entry.class !== "page2").map((entry) => entry.path);
    const lines = [
      { name: "healthz", paths: ["/healthz"] },
      { name: "search", paths: searchPaths, detail: `${searchPaths.length} queries` },
      { name: "typeahead", paths: typeaheadPaths, detail: `${typeaheadPaths.length} prefixes` },
      // Last: its thousands of one-off answers fill the worker's answer memory.
      { name: "search_uncached", paths: uncachedPaths, detail: `${uncachedPaths.length} queries, every one a miss`, vary: uncachedPath, perQuery: false },
    ];
    /** path → latencies of the sequential runs, for the per-query rows. */
    const perPath = new Map();
    for (const line of lines) {
      if (line.paths.length === 0) {
        result.routes.push({ name: line.name, skipped: "no query answered 200" });
        continue;
      }
      // Each line: drained, warmed up, drained, measured one at a time, drained, measured concurrently.
      let drained = await drain(server.url);
      if (warmup > 0) await measure(server.url, line.paths, { connections, duration: warmup, vary: line.vary });
      drained += await drain(server.url);
      const sequential = await measureSequential(server.url, line.paths, { duration, vary: line.vary });
      for (const [p, latencies] of sequential.byPath) perPath.set(line.perQuery === false ? `${line.name}:${p}` : p, latencies);
      drained += await drain(server.url);
      const concurrent = await measure(server.url, line.paths, { connections, duration, vary: line.vary });
      result.routes.push({ name: line.name, path: line.detail ?? line.paths[0], sequential: sequential.figures, concurrent: { ...concurrent, ratio_to_healthz: null }, drained_ms: drained });
      const show = (f) => `${f.rps} req/s, p50 ${f.latency_p50_ms} ms, p95 ${f.latency_p95_ms} ms, p99 ${f.latency_p99_ms} ms, non2xx ${f.non2xx}`;
      log(`[bench:search] ${line.name} sequential: ${show(sequential.figures)}`);
      log(`[bench:search] ${line.name} ${connections} connections: ${show(concurrent)}`);
    }
    const base = result.routes[0];
    for (const route of result.routes) {
      if (route.skipped || !base || base.skipped) continue;
      if (base.concurrent.rps > 0) route.concurrent.ratio_to_healthz = round(route.concurrent.rps / base.concurrent.rps, 3);
      if (base.sequential.rps > 0) route.sequential.ratio_to_healthz = round(route.sequential.rps / base.sequential.rps, 3);
    }

    // Each query's own figures from the sequential run: which kinds of query cost what.
    for (const entry of planned) {
      const row = { class: entry.class, options: entry.options, status: entry.status, results_on_page: entry.results };
      if (entry.note) row.note = entry.note;
      const latencies = perPath.get(entry.path);
      if (entry.status === 200 && latencies?.length) Object.assign(row, { requests: latencies.length, ...latencyStats(latencies) });
      const missed = perPath.get(`search_uncached:${entry.path}`);
      if (entry.status === 200 && missed?.length) row.uncached = { requests: missed.length, ...latencyStats(missed) };
      result.queries.push({ ...row, latencies, missed });
    }
    for (const probe of typeaheadProbes) {
      const latencies = perPath.get(probe.path);
      const row = { class: "typeahead", options: { term: probe.term }, status: probe.status, items: probe.items };
      if (probe.status === 200 && latencies?.length) Object.assign(row, { requests: latencies.length, ...latencyStats(latencies) });
      result.queries.push({ ...row, latencies });
    }
    result.classes = classFigures(result.queries);
    result.classes_uncached = classFigures(result.queries.map((row) => ({ class: row.class, latencies: row.missed })));
    for (const row of result.queries) {
      delete row.latencies;
      delete row.missed;
    }
    result.machine.load_after = os.loadavg().map((n) => round(n));
    const byName = (name) => result.routes.find((route) => route.name === name && !route.skipped);
    result.budgets = { search: budget(byName("search"), BUDGETS.search_p95_ms), typeahead: budget(byName("typeahead"), BUDGETS.typeahead_p95_ms) };
    // The search budget also shows what a request costs when nothing is remembered.
    result.budgets.search.uncached_sequential_p95_ms = byName("search_uncached")?.sequential.latency_p95_ms ?? null;
    return result;
  } finally {
    await server.stop();
  }
}

const figureCells = (f) => [String(f.rps), String(f.latency_p50_ms), String(f.latency_p95_ms), String(f.latency_p99_ms), String(f.non2xx), f.ratio_to_healthz === null || f.ratio_to_healthz === undefined ? "-" : String(f.ratio_to_healthz)];

/** Lines for the printed bench table (scripts/bench.mjs prints them under its own): per line, sequential then concurrent. */
export function searchTableRows(search) {
  if (!search) return [];
  if (search.skipped || search.error) return [["search", "-", "skipped", "", "", "", "", "", search.skipped ?? search.error]];
  return search.routes.flatMap((route) =>
    route.skipped
      ? [[`search: ${route.name}`, "-", "skipped", "", "", "", "", "", route.skipped]]
      : [
          [`search: ${route.name} ×1`, route.path, ...figureCells(route.sequential), budgetNote(search, route.name)],
          [`search: ${route.name} ×${route.concurrent.connections}`, route.path, ...figureCells(route.concurrent), ""],
        ],
  );
}

function budgetNote(search, name) {
  const entry = search.budgets?.[name];
  if (!entry) return "";
  return `budget ${entry.judges ?? "sequential"} p95 < ${entry.p95_ms_max} ms: ${entry.pass === null ? "not measured" : entry.pass ? "PASS" : "FAIL"}`;
}

export function printSearchTable(search, print = console.log) {
  const rows = [["search line (×connections)", "what", "req/s", "p50 ms", "p95 ms", "p99 ms", "non2xx", "ratio", "budget"], ...searchTableRows(search)];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => (row[i] ?? "").length)));
  for (const row of rows) print("  " + row.map((cell, i) => (cell ?? "").padEnd(widths[i])).join("  "));
  const perClass = (classes) => Object.entries(classes).map(([name, f]) => `${name} p50 ${f.latency_p50_ms} / p95 ${f.latency_p95_ms}`).join("; ");
  if (search?.classes) print("  sequential, per class of query: " + perClass(search.classes));
  if (search?.classes_uncached) print("  sequential, every request a miss, per class: " + perClass(search.classes_uncached));
  if (search?.machine) print(`  search: ${search.machine.cpus} cpus, load average before ${search.machine.load_before.join("/")}, after ${(search.machine.load_after ?? []).join("/") || "-"} (1/5/15 min)`);
}

async function main() {
  const args = parseArgs();
  const duration = Number(args.duration ?? 10);
  const connections = Number(args.connections ?? 10);
  const warmup = Number(args.warmup ?? 2);
  if (!(duration > 0) || !(connections > 0) || !(warmup >= 0)) throw new Error("--duration and --connections must be > 0, --warmup >= 0");
  if (await ensureBuilt({ force: Boolean(args.build) })) console.log("[bench:search] built the worker");
  const started = Date.now();
  const search = await runSearchBench({ duration, connections, warmup, seed: !args["no-seed"] });
  search.timestamp = new Date().toISOString();
  const dir = path.join(ROOT, "bench", "results");
  mkdirSync(dir, { recursive: true });
  // Alone, the phase updates the `search` key of the latest full bench result (or starts one).
  const latest = path.join(dir, "latest.json");
  let whole;
  try {
    whole = JSON.parse(readFileSync(latest, "utf8"));
  } catch {
    whole = {};
  }
  whole.search = search;
  writeFileSync(latest, JSON.stringify(whole, null, 2) + "\n");
  console.log("");
  printSearchTable(search);
  console.log(`\n[bench:search] done in ${fmtDuration(Date.now() - started)}; wrote the search key of bench/results/latest.json`);
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  main().then(
    () => process.exit(0),
    (error) => {
      console.error(`[bench:search] ${error instanceof Error ? error.message : error}`);
      process.exit(1);
    },
  );
}
