// What a search matches, as SQL: the pins, boards and people matching a plan's FTS5 match that
// the viewer may see, with every visibility rule and filter applied before any LIMIT (so pages,
// counts and facets never hold what the viewer may not see). The engine, the typeahead, typo
// correction and the facets all build on these.
import { visibleSql } from "~/visibility/visibility.server.ts";
import { pinScoreSql } from "./ranking.ts";
import type { PinFilterPlan } from "./plan.ts";

const DAY_MS = 86_400_000;

/**
 * Matches ranked per search: the newest CANDIDATES visible pins matching the query and every
 * filter (visibility and filters apply before this LIMIT, so nothing visible is skipped for
 * an invisible one). A term matching more than this many pins (a common word at 100,000 pins)
 * is ranked among its newest matches: the bound that keeps every search's cost flat.
 */
const CANDIDATES = 2000;

/** Collects bind values and answers their ?N placeholders, so long SQL stays readable. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `?${this.values.length}`;
  }
}

/**
 * Visible to the viewer in search (the searchPin rule: the close-up's rule, neither hidden nor
 * unsafe) over pins `p`, board `b` and pinner `pu`; `viewer` null for a read made for no one.
 * The rule's public case comes first: SQLite stops an OR at its first true term, so most matches
 * never run the collaborator lookup (signed out, "recipe" at 100,000 pins: −1 ms).
 */
export const pinVisibleSql = (viewer: string | null) => visibleSql("searchPin", { pin: "p", board: "b", pinner: "pu" }, viewer);
/** A board the viewer may open (the board page's rule) over board `b` and owner `owner`. */
export const boardVisibleSql = (owner: string, viewer: string | null) => visibleSql("boardPage", { board: "b", owner }, viewer);
/** A profile the viewer may see over users `u`. */
export const profileVisibleSql = (viewer: string | null) => visibleSql("profile", { user: "u" }, viewer);

/**
 * The joins pinVisibleSql reads for pins `p` matched by search_pins: the pinner and the board
 * through their narrow visibility indexes (migration 0015), so a common word's thousands of
 * matches never read the wide users and boards rows.
 */
export const PIN_VISIBILITY_JOINS = `CROSS JOIN users pu INDEXED BY users_search_visibility ON pu.id = p.pinner_id
    LEFT JOIN boards b INDEXED BY boards_search_visibility ON b.id = p.board_id`;

/** "Has its grid image" for pins `p`, through the one-entry-per-pin partial index (migration 0015). */
export const HAS_GRID_IMAGE_SQL = "EXISTS (SELECT 1 FROM pin_images ci INDEXED BY pin_images_grid WHERE ci.pin_id = p.id AND ci.size = '236x')";

/**
 * The pins of one person a personal scope is made of (my_pins, the `user` option), as SQL
 * selecting their ids (pins_pinner index), or null for the other scopes. A common word matches
 * tens of thousands of pins at 100,000 pins, one person holds a few thousand at most: probing
 * that small id set per match is cheaper than reading each match's pin (my_pins "with": 26 →
 * 21 ms CPU). Product pins (10% of all) gain nothing from it and keep the plain plan.
 */
function scopeSetSql(plan: PinFilterPlan, viewer: string, params: Params): string | null {
  if (plan.scope === "my_pins") return `SELECT sp.id FROM pins sp WHERE sp.pinner_id = ${viewer}`;
  if (plan.user !== null) return `SELECT sp.id FROM pins sp WHERE sp.pinner_id = (SELECT id FROM users WHERE username = ${params.add(plan.user)})`;
  return null;
}

/**
 * FROM and WHERE of the visible pins matching a plan; `facet` leaves out the product filters
 * (facets count across them). The FTS match always drives the plan (CROSS JOIN fixes the
 * order, unary + keeps every pins column off index selection): with a filter on an indexed
 * column SQLite otherwise may walk that index and run MATCH once per pin (8 s at 100,000 pins
 * for created:365d). A narrow scope's own id set (scopeSetSql) is probed before the pin is read.
 */
