// Serves the BUILT Worker as production runs it: one workerd process through Miniflare, with
// the bindings wrangler's own converter makes from dist/server/wrangler.json (D1, R2, KV,
// Queues and their consumer, static assets), persisted under --persist-to exactly where
// `wrangler dev --persist-to` keeps them, and the config's crons fired on schedule.
//
//   node scripts/serve.mjs [--config dist/server/wrangler.json] [--persist-to .wrangler/state]
//                          [--port 8787] [--ip 127.0.0.1] [--var KEY:VALUE ...] [--log-level info]
//                          [--inspector-port 9229]
//
// --inspector-port opens workerd's V8 inspector (the DevTools protocol, listed at
// http://127.0.0.1:<port>/json) so a profiler can read the Worker's JavaScript; off by default.
//
// Why not `wrangler dev`: its proxy Worker sits in front of the user Worker, passes every HTML
// answer through HTMLRewriter (to inject live reload, even with live reload off) and adds a
// fixed cost to every request, so it measures its own work as much as ours. This runner is
// that same user Worker, same options, minus the proxy. `npm run dev` keeps hot reload.
//
// Miniflare is taken from the wrangler this project pins (package.json), so the runtime and
// the converter are the ones `wrangler dev` and `wrangler deploy` use; tests/unit/serve.test.ts
// fails if a wrangler upgrade moves the converter or the persistence layout.
import { existsSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Cron } from "croner";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const wranglerRequire = createRequire(createRequire(import.meta.url).resolve("wrangler/package.json"));
const { unstable_getMiniflareWorkerOptions } = wranglerRequire("wrangler");
const { Miniflare, Log, LogLevel, convertV4MiniflareOptions } = wranglerRequire("miniflare");

const LOG_LEVELS = { none: "NONE", error: "ERROR", warn: "WARN", info: "INFO", debug: "DEBUG" };

/** `--name value` pairs; `--var` may repeat. */
export function parseServeArgs(argv) {
  const out = { config: "dist/server/wrangler.json", persistTo: ".wrangler/state", port: 8787, ip: "127.0.0.1", vars: {}, logLevel: "info" };
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i];
    const value = argv[i + 1];
    if (value === undefined) throw new Error(`${name} needs a value`);
    i++;
    if (name === "--config") out.config = value;
    else if (name === "--persist-to") out.persistTo = value;
    else if (name === "--ip") out.ip = value;
    else if (name === "--inspector-port") {
      const port = Number(value);
      if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`--inspector-port must be an integer between 1 and 65535 (got "${value}")`);
      out.inspectorPort = port;
    }
    else if (name === "--log-level") {
      if (!(value in LOG_LEVELS)) throw new Error(`--log-level must be one of ${Object.keys(LOG_LEVELS).join(", ")} (got "${value}")`);
      out.logLevel = value;
    } else if (name === "--port") {
      const port = Number(value);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be an integer between 0 and 65535 (got "${value}")`);
      out.port = port;
    } else if (name === "--var") {
      const colon = value.indexOf(":");
      if (colon < 1) throw new Error(`--var takes KEY:VALUE (got "${value}")`);
      out.vars[value.slice(0, colon)] = value.slice(colon + 1);
    } else throw new Error(`unknown option ${name}`);
  }
  return out;
}

/** Every JavaScript module of the build: Astro's chunks are imported dynamically, so none may be left to discovery. */
function buildModules(entry) {
  const root = path.dirname(entry);
  const found = [];
  const walk = (dir) => {
    for (const item of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, item.name);
      if (item.isDirectory()) walk(full);
      else if (/\.m?js$/.test(item.name) && full !== entry) found.push({ type: "ESModule", path: full });
    }
  };
  walk(root);
  return { modulesRoot: root, modules: [{ type: "ESModule", path: entry }, ...found] };
}

/** The Miniflare options `wrangler dev --persist-to DIR` gives the user Worker, without its proxy. */
export function miniflareOptions({ config, persistTo, port, ip, vars, logLevel, inspectorPort }) {
  const configPath = path.resolve(ROOT, config);
  if (!existsSync(configPath)) throw new Error(`${config} is missing: build first (npm run build).`);
  const { workerOptions, main } = unstable_getMiniflareWorkerOptions(configPath, undefined, { overrides: { enableContainers: false } });
  if (!main) throw new Error(`${config} names no main module`);
  const { modulesRoot, modules } = buildModules(path.resolve(path.dirname(configPath), main));
  const crons = workerOptions.cronTriggers ?? [];
  return {
    crons,
    options: {
      host: ip,
      port,
      // The runtime's default Request.cf, never one fetched from the network (offline machines).
      cf: false,
      ...(inspectorPort === undefined ? {} : { inspectorPort }),
      log: new Log(LogLevel[LOG_LEVELS[logLevel]]),
      logRequests: logLevel === "debug",
      resourcePersistencePath: path.join(path.resolve(ROOT, persistTo), "v3"),
      workers: [
        {
          ...workerOptions,
          name: workerOptions.name ?? "pinloom",
          modulesRoot,
          modules,
          bindings: { ...workerOptions.bindings, ...vars },
        },
      ],
    },
  };
}

async function main() {
  const settings = parseServeArgs(process.argv.slice(2));
  const { options, crons } = miniflareOptions(settings);
  const mf = new Miniflare(convertV4MiniflareOptions(options));
  const url = await mf.ready;
  const worker = await mf.getWorker();
  // workerd has no clock for crons: they are fired from here, one run at a time per pattern.
  const jobs = crons.map((pattern) =>
    new Cron(pattern, { protect: true, utcOffset: 0 }, async () => {
      try {
        await worker.scheduled({ cron: pattern, scheduledTime: new Date() });
      } catch (error) {
        console.error(`[serve] cron ${pattern} failed: ${error instanceof Error ? error.message : error}`);
      }
    }),
  );
  console.log(`[serve] ${settings.config} on ${url.origin} (state ${settings.persistTo}; crons ${crons.join(", ") || "none"})`);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    for (const job of jobs) job.stop();
    await mf.dispose();
    process.exit(0);
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, stop);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(`[serve] ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  });
}
