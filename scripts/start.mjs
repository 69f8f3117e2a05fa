// `npm start`: build, migrate and seed the local database and media if empty, then serve
// the built Worker in the foreground on http://localhost:${PORT ?? 8787}.
//
//   node scripts/start.mjs [--no-build] [--no-seed]
//
// State lives in .wrangler/state (D1, R2, KV, Queues in workerd). `npm run preview` is the
// same without the build step.
import { DEFAULT_STATE, ensureBuilt, fmtDuration, migrate, seedIfEmpty, startWorker } from "./lib/server.mjs";

const flags = new Set(process.argv.slice(2));

function parsePort(raw) {
  if (raw === undefined || raw === "") return 8787;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`PORT must be an integer between 1 and 65535 (got "${raw}").`);
  }
  return port;
}

async function main() {
  const t0 = Date.now();
  const port = parsePort(process.env["PORT"]);

  if (flags.has("--no-build")) {
    if (await ensureBuilt()) console.log("[start] dist/ was missing: built the worker");
  } else {
    console.log("[start] building (astro build)…");
    await ensureBuilt({ force: true });
  }
  console.log(`[start] applying migrations to ${DEFAULT_STATE}…`);
  await migrate(DEFAULT_STATE);
  if (flags.has("--no-seed")) {
    console.log("[start] --no-seed: not seeding");
  } else {
    console.log(`[start] seeding ${DEFAULT_STATE} if empty…`);
    await seedIfEmpty(DEFAULT_STATE);
  }

  console.log(`[start] starting the worker on port ${port}…`);
  const server = await startWorker({ port, persistTo: DEFAULT_STATE, logLevel: "info", inherit: true });
  console.log(`\n  Pinloom is running at http://localhost:${port}  (ready in ${fmtDuration(Date.now() - t0)}; Ctrl-C to stop)\n`);

  let stopping = false;
  const shutdown = (sig) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n[start] ${sig}: stopping…`);
    server.stop().finally(() => process.exit(0));
  };
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGHUP", () => shutdown("SIGHUP"));

  const { code, signal } = await server.exited;
  if (!stopping) {
    console.error(`[start] the worker exited on its own (code ${code}, signal ${signal})`);
    await server.stop();
    process.exit(code || 1);
  }
}

main().catch((err) => {
  console.error(`[start] ${err instanceof Error ? err.message : err}`);
  process.exit(1);
});