export function pinsFromWhere(plan: PinFilterPlan, params: Params, facet = false): string {
  const viewer = params.add(plan.viewer);
  const where = [`search_pins MATCH ${params.add(plan.match)}`];
  const scopeSet = scopeSetSql(plan, viewer, params);
  // Unary + on rowid: the IN list must filter the FTS scan, never become rowid lookups (MATCH per id).
  if (scopeSet !== null) where.push(`+search_pins.rowid IN (${scopeSet})`);
  where.push(pinVisibleSql(viewer));
  if (plan.scope === "buyable_pins") where.push("+p.kind = 'product' AND +p.price_value IS NOT NULL");
  if (plan.scope === "videos") where.push("+p.kind = 'video'");
  if (plan.scope === "idea_pins") where.push("+p.kind = 'story'");
  if (plan.scope === "my_pins") where.push(`+p.pinner_id = ${viewer}`);
  if (plan.kinds.length > 0) where.push(`+p.kind IN (SELECT value FROM json_each(${params.add(JSON.stringify(plan.kinds))}))`);
  if (plan.createdDays !== null) where.push(`+p.created_at >= ${params.add(plan.anchor - plan.createdDays * DAY_MS)}`);
  if (plan.user !== null) where.push(`+p.pinner_id = (SELECT id FROM users WHERE username = ${params.add(plan.user)})`);
  if (plan.bubble !== null) {
    const bubble = params.add(plan.bubble);
    where.push(`EXISTS (SELECT 1 FROM pin_interests bpi JOIN interests bi ON bi.id = bpi.interest_id
                        WHERE bpi.pin_id = p.id AND (bi.key = ${bubble} OR CAST(bi.id AS TEXT) = ${bubble}))`);
  }
  if (!facet) {
    if (plan.domains.length > 0) where.push(`+p.domain IN (SELECT value FROM json_each(${params.add(JSON.stringify(plan.domains))}))`);
    if (plan.categories.length > 0) where.push(`+p.category IN (SELECT value FROM json_each(${params.add(JSON.stringify(plan.categories))}))`);
    if (plan.priceMin !== null || plan.priceMax !== null) where.push("+p.kind = 'product' AND +p.price_value IS NOT NULL");
    if (plan.priceMin !== null) where.push(`+p.price_value >= ${params.add(plan.priceMin)}`);
    if (plan.priceMax !== null) where.push(`+p.price_value <= ${params.add(plan.priceMax)}`);
  }
  return `FROM search_pins
    CROSS JOIN pins p INDEXED BY pins_search_facts ON p.id = search_pins.rowid
    ${PIN_VISIBILITY_JOINS}
    WHERE ${where.join("\n      AND ")}`;
}

/**
 * The candidate CTE `c(id, score, price, domain, category)`: the newest CANDIDATES visible pins
 * matching the plan (and having their grid image), read in the index's rowid order (no sort)
 * through the pins_search_facts covering index, each with its ranking score. Pins created after
 * the search's anchor stay out, so later pages see the same set. Everything after this works
 * on at most CANDIDATES narrow rows; the wide pins rows are read for the page only.
 */
export function candidatesSql(plan: PinFilterPlan, params: Params, facet = false): string {
  const fromWhere = pinsFromWhere(plan, params, facet);
  const anchor = params.add(plan.anchor);
  // Facets only count candidates: no score.
  const score = facet ? "0" : pinScoreSql(anchor);
  return `WITH c AS MATERIALIZED (
      SELECT search_pins.rowid AS id, ${score} AS score, p.price_value AS price, p.domain AS domain, p.category AS category
      ${fromWhere}
        AND p.created_at <= ${anchor}
        AND ${HAS_GRID_IMAGE_SQL}
      ORDER BY search_pins.rowid DESC LIMIT ${CANDIDATES})`;
}

/** The visible pins matching `match` under the plan, counted up to `cap`. */
export function pinCountStatement(db: D1Database, plan: PinFilterPlan, cap: number): D1PreparedStatement {
  const params = new Params();
  const fromWhere = pinsFromWhere(plan, params);
  return db.prepare(`SELECT count(*) AS n FROM (SELECT 1 ${fromWhere} LIMIT ${params.add(cap)})`).bind(...params.values);
}

/** FROM and WHERE of the visible boards matching; `ownerOnly` restricts to the viewer's own. */
export function boardsFromWhere(match: string, viewer: number | null, user: string | null, ownerOnly: boolean, params: Params): string {
  const v = params.add(viewer);
  const where = [`search_boards MATCH ${params.add(match)}`, boardVisibleSql("o", v)];
  if (ownerOnly) where.push(`b.owner_id = ${v}`);
  if (user !== null) where.push(`b.owner_id = (SELECT id FROM users WHERE username = ${params.add(user)})`);
  return `FROM search_boards JOIN boards b ON b.id = search_boards.rowid JOIN users o ON o.id = b.owner_id
    WHERE ${where.join(" AND ")}`;
}

/**
 * `column` is one of the remembered `ids` and its row still matches `match` in the full-text
 * table: the re-read of a remembered answer. The match is read once over the ids' rowid range.
 */
export function rememberedMatchingSql(column: string, ids: readonly number[], table: "search_pins" | "search_boards" | "search_users", match: string, params: Params): string {
  return `${column} IN (SELECT value FROM json_each(${params.add(JSON.stringify(ids))}))
         AND ${column} IN (SELECT rowid FROM ${table} WHERE ${table} MATCH ${params.add(match)}
                           AND rowid BETWEEN ${params.add(Math.min(...ids))} AND ${params.add(Math.max(...ids))})`;
}

/** A pin the viewer may find in search (the searchPin rule), or null. */
export async function visiblePin(db: D1Database, pinId: string, viewer: number | null): Promise<{ id: number; kind: string } | null> {
  return db
    .prepare(
      `SELECT p.id, p.kind FROM pins p JOIN users pu ON pu.id = p.pinner_id LEFT JOIN boards b ON b.id = p.board_id
       WHERE p.id = ?1 AND ${pinVisibleSql("?2")}`,
    )
    .bind(pinId, viewer)
    .first<{ id: number; kind: string }>();
}
