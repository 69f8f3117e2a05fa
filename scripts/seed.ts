// Seeds the local D1 database and R2 bucket with the deterministic demo world.
//
//   node scripts/seed.ts [--reset] [--if-empty] [--pins N] [--persist-to DIR] [--seed N]
//
//   --reset        delete every row of every table and every object of the bucket, then seed
//   --if-empty     when `users` already has rows: print "Database already seeded", exit 0
//                  (checked before --reset, so the pair never wipes a seeded database); says
//                  so when the world's code changed since (the stamp below differs)
//   --if-stale     seed when empty, and wipe and reseed when the state was seeded by other
//                  seed code or options (for the test and bench states, never `npm start`'s)
//   --pins N       pins in the world (default 1000; > 2000 uses the pooled bench images)
//   --persist-to   wrangler state dir, as for `wrangler dev --persist-to` (default .wrangler/state)
//   --seed N       Faker seed (default 20261122; the documented ids assume the default)
//
// Runs on Node 24 (`./node_modules/.bin/node scripts/seed.ts`). Migrations are applied first
// with `wrangler d1 migrations apply DB --local --persist-to DIR` (CI=true, never prompts);
// the bindings come from wrangler's getPlatformProxy on the same state dir, so `wrangler dev`
// and `wrangler d1 execute DB --local --persist-to DIR` see exactly these rows and objects.
//
// Rows go in as multi-row INSERTs with inlined SQL literals. Normally they are written straight
// into the local D1 database file (node:sqlite, one transaction, after the platform proxy is
// closed): the same SQL text D1 would run, without the proxy's per-batch round trips, which
// made a 100,000-pin world (2.3 million rows) cost minutes. When the state dir does not hold
// exactly one D1 database file, they go through db.batch() on the proxy instead (each
// prepare()/bind() there is a synchronous round trip, ~2.5 ms, hence the multi-row statements).
// Either way the counts are verified, and after a direct write they are checked again through
// a fresh proxy: what `wrangler dev` will see.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { DatabaseSync } from "node:sqlite";
import cliProgress from "cli-progress";
import { getPlatformProxy } from "wrangler";
import { hashPassword } from "../src/accounts/password.ts";
import { localD1File } from "./lib/server.mjs";
import { PHOTO_DIR, renderClip, renderImageJob, type RenderedObject } from "./seed/media.ts";
import { ARTICLE_TABLE_INSERT_ORDER, buildArticles, type ArticleTables } from "./seed/articles.ts";
import { buildInvites, type InviteTables } from "./seed/invites.ts";
import { MERCHANT_TABLE_INSERT_ORDER, buildMerchants, merchantLogins, type MerchantTables } from "./seed/merchants.ts";
import { emailMatchRows } from "./seed/email-match.ts";
import { SOCIAL_TABLE_INSERT_ORDER, buildSocial, type SocialTables } from "./seed/social.ts";
import { DEFAULT_PINS, DEFAULT_SEED, DEMO_PASSWORD, MIN_PINS, TABLE_INSERT_ORDER, buildWorld, type ImageJob, type SqlValue, type TableName, type World } from "./seed/world.ts";

process.env["WRANGLER_SEND_METRICS"] ??= "false";
process.env["CLOUDFLARE_CF_FETCH_ENABLED"] ??= "false";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CONFIG_PATH = path.join(ROOT, "wrangler.toml");
const DEFAULT_PERSIST = ".wrangler/state";
const PUT_CONCURRENCY = 8;
const RENDER_CONCURRENCY = Math.max(2, Math.min(4, availableParallelism() * 2));
const MAX_STATEMENT_CHARS = 90_000;
const MAX_ROWS_PER_STATEMENT = 500;
const MAX_STATEMENTS_PER_BATCH = 40;
/**
 * Rendered pictures, by a hash of the renderer's source and the job's spec and sizes: a reseed
 * (a stale bench or test state) stores the same JPEGs again without rendering them again
 * (rendering is most of a 100,000-pin world's media time). Delete the folder to drop it.
 */
const RENDER_CACHE_DIR = path.join(ROOT, ".wrangler", "seed-render-cache");

/** Children first: the order tables are emptied by --reset (unknown tables follow). */
const RESET_ORDER = [
  "did_it_marks",
  "did_its",
  "blocks",
  "pin_interests",
  "interests",
  "today_article_pins",
  "today_articles",
  "comments",
  "pin_reaction_counts",
  "reactions",
  "follows",
  "board_pins",
  "pin_video_formats",
  "pin_images",
  "pin_tags",
  "pins",
  "board_collaborators",
  "board_sections",
  "boards",
  "link_domains",
  "sessions",
  "users",
];

