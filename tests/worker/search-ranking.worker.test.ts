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
import { insertSql, runStatements } from "./seeded-world.ts";

/** The tables search reads (rows, visibility, counts); the rest of the world is not needed. */
const TABLES: readonly TableName[] = ["users", "link_domains", "boards", "board_sections", "board_collaborators", "pins", "pin_images", "board_pins", "follows"];

let anon: Browser;

beforeAll(async () => {
  const world = buildWorld({ pins: 1000 });
  await runStatements(TABLES.flatMap((table) => insertSql(table, world.tables[table] as unknown as ReadonlyArray<Record<string, SqlValue>>)));
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
    const first = ids(await searchOk(anon, { query: "wall clock" }));
    const second = ids(await searchOk(anon, { query: "  Wall   CLOCK " }));
    expect(second).toEqual(first);
    expect(first.length).toBeGreaterThanOrEqual(4);
  });
});
