// Typeahead: query suggestions, boards and people for what is typed so far, and the viewer's
// recent searches, in one D1 round trip with its throttle.
import { assertAllowed, hitResult, hitStatement, withinLimitSql, type RateRule } from "~/server/rate-limit.server.ts";
import { recallTypeahead, rememberTypeahead, typeaheadKey, type CachedTypeahead } from "./answer-cache.server.ts";
import { userItem, type UserRow } from "./items.ts";
import { PIN_VISIBILITY_JOINS, Params, boardVisibleSql, boardsFromWhere, pinVisibleSql, profileVisibleSql, rememberedMatchingSql } from "./matching.server.ts";
import { normalizeQuery } from "./options.ts";
import type { SearchViewer } from "./plan.ts";
import { matchExpression, tokensOf } from "./query.ts";
import { recentTypeaheadStatement } from "./recent.server.ts";
import type { TypeaheadItem, TypeaheadResponse } from "./types.ts";

/** A throttle counted inside a read's own batch (typeahead: one round trip instead of two). */
interface BatchThrottle {
  rule: RateRule;
  subject: string;
}

/** Typeahead answer sizes: at most 10 items, queries first. */
const TYPEAHEAD_MAX = 10;
const TYPEAHEAD_QUERIES = 5;
const TYPEAHEAD_BOARDS = 3;
const TYPEAHEAD_USERS = 3;
/**
 * Title suggestions come from the best-saved of the newest this many visible prefix matches.
 * The bound is what keeps a 2-letter prefix ("ca": tens of thousands of title matches at
 * 100,000 pins) as cheap as a rare one; 200 recent visible titles still give the 5 suggestions.
 */
const TYPEAHEAD_CANDIDATES = 200;

/** The reads of a typeahead's one batch, in batch order: the throttle's hit first. */
const READS = ["hit", "recent", "interests", "titles", "boards", "users"] as const;
type Read = (typeof READS)[number];
/** The statements asked for, by read; a read not asked is absent. */
type Reads = Partial<Record<Read, D1PreparedStatement>>;
/** A read's rows; [] for a read not asked. */
type RowsOf = (read: Read) => unknown[];

type TitleRow = { id: number; title: string };
type BoardHit = { id: number; name: string; slug: string; username: string };

/** The FTS5 matches of the words typed, their last word as a prefix, per column searched. */
interface PrefixMatches {
  title: string;
  board: string;
  user: string;
}

/** The prefix matches, or null while the last word has one letter. */
function prefixMatches(tokens: readonly string[]): PrefixMatches | null {
  const lastLength = tokens.length > 0 ? Array.from(tokens.at(-1)!).length : 0;
  // One-letter prefixes would match most of the index: titles, boards and people start at two.
  if (lastLength < 2) return null;
  return {
    title: matchExpression(tokens, { prefixLast: true, column: "title" })!,
    board: matchExpression(tokens, { prefixLast: true, column: "name" })!,
    user: matchExpression(tokens, { prefixLast: true })!,
  };
}

/** A read's LIMIT of `n` rows, its bind values added to `params`. */
type LimitSql = (params: Params, n: number) => string;

/**
 * The throttle's hit runs first in the same batch; every read after it takes its LIMIT from
 * the count that hit wrote: 0 once over the limit, which SQLite checks before its scan starts
 * (a WHERE term with a subquery would be tested row by row, after the scan). So a request over
 * the limit costs the counter's write and nothing else, and answers 429.
 */
function limitSql(throttle: BatchThrottle | null): LimitSql {
  return (params, n) => (throttle ? `CASE WHEN ${withinLimitSql(throttle.rule, throttle.subject, (value) => params.add(value))} THEN ${n} ELSE 0 END` : String(n));
}

/** The remembered ids of a signed-out term, re-read with visibility and the match applied again (each skipped when empty). */
function rememberedReads(db: D1Database, cached: CachedTypeahead, matches: PrefixMatches | null, limit: LimitSql): Reads {
  const reads: Reads = {};
  if (matches === null) return reads;
  const reread = (head: string, remembered: Remembered, visible: string) => rereadStatement(db, head, remembered, visible, limit);
  if (cached.titles.length > 0) {
    reads.titles = reread(`SELECT p.id AS id, p.title AS title FROM pins p ${PIN_VISIBILITY_JOINS}`, { column: "p.id", ids: cached.titles, table: "search_pins", match: matches.title }, `${pinVisibleSql(null)} AND p.title != ''`);
  }
  if (cached.boards.length > 0) {
    reads.boards = reread("SELECT b.id, b.name, b.slug, o.username FROM boards b JOIN users o ON o.id = b.owner_id", { column: "b.id", ids: cached.boards, table: "search_boards", match: matches.board }, boardVisibleSql("o", null));
  }
  if (cached.users.length > 0) {
    reads.users = reread("SELECT u.id, u.username, u.full_name, u.image_key, u.follower_count FROM users u", { column: "u.id", ids: cached.users, table: "search_users", match: matches.user }, profileVisibleSql(null));
  }
  return reads;
}

