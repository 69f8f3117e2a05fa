// The demo world `npm start` seeds (scripts/seed/world.ts and its extra tables), built by the
// same pure generator and inserted into the test's D1 as multi-row INSERTs. Media bytes are not
// rendered: tests that need R2 objects put their own.
import { env } from "cloudflare:workers";
import { ARTICLE_TABLE_INSERT_ORDER, buildArticles } from "../../scripts/seed/articles.ts";
import { SOCIAL_TABLE_INSERT_ORDER, buildSocial } from "../../scripts/seed/social.ts";
import { TABLE_INSERT_ORDER, buildWorld, type SqlValue, type World } from "../../scripts/seed/world.ts";

/** D1 refuses statements over 100 KB; rows per statement are bounded too. */
const MAX_STATEMENT_CHARS = 90_000;
const MAX_ROWS_PER_STATEMENT = 400;
const STATEMENTS_PER_BATCH = 20;

function literal(value: SqlValue): string {
  if (value === null) return "NULL";
  if (typeof value === "number") return String(value);
  return `'${value.replace(/'/g, "''")}'`;
}

/** Multi-row INSERTs for one table's rows, every value inlined (the rows are the generator's own). */
export function insertSql(table: string, rows: ReadonlyArray<Record<string, SqlValue>>): string[] {
  const first = rows[0];
  if (!first) return [];
  const columns = Object.keys(first);
  const head = `INSERT INTO ${table} (${columns.join(", ")}) VALUES `;
  const statements: string[] = [];
  let values: string[] = [];
  let size = head.length;
  for (const row of rows) {
    const tuple = `(${columns.map((column) => literal(row[column] ?? null)).join(", ")})`;
    if (values.length > 0 && (size + tuple.length + 1 > MAX_STATEMENT_CHARS || values.length >= MAX_ROWS_PER_STATEMENT)) {
      statements.push(head + values.join(","));
      values = [];
      size = head.length;
    }
    values.push(tuple);
    size += tuple.length + 1;
  }
  if (values.length > 0) statements.push(head + values.join(","));
  return statements;
}

export async function runStatements(sql: readonly string[]): Promise<void> {
  for (let start = 0; start < sql.length; start += STATEMENTS_PER_BATCH) {
    await env.DB.batch(sql.slice(start, start + STATEMENTS_PER_BATCH).map((statement) => env.DB.prepare(statement)));
  }
}

/** Builds the 1,000-pin demo world and inserts its rows (users, boards, pins, saves, comments, articles, topics). */
export async function seedDemoWorld(pins = 1000): Promise<World> {
  const world = buildWorld({ pins });
  const sql: string[] = [];
  for (const table of TABLE_INSERT_ORDER) sql.push(...insertSql(table, world.tables[table] as unknown as Array<Record<string, SqlValue>>));
  const articles = buildArticles(world);
  for (const table of ARTICLE_TABLE_INSERT_ORDER) sql.push(...insertSql(table, articles[table] as unknown as Array<Record<string, SqlValue>>));
  const social = buildSocial(world);
  for (const table of SOCIAL_TABLE_INSERT_ORDER) sql.push(...insertSql(table, social[table] as unknown as Array<Record<string, SqlValue>>));
  await runStatements(sql);
  return world;
}
