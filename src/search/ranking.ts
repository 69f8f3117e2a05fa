// The one ranking formula of search: text relevance blended with saves and recency.
//
//   relevance = -bm25(search_pins, 10, 4, 2)        title ×10 over description ×4 over metadata ×2
//   fresh     = 1 / (1 + age_days / 30)              1 for a pin made at the anchor, ½ after 30 days
//   score     = relevance × (1 + 0.15 × ln(1 + saves) + 0.25 × fresh) × (1 + 1.0 × all_in_title)
//
// all_in_title is 1 when the pin's title holds every query term (titleBonusSql): bm25 sums per-term scores, so a short title with one term plus a
// description with the other could outscore a title naming the whole query ("harissa chicken");
// a pin titled with everything the person typed leads, saves and recency order the rest.
//
// Multiplicative on purpose: saves and recency reorder pins of similar relevance but never lift
// a pin that barely matches above one that matches well (1,000 saves ≈ ×2, the gap between a
// title match and a description match is ×2.5). age is measured from the search's anchor time
// (the first page's clock, carried in the bookmark) so every page of one search orders alike.
// Boards and people use the same shape over their own columns and popularity.

const PIN_WEIGHTS = { title: 10, description: 4, metadata: 2 } as const;
const BOARD_WEIGHTS = { name: 5, description: 1 } as const;
const USER_WEIGHTS = { username: 5, full_name: 4 } as const;
const SAVES_WEIGHT = 0.15;
const FRESH_WEIGHT = 0.25;
const FRESH_DAYS = 30;
/** Extra weight when every query term is in the title: ×2 (see the formula above). */
const TITLE_ALL_WEIGHT = 1;
const DAY_MS = 86_400_000;

/** The score in JS, for tests and for documentation: the SQL below computes exactly this. */
export function blendedScore(bm25: number, popularity: number, ageMs: number, allInTitle = false): number {
  const fresh = 1 / (1 + Math.max(0, ageMs) / DAY_MS / FRESH_DAYS);
  return -bm25 * (1 + SAVES_WEIGHT * Math.log(1 + Math.max(0, popularity)) + FRESH_WEIGHT * fresh) * (1 + (allInTitle ? TITLE_ALL_WEIGHT : 0));
}

function blendSql(bm25: string, popularity: string, createdAt: string, anchor: string): string {
  return `(-(${bm25}) * (1.0 + ${SAVES_WEIGHT} * ln(1.0 + max(0, ${popularity}))
           + ${FRESH_WEIGHT} / (1.0 + max(0, ${anchor} - ${createdAt}) / ${DAY_MS * FRESH_DAYS}.0)))`;
}

/** bm25 of search_pins with the pin weights: valid only in a query whose FTS cursor is search_pins. */
const PIN_BM25_SQL = `bm25(search_pins, ${PIN_WEIGHTS.title}.0, ${PIN_WEIGHTS.description}.0, ${PIN_WEIGHTS.metadata}.0)`;

/** The pin score for pins `p`, given the SQL of its bm25 (PIN_BM25_SQL or a column holding it); `anchor` is the anchor-time parameter. */
export function pinScoreSql(anchor: string, bm25 = PIN_BM25_SQL): string {
  return blendSql(bm25, "p.save_count", "p.created_at", anchor);
}

/**
 * The all-in-title multiplier for pins `p`: (1 + TITLE_ALL_WEIGHT) when the lower-cased title
 * (title and grid title, the indexed title text) contains every token parameter, else 1.
 * A substring test on the best-ranked candidates only (see engine.server.ts TITLE_RERANK): an
 * FTS column filter `title : (...)` reads the position list of every match of a common word
 * (+170 ms for "ideas" at 100,000 pins). SQLite's lower() folds ASCII only and a token may sit
 * inside a longer word: such a title misses or gets the bonus, the match itself is unchanged.
 */
export function titleBonusSql(tokenParams: readonly string[]): string {
  if (tokenParams.length === 0) return "1.0";
  const title = "lower(p.title || ' ' || p.grid_title)";
  return `(1.0 + ${TITLE_ALL_WEIGHT}.0 * (${tokenParams.map((token) => `instr(${title}, ${token}) > 0`).join(" AND ")}))`;
}

/** The board score over search_boards joined to boards `b`: popularity is its followers. */
export function boardScoreSql(anchor: string): string {
  return blendSql(`bm25(search_boards, ${BOARD_WEIGHTS.name}.0, ${BOARD_WEIGHTS.description}.0)`, "b.follower_count", "b.updated_at", anchor);
}

/** The person score over search_users joined to users `u`: popularity is followers, no recency. */
export function userScoreSql(): string {
  return `(-(bm25(search_users, ${USER_WEIGHTS.username}.0, ${USER_WEIGHTS.full_name}.0)) * (1.0 + ${SAVES_WEIGHT} * ln(1.0 + max(0, u.follower_count))))`;
}
