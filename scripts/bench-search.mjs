// Issue 7 targets: search latency at 100,000 pins, measured through the Worker.
//
//   node scripts/bench-search.mjs [--duration 10] [--connections 10] [--warmup 2] [--build] [--no-seed]
//
// Also a phase of `npm run bench` (scripts/bench.mjs; `--no-search` skips it). Seeds the
// 100,000-pin world into .wrangler/search-bench-state when it is missing or was seeded by
// other seed code (the stamp of scripts/seed.ts --if-stale), serves the BUILT worker on it and
// measures, in one run: /healthz (the baseline), BaseSearchResource get over a rotating set of
// queries (common, rare, multi-word, filtered, page 2 by bookmark, boards and users scopes) and
// AdvancedTypeaheadResource over prefixes of 1 to 6 characters. Each response's latency is
// recorded (autocannon's own summary has no p95), so p50/p95/p99 are exact over the run.
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
/** Issue 7 "Targets": p95 through the Worker. */
export const BUDGETS = { search_p95_ms: 30, typeahead_p95_ms: 15 };

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

/** Per-request bound: a query slower than this counts as a timeout (and an error) of its line. */
export const REQUEST_TIMEOUT_S = 30;

/** A different client address per request, as real traffic has: search and typeahead are throttled per address. */
let clientSerial = 0;
const nextClientIp = () => {
  const n = ++clientSerial;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
};

/** autocannon over `paths` (each connection cycles through them), every latency kept. */
function measure(url, paths, { connections, duration, headers }) {
  return new Promise((resolve, reject) => {
    const latencies = [];
    const setupRequest = (request) => ({ ...request, headers: { ...request.headers, "cf-connecting-ip": nextClientIp() } });
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
        latencies.sort((a, b) => a - b);
        resolve({
          rps: round(result.requests.average, 1),
          latency_p50_ms: round(percentile(latencies, 50)),
          latency_p95_ms: round(percentile(latencies, 95)),
          latency_p99_ms: round(percentile(latencies, 99)),
          latency_avg_ms: round(result.latency.average),
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

/** Median of up to `runs` sequential requests (no concurrency; at least 3, at most ~5 s): one query's own cost. */
async function sequentialMedian(url, runs) {
  const times = [];
  const started = performance.now();
  for (let i = 0; i < runs && (i < 3 || performance.now() - started < 5_000); i++) {
    const started = performance.now();
    const response = await fetch(url);
    await response.arrayBuffer();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return round(percentile(times, 50));
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

export function budget(measured, limit) {
  if (!measured || measured.latency_p95_ms === null) return { p95_ms_max: limit, measured_p95_ms: null, pass: null };
  return { p95_ms_max: limit, measured_p95_ms: measured.latency_p95_ms, pass: measured.non2xx === 0 && measured.errors === 0 && measured.latency_p95_ms < limit };
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
    const typeaheadPaths = TYPEAHEAD_TERMS.map((term) => resourcePath("AdvancedTypeaheadResource", { term }));
    const lines = [
      { name: "healthz", paths: ["/healthz"] },
      { name: "search", paths: searchPaths, detail: `${searchPaths.length} queries` },
      { name: "typeahead", paths: typeaheadPaths, detail: `${typeaheadPaths.length} prefixes` },
    ];
    for (const line of lines) {
      if (line.paths.length === 0) {
        result.routes.push({ name: line.name, skipped: "no query answered 200" });
        continue;
      }
      // Each line: drained, warmed up, drained, measured.
      let drained = await drain(server.url);
      if (warmup > 0) await measure(server.url, line.paths, { connections, duration: warmup });
      drained += await drain(server.url);
      const measured = await measure(server.url, line.paths, { connections, duration });
      result.routes.push({ name: line.name, path: line.detail ?? line.paths[0], ...measured, ratio_to_healthz: null, drained_ms: drained });
      log(`[bench:search] ${line.name}: ${measured.rps} req/s, p50 ${measured.latency_p50_ms} ms, p95 ${measured.latency_p95_ms} ms, p99 ${measured.latency_p99_ms} ms, non2xx ${measured.non2xx}`);
    }
    const base = result.routes[0];
    for (const route of result.routes) if (!route.skipped && base && !base.skipped && base.rps > 0) route.ratio_to_healthz = round(route.rps / base.rps, 3);

    // Each query alone (no concurrency): shows which kinds of query cost what.
    await drain(server.url);
    for (const entry of planned) {
      const row = { class: entry.class, options: entry.options, status: entry.status, results_on_page: entry.results };
      if (entry.note) row.note = entry.note;
      if (entry.status === 200) row.sequential_p50_ms = await sequentialMedian(server.url + entry.path, 9);
      result.queries.push(row);
    }
    for (const term of TYPEAHEAD_TERMS) {
      const url = server.url + resourcePath("AdvancedTypeaheadResource", { term });
      const probe = await getJson(url);
      const items = probe.json?.resource_response?.data?.items;
      result.queries.push({ class: "typeahead", options: { term }, status: probe.status, items: Array.isArray(items) ? items.length : null, ...(probe.status === 200 ? { sequential_p50_ms: await sequentialMedian(url, 9) } : {}) });
    }
    result.machine.load_after = os.loadavg().map((n) => round(n));
    const byName = (name) => result.routes.find((route) => route.name === name && !route.skipped);
    result.budgets = { search: budget(byName("search"), BUDGETS.search_p95_ms), typeahead: budget(byName("typeahead"), BUDGETS.typeahead_p95_ms) };
    return result;
  } finally {
    await server.stop();
  }
}

/** Lines for the printed bench table (scripts/bench.mjs prints them under its own). */
export function searchTableRows(search) {
  if (!search) return [];
  if (search.skipped || search.error) return [["search", "-", "skipped", "", "", "", "", "", search.skipped ?? search.error]];
  return search.routes.map((route) =>
    route.skipped
      ? [`search: ${route.name}`, "-", "skipped", "", "", "", "", "", route.skipped]
      : [`search: ${route.name}`, route.path, String(route.rps), String(route.latency_p50_ms), String(route.latency_p95_ms), String(route.latency_p99_ms), String(route.non2xx), route.ratio_to_healthz === null ? "-" : String(route.ratio_to_healthz), budgetNote(search, route.name)],
  );
}

function budgetNote(search, name) {
  const entry = search.budgets?.[name];
  if (!entry) return "";
  return `budget p95 < ${entry.p95_ms_max} ms: ${entry.pass === null ? "not measured" : entry.pass ? "PASS" : "FAIL"}`;
}

export function printSearchTable(search, print = console.log) {
  const rows = [["search line", "what", "req/s", "p50 ms", "p95 ms", "p99 ms", "non2xx", "ratio", "budget"], ...searchTableRows(search)];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => (row[i] ?? "").length)));
  for (const row of rows) print("  " + row.map((cell, i) => (cell ?? "").padEnd(widths[i])).join("  "));
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
