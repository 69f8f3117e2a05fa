// Shared helpers for the run / test / bench scripts: child processes, the built Worker
// under the production-like runner (scripts/serve.mjs), migrations and seeding of a local persisted state directory.
//
// Every child runs with cwd = repo root and `node_modules/.bin` first on PATH, so `node`,
// `wrangler`, `astro` and `playwright` are the project's own (node 24, wrangler 4) even
// when this file was started by an older system `node`.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
export const BIN = path.join(ROOT, "node_modules", ".bin");
/** wrangler config of the BUILT worker (written by `astro build`). */
export const WORKER_CONFIG = "dist/server/wrangler.json";
const WORKER_ENTRY = "dist/server/entry.mjs";
const SERVE_SCRIPT = "scripts/serve.mjs";
export const DEFAULT_STATE = ".wrangler/state";

/**
 * Environment for children: project binaries first on PATH, no wrangler telemetry, and no
 * attempt to download the `Request.cf` object (offline machines; the caller's env wins).
 */
export function childEnv(extra = {}) {
  const PATH = [BIN, process.env.PATH ?? ""].filter(Boolean).join(path.delimiter);
  return {
    WRANGLER_SEND_METRICS: "false",
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
    ...process.env,
    ...extra,
    PATH,
  };
}

/** Resolve a command to the project's own binary when it has one. */
function resolveCmd(cmd) {
  if (cmd.includes("/") || cmd.includes(path.sep)) return cmd;
  const local = path.join(BIN, cmd);
  return existsSync(local) ? local : cmd;
}