type Env = { DB: D1Database; MEDIA: R2Bucket };

class SeedError extends Error {}

// ---------------------------------------------------------------------------------------
// Arguments
// ---------------------------------------------------------------------------------------

type Args = { reset: boolean; ifEmpty: boolean; ifStale: boolean; pins: number; persistTo: string; seed: number };

const USAGE = "usage: node scripts/seed.ts [--reset] [--if-empty | --if-stale] [--pins N] [--persist-to DIR] [--seed N]";

function readArgs(argv: string[]): Args {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        reset: { type: "boolean", default: false },
        "if-empty": { type: "boolean", default: false },
        "if-stale": { type: "boolean", default: false },
        pins: { type: "string" },
        "persist-to": { type: "string" },
        seed: { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (error) {
    throw new SeedError(`${(error as Error).message}\n${USAGE}`);
  }
  const values = parsed.values;
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const integer = (text: string | undefined, fallback: number, name: string, min: number): number => {
    if (text === undefined) return fallback;
    if (!/^\d+$/.test(text) || Number(text) < min) throw new SeedError(`--${name} must be an integer >= ${min} (got "${text}")\n${USAGE}`);
    return Number(text);
  };
  if (values["if-empty"] && values["if-stale"]) throw new SeedError(`--if-empty and --if-stale exclude each other\n${USAGE}`);
  return {
    reset: values.reset === true,
    ifEmpty: values["if-empty"] === true,
    ifStale: values["if-stale"] === true,
    pins: integer(values.pins, DEFAULT_PINS, "pins", MIN_PINS),
    persistTo: path.resolve(process.cwd(), values["persist-to"] ?? path.join(ROOT, DEFAULT_PERSIST)),
    seed: integer(values.seed, DEFAULT_SEED, "seed", 0),
  };
}

// ---------------------------------------------------------------------------------------
// Output: a cli-progress bar per phase on a terminal, one plain line per phase otherwise
// ---------------------------------------------------------------------------------------

const tty = process.stdout.isTTY === true;

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function log(line: string): void {
  console.log(`[seed] ${line}`);
}

class Phase {
  readonly label: string;
  readonly total: number;
  readonly started: number;
  value: number;
  bar: cliProgress.SingleBar | null;

  constructor(label: string, total: number) {
    this.label = label;
    this.total = total;
    this.value = 0;
    this.started = performance.now();
    this.bar = null;
    if (tty && total > 0) {
      this.bar = new cliProgress.SingleBar(
        {
          format: `[seed] ${label.padEnd(10)} [{bar}] {percentage}% | {value}/{total} | {duration_formatted}`,
          stream: process.stdout,
          hideCursor: true,
          clearOnComplete: true,
          barsize: 30,
        },
        cliProgress.Presets.shades_classic,
      );
      this.bar.start(total, 0);
    }
  }

  tick(amount = 1): void {
    this.value += amount;
    this.bar?.update(this.value);
  }

  done(summary: string): void {
    if (this.bar) {
      this.bar.update(this.total);
      this.bar.stop();
    }
    log(`${this.label}: ${summary} (${seconds(performance.now() - this.started)})`);
  }
}

// ---------------------------------------------------------------------------------------
// Migrations (a wrangler child process on the same config and state dir)
// ---------------------------------------------------------------------------------------

function wranglerBin(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve("wrangler/package.json")), "bin", "wrangler.js");
}

async function applyMigrations(persistTo: string): Promise<void> {
  const phase = new Phase("migrations", 0);
  const args = [wranglerBin(), "d1", "migrations", "apply", "DB", "--local", "--persist-to", persistTo, "--config", CONFIG_PATH];
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let text = "";
    child.stdout.on("data", (chunk: Buffer) => (text += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (text += chunk.toString()));
    child.on("error", (error) => reject(new SeedError(`could not start wrangler: ${error.message}`)));
    child.on("close", (code, signal) => {
      if (code === 0) resolve(text);
      else reject(new SeedError(`\`wrangler d1 migrations apply DB --local --persist-to ${persistTo}\` failed (${signal ?? `exit ${code}`}):\n${text.slice(-4000)}`));
    });
  });
  const applied = [...new Set([...output.matchAll(/(\d{4}_[\w-]+\.sql)\s*│\s*✅/g)].map((match) => match[1]))];
  phase.done(applied.length > 0 ? `applied ${applied.join(", ")}` : "up to date");
}