/** Remembered rows: `column` among `ids`, still matching `match` in the full-text `table`. */
interface Remembered {
  column: string;
  ids: readonly number[];
  table: "search_pins" | "search_boards" | "search_users";
  match: string;
}

/** `head` (SELECT … FROM …) over the remembered rows that are still `visible`, at most as many as were remembered. */
function rereadStatement(db: D1Database, head: string, remembered: Remembered, visible: string, limit: LimitSql): D1PreparedStatement {
  const params = new Params();
  return db
    .prepare(
      `${head}
             WHERE ${rememberedMatchingSql(remembered.column, remembered.ids, remembered.table, remembered.match, params)} AND ${visible}
             LIMIT ${limit(params, remembered.ids.length)}`,
    )
    .bind(...params.values);
}

/** The ranked reads of a term not remembered: interest names always, titles, boards and people once a prefix has two letters. */
function freshReads(db: D1Database, term: string, viewer: SearchViewer, matches: PrefixMatches | null, limit: LimitSql): Reads {
  const reads: Reads = { interests: interestNames(db, term, limit) };
  if (matches === null) return reads;
  reads.titles = titleSuggestions(db, matches.title, viewer, limit);
  const boardParams = new Params();
  const boardFromWhere = boardsFromWhere(matches.board, viewer.id, null, false, boardParams);
  reads.boards = db
    .prepare(`SELECT b.id, b.name, b.slug, o.username ${boardFromWhere} ORDER BY b.follower_count DESC, b.id DESC LIMIT ${limit(boardParams, TYPEAHEAD_BOARDS)}`)
    .bind(...boardParams.values);
  reads.users = people(db, matches.user, viewer, limit);
  return reads;
}

/** Interest names starting with the term, or holding a word that does. */
function interestNames(db: D1Database, term: string, limit: LimitSql): D1PreparedStatement {
  const interestParams = new Params();
  const lowered = interestParams.add(term.toLowerCase());
  return db
    .prepare(
      `SELECT name FROM interests
           WHERE substr(lower(name), 1, length(${lowered})) = ${lowered} OR instr(lower(name), ' ' || ${lowered}) > 0
           ORDER BY substr(lower(name), 1, length(${lowered})) = ${lowered} DESC, length(name), name LIMIT ${limit(interestParams, TYPEAHEAD_QUERIES)}`,
    )
    .bind(...interestParams.values);
}

/** Titles of the best-saved among the newest TYPEAHEAD_CANDIDATES visible pins matching. */
function titleSuggestions(db: D1Database, titleMatch: string, viewer: SearchViewer, limit: LimitSql): D1PreparedStatement {
  const params = new Params();
  const v = params.add(viewer.id);
  return db
    .prepare(
      `WITH t AS MATERIALIZED (
               SELECT p.id AS id, p.save_count AS saves FROM search_pins CROSS JOIN pins p INDEXED BY pins_search_facts ON p.id = search_pins.rowid
               ${PIN_VISIBILITY_JOINS}
               WHERE search_pins MATCH ${params.add(titleMatch)} AND ${pinVisibleSql(v)}
               ORDER BY search_pins.rowid DESC LIMIT ${limit(params, TYPEAHEAD_CANDIDATES)})
             SELECT p.id AS id, p.title AS title FROM t JOIN pins p ON p.id = t.id WHERE p.title != ''
             ORDER BY t.saves DESC, t.id DESC LIMIT ${TYPEAHEAD_QUERIES * 2}`,
    )
    .bind(...params.values);
}

/** Visible people matching, the most followed first. */
function people(db: D1Database, userMatch: string, viewer: SearchViewer, limit: LimitSql): D1PreparedStatement {
  const userParams = new Params();
  const uv = userParams.add(viewer.id);
  return db
    .prepare(
      `SELECT u.id, u.username, u.full_name, u.image_key, u.follower_count FROM search_users JOIN users u ON u.id = search_users.rowid
             WHERE search_users MATCH ${userParams.add(userMatch)} AND ${profileVisibleSql(uv)}
             ORDER BY u.follower_count DESC, u.id DESC LIMIT ${limit(userParams, TYPEAHEAD_USERS)}`,
    )
    .bind(...userParams.values);
}

/** The throttle's hit of this request: its statement, and what its count is read against. */
interface ThrottleHit {
  rule: RateRule;
  statement: D1PreparedStatement;
  windowStart: number;
}

/** The reads as one batch (none: no round trip); a 429 when the throttle's own hit went over its limit. */
async function runReads(db: D1Database, reads: Reads, hit: ThrottleHit | null, now: number): Promise<RowsOf> {
  const asked = READS.filter((read) => reads[read] !== undefined);
  const answers = asked.length > 0 ? await db.batch(asked.map((read) => reads[read]!)) : [];
  const rowsOf: RowsOf = (read) => {
    const index = asked.indexOf(read);
    return index >= 0 ? (answers[index]?.results ?? []) : [];
  };
  if (hit) assertAllowed(hitResult(hit.rule, Number((rowsOf("hit")[0] as { count?: number } | undefined)?.count ?? 1), hit.windowStart, now));
  return rowsOf;
}

