// Typeahead: query suggestions, boards and people for what is typed so far, and the viewer's
// recent searches, in one D1 round trip with its throttle.
import { assertAllowed, hitResult, hitStatement, withinLimitSql, type RateRule } from "../server/rate-limit.server.ts";
import { recallTypeahead, rememberTypeahead, typeaheadKey } from "./answer-cache.server.ts";
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
export const TYPEAHEAD_MAX = 10;
const TYPEAHEAD_QUERIES = 5;
const TYPEAHEAD_BOARDS = 3;
const TYPEAHEAD_USERS = 3;
/**
 * Title suggestions come from the best-saved of the newest this many visible prefix matches.
 * The bound is what keeps a 2-letter prefix ("ca": tens of thousands of title matches at
 * 100,000 pins) as cheap as a rare one; 200 recent visible titles still give the 5 suggestions.
 */
const TYPEAHEAD_CANDIDATES = 200;

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
  const wantRecent = (input.recent_queries_tags ?? true) && viewer.id !== null;
  const statements: D1PreparedStatement[] = [];
  // The throttle's hit runs first in the same batch; every read after it takes its LIMIT from
  // the count that hit wrote: 0 once over the limit, which SQLite checks before its scan starts
  // (a WHERE term with a subquery would be tested row by row, after the scan). So a request over
  // the limit costs the counter's write and nothing else, and answers 429.
  const now = Date.now();
  const hit = throttle ? hitStatement(db, throttle.rule, throttle.subject, now) : null;
  if (hit) statements.push(hit.statement);
  const limit = (params: Params, n: number): string =>
    throttle ? `CASE WHEN ${withinLimitSql(throttle.rule, throttle.subject, (value) => params.add(value))} THEN ${n} ELSE 0 END` : String(n);
  const recentIndex = wantRecent ? statements.push(recentTypeaheadStatement(db, viewer.id!, term)) - 1 : -1;
  const lastLength = tokens.length > 0 ? Array.from(tokens.at(-1)!).length : 0;
  // One-letter prefixes would match most of the index: titles, boards and people start at two.
  const titleMatch = lastLength >= 2 ? matchExpression(tokens, { prefixLast: true, column: "title" })! : null;
  const boardMatch = lastLength >= 2 ? matchExpression(tokens, { prefixLast: true, column: "name" })! : null;
  const userMatch = lastLength >= 2 ? matchExpression(tokens, { prefixLast: true })! : null;
  const cacheKey = viewer.id === null && tokens.length > 0 ? typeaheadKey(term.toLowerCase()) : null;
  const cached = cacheKey === null ? undefined : recallTypeahead(cacheKey, now);

  let interestIndex = -1;
  let titleIndex = -1;
  let boardIndex = -1;
  let userIndex = -1;
  const push = (statement: D1PreparedStatement): number => statements.push(statement) - 1;
  if (cached) {
    // The remembered ids, re-read with visibility and the match applied again (each skipped when empty).
    if (cached.titles.length > 0 && titleMatch !== null) {
      const params = new Params();
      titleIndex = push(
        db
          .prepare(
            `SELECT p.id AS id, p.title AS title FROM pins p ${PIN_VISIBILITY_JOINS}
             WHERE ${rememberedMatchingSql("p.id", cached.titles, "search_pins", titleMatch, params)} AND ${pinVisibleSql(null)} AND p.title != ''
             LIMIT ${limit(params, cached.titles.length)}`,
          )
          .bind(...params.values),
      );
    }
    if (cached.boards.length > 0 && boardMatch !== null) {
      const params = new Params();
      boardIndex = push(
        db
          .prepare(
            `SELECT b.id, b.name, b.slug, o.username FROM boards b JOIN users o ON o.id = b.owner_id
             WHERE ${rememberedMatchingSql("b.id", cached.boards, "search_boards", boardMatch, params)} AND ${boardVisibleSql("o", null)}
             LIMIT ${limit(params, cached.boards.length)}`,
          )
          .bind(...params.values),
      );
    }
    if (cached.users.length > 0 && userMatch !== null) {
      const params = new Params();
      userIndex = push(
        db
          .prepare(
            `SELECT u.id, u.username, u.full_name, u.image_key, u.follower_count FROM users u
             WHERE ${rememberedMatchingSql("u.id", cached.users, "search_users", userMatch, params)} AND ${profileVisibleSql(null)}
             LIMIT ${limit(params, cached.users.length)}`,
          )
          .bind(...params.values),
      );
    }
  } else if (tokens.length > 0) {
    const interestParams = new Params();
    const lowered = interestParams.add(term.toLowerCase());
    interestIndex = push(
      db
        .prepare(
          `SELECT name FROM interests
           WHERE substr(lower(name), 1, length(${lowered})) = ${lowered} OR instr(lower(name), ' ' || ${lowered}) > 0
           ORDER BY substr(lower(name), 1, length(${lowered})) = ${lowered} DESC, length(name), name LIMIT ${limit(interestParams, TYPEAHEAD_QUERIES)}`,
        )
        .bind(...interestParams.values),
    );
    if (titleMatch !== null && boardMatch !== null && userMatch !== null) {
      const params = new Params();
      const v = params.add(viewer.id);
      titleIndex = push(
        db
          .prepare(
            `WITH t AS MATERIALIZED (
               SELECT p.id AS id, p.save_count AS saves FROM search_pins CROSS JOIN pins p INDEXED BY pins_search_facts ON p.id = search_pins.rowid
               ${PIN_VISIBILITY_JOINS}
               WHERE search_pins MATCH ${params.add(titleMatch)} AND ${pinVisibleSql(v)}
               ORDER BY search_pins.rowid DESC LIMIT ${limit(params, TYPEAHEAD_CANDIDATES)})
             SELECT p.id AS id, p.title AS title FROM t JOIN pins p ON p.id = t.id WHERE p.title != ''
             ORDER BY t.saves DESC, t.id DESC LIMIT ${TYPEAHEAD_QUERIES * 2}`,
          )
          .bind(...params.values),
      );
      const boardParams = new Params();
      const boardFromWhere = boardsFromWhere(boardMatch, viewer.id, null, false, boardParams);
      boardIndex = push(
        db
          .prepare(`SELECT b.id, b.name, b.slug, o.username ${boardFromWhere} ORDER BY b.follower_count DESC, b.id DESC LIMIT ${limit(boardParams, TYPEAHEAD_BOARDS)}`)
          .bind(...boardParams.values),
      );
      const userParams = new Params();
      const uv = userParams.add(viewer.id);
      userIndex = push(
        db
          .prepare(
            `SELECT u.id, u.username, u.full_name, u.image_key, u.follower_count FROM search_users JOIN users u ON u.id = search_users.rowid
             WHERE search_users MATCH ${userParams.add(userMatch)} AND ${profileVisibleSql(uv)}
             ORDER BY u.follower_count DESC, u.id DESC LIMIT ${limit(userParams, TYPEAHEAD_USERS)}`,
          )
          .bind(...userParams.values),
      );
    }
  }
  const answers = statements.length > 0 ? await db.batch(statements) : [];
  if (hit && throttle) assertAllowed(hitResult(throttle.rule, Number((answers[0]?.results?.[0] as { count?: number } | undefined)?.count ?? 1), hit.windowStart, now));
  const rowsAt = <Row>(index: number): Row[] => (index >= 0 ? ((answers[index]?.results ?? []) as Row[]) : []);
  type TitleRow = { id: number; title: string };
  type BoardHit = { id: number; name: string; slug: string; username: string };
  // Re-read rows come back by id: put them in the remembered order.
  const inOrder = <Row extends { id: number }>(rows: Row[], order: readonly number[] | undefined): Row[] => {
    if (!order) return rows;
    const byId = new Map(rows.map((row) => [row.id, row]));
    return order.flatMap((id) => byId.get(id) ?? []);
  };
  const interestNames = cached ? cached.interests : rowsAt<{ name: string }>(interestIndex).map((row) => row.name);
  const titleRows = inOrder(rowsAt<TitleRow>(titleIndex), cached?.titles);
  const boardRows = inOrder(rowsAt<BoardHit>(boardIndex), cached?.boards);
  const userRows = inOrder(rowsAt<UserRow>(userIndex), cached?.users);
  if (cacheKey !== null && !cached) {
    rememberTypeahead(cacheKey, { interests: interestNames, titles: titleRows.map((row) => row.id), boards: boardRows.map((row) => row.id), users: userRows.map((row) => row.id) }, now);
  }

  const queries: TypeaheadItem[] = [];
  const seen = new Set<string>();
  for (const text of [...interestNames, ...titleRows.map((row) => row.title)]) {
    const suggestion = normalizeQuery(text).toLowerCase().slice(0, 100);
    if (suggestion === "" || seen.has(suggestion) || queries.length >= TYPEAHEAD_QUERIES) continue;
    seen.add(suggestion);
    queries.push({ type: "query", query: suggestion });
  }
  const boards: TypeaheadItem[] = boardRows.map((row) => ({
    type: "board",
    id: String(row.id),
    name: row.name,
    url: `/${row.username}/${row.slug}/`,
    owner: { username: row.username },
  }));
  const users: TypeaheadItem[] = userRows.map((row) => {
    const { followerCount: _followers, type: _type, ...rest } = userItem(row);
    return { type: "user", ...rest };
  });
  return {
    term,
    recent_queries_tags: rowsAt<{ query: string }>(recentIndex).map((row) => row.query),
    items: [...queries, ...boards, ...users].slice(0, TYPEAHEAD_MAX),
  };
}