// ---------------------------------------------------------------------------------------
// Helpers: concurrency, SQL literals
// ---------------------------------------------------------------------------------------

class Limiter {
  readonly limit: number;
  active: number;
  readonly queue: Array<() => void>;

  constructor(limit: number) {
    this.limit = limit;
    this.active = 0;
    this.queue = [];
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.queue.push(resolve));
    this.active++;
    try {
      return await task();
    } finally {
      this.active--;
      this.queue.shift()?.();
    }
  }
}

async function forEachLimited<T>(items: readonly T[], concurrency: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++] as T;
      await task(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

function literal(value: SqlValue): string {
  if (value === null) return "NULL";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new SeedError(`cannot store ${value} in SQL`);
    return String(value);
  }
  return `'${value.replace(/'/g, "''")}'`;
}

function insertStatements(table: string, rows: ReadonlyArray<Record<string, SqlValue>>): Array<{ sql: string; rows: number }> {
  const first = rows[0];
  if (!first) return [];
  const columns = Object.keys(first);
  const head = `INSERT INTO ${table} (${columns.join(", ")}) VALUES `;
  const statements: Array<{ sql: string; rows: number }> = [];
  let values: string[] = [];
  let size = head.length;
  for (const row of rows) {
    const tuple = `(${columns.map((column) => literal(row[column] ?? null)).join(", ")})`;
    if (values.length > 0 && (size + tuple.length + 1 > MAX_STATEMENT_CHARS || values.length >= MAX_ROWS_PER_STATEMENT)) {
      statements.push({ sql: head + values.join(","), rows: values.length });
      values = [];
      size = head.length;
    }
    values.push(tuple);
    size += tuple.length + 1;
  }
  if (values.length > 0) statements.push({ sql: head + values.join(","), rows: values.length });
  return statements;
}

// ---------------------------------------------------------------------------------------
// Row writers: the local D1 file directly, or the platform proxy
// ---------------------------------------------------------------------------------------

/** Where rows go: `run` executes INSERT statements in order, `counts` reads row counts. */
type RowWriter = {
  readonly kind: "file" | "proxy";
  run(statements: readonly string[]): Promise<void>;
  /** Row by row through one prepared statement (file only: no SQL text to build or parse). */
  insert?(table: string, rows: ReadonlyArray<Record<string, SqlValue>>, tick: (rows: number) => void): void;
  counts(tables: readonly string[]): Promise<number[]>;
  /** Commits (file) and releases the writer. */
  finish(): void;
};

/**
 * node:sqlite binds every JS number as a REAL; integers go in as BigInt so each value is stored
 * exactly as the SQL literal the proxy path writes would store it (INTEGER, and "5" not "5.0"
 * in a TEXT column).
 */
function bindable(value: SqlValue): SqlValue | bigint {
  return typeof value === "number" && Number.isInteger(value) ? BigInt(value) : value;
}

function proxyWriter(db: D1Database): RowWriter {
  return {
    kind: "proxy",
    async run(statements) {
      if (statements.length > 0) await db.batch(statements.map((sql) => db.prepare(sql)));
    },
    async counts(tables) {
      const results = await db.batch(tables.map((table) => db.prepare(`SELECT count(*) AS n FROM ${table}`)));
      return results.map((result) => Number((result.results[0] as { n?: number } | undefined)?.n ?? -1));
    },
    finish() {},
  };
}

/**
 * Writes into the D1 file with node:sqlite, everything in ONE transaction (a failure leaves the
 * database as it was). Only while no workerd has the file open: the caller closes the proxy first.
 */
function fileWriter(file: string): RowWriter {
  const db = new DatabaseSync(file);
  db.exec("PRAGMA foreign_keys = ON");
  db.exec("BEGIN IMMEDIATE");
  let open = true;
  return {
    kind: "file",
    async run(statements) {
      for (const sql of statements) db.exec(sql);
    },
    insert(table, rows, tick) {
      const first = rows[0];
      if (!first) return;
      const columns = Object.keys(first);
      const statement = db.prepare(`INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`);
      let pending = 0;
      for (const row of rows) {
        statement.run(...columns.map((column) => bindable(row[column] ?? null)));
        if (++pending === 10_000) {
          tick(pending);
          pending = 0;
        }
      }
      tick(pending);
    },
    async counts(tables) {
      return tables.map((table) => Number((db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n?: number } | undefined)?.n ?? -1));
    },
    finish() {
      if (!open) return;
      open = false;
      db.exec("COMMIT");
      db.close();
    },
  };
}

// ---------------------------------------------------------------------------------------
// Phases
// ---------------------------------------------------------------------------------------