/** Re-read rows come back by id: put them in the remembered order. */
function inOrder<Row extends { id: number }>(rows: Row[], order: readonly number[] | undefined): Row[] {
  if (!order) return rows;
  const byId = new Map(rows.map((row) => [row.id, row]));
  return order.flatMap((id) => byId.get(id) ?? []);
}

/** What the ranked reads found, in their order (a remembered term's in its remembered order). */
interface Found {
  interestNames: string[];
  titleRows: TitleRow[];
  boardRows: BoardHit[];
  userRows: UserRow[];
}

function foundRows(rowsOf: RowsOf, cached: CachedTypeahead | undefined): Found {
  return {
    interestNames: cached ? cached.interests : (rowsOf("interests") as Array<{ name: string }>).map((row) => row.name),
    titleRows: inOrder(rowsOf("titles") as TitleRow[], cached?.titles),
    boardRows: inOrder(rowsOf("boards") as BoardHit[], cached?.boards),
    userRows: inOrder(rowsOf("users") as UserRow[], cached?.users),
  };
}

/** The answer's items: at most TYPEAHEAD_QUERIES distinct query suggestions (interests, then titles), then boards, then people. */
function typeaheadItems(found: Found): TypeaheadItem[] {
  const queries: TypeaheadItem[] = [];
  const seen = new Set<string>();
  for (const text of [...found.interestNames, ...found.titleRows.map((row) => row.title)]) {
    const suggestion = normalizeQuery(text).toLowerCase().slice(0, 100);
    if (suggestion === "" || seen.has(suggestion) || queries.length >= TYPEAHEAD_QUERIES) continue;
    seen.add(suggestion);
    queries.push({ type: "query", query: suggestion });
  }
  const boards: TypeaheadItem[] = found.boardRows.map((row) => ({
    type: "board",
    id: String(row.id),
    name: row.name,
    url: `/${row.username}/${row.slug}/`,
    owner: { username: row.username },
  }));
  const users: TypeaheadItem[] = found.userRows.map((row) => {
    const { followerCount: _followers, type: _type, ...rest } = userItem(row);
    return { type: "user", ...rest };
  });
  return [...queries, ...boards, ...users].slice(0, TYPEAHEAD_MAX);
}

/**
 * Typeahead for a term: query suggestions (interest names, then titles of visible pins, by
 * saves), visible boards and people whose names start with the words typed, and the viewer's
 * recent searches starting with the term. One D1 round trip, its throttle included.
 *
 * Signed out, the ranked part (interest names, and the ids of the titles, boards and people
 * found) is remembered per term like a search's (answer-cache.server.ts): everyone typing "sal"
 * asks the same thing. A hit re-reads those few rows by id with the visibility rule and the
 * prefix match applied again, so a pin, board or person that turned secret, hidden or private,
 * or was renamed, is gone from the very next answer.
 */
export async function typeahead(
  db: D1Database,
  input: { term: string; recent_queries_tags?: boolean | undefined },
  viewer: SearchViewer,
  throttle: BatchThrottle | null = null,
): Promise<TypeaheadResponse> {
  const term = normalizeQuery(input.term).slice(0, 100);
  const tokens = tokensOf(term);
  const now = Date.now();
  const hit: ThrottleHit | null = throttle ? { rule: throttle.rule, ...hitStatement(db, throttle.rule, throttle.subject, now) } : null;
  const cacheKey = viewer.id === null && tokens.length > 0 ? typeaheadKey(term.toLowerCase()) : null;
  const cached = cacheKey === null ? undefined : recallTypeahead(cacheKey, now);
  const limit = limitSql(throttle);
  const matches = prefixMatches(tokens);
  const reads: Reads = cached ? rememberedReads(db, cached, matches, limit) : tokens.length > 0 ? freshReads(db, term, viewer, matches, limit) : {};
  if (hit) reads.hit = hit.statement;
  if ((input.recent_queries_tags ?? true) && viewer.id !== null) reads.recent = recentTypeaheadStatement(db, viewer.id, term);
  const rowsOf = await runReads(db, reads, hit, now);
  const found = foundRows(rowsOf, cached);
  if (cacheKey !== null && !cached) {
    rememberTypeahead(cacheKey, { interests: found.interestNames, titles: found.titleRows.map((row) => row.id), boards: found.boardRows.map((row) => row.id), users: found.userRows.map((row) => row.id) }, now);
  }
  return { term, recent_queries_tags: (rowsOf("recent") as Array<{ query: string }>).map((row) => row.query), items: typeaheadItems(found) };
}
