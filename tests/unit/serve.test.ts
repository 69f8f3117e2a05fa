// The production-like runner (scripts/serve.mjs) end to end: the BUILT Worker in one workerd
// process, no dev proxy in front, reading the state that wrangler's own commands write, with
// its queue consumer running. `npm start`, the browser tests and the bench all serve through
// it. Run `astro build` first (npm test does).
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, WORKER_CONFIG, localD1File, migrate, run, startWorker } from "../../scripts/lib/server.mjs";
import { workerdPids } from "../../scripts/lib/cpu.mjs";
import { miniflareOptions, parseServeArgs } from "../../scripts/serve.mjs";

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";
const TOKEN = "e".repeat(64);
/** A session of the smoke user, and a conversation it is in (the rooms' Durable Object test). */
const SESSION_TOKEN = "S".repeat(43);
const CONVERSATION = 777;

let worker: Awaited<ReturnType<typeof startWorker>>;
let stateDir: string;
let persistTo: string;

/** Runs one SQL statement against the state with wrangler's own command (before the runner holds it). */
async function sql(command: string): Promise<void> {
  await run("wrangler", ["d1", "execute", "DB", "--local", "--persist-to", persistTo, "--config", WORKER_CONFIG, "--command", command], { capture: true, env: { CI: "true" } });
}

beforeAll(async () => {
  stateDir = mkdtempSync(path.join(ROOT, ".wrangler", "serve-smoke-"));
  persistTo = path.relative(ROOT, stateDir);
  await migrate(persistTo);
  await sql(
    [
      "INSERT INTO users (id, username, email, full_name, created_at) VALUES (4242, 'smoke_runner', 'smoke@pinloom.test', 'Smoke Runner', 0)",
      `INSERT INTO sessions (id, user_id, created_at, expires_at, last_seen_at) VALUES ('${createHash("sha256").update(SESSION_TOKEN).digest("hex")}', 4242, 0, 4102444800000, 0)`,
      `INSERT INTO conversations (id, created_by, created_at, updated_at, last_message_id) VALUES (${CONVERSATION}, 4242, 0, 0, 9001)`,
      `INSERT INTO conversation_members (conversation_id, user_id, status, joined_at) VALUES (${CONVERSATION}, 4242, 'active', 0)`,
      `INSERT INTO conversation_messages (id, conversation_id, sender_id, text, created_at) VALUES (9001, ${CONVERSATION}, 4242, 'Served by the room', 0)`,
    ].join("; "),
  );
  worker = await startWorker({ persistTo });
}, 180_000);

afterAll(async () => {
  await worker?.stop();
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

describe("the runner", () => {
  it("serves the built Worker from one workerd process, with no proxy in front", async () => {
    const health = await fetch(`${worker.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.text()).toBe("ok");
    if (process.platform === "linux") expect(workerdPids(worker.pid)).toHaveLength(1);
  });

  it("reads the D1 state that wrangler's commands wrote", async () => {
    const profile = await fetch(`${worker.url}/smoke_runner/`, { headers: { "user-agent": BROWSER } });
    expect(profile.status).toBe(200);
    expect(profile.headers.get("content-type")).toContain("text/html");
    expect(await profile.text()).toContain("Smoke Runner");
  });

  it("serves the build's static assets", async () => {
    const favicon = await fetch(`${worker.url}/favicon.svg`);
    expect(favicon.status).toBe(200);
    expect(await favicon.text()).toBe(readFileSync(path.join(ROOT, "dist/client/favicon.svg"), "utf8"));
  });

  it("runs the queue consumer: accepted events are stored", async () => {
    const time = `${Date.now()}000000`;
    const response = await fetch(`${worker.url}/resource/ApiCResource/create/`, {
      method: "POST",
      headers: { "user-agent": BROWSER, origin: worker.url, cookie: `csrftoken=${TOKEN}`, "x-csrftoken": TOKEN, "content-type": "application/json" },
      body: JSON.stringify({ options: { events: [{ clientUUID: "smoke-runner-event-1", event_type: 13, view_type: 2, object_id_str: "9424242", time, appState: "active" }], report_time: time } }),
    });
    expect(response.status).toBe(200);
    // The consumer's batch closes after max_batch_timeout (5 s, wrangler.toml). Read beside the
    // running Worker from the database file itself, read-only, as the bench's soak counts.
    const file = localD1File(persistTo);
    expect(file).not.toBeNull();
    let stored: unknown[] = [];
    for (let attempt = 0; attempt < 20 && stored.length === 0; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const db = new DatabaseSync(file!, { readOnly: true });
      try {
        stored = db.prepare("SELECT event_type, object_id_str FROM events WHERE object_id_str = '9424242'").all().map((row) => ({ ...row }));
      } finally {
        db.close();
      }
    }
    expect(stored).toEqual([{ event_type: 13, object_id_str: "9424242" }]);
  }, 60_000);
});

describe("the runner's Durable Objects", () => {
  it("runs the conversations' room: a member's socket says hello and is caught up through it", async () => {
    type WebSocketWithHeaders = new (url: string, init: { headers: Record<string, string> }) => WebSocket;
    const socket = new (WebSocket as unknown as WebSocketWithHeaders)(`${worker.url.replace(/^http/, "ws")}/v3/conversations/${CONVERSATION}/socket/`, {
      headers: { cookie: `__Host-pinloom_sess=${SESSION_TOKEN}`, origin: worker.url, "user-agent": BROWSER },
    });
    try {
      const frame = await new Promise<unknown>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("no frame from the room")), 10_000);
        socket.addEventListener("open", () => socket.send(JSON.stringify({ type: "hello", after: null })));
        socket.addEventListener("error", () => reject(new Error("the socket failed")));
        socket.addEventListener("message", (event) => {
          clearTimeout(timer);
          resolve(JSON.parse(String(event.data)));
        });
      });
      expect(frame).toMatchObject({ type: "messages", conversation_id: String(CONVERSATION), complete: true, messages: [{ id: "9001", text: "Served by the room" }] });
    } finally {
      socket.close();
    }
  }, 30_000);
});

describe("the runner's options", () => {
  it("take the config's crons and keep state where wrangler dev --persist-to does", () => {
    const { crons, options } = miniflareOptions(parseServeArgs(["--persist-to", ".wrangler/some-state", "--port", "0"]));
    expect(crons).toEqual(["* * * * *", "*/30 * * * *"]);
    expect(options.resourcePersistencePath).toBe(path.join(ROOT, ".wrangler/some-state/v3"));
  });

  it("refuse what they cannot read, naming the option", () => {
    expect(() => parseServeArgs(["--port", "99999"])).toThrow('--port must be an integer between 0 and 65535 (got "99999")');
    expect(() => parseServeArgs(["--var", "NOCOLON"])).toThrow('--var takes KEY:VALUE (got "NOCOLON")');
    expect(() => parseServeArgs(["--colour", "blue"])).toThrow("unknown option --colour");
  });

  it("rely on one wrangler version, pinned exactly", () => {
    const manifest = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { devDependencies: Record<string, string> };
    const installed = JSON.parse(readFileSync(path.join(ROOT, "node_modules/wrangler/package.json"), "utf8")) as { version: string };
    expect(manifest.devDependencies["wrangler"]).toMatch(/^\d+\.\d+\.\d+$/);
    expect(installed.version).toBe(manifest.devDependencies["wrangler"]);
  });
});