async function userCount(db: D1Database): Promise<number> {
  const row = await db.prepare("SELECT count(*) AS n FROM users").first<{ n: number }>();
  return row?.n ?? 0;
}

async function resetDatabase(db: D1Database): Promise<number> {
  const phase = new Phase("reset db", 0);
  const { results } = await db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table'").all<{ name: string; sql: string | null }>();
  const virtual = results.filter((table) => /^\s*CREATE\s+VIRTUAL\s+TABLE/i.test(table.sql ?? "")).map((table) => table.name);
  const isShadow = (name: string): boolean => virtual.some((parent) => name.startsWith(`${parent}_`));
  const candidates = results
    .map((table) => table.name)
    .filter((name) => !name.startsWith("sqlite_") && !name.startsWith("_cf_") && name !== "d1_migrations" && !isShadow(name))
    // Virtual tables fed by triggers from their content table empty themselves; others are cleared.
    .filter((name) => !virtual.includes(name) || !/content\s*=/i.test(results.find((table) => table.name === name)?.sql ?? ""));
  const known = RESET_ORDER.filter((name) => candidates.includes(name));
  const unknown = candidates.filter((name) => !RESET_ORDER.includes(name)).sort();
  const order = [...unknown, ...known];
  const counts = await db.batch(order.map((name) => db.prepare(`SELECT count(*) AS n FROM "${name}"`)));
  const rows = counts.reduce((sum, result) => sum + Number((result.results[0] as { n?: number } | undefined)?.n ?? 0), 0);
  await db.batch([db.prepare("PRAGMA defer_foreign_keys = on"), ...order.map((name) => db.prepare(`DELETE FROM "${name}"`))]);
  phase.done(`deleted ${rows} rows from ${order.length} tables`);
  return rows;
}

