// A set of queries with the pins that must come first in the seeded world:
// loads the demo world (scripts/seed/world.ts, 1,000 pins, the default seed: what `npm run seed`
// writes) into this file's D1 and checks every case of tests/worker/search-ranking-set.ts
// through the Worker's BaseSearchResource, signed out.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { Browser } from "./accounts-helpers.ts";
import { ids, searchOk } from "./search-world.ts";
import { SEARCH_RANKING_SET } from "./search-ranking-set.ts";
import { buildWorld, type SqlValue, type TableName } from "../../scripts/seed/world.ts";

/** The tables search reads (rows, visibility, counts); the rest of the world is not needed. */
const TABLES: readonly TableName[] = ["users", "link_domains", "boards", "board_sections", "board_collaborators", "pins", "pin_images", "board_pins", "follows"];
const MAX_STATEMENT_CHARS = 90_000;

function literal(value: SqlValue): string {
  if (value === null) return "NULL";
  if (typeof value === "number") return String(value);
  return `'${value.replace(/'/g, "''")}'`;
}

/** Multi-row INSERTs under D1's statement size limit, as scripts/seed.ts writes them. */
function inserts(table: string, rows: ReadonlyArray<Record<string, SqlValue>>): string[] {
  const first = rows[0];
  if (!first) return [];
  const columns = Object.keys(first);
  const head = `INSERT INTO ${table} (${columns.join(", ")}) VALUES `;
  const out: string[] = [];
  let values: string[] = [];
  let size = head.length;
  for (const row of rows) {
    const tuple = `(${columns.map((column) => literal(row[column] ?? null)).join(", ")})`;
    if (values.length > 0 && (size + tuple.length + 1 > MAX_STATEMENT_CHARS || values.length >= 400)) {
      out.push(head + values.join(","));
      values = [];
      size = head.length;
    }
    values.push(tuple);
    size += tuple.length + 1;
  }
  if (values.length > 0) out.push(head + values.join(","));
  return out;
}

let anon: Browser;

beforeAll(async () => {
  const world = buildWorld({ pins: 1000 });
  const statements = TABLES.flatMap((table) => inserts(table, world.tables[table] as unknown as ReadonlyArray<Record<string, SqlValue>>));
  for (let start = 0; start < statements.length; start += 20) {
    await env.DB.batch(statements.slice(start, start + 20).map((sql) => env.DB.prepare(sql)));
  }
  const pins = await env.DB.prepare("SELECT count(*) AS n FROM search_pins").first<{ n: number }>();
  expect(pins?.n).toBe(1000);
  anon = new Browser();
}, 120_000);

describe("ranking test set over the demo world", () => {
  it.each(SEARCH_RANKING_SET.map((entry) => [`${entry.scope}: ${entry.query}`, entry] as const))("%s", async (_name, entry) => {
    const response = await searchOk(anon, { query: entry.query, scope: entry.scope, page_size: 50 });
    const found = ids(response);
    const lead = found.slice(0, entry.mustLead.length);
    expect([...lead].sort(), `${entry.note}; got ${found.slice(0, 8).join(", ")}`).toEqual([...entry.mustLead].sort());
    for (const id of entry.absent ?? []) expect(found, entry.note).not.toContain(id);
  });

  it("answers a case the same way twice (stable order)", async () => {
    const first = ids(await searchOk(anon, { query: "beeswax candles" }));
    const second = ids(await searchOk(anon, { query: "  Beeswax   CANDLES " }));
    expect(second).toEqual(first);
    expect(first.length).toBeGreaterThanOrEqual(4);
  });
});