function describe(cmd, args) {
  return [cmd, ...args].map((a) => (/[\s"']/.test(a) ? JSON.stringify(a) : a)).join(" ");
}

/**
 * Run a command to completion. stdio is inherited unless `capture: true`, in which case
 * stdout/stderr are collected (and echoed when `echo: true`) and returned.
 * Rejects with a clear message on a non-zero exit or a signal.
 * @param {string} cmd
 * @param {string[]} [args]
 * @param {{ env?: Record<string,string>, cwd?: string, capture?: boolean, echo?: boolean, label?: string }} [opts]
 * @returns {Promise<{ code: number, stdout: string, stderr: string }>}
 */
export function run(cmd, args = [], opts = {}) {
  const { env = {}, cwd = ROOT, capture = false, echo = false, label } = opts;
  const shown = label ?? describe(cmd, args);
  return new Promise((resolve, reject) => {
    const child = spawn(resolveCmd(cmd), args, {
      cwd,
      env: childEnv(env),
      stdio: capture ? ["ignore", "pipe", "pipe"] : ["ignore", "inherit", "inherit"],
    });
    let stdout = "";
    let stderr = "";
    if (capture) {
      child.stdout.on("data", (d) => {
        stdout += d;
        if (echo) process.stdout.write(d);
      });
      child.stderr.on("data", (d) => {
        stderr += d;
        if (echo) process.stderr.write(d);
      });
    }
    child.on("error", (err) => reject(new Error(`\`${shown}\` could not be started: ${err.message}`)));
    child.on("close", (code, signal) => {
      if (code === 0) return resolve({ code, stdout, stderr });
      const why = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      const tail = capture ? `\n--- output (tail) ---\n${(stdout + stderr).slice(-4000)}` : "";
      const err = new Error(`\`${shown}\` ${why}${tail}`);
      err.exitCode = code ?? 1;
      reject(err);
    });
  });
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
function findFreePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** true if nothing listens on 127.0.0.1:port (so a health check cannot hit a stranger). */
function isPortFree(port) {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once("error", () => resolve(false));
    srv.listen(port, "127.0.0.1", () => srv.close(() => resolve(true)));
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Is any (non-zombie) process of process group `pgid` still alive? */
function groupAlive(pgid) {
  if (process.platform === "linux") {
    try {
      for (const name of readdirSync("/proc")) {
        if (!/^\d+$/.test(name)) continue;
        let stat;
        try {
          stat = readFileSync(`/proc/${name}/stat`, "utf8");
        } catch {
          continue; // exited while we looked
        }
        // "pid (comm) state ppid pgrp ..." — comm may contain spaces/parens.
        const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        if (Number(rest[2]) === pgid && rest[0] !== "Z" && rest[0] !== "X") return true;
      }
      return false;
    } catch {
      // fall through to kill(0)
    }
  }
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function signalGroup(pgid, signal) {
  try {
    process.kill(-pgid, signal);
  } catch {
    // already gone
  }
}

/**
 * Serve the BUILT worker with scripts/serve.mjs (workerd through Miniflare, without wrangler
 * dev's proxy) and wait for GET /healthz to answer 200.
 * @param {{
 *   port?: number,            // default: a free port
 *   persistTo?: string,       // state dir, relative to the repo root
 *   env?: Record<string,string>, // extra environment for the runner
 *   vars?: Record<string,string>, // worker vars, passed as --var KEY:VALUE
 *   logLevel?: string | null, // none, error, warn, info or debug (null: the runner's default)
 *   inherit?: boolean,        // also echo the runner's output to this process
 *   timeoutMs?: number,       // bound on the wait for /healthz
 *   config?: string,
 * }} [opts]
 * @returns {Promise<{ url: string, port: number, pid: number, exited: Promise<{code: number|null, signal: string|null}>, log: () => string, stop: () => Promise<void> }>}
 */
export async function startWorker(opts = {}) {
  const {
    persistTo = DEFAULT_STATE,
    env = {},
    vars = {},
    logLevel = "warn",
    inherit = false,
    timeoutMs = 60_000,
    config = WORKER_CONFIG,
  } = opts;
  if (!existsSync(path.resolve(ROOT, config))) {
    throw new Error(`${config} is missing: build first (npm run build).`);
  }
  const port = opts.port ?? (await findFreePort());
  if (!(await isPortFree(port))) {
    throw new Error(`port ${port} on 127.0.0.1 is already in use (set PORT to another port).`);
  }
  const args = [SERVE_SCRIPT, "--config", config, "--persist-to", persistTo, "--ip", "127.0.0.1", "--port", String(port)];
  if (logLevel) args.push("--log-level", logLevel);
  // Local servers are development: e.g. the e-mail outbox (the Worker log) shows whole links.
  for (const [k, v] of Object.entries({ ENVIRONMENT: "development", ...vars })) args.push("--var", `${k}:${v}`);

  const child = spawn(resolveCmd("node"), args, {
    cwd: ROOT,
    // own process group, so stop() can take down the runner and its workerd together
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: childEnv({ CI: "true", ...env }),
  });
  const pgid = child.pid;
  if (pgid === undefined) throw new Error("could not start the runner (scripts/serve.mjs)");

  let logBuf = "";
  const keep = (d, stream) => {
    logBuf = (logBuf + d).slice(-200_000);
    if (inherit) stream.write(d);
  };
  child.stdout.on("data", (d) => keep(d, process.stdout));
  child.stderr.on("data", (d) => keep(d, process.stderr));

  let exitInfo = null;
  const exited = new Promise((resolve) => {
    child.on("exit", (code, signal) => {
      exitInfo = { code, signal };
      resolve(exitInfo);
    });
    child.on("error", (err) => {
      logBuf += `\n[spawn error] ${err.message}`;
      exitInfo = { code: 1, signal: null };
      resolve(exitInfo);
    });
  });

  // Safety net: never leave a workerd behind if this process exits without stop().
  const onExit = () => signalGroup(pgid, "SIGKILL");
  process.on("exit", onExit);

  let stopping = null;
  const stop = () => {
    stopping ??= (async () => {
      signalGroup(pgid, "SIGTERM");
      const deadline = Date.now() + 5_000;
      while (groupAlive(pgid) && Date.now() < deadline) await sleep(100);
      if (groupAlive(pgid)) {
        signalGroup(pgid, "SIGKILL");
        const hard = Date.now() + 5_000;
        while (groupAlive(pgid) && Date.now() < hard) await sleep(100);
      }
      if (!exitInfo) await Promise.race([exited, sleep(2_000)]);
      process.off("exit", onExit);
    })();
    return stopping;
  };

  const url = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (;;) {
    if (exitInfo) {
      await stop();
      throw new Error(
        `the runner exited (code ${exitInfo.code}, signal ${exitInfo.signal}) before ${url}/healthz answered.\n--- runner log ---\n${logBuf}`,
      );
    }
    try {
      const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(3_000) });
      await res.arrayBuffer();
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > timeoutMs) {
      await stop();
      throw new Error(
        `the runner did not answer 200 on ${url}/healthz within ${Math.round(timeoutMs / 1000)} s.\n--- runner log ---\n${logBuf}`,
      );
    }
    await sleep(250);
  }
  return { url, port, pid: pgid, exited, log: () => logBuf, stop };
}

/** `astro build` unless the built worker exists (or `force`). */
export async function ensureBuilt({ force = false } = {}) {
  if (!force && existsSync(path.join(ROOT, WORKER_ENTRY)) && existsSync(path.join(ROOT, WORKER_CONFIG))) {
    return false;
  }
  await run("astro", ["build"]);
  return true;
}

/** Apply D1 migrations to the local state dir (non-interactive). */
export async function migrate(persistTo = DEFAULT_STATE) {
  await run(
    "wrangler",
    ["d1", "migrations", "apply", "DB", "--local", "--persist-to", persistTo, "--config", WORKER_CONFIG],
    { env: { CI: "true" } },
  );
}

/**
 * Empties the throttle windows (src/server/rate-limit.server.ts) of a local state. Test and
 * bench runs sign the demo accounts in again and again; without this, reruns within the
 * windows (15 minutes for logins, an hour for sign-ups) would meet the product's own limits.
 */
export async function clearThrottles(persistTo = DEFAULT_STATE) {
  await run(
    "wrangler",
    ["d1", "execute", "DB", "--local", "--persist-to", persistTo, "--config", WORKER_CONFIG, "--command", "DELETE FROM rate_limits"],
    { env: { CI: "true" }, capture: true },
  );
}

const SEED_SCRIPT = "scripts/seed.ts";

/**
 * Seed the local database and media if empty (`node scripts/seed.ts --if-empty --persist-to DIR`).
 * `{ ifStale: true }` also wipes and reseeds a state seeded by other seed code (the test and
 * bench states: their fixtures must match the code under test); `{ pins }` seeds a world of
 * that size (the search bench's 100,000 pins; default: the seed's 1,000). Fails clearly if the
 * seed script is missing.
 */
export async function seedIfEmpty(persistTo = DEFAULT_STATE, { ifStale = false, pins = null } = {}) {
  if (!existsSync(path.join(ROOT, SEED_SCRIPT))) {
    throw new Error(`${SEED_SCRIPT} not found: cannot seed ${persistTo} (pass --no-seed to skip seeding).`);
  }
  const size = pins === null ? [] : ["--pins", String(pins)];
  await run("node", [SEED_SCRIPT, ifStale ? "--if-stale" : "--if-empty", ...size, "--persist-to", persistTo], { env: { CI: "true" } });
}

/** The one D1 database file of a persisted state dir (miniflare's layout), or null. */
export function localD1File(persistTo) {
  const dir = path.join(path.resolve(ROOT, persistTo), "v3", "d1", "miniflare-D1DatabaseObject");
  if (!existsSync(dir)) return null;
  const files = readdirSync(dir).filter((name) => name.endsWith(".sqlite") && name !== "metadata.sqlite");
  return files.length === 1 ? path.join(dir, files[0]) : null;
}

/** Parse `--name value` / `--name=value` / `--flag` from argv. */
export function parseArgs(argv = process.argv.slice(2)) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith("--")) continue;
    const eq = a.indexOf("=");
    if (eq > 0) {
      out[a.slice(2, eq)] = a.slice(eq + 1);
    } else if (i + 1 < argv.length && !argv[i + 1].startsWith("--")) {
      out[a.slice(2)] = argv[++i];
    } else {
      out[a.slice(2)] = true;
    }
  }
  return out;
}

/** ms → "12.3 s" */
export function fmtDuration(ms) {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
