// Recent searches stored per person (spec 000 §9): two lists, recent and recent personal, each
// capped at RECENT_CAP and deduplicated ignoring case (recentKey) by the statements that record.
import { RECENT_CAP, recentKey } from "./recent.ts";
import { normalizeQuery } from "./options.ts";

/** The person's list, newest first. */
export async function listRecent(db: D1Database, userId: number, personal = false): Promise<string[]> {
  const rows = await db
    .prepare(`SELECT query FROM recent_searches WHERE user_id = ?1 AND personal = ?2 ORDER BY searched_at DESC, query_key LIMIT ${RECENT_CAP}`)
    .bind(userId, personal ? 1 : 0)
    .all<{ query: string }>();
  return rows.results.map((row) => row.query);
}

/**
 * The statements recording one search, for the caller's single batch: the query goes first in
 * its newest spelling (one row per case-insensitive key), then anything past the cap is dropped.
 */
function recordRecentStatements(db: D1Database, userId: number, query: string, personal: boolean, now = Date.now()): D1PreparedStatement[] {
  const text = normalizeQuery(query);
  if (text === "") return [];
  const flag = personal ? 1 : 0;
  return [
    db
      .prepare(
        // searched_at is strictly newer than the list's newest, so two searches in one millisecond keep their order.
        `INSERT INTO recent_searches (user_id, personal, query_key, query, searched_at)
         SELECT ?1, ?2, ?3, ?4, max(?5, coalesce((SELECT max(searched_at) + 1 FROM recent_searches WHERE user_id = ?1 AND personal = ?2), 0)) WHERE true
         ON CONFLICT (user_id, personal, query_key) DO UPDATE SET query = excluded.query, searched_at = excluded.searched_at`,
      )
      .bind(userId, flag, recentKey(text), text, now),
    db
      .prepare(
        `DELETE FROM recent_searches WHERE user_id = ?1 AND personal = ?2 AND query_key NOT IN (
           SELECT query_key FROM recent_searches WHERE user_id = ?1 AND personal = ?2 ORDER BY searched_at DESC, query_key LIMIT ${RECENT_CAP})`,
      )
      .bind(userId, flag),
  ];
}

/** Removes one query (ignoring case) from both lists, or, without a query, every recent search. */
function deleteRecentStatement(db: D1Database, userId: number, query: string | undefined): D1PreparedStatement {
  if (query === undefined) return db.prepare("DELETE FROM recent_searches WHERE user_id = ?1").bind(userId);
  return db.prepare("DELETE FROM recent_searches WHERE user_id = ?1 AND query_key = ?2").bind(userId, recentKey(normalizeQuery(query)));
}

/** The non-personal recent searches starting with `term` (ignoring case), newest first, at most 5. */
export function recentTypeaheadStatement(db: D1Database, userId: number, term: string): D1PreparedStatement {
  const key = recentKey(normalizeQuery(term));
  return db
    .prepare(
      `SELECT query FROM recent_searches WHERE user_id = ?1 AND personal = 0 AND substr(query_key, 1, length(?2)) = ?2
       ORDER BY searched_at DESC, query_key LIMIT 5`,
    )
    .bind(userId, key);
}

/** Records one search, in a batch of its own. */
export async function recordRecentSearch(db: D1Database, userId: number, query: string, personal: boolean): Promise<void> {
  await db.batch(recordRecentStatements(db, userId, query, personal));
}

/** Forgets one recent search (ignoring case), or, without a query, all of them. */
export async function deleteRecentSearch(db: D1Database, userId: number, query: string | undefined): Promise<void> {
  await db.batch([deleteRecentStatement(db, userId, query)]);
}
