// `npm run test:e2e`: browser tests against the BUILT worker.
//
//   node scripts/e2e.mjs [--build] [--no-seed] [-- <extra playwright args>]
//
// Uses its own persisted state (.wrangler/e2e-state), migrated and seeded if empty, so a
// test run never touches the `npm start` database. Extra arguments after `--` go to
// `playwright test` (e.g. `-- --project=ar tests/e2e/smoke.spec.ts`).
import { spawn } from "node:child_process";
import path from "node:path";
import { ensureChromium } from "./ensure-chromium.mjs";
import { BIN, ROOT, childEnv, clearThrottles, ensureBuilt, fmtDuration, migrate, seedIfEmpty, startWorker } from "./lib/server.mjs";

const E2E_STATE = ".wrangler/e2e-state";

const argv = process.argv.slice(2);
const dashdash = argv.indexOf("--");
const own = dashdash === -1 ? argv : argv.slice(0, dashdash);
const passThrough = dashdash === -1 ? [] : argv.slice(dashdash + 1);
const flags = new Set(own);

function playwright(baseURL, chromium) {
  return new Promise((resolve) => {
    const child = spawn(path.join(BIN, "playwright"), ["test", ...passThrough], {
      cwd: ROOT,
      stdio: ["ignore", "inherit", "inherit"],
      env: childEnv({ E2E_BASE_URL: baseURL, CHROMIUM_PATH: chromium }),
    });
    child.on("error", (err) => {
      console.error(`[e2e] could not start playwright: ${err.message}`);
      resolve(1);
    });
    child.on("close", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function main() {
  const t0 = Date.now();
  const chromium = await ensureChromium();
  console.log(`[e2e] chromium: ${chromium}`);
  if (await ensureBuilt({ force: flags.has("--build") })) console.log("[e2e] built the worker");
  await migrate(E2E_STATE);
  if (flags.has("--no-seed")) console.log("[e2e] --no-seed: not seeding");
  else await seedIfEmpty(E2E_STATE, { ifStale: true });
  await clearThrottles(E2E_STATE);

  // Journeys that book campaigns leave them running; journeys that compare a feed's cells or
  // its look turn placement off for their own requests (tests/e2e/organic.ts).
  const server = await startWorker({ persistTo: E2E_STATE, vars: { PROMOTED_PLACEMENT: "per-request" } });
  console.log(`[e2e] worker ready on ${server.url} (${fmtDuration(Date.now() - t0)} of setup)`);
  const stopAndExit = (sig) => {
    console.error(`[e2e] ${sig}: stopping the worker`);
    server.stop().finally(() => process.exit(130));
  };
  process.once("SIGINT", stopAndExit);
  process.once("SIGTERM", stopAndExit);
  let code;
  try {
    code = await playwright(server.url, chromium);
  } finally {
    await server.stop();
  }
  console.log(`[e2e] playwright exited with ${code} (${fmtDuration(Date.now() - t0)} in all)`);
  return code;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`[e2e] ${err instanceof Error ? err.message : err}`);
    process.exit(1);
  },
);
