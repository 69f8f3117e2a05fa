// The bench's harness ceiling: what serving a page of a given size costs before the product
// does anything.
//
// An empty Worker (no routing, no storage, no rendering) answers `/healthz` with "ok", and each
// measured page with that page's own bytes, held in memory: once as text/html and once as
// text/plain. Measured like the product's routes (paired with /healthz, scripts/lib/paired.mjs)
// under the same runner, the html line is what a Worker that does nothing else gets for that
// page on this machine: the runtime's HTTP work and the load generator's, which share the
// machine's cores with it. It is an estimate, not a bound: the product's /healthz does more
// (its middleware), which lifts the product's ratios a little. The plain line is the same
// bytes when they are not HTML (under `wrangler dev`, whose proxy parses every HTML answer,
// the two differed; under the runner they should not).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { cannon, sliceOf } from "./lib/load.mjs";
import { cannonWithCpu, cpuPerRequest, workerdPids } from "./lib/cpu.mjs";
import { pairedRound, pairedSummary, settleMs } from "./lib/paired.mjs";
import { WORKER_CONFIG, ROOT, startWorker } from "./lib/server.mjs";

const WORKER = `
const pages = PAGES;
const encoder = new TextEncoder();
const bodies = new Map(Object.entries(pages).map(([name, html]) => [name, encoder.encode(html)]));
export default {
  fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === "/healthz") return new Response("ok", { headers: { "content-type": "text/plain; charset=UTF-8", "cache-control": "no-store" } });
    const body = bodies.get(url.searchParams.get("page") ?? "");
    if (!body) return new Response("no such page", { status: 404 });
    const type = url.pathname === "/html" ? "text/html; charset=utf-8" : "text/plain; charset=utf-8";
    return new Response(body, { headers: { "content-type": type, "cache-control": "no-store" } });
  },
};
`;

/** Writes the empty Worker with `pages` ({ name: html }) and the product's compatibility settings. */
function writeHarness(dir, pages) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const product = JSON.parse(readFileSync(path.join(ROOT, WORKER_CONFIG), "utf8"));
  // A function, so that "$&" and the like in a page are not read as replacement patterns.
  writeFileSync(path.join(dir, "worker.mjs"), WORKER.replace("PAGES", () => JSON.stringify(pages)));
  const config = {
    name: "pinloom-bench-harness",
    main: "worker.mjs",
    compatibility_date: product.compatibility_date,
    compatibility_flags: product.compatibility_flags ?? [],
  };
  writeFileSync(path.join(dir, "wrangler.json"), JSON.stringify(config, null, 2));
  return path.join(dir, "wrangler.json");
}

const round3 = (n) => (n === null ? null : Math.round(n * 1000) / 1000);

/**
 * @param {{ pages: Record<string, string>, duration: number, connections: number, warmup: number, rounds: number, log: (line: string) => void, onServer?: (server: { stop: () => Promise<void> } | null) => void }} opts
 * @returns {Promise<{ note: string, pages: Record<string, { bytes: number, html_ratio: number|null, plain_ratio: number|null, html_rounds: (number|null)[], plain_rounds: (number|null)[] }> }>}
 */
export async function runHarnessBench({ pages, duration, connections, warmup, rounds, log, onServer }) {
  const dir = path.join(os.tmpdir(), `pinloom-bench-harness-${process.pid}`);
  let server = null;
  const result = {
    note: "an empty Worker answering with each page's own bytes under the same runner, as text/html and as text/plain: what serving a page of that size costs before the product does anything (an estimate: the product's own /healthz does more than the empty Worker's)",
    pages: {},
  };
  try {
    server = await startWorker({ config: writeHarness(dir, pages), persistTo: path.join(dir, "state") });
    onServer?.(server);
    const opts = (p, secs) => ({ url: server.url + p, connections, duration: secs, pipelining: 1 });
    const pids = workerdPids(server.pid);
    const measured = (p, secs) => cannonWithCpu(pids, opts(p, secs));
    const paired = async (p) => {
      if (warmup > 0) await cannon(opts(p, warmup));
      const pairs = [];
      const [healthzRuns, routeRuns] = [[], []];
      for (let i = 0; i < rounds; i++) {
        const [healthz, res] = await pairedRound(i, () => measured("/healthz", duration / rounds), () => measured(p, duration / rounds));
        for (const [what, run] of [["/healthz", healthz], [p, res]]) {
          if (run.non2xx > 0 || run.errors > 0) throw new Error(`harness ${what}: ${run.non2xx} non-2xx, ${run.errors} errors`);
        }
        pairs.push({ healthz: sliceOf(healthz), route: sliceOf(res) });
        healthzRuns.push(healthz);
        routeRuns.push(res);
      }
      await new Promise((resolve) => setTimeout(resolve, settleMs(Math.max(...pairs.map((pair) => pair.route.p99)))));
      return { ...pairedSummary(pairs), cpu: round3(cpuPerRequest(routeRuns)), healthzCpu: round3(cpuPerRequest(healthzRuns)) };
    };
    for (const [name, html] of Object.entries(pages)) {
      const query = `?page=${encodeURIComponent(name)}`;
      const asHtml = await paired(`/html${query}`);
      const asPlain = await paired(`/plain${query}`);
      result.pages[name] = {
        bytes: Buffer.byteLength(html),
        html_ratio: round3(asHtml.ratio),
        plain_ratio: round3(asPlain.ratio),
        html_rounds: asHtml.ratio_rounds.map(round3),
        plain_rounds: asPlain.ratio_rounds.map(round3),
        html_cpu_ms_per_request: asHtml.cpu,
        plain_cpu_ms_per_request: asPlain.cpu,
        healthz_cpu_ms_per_request: asHtml.healthzCpu,
      };
      const page = result.pages[name];
      log(
        `[bench] harness ${name} (${page.bytes} bytes): as text/html ${page.html_ratio} of /healthz (cpu ${page.html_cpu_ms_per_request} ms/req), as text/plain ${page.plain_ratio} (cpu ${page.plain_cpu_ms_per_request}); its /healthz cpu ${page.healthz_cpu_ms_per_request} ms/req`,
      );
    }
  } finally {
    await server?.stop();
    onServer?.(null);
    rmSync(dir, { recursive: true, force: true });
  }
  return result;
}

export function printHarnessTable(harness) {
  if (!harness) return;
  console.log("");
  if (harness.error) {
    console.log(`  harness ceiling: failed (${harness.error})`);
    return;
  }
  const rows = [["harness ceiling", "bytes", "text/html", "text/plain", "cpu ms/req html", "cpu ms/req /healthz"]];
  for (const [name, p] of Object.entries(harness.pages)) {
    rows.push([name, String(p.bytes), String(p.html_ratio), String(p.plain_ratio), String(p.html_cpu_ms_per_request ?? "-"), String(p.healthz_cpu_ms_per_request ?? "-")]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  for (const row of rows) console.log("  " + row.map((c, i) => c.padEnd(widths[i])).join("  "));
}
