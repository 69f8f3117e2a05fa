// Playwright drives the system Chromium (Playwright's own browser downloads cannot be
// fetched on these machines). `ensureChromium()` returns its path, installing Debian's
// `chromium` package when running as root on a machine that has apt-get.
//
//   node scripts/ensure-chromium.mjs      # prints the path, installs if needed
//   CHROMIUM_PATH=/opt/chrome/chrome ...  # use another Chromium/Chrome binary
import { spawn, spawnSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const DEFAULT_CHROMIUM = "/usr/bin/chromium";

function isExecutable(p) {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Flags every launch here needs: running as root needs --no-sandbox, and this machine's
 * closed network makes Chromium's background connections fail by the dozen without the
 * networking, component-update, sync and QUIC switches.
 */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

/** The Chromium binary to use, without installing anything (may not exist). */
export function chromiumPath() {
  return process.env["CHROMIUM_PATH"] || DEFAULT_CHROMIUM;
}

function hasAptGet() {
  return spawnSync("sh", ["-c", "command -v apt-get"], { stdio: "ignore" }).status === 0;
}

function runStreaming(cmd, args, extraEnv = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      stdio: ["ignore", "inherit", "inherit"],
      env: { ...process.env, ...extraEnv },
    });
    child.on("error", (err) => reject(new Error(`${cmd} could not be started: ${err.message}`)));
    child.on("close", (code, signal) =>
      code === 0
        ? resolve()
        : reject(new Error(`\`${cmd} ${args.join(" ")}\` ${signal ? `was killed by ${signal}` : `exited with code ${code}`}`)),
    );
  });
}

const HOW_TO = [
  "Install Chromium, then re-run:",
  "  Debian/Ubuntu:  sudo apt-get update && sudo apt-get install -y chromium",
  "  (on Ubuntu the package may be chromium-browser)",
  "or point CHROMIUM_PATH at an existing Chromium/Chrome binary, e.g.",
  "  CHROMIUM_PATH=/path/to/chrome npm run test:e2e",
].join("\n");

/** Path of a usable Chromium; installs Debian's package as root if it is missing. */
export async function ensureChromium() {
  const override = process.env["CHROMIUM_PATH"];
  if (override) {
    if (isExecutable(override)) return override;
    throw new Error(`CHROMIUM_PATH=${override} is not an executable file.\n${HOW_TO}`);
  }
  if (isExecutable(DEFAULT_CHROMIUM)) return DEFAULT_CHROMIUM;

  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (!isRoot || !hasAptGet()) {
    throw new Error(
      `Chromium was not found at ${DEFAULT_CHROMIUM}` +
        (isRoot ? " and apt-get is not available" : " and this process is not root, so it cannot install it") +
        `.\n${HOW_TO}`,
    );
  }
  console.log(`[ensure-chromium] ${DEFAULT_CHROMIUM} missing: installing Debian's chromium package…`);
  const aptEnv = { DEBIAN_FRONTEND: "noninteractive" };
  await runStreaming("apt-get", ["update"], aptEnv);
  await runStreaming("apt-get", ["install", "-y", "chromium"], aptEnv);
  if (!isExecutable(DEFAULT_CHROMIUM)) {
    throw new Error(`apt-get installed chromium but ${DEFAULT_CHROMIUM} is still missing.\n${HOW_TO}`);
  }
  return DEFAULT_CHROMIUM;
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  ensureChromium().then(
    (p) => console.log(p),
    (err) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}