async function resetBucket(bucket: R2Bucket): Promise<number> {
  const phase = new Phase("reset r2", 0);
  const pages: string[][] = [];
  let cursor: string | undefined;
  do {
    const page: R2Objects = await bucket.list(cursor === undefined ? { limit: 1000 } : { limit: 1000, cursor });
    if (page.objects.length > 0) pages.push(page.objects.map((object) => object.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor !== undefined);
  await forEachLimited(pages, 4, async (keys) => {
    await bucket.delete(keys);
  });
  // Anything written meanwhile (or missed by the listing) goes in a final sweep.
  for (let page = await bucket.list({ limit: 1000 }); page.objects.length > 0; page = await bucket.list({ limit: 1000 })) {
    pages.push(page.objects.map((object) => object.key));
    await bucket.delete(page.objects.map((object) => object.key));
  }
  const deleted = pages.reduce((sum, keys) => sum + keys.length, 0);
  phase.done(`deleted ${deleted} objects`);
  return deleted;
}

async function hashDemoPasswords(world: World): Promise<void> {
  const phase = new Phase("passwords", world.credentials.length);
  const byId = new Map(world.tables.users.map((user) => [user.id, user]));
  await Promise.all(
    world.credentials.map(async (credential) => {
      // Deterministic 16-byte salt derived from the user id (demo accounts only).
      const salt = new Uint8Array(createHash("sha256").update(`pinloom-demo-salt:${credential.userId}`).digest().subarray(0, 16));
      const user = byId.get(credential.userId);
      if (!user) throw new SeedError(`credential for unknown user ${credential.userId}`);
      user.password_hash = await hashPassword(credential.password, salt);
      phase.tick();
    }),
  );
  phase.done(`hashed ${world.credentials.length} demo passwords`);
}

async function uploadMedia(world: World, bucket: R2Bucket): Promise<{ objects: number; bytes: number }> {
  const puts = new Limiter(PUT_CONCURRENCY);
  let objects = 0;
  let bytes = 0;
  const put = (key: string, body: Uint8Array, contentType: string): Promise<void> =>
    puts.run(async () => {
      await bucket.put(key, body, { httpMetadata: { contentType } });
      objects++;
      bytes += body.byteLength;
    });

  // Video clips: a few distinct clips, every video pin gets its own keys.
  const { clips, videos, texts, images } = world.media;
  const clipPhase = new Phase("videos", clips.length + videos.length * 2 + texts.length);
  const rendered = new Map<number, { mp4: Uint8Array; webm: Uint8Array }>();
  const usedClips = clips.filter((clip) => videos.some((video) => video.clip === clip.index));
  await forEachLimited(usedClips, 2, async (clip) => {
    rendered.set(clip.index, await renderClip(clip));
    clipPhase.tick();
  });
  clipPhase.tick(clips.length - usedClips.length);
  await Promise.all([
    ...videos.flatMap((video) => {
      const clip = rendered.get(video.clip);
      if (!clip) throw new SeedError(`clip ${video.clip} was not rendered`);
      return [
        put(video.mp4Key, clip.mp4, "video/mp4").then(() => clipPhase.tick()),
        put(video.webmKey, clip.webm, "video/webm").then(() => clipPhase.tick()),
      ];
    }),
    ...texts.map((text) => put(text.key, new TextEncoder().encode(text.body), text.contentType).then(() => clipPhase.tick())),
  ]);
  clipPhase.done(`${usedClips.length} clips encoded (mp4 + webm), ${videos.length * 2} videos and ${texts.length} caption files stored`);

  // Pictures: rendered with bounded concurrency; each job waits for its own puts.
  const outputs = images.reduce((sum, job) => sum + job.outputs.length, 0);
  const imagePhase = new Phase("images", outputs);
  const shared = new Map<string, Promise<RenderedObject[]>>();
  // The photos' bytes too: a replaced photo under the same name must not come back from the cache.
  const rendererHash = createHash("sha256").update(readFileSync(path.join(ROOT, "scripts", "seed", "media.ts")));
  for (const file of photoFiles()) rendererHash.update(path.basename(file)).update("\0").update(readFileSync(file)).update("\0");
  const rendererDigest = rendererHash.digest("hex");
  const render = (job: ImageJob): Promise<RenderedObject[]> => {
    if (!job.shareKey) return cachedRender(job, rendererDigest);
    let pending = shared.get(job.shareKey);
    if (!pending) {
      pending = cachedRender(job, rendererDigest);
      shared.set(job.shareKey, pending);
    }
    return pending.then((objects) => job.outputs.map((output, index) => ({ ...(objects[index] as RenderedObject), key: output.key })));
  };
  await forEachLimited(images, RENDER_CONCURRENCY, async (job) => {
    const objectsOfJob = await render(job);
    await Promise.all(objectsOfJob.map((object) => put(object.key, object.body, object.contentType).then(() => imagePhase.tick())));
  });
  imagePhase.done(`${images.length} pictures rendered, ${outputs} JPEGs stored`);
  return { objects, bytes };
}

/** The committed photographs the world shows (scripts/seed/photos/*.jpg), in a stable order. */
function photoFiles(): string[] {
  return readdirSync(PHOTO_DIR).filter((name) => name.endsWith(".jpg")).sort().map((name) => path.join(PHOTO_DIR, name));
}

/** renderImageJob through RENDER_CACHE_DIR (keys are the job's; bytes are by spec and size). */
async function cachedRender(job: ImageJob, rendererHash: string): Promise<RenderedObject[]> {
  const id = createHash("sha256")
    .update(rendererHash)
    .update(JSON.stringify(job.spec))
    .update(JSON.stringify(job.outputs.map((output) => [output.width, output.height])))
    .digest("hex");
  const dir = path.join(RENDER_CACHE_DIR, id.slice(0, 2), id);
  const files = job.outputs.map((_, index) => path.join(dir, `${index}.jpg`));
  if (files.every((file) => existsSync(file))) {
    return job.outputs.map((output, index) => ({ key: output.key, body: readFileSync(files[index] as string), contentType: "image/jpeg" }));
  }
  const rendered = await renderImageJob(job);
  try {
    // Written beside, then renamed: a killed seed never leaves a half-written entry.
    const temp = `${dir}.tmp-${process.pid}`;
    mkdirSync(temp, { recursive: true });
    rendered.forEach((object, index) => writeFileSync(path.join(temp, `${index}.jpg`), object.body));
    rmSync(dir, { recursive: true, force: true });
    renameSync(temp, dir);
  } catch {
    // A cache that cannot be written only costs the next seed a render.
  }
  return rendered;
}

async function insertRows(world: World, writer: RowWriter): Promise<number> {
  const total = TABLE_INSERT_ORDER.reduce((sum, table) => sum + world.tables[table].length, 0);
  const phase = new Phase("rows", total);
  let batches = 0;
  let statementsRun = 0;
  for (const table of TABLE_INSERT_ORDER) {
    const rows = world.tables[table] as unknown as ReadonlyArray<Record<string, SqlValue>>;
    if (writer.insert) {
      try {
        writer.insert(table, rows, (count) => phase.tick(count));
      } catch (error) {
        throw new SeedError(`inserting into ${table} failed: ${(error as Error).message}`);
      }
      statementsRun += rows.length;
      continue;
    }
    const statements = insertStatements(table, rows);
    let batch: Array<{ sql: string; rows: number }> = [];
    let batchChars = 0;
    const flush = async (): Promise<void> => {
      if (batch.length === 0) return;
      try {
        await writer.run(batch.map((statement) => statement.sql));
      } catch (error) {
        throw new SeedError(`inserting into ${table} failed: ${(error as Error).message}`);
      }
      batches++;
      statementsRun += batch.length;
      phase.tick(batch.reduce((sum, statement) => sum + statement.rows, 0));
      batch = [];
      batchChars = 0;
    };
    for (const statement of statements) {
      if (batch.length >= MAX_STATEMENTS_PER_BATCH || batchChars + statement.sql.length > 2_000_000) await flush();
      batch.push(statement);
      batchChars += statement.sql.length;
    }
    await flush();
  }
  phase.done(
    writer.insert
      ? `${total} rows in ${TABLE_INSERT_ORDER.length} tables (prepared inserts straight into the D1 file, one transaction)`
      : `${total} rows in ${TABLE_INSERT_ORDER.length} tables (${statementsRun} statements, ${batches} batches through the proxy)`,
  );
  return total;
}

/** Editorial articles (scripts/seed/articles.ts), after every world table: they reference pins and users. */
async function insertArticles(tables: ArticleTables, writer: RowWriter): Promise<number> {
  const total = ARTICLE_TABLE_INSERT_ORDER.reduce((sum, table) => sum + tables[table].length, 0);
  const phase = new Phase("articles", total);
  for (const table of ARTICLE_TABLE_INSERT_ORDER) {
    const statements = insertStatements(table, tables[table] as unknown as ReadonlyArray<Record<string, SqlValue>>);
    if (statements.length === 0) continue;
    try {
      await writer.run(statements.map((statement) => statement.sql));
    } catch (error) {
      throw new SeedError(`inserting into ${table} failed: ${(error as Error).message}`);
    }
    phase.tick(statements.reduce((sum, statement) => sum + statement.rows, 0));
  }
  const counts = await writer.counts(ARTICLE_TABLE_INSERT_ORDER);
  ARTICLE_TABLE_INSERT_ORDER.forEach((table, index) => {
    const actual = counts[index] ?? -1;
    if (actual !== tables[table].length) throw new SeedError(`${table}: ${actual} rows in D1, ${tables[table].length} expected`);
  });
  phase.done(`${tables.today_articles.length} articles, ${tables.today_article_pins.length} article pins`);
  return total;
}

/** Demo invites (scripts/seed/invites.ts), after the world: they reference users, pins and boards. */
async function insertInvites(tables: InviteTables, writer: RowWriter): Promise<number> {
  const phase = new Phase("invites", tables.invites.length);
  const statements = insertStatements("invites", tables.invites);
  try {
    await writer.run(statements.map((statement) => statement.sql));
  } catch (error) {
    throw new SeedError(`inserting into invites failed: ${(error as Error).message}`);
  }
  phase.done(`${tables.invites.length} invites`);
  return tables.invites.length;
}

/** Demo topics (scripts/seed/social.ts), after the world: pin_interests references its pins. */
async function insertSocial(tables: SocialTables, writer: RowWriter): Promise<number> {
  const total = SOCIAL_TABLE_INSERT_ORDER.reduce((sum, table) => sum + tables[table].length, 0);
  const phase = new Phase("topics", total);
  for (const table of SOCIAL_TABLE_INSERT_ORDER) {
    const statements = insertStatements(table, tables[table] as unknown as ReadonlyArray<Record<string, SqlValue>>);
    try {
      for (let start = 0; start < statements.length; start += MAX_STATEMENTS_PER_BATCH) {
        await writer.run(statements.slice(start, start + MAX_STATEMENTS_PER_BATCH).map((statement) => statement.sql));
      }
    } catch (error) {
      throw new SeedError(`inserting into ${table} failed: ${(error as Error).message}`);
    }
  }
  phase.done(`${tables.interests.length} topics, ${tables.pin_interests.length} pin topics`);
  return total;
}

/**
 * The merchant program's demo rows (scripts/seed/merchants.ts), after the world: a reviewer and
 * the business profiles' businesses. Its logins get the demo password, hashed as the world's are.
 */
async function insertMerchants(tables: MerchantTables, writer: RowWriter): Promise<number> {
  const total = MERCHANT_TABLE_INSERT_ORDER.reduce((sum, table) => sum + tables[table].length, 0);
  const phase = new Phase("merchants", total);
  const hashes = new Map<number, string>();
  for (const userId of merchantLogins()) {
    const salt = new Uint8Array(createHash("sha256").update(`pinloom-demo-salt:${userId}`).digest().subarray(0, 16));
    hashes.set(userId, await hashPassword(DEMO_PASSWORD, salt));
  }
  for (const row of tables.users) row["password_hash"] = hashes.get(Number(row["id"])) ?? null;
  for (const table of MERCHANT_TABLE_INSERT_ORDER) {
    const statements = insertStatements(table, tables[table]);
    try {
      await writer.run(statements.map((statement) => statement.sql));
    } catch (error) {
      throw new SeedError(`inserting into ${table} failed: ${(error as Error).message}`);
    }
    phase.tick(tables[table].length);
  }
  const world = [...hashes].filter(([userId]) => !tables.users.some((row) => row["id"] === userId));
  await writer.run(world.map(([userId, hash]) => `UPDATE users SET password_hash = ${literal(hash)} WHERE id = ${userId}`));
  phase.done(`${tables.businesses.length} businesses, ${tables.admin_users.length} reviewer`);
  return total;
}

/** The seeded people's matching hashes (scripts/seed/email-match.ts), after every users row. */
async function insertEmailMatches(users: ReadonlyArray<{ id: number; email?: string | null }>, writer: RowWriter): Promise<number> {
  const rows = emailMatchRows(users);
  const statements = insertStatements("email_match", rows);
  try {
    for (let start = 0; start < statements.length; start += MAX_STATEMENTS_PER_BATCH) {
      await writer.run(statements.slice(start, start + MAX_STATEMENTS_PER_BATCH).map((statement) => statement.sql));
    }
  } catch (error) {
    throw new SeedError(`inserting into email_match failed: ${(error as Error).message}`);
  }
  return rows.length;
}

/** `extra`: rows the modules after the world add to its tables (the merchant program's reviewer). */
async function verifyCounts(world: World, writer: RowWriter, extra: Partial<Record<TableName, number>> = {}): Promise<void> {
  const tables = TABLE_INSERT_ORDER;
  const results = await writer.counts(tables);
  const wrong: string[] = [];
  tables.forEach((table: TableName, index) => {
    const actual = results[index] ?? -1;
    const expected = world.tables[table].length + (extra[table] ?? 0);
    if (actual !== expected) wrong.push(`${table}: ${actual} in D1, ${expected} expected`);
  });
  if (wrong.length > 0) throw new SeedError(`row counts do not match after seeding:\n  ${wrong.join("\n  ")}`);
}

// ---------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------
// The seed stamp: which seed code and options filled a state dir
// ---------------------------------------------------------------------------------------

const STAMP_FILE = "pinloom-seed.json";

/**
 * SHA-256 of the seed's own source (tests excluded) and photographs, the migrations (rows seeded before a new
 * migration miss what its triggers would have written, e.g. a search index) and the options
 * that shape the world.
 */
function seedStamp(args: Args): string {
  const hash = createHash("sha256");
  const seedDir = path.join(ROOT, "scripts", "seed");
  const migrationsDir = path.join(ROOT, "src", "server", "migrations");
  const files = [
    path.join(ROOT, "scripts", "seed.ts"),
    ...readdirSync(seedDir).filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts")).sort().map((name) => path.join(seedDir, name)),
    ...readdirSync(migrationsDir).filter((name) => name.endsWith(".sql")).sort().map((name) => path.join(migrationsDir, name)),
    ...photoFiles(),
  ];
  for (const file of files) hash.update(path.basename(file)).update("\0").update(readFileSync(file)).update("\0");
  hash.update(`pins=${args.pins};seed=${args.seed}`);
  return hash.digest("hex");
}

function storedStamp(persistTo: string): string | null {
  try {
    const parsed = JSON.parse(readFileSync(path.join(persistTo, STAMP_FILE), "utf8")) as { stamp?: unknown };
    return typeof parsed.stamp === "string" ? parsed.stamp : null;
  } catch {
    return null;
  }
}

async function main(): Promise<void> {
  const args = readArgs(process.argv.slice(2));
  const started = performance.now();
  if (!existsSync(CONFIG_PATH)) throw new SeedError(`wrangler config not found: ${CONFIG_PATH}`);
  log(`state ${path.relative(process.cwd(), args.persistTo) || "."} · ${args.pins} pins · seed ${args.seed}${args.reset ? " · reset" : ""}${args.ifEmpty ? " · if-empty" : ""}${args.ifStale ? " · if-stale" : ""}`);
  await applyMigrations(args.persistTo);

  const openProxy = (): Promise<Awaited<ReturnType<typeof getPlatformProxy<Env>>>> =>
    getPlatformProxy<Env>({ configPath: CONFIG_PATH, persist: { path: path.join(args.persistTo, "v3") }, remoteBindings: false });
  const proxy = await openProxy();
  let disposed = false;
  const dispose = async (): Promise<void> => {
    if (disposed) return;
    disposed = true;
    await proxy.dispose();
  };
  try {
    const { DB: db, MEDIA: bucket } = proxy.env;
    const existing = await userCount(db);
    const stamp = seedStamp(args);
    const stale = existing > 0 && storedStamp(args.persistTo) !== stamp;
    if (existing > 0 && args.ifEmpty) {
      console.log("Database already seeded");
      if (stale) console.log("[seed] the demo world's code or options changed since; `npm run seed -- --reset` refreshes it (wiping local data)");
      return;
    }
    if (existing > 0 && args.ifStale && !stale) {
      console.log("Database already seeded (current)");
      return;
    }
    if (stale && args.ifStale) {
      log("seeded by other seed code or options: wiping and reseeding");
      args.reset = true;
    }
    if (existing > 0 && !args.reset) {
      throw new SeedError(`the database already has ${existing} users: pass --reset to wipe and reseed, or --if-empty to skip`);
    }
    // With a local D1 file, a reset replaces the file by a freshly migrated one once the proxy
    // is closed (deleting 2.3 million rows of a bench world row by row takes minutes).
    const resetFile = args.reset && localD1File(args.persistTo) !== null;
    if (args.reset) {
      if (!resetFile) await resetDatabase(db);
      await resetBucket(bucket);
    }

    const worldPhase = new Phase("world", 0);
    const world = buildWorld({ pins: args.pins, seed: args.seed });
    worldPhase.done(
      `${world.tables.users.length} users, ${world.tables.boards.length} boards, ${world.tables.pins.length} pins${world.pooled ? " (pooled images)" : ""}`,
    );
    await hashDemoPasswords(world);
    const uploaded = await uploadMedia(world, bucket);
    // The D1 file is written directly only once workerd has let go of it.
    let file = localD1File(args.persistTo);
    if (file) await dispose();
    if (file && resetFile) {
      const phase = new Phase("reset db", 0);
      for (const suffix of ["", "-wal", "-shm"]) rmSync(`${file}${suffix}`, { force: true });
      phase.done("removed the D1 file");
      await applyMigrations(args.persistTo);
      file = localD1File(args.persistTo);
      if (!file) throw new SeedError("no D1 file after re-applying the migrations");
    }
    const writer = file ? fileWriter(file) : proxyWriter(db);
    const merchants = buildMerchants(world);
    const worldRows = await insertRows(world, writer);
    await verifyCounts(world, writer);
    const rows = worldRows + (await insertArticles(buildArticles(world), writer)) + (await insertInvites(buildInvites(world), writer)) + (await insertSocial(buildSocial(world), writer)) + (await insertMerchants(merchants, writer)) + (await insertEmailMatches([...world.tables.users, ...merchants.users.map((user) => ({ id: Number(user["id"]), email: typeof user["email"] === "string" ? user["email"] : null }))], writer));
    writer.finish();
    if (file) await checkThroughProxy(world, openProxy, { users: merchants.users.length });

    writeFileSync(path.join(args.persistTo, STAMP_FILE), JSON.stringify({ stamp, pins: args.pins, seed: args.seed, at: new Date().toISOString() }) + "\n");
    log(
      `done in ${seconds(performance.now() - started)}: ${rows} rows, ${uploaded.objects} objects (${(uploaded.bytes / 1024 / 1024).toFixed(1)} MiB)`,
    );
    log(
      TABLE_INSERT_ORDER.map((table) => `${table}=${world.tables[table].length}`).join(" "),
    );
  } finally {
    await dispose();
  }
}

/** After a direct write: the counts as the Worker's own D1 binding reads them. */
async function checkThroughProxy(world: World, open: () => Promise<{ env: Env; dispose: () => Promise<void> }>, extra: Partial<Record<TableName, number>>): Promise<void> {
  const phase = new Phase("check", 0);
  const fresh = await open();
  try {
    await verifyCounts(world, proxyWriter(fresh.env.DB), extra);
  } finally {
    await fresh.dispose();
  }
  phase.done("row counts as the D1 binding reads them match");
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    const message = error instanceof SeedError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error);
    console.error(`[seed] failed: ${message}`);
    process.exit(1);
  },
);
