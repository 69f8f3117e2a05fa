// The search engine: FTS5 matches over pins, boards and people, ranked by
// src/search/ranking.ts, with every visibility rule in SQL before LIMIT (so pages, counts and
// facets never hold what the viewer may not see), paged by a bookmark bound to its search.
import { badRequest } from "../server/errors.ts";
import { listedPinCountSql } from "../boards/boards.server.ts";
import { GRID_CELL_COLUMNS, GRID_IMAGE_JOINS, gridPin, type GridCellRow } from "../pins/pins.server.ts";
import { userImageUrl } from "../users/user.ts";
import { publishedDomainSql, visibleSql } from "../visibility/visibility.server.ts";
import {
  CREATED_FILTERS,
  DEFAULT_PAGE_SIZE,
  KIND_FILTERS,
  PERSONAL_SCOPES,
  PIN_SCOPES,
  SCOPES,
  normalizeQuery,
  searchUrl,
  splitList,
  type Scope,
  type SearchOptions,
} from "./options.ts";
import { boardScoreSql, pinScoreSql, titleBonusSql, userScoreSql } from "./ranking.ts";
import { MAX_OFFSET, decodeBookmark, editDistance, encodeBookmark, fingerprint, matchExpression, tokensOf, type SearchBookmark } from "./query.ts";
import { isSensitiveQuery } from "./sensitive.ts";
import {
  END_MARKER,
  type ProductFilters,
  type SearchBoardItem,
  type SearchChip,
  type SearchItem,
  type SearchResponse,
  type SearchTab,
  type SearchUserItem,
  type TypeaheadItem,
  type TypeaheadResponse,
} from "./types.ts";
import { recentTypeaheadStatement } from "./recent.server.ts";
import { assertAllowed, hitResult, hitStatement, withinLimitSql, type RateRule } from "../server/rate-limit.server.ts";

/** A throttle counted inside a read's own batch (typeahead: one round trip instead of two). */
export interface BatchThrottle {
  rule: RateRule;
  subject: string;
}
import { ANSWERED_SCOPES, answerKey, recallAnswer, recallTypeahead, rememberAnswer, rememberTypeahead, typeaheadKey, type CachedAnswer } from "./answer-cache.server.ts";

export interface SearchViewer {
  id: number | null;
}

/** Fewer results than this on the first page: the nag, the typo check and `noindex`. */
export const FEW_RESULTS = 5;
const MAX_GUIDES = 8;
/** Pins whose interests feed the guides: the best-ranked visible ones. */
const GUIDE_SAMPLE = 200;
const MAX_FACETS = 10;
/**
 * Matches ranked per search: the newest CANDIDATES visible pins matching the query and every
 * filter (visibility and filters apply before this LIMIT, so nothing visible is skipped for
 * an invisible one). A term matching more than this many pins (a common word at 100,000 pins)
 * is ranked among its newest matches: the bound that keeps every search's cost flat.
 */
export const CANDIDATES = 2000;
/**
 * The best-ranked candidates given the all-in-title bonus (ranking.ts titleBonusSql): their
 * titles are read (wide pins rows) for it. A title holding every word already ranks high by
 * its ×10 title weight; the bonus settles the order among the leaders.
 */
export const TITLE_RERANK = 200;
const MAX_CHIPS = 6;
const DAY_MS = 86_400_000;

/** Collects bind values and answers their ?N placeholders, so long SQL stays readable. */
class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `?${this.values.length}`;
  }
}

/** The scopes offered to a viewer: the personal ones only when signed in. */
export function tabsFor(scope: Scope, viewer: SearchViewer): SearchTab[] {
  return SCOPES.filter((candidate) => viewer.id !== null || !PERSONAL_SCOPES.has(candidate)).map((candidate) => ({ scope: candidate, selected: candidate === scope }));
}

/** The filter chips a scope offers: kinds where kinds differ, creation windows on every pin scope. */
export function filtersFor(scope: Scope, applied: readonly string[]): SearchChip[] {
  if (!PIN_SCOPES.has(scope)) return [];
  const ids: string[] = scope === "pins" || scope === "my_pins" ? [...KIND_FILTERS, ...CREATED_FILTERS] : [...CREATED_FILTERS];
  return ids.map((id) => ({ id, applied: applied.includes(id) }));
}

function oneBar(filters: SearchChip[]): SearchChip[] {
  return [...filters.filter((chip) => chip.applied), ...filters.filter((chip) => !chip.applied)].slice(0, MAX_CHIPS);
}

/**
 * Everything about a search that changes its results, as one canonical string: the answer
 * cache's key in full (a 32-bit hash there would let a crafted query collide with a popular
 * one and have its pins served in that query's place), and, hashed, what a bookmark is bound to.
 */
function searchIdentity(options: SearchOptions, scope: Scope): string {
  return JSON.stringify([
      options.query.toLowerCase(),
      scope,
      [...splitList(options.filters)].sort(),
      splitList(options.applied_filters).map(normalizeQuery),
      [...splitList(options.product_filters)].sort(),
      [...(options.domains ?? [])].sort(),
      options.price_min ?? null,
      options.price_max ?? null,
      options.user?.toLowerCase() ?? null,
      options.top_pin_id ?? null,
      options.bubble_id ?? null,
    ]);
}

/**
 * Visible to the viewer in search (the searchPin rule: the close-up's rule, neither hidden nor
 * unsafe) over pins `p`, board `b` and pinner `pu`; `viewer` null for a read made for no one.
 * The rule's public case comes first: SQLite stops an OR at its first true term, so most matches
 * never run the collaborator lookup (signed out, "recipe" at 100,000 pins: −1 ms).
 */
const pinVisibleSql = (viewer: string | null) => visibleSql("searchPin", { pin: "p", board: "b", pinner: "pu" }, viewer);
/** A board the viewer may open (the board page's rule) over board `b` and owner `owner`. */
const boardVisibleSql = (owner: string, viewer: string | null) => visibleSql("boardPage", { board: "b", owner }, viewer);
/** A profile the viewer may see over users `u`. */
const profileVisibleSql = (viewer: string | null) => visibleSql("profile", { user: "u" }, viewer);

/**
 * The joins pinVisibleSql reads for pins `p` matched by search_pins: the pinner and the board
 * through their narrow visibility indexes (migration 0015), so a common word's thousands of
 * matches never read the wide users and boards rows.
 */
const PIN_VISIBILITY_JOINS = `CROSS JOIN users pu INDEXED BY users_search_visibility ON pu.id = p.pinner_id
    LEFT JOIN boards b INDEXED BY boards_search_visibility ON b.id = p.board_id`;

/** "Has its grid image" for pins `p`, through the one-entry-per-pin partial index (migration 0015). */
const HAS_GRID_IMAGE_SQL = "EXISTS (SELECT 1 FROM pin_images ci INDEXED BY pin_images_grid WHERE ci.pin_id = p.id AND ci.size = '236x')";

interface PinFilterPlan {
  match: string;
  /** The query's words (and applied guide terms): the ranking's all-in-title bonus. */
  tokens: string[];
  scope: Scope;
  viewer: number | null;
  anchor: number;
  kinds: string[];
  createdDays: number | null;
  domains: string[];
  categories: string[];
  priceMin: number | null;
  priceMax: number | null;
  user: string | null;
  bubble: string | null;
}

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
function pinsFromWhere(plan: PinFilterPlan, params: Params, facet = false): string {
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

interface FacetRow {
  price_json: string | null;
  domains_json: string | null;
  categories_json: string | null;
}

interface ScoredPinRow extends GridCellRow {
  score: number;
}

/**
 * The candidate CTE `c(id, score, price, domain, category)`: the newest CANDIDATES visible pins
 * matching the plan (and having their grid image), read in the index's rowid order (no sort)
 * through the pins_search_facts covering index, each with its ranking score. Pins created after
 * the search's anchor stay out, so later pages see the same set. Everything after this works
 * on at most CANDIDATES narrow rows; the wide pins rows are read for the page only.
 */
function candidatesSql(plan: PinFilterPlan, params: Params, facet = false): string {
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

/**
 * One page of pins and, on page 1, the guides (interests of the best GUIDE_SAMPLE candidates)
 * as a JSON column: one statement, so the candidates are found once.
 */
function pinPageStatement(db: D1Database, plan: PinFilterPlan, topPinId: string | null, limit: number, offset: number, withFacets: boolean): D1PreparedStatement {
  const params = new Params();
  const candidates = candidatesSql(plan, params);
  const bonus = titleBonusSql(plan.tokens.map((token) => params.add(token)));
  const top = params.add(topPinId);
  const guides =
    offset === 0
      ? `(SELECT json_group_array(term) FROM (
           SELECT gi.name AS term, count(*) AS n
           FROM (SELECT id FROM s ORDER BY score DESC, id DESC LIMIT ${GUIDE_SAMPLE}) m
           JOIN pin_interests gpi ON gpi.pin_id = m.id JOIN interests gi ON gi.id = gpi.interest_id
           GROUP BY gi.id ORDER BY n DESC, gi.name LIMIT ${MAX_GUIDES + 4}))`
      : "NULL";
  const sql = `${candidates},
    r AS MATERIALIZED (
      SELECT t.id AS id, t.score * ${bonus} AS score
      FROM (SELECT id, score FROM c ORDER BY score DESC, id DESC LIMIT ${TITLE_RERANK}) t JOIN pins p ON p.id = t.id),
    s AS MATERIALIZED (SELECT c.id AS id, coalesce(r.score, c.score) AS score FROM c LEFT JOIN r ON r.id = c.id)
    SELECT ${GRID_CELL_COLUMNS}, pg.score AS score, ${guides} AS guides_json${withFacets ? `, ${facetColumnsSql()}` : ""}
    FROM (SELECT id, score FROM s ORDER BY (id IS ${top}) DESC, score DESC, id DESC LIMIT ${params.add(limit)} OFFSET ${params.add(offset)}) pg
    JOIN pins p ON p.id = pg.id
    ${GRID_IMAGE_JOINS}
    ORDER BY (p.id IS ${top}) DESC, pg.score DESC, p.id DESC`;
  return db.prepare(sql).bind(...params.values);
}

/** Price, domain and category facets of buyable pins over the candidates without the product filters: one statement, JSON columns. */
function facetStatement(db: D1Database, plan: PinFilterPlan): D1PreparedStatement {
  const params = new Params();
  return db.prepare(`${candidatesSql(plan, params, true)} SELECT ${facetColumnsSql()}`).bind(...params.values);
}

/** The facet columns (JSON) over the candidate CTE `c`: uncorrelated, so computed once per statement. */
function facetColumnsSql(): string {
  return `(SELECT json_object('min', min(price), 'max', max(price)) FROM c WHERE price IS NOT NULL) AS price_json,
              (SELECT json_group_array(json_object('domain', domain, 'count', n)) FROM (
                 SELECT domain, count(*) AS n FROM c WHERE domain IS NOT NULL AND ${publishedDomainSql("c.domain")}
                 GROUP BY domain ORDER BY n DESC, domain LIMIT ${MAX_FACETS})) AS domains_json,
              (SELECT json_group_array(json_object('id', category, 'count', n)) FROM (
                 SELECT category, count(*) AS n FROM c WHERE category IS NOT NULL GROUP BY category ORDER BY n DESC, category LIMIT ${MAX_FACETS})) AS categories_json`;
}

/** The visible pins matching `match` under the plan, counted up to `cap`. */
function pinCountStatement(db: D1Database, plan: PinFilterPlan, cap: number): D1PreparedStatement {
  const params = new Params();
  const fromWhere = pinsFromWhere(plan, params);
  return db.prepare(`SELECT count(*) AS n FROM (SELECT 1 ${fromWhere} LIMIT ${params.add(cap)})`).bind(...params.values);
}

interface BoardRow {
  id: number;
  name: string;
  slug: string;
  visible_pin_count: number;
  username: string;
  full_name: string;
  cover_url: string | null;
  cover_width: number | null;
  cover_height: number | null;
}

/**
 * Boards by id with what a result shows: counts and cover only over pins the viewer may see.
 * With `visibleMatching` (a match expression) it also leaves out a board the viewer may not
 * see (the board page's rule, its owner's profile included, as board search requires) or whose text no
 * longer matches: the answer cache's re-read of remembered ids.
 */
function boardRowsStatement(db: D1Database, ids: readonly number[], viewer: number | null, visibleMatching: string | null = null): D1PreparedStatement {
  const visible =
    visibleMatching === null
      ? ""
      : `AND EXISTS (SELECT 1 FROM users vo WHERE vo.id = b.owner_id AND ${boardVisibleSql("vo", "?2")})
         AND b.id IN (SELECT rowid FROM search_boards WHERE search_boards MATCH ?3)`;
  return db
    .prepare(
      `WITH picked AS (
         SELECT b.id, b.name, b.slug, b.owner_id, b.cover_pin_id,
                ${listedPinCountSql("?2", "cbp.board_id = b.id")} AS visible_pin_count,
                (SELECT cp.id FROM board_pins cbp JOIN pins cp ON cp.id = cbp.pin_id LEFT JOIN boards cpb ON cpb.id = cp.board_id
                 JOIN users cpu ON cpu.id = cp.pinner_id
                 WHERE cbp.board_id = b.id AND ${visibleSql("gridPin", { pin: "cp", board: "cpb", pinner: "cpu" }, "?2")}
                 ORDER BY (cp.id IS b.cover_pin_id) DESC, cbp.position, cbp.pin_id LIMIT 1) AS cover_id
         FROM boards b WHERE b.id IN (SELECT value FROM json_each(?1)) ${visible})
       SELECT c.id, c.name, c.slug, c.visible_pin_count, u.username, u.full_name,
              i.url AS cover_url, i.width AS cover_width, i.height AS cover_height
       FROM picked c JOIN users u ON u.id = c.owner_id
       LEFT JOIN pin_images i ON i.pin_id = c.cover_id AND i.size = '236x'`,
    )
    .bind(JSON.stringify(ids), viewer, ...(visibleMatching === null ? [] : [visibleMatching]));
}

function boardItem(row: BoardRow): SearchBoardItem {
  return {
    type: "board",
    id: String(row.id),
    name: row.name,
    url: `/${row.username}/${row.slug}/`,
    pinCount: row.visible_pin_count,
    owner: { username: row.username, fullName: row.full_name },
    cover: row.cover_url !== null && row.cover_width !== null && row.cover_height !== null ? { url: row.cover_url, width: row.cover_width, height: row.cover_height } : null,
  };
}

interface UserRow {
  id: number;
  username: string;
  full_name: string;
  image_key: string | null;
  follower_count: number;
}

function userItem(row: UserRow): SearchUserItem {
  return {
    type: "user",
    id: String(row.id),
    username: row.username,
    fullName: row.full_name,
    imageUrl: userImageUrl(row.image_key, "medium"),
    followerCount: row.follower_count,
    url: `/${row.username}/`,
  };
}

/** FROM and WHERE of the visible boards matching; `ownerOnly` restricts to the viewer's own. */
function boardsFromWhere(match: string, viewer: number | null, user: string | null, ownerOnly: boolean, params: Params): string {
  const v = params.add(viewer);
  const where = [`search_boards MATCH ${params.add(match)}`, boardVisibleSql("o", v)];
  if (ownerOnly) where.push(`b.owner_id = ${v}`);
  if (user !== null) where.push(`b.owner_id = (SELECT id FROM users WHERE username = ${params.add(user)})`);
  return `FROM search_boards JOIN boards b ON b.id = search_boards.rowid JOIN users o ON o.id = b.owner_id
    WHERE ${where.join(" AND ")}`;
}

function emptyResponse(query: string, scope: Scope, viewer: SearchViewer, applied: string[]): SearchResponse {
  const filters = filtersFor(scope, applied);
  return {
    query,
    scope,
    results: [],
    bookmark: END_MARKER,
    guides: [],
    typo: null,
    nag: { kind: "few_results" },
    sensitivity: isSensitiveQuery(query) ? { kind: "sensitive_query" } : null,
    filters,
    tabs: tabsFor(scope, viewer),
    modeIcon: scope === "buyable_pins" ? "shopping" : scope === "videos" ? "video" : null,
    oneBarModules: oneBar(filters),
    productFilters: scope === "buyable_pins" ? { price: null, domains: [], categories: [] } : null,
  };
}

/**
 * One page of search results for a viewer. Throws a 400 (field options.bookmark) for a
 * bookmark another search wrote. Personal scopes need a signed-in viewer: the caller answers
 * 401 before calling; here they simply match nothing for a signed-out viewer.
 */
export async function search(db: D1Database, options: SearchOptions, viewer: SearchViewer): Promise<SearchResponse> {
  const scope: Scope = options.scope ?? "pins";
  const query = normalizeQuery(options.query);
  const identity = searchIdentity({ ...options, query }, scope);
  const key = fingerprint(identity);
  let bookmark: SearchBookmark | null = null;
  if (options.bookmark !== undefined) {
    bookmark = decodeBookmark(options.bookmark);
    if (!bookmark || bookmark.key !== key) throw badRequest([{ field: "options.bookmark", reason: "validation.invalid" }]);
  }
  const applied = splitList(options.filters);
  const tokens = [...tokensOf(query), ...splitList(options.applied_filters).flatMap(tokensOf)].slice(0, 16);
  const match = matchExpression(tokens);
  if (match === null || (PERSONAL_SCOPES.has(scope) && viewer.id === null)) return emptyResponse(query, scope, viewer, applied);

  const now = Date.now();
  const offset = bookmark?.offset ?? 0;
  const pageSize = options.page_size ?? DEFAULT_PAGE_SIZE;
  const limit = Math.min(pageSize, MAX_OFFSET - offset) + 1;
  // Signed out in a shared scope: every visitor asking this page gets the same answer.
  const cacheKey = viewer.id === null && ANSWERED_SCOPES.has(scope) ? answerKey(identity, offset, bookmark?.anchor ?? null, pageSize, options.top_pin_id ?? null) : null;
  const cached = cacheKey === null ? undefined : recallAnswer(cacheKey, now);
  const anchor = bookmark?.anchor ?? cached?.anchor ?? now;
  const createdDays = applied.filter((id) => id.startsWith("created:")).map((id) => Number.parseInt(id.slice("created:".length), 10));
  const plan: PinFilterPlan = {
    match,
    tokens,
    scope,
    viewer: viewer.id,
    anchor,
    kinds: applied.filter((id) => id.startsWith("kind:")).map((id) => id.slice("kind:".length)),
    createdDays: createdDays.length > 0 ? Math.min(...createdDays) : null,
    domains: options.domains ?? [],
    categories: splitList(options.product_filters),
    priceMin: options.price_min ?? null,
    priceMax: options.price_max ?? null,
    user: options.user ?? null,
    bubble: options.bubble_id ?? null,
  };

  let results: SearchItem[];
  let rowCount: number;
  let guides: { term: string }[] = [];
  let productFilters: ProductFilters | null = null;

  if (cached) {
    const wantFacets = offset === 0 && scope === "buyable_pins";
    const reread = await rereadAnswer(db, cached, plan, wantFacets);
    return finish(cached.hasMore, reread.results, cached.guides, scope === "buyable_pins" ? productFiltersOf(reread.facets) : null, cached.corrected);
  }

  if (PIN_SCOPES.has(scope)) {
    // buyable_pins page 1 answers facets over the candidates without the product filters: with
    // none applied those are the page's own candidates, counted in the page statement itself.
    const wantFacets = offset === 0 && scope === "buyable_pins";
    const productFiltered = plan.domains.length > 0 || plan.categories.length > 0 || plan.priceMin !== null || plan.priceMax !== null;
    const statements = [pinPageStatement(db, plan, options.top_pin_id ?? null, limit, offset, wantFacets && !productFiltered)];
    if (wantFacets && productFiltered) statements.push(facetStatement(db, plan));
    const [pageResult, facetResult] = await db.batch(statements);
    const rows = (pageResult?.results ?? []) as Array<ScoredPinRow & { guides_json: string | null } & Partial<FacetRow>>;
    rowCount = rows.length;
    results = rows.slice(0, limit - 1).map((row) => ({ type: "pin", ...gridPin(row) }));
    const guideNames = rows[0]?.guides_json ? (JSON.parse(rows[0].guides_json) as string[]) : [];
    guides = guideTerms(guideNames.map((term) => ({ term })), query, splitList(options.applied_filters));
    if (scope === "buyable_pins") productFilters = productFiltersOf((productFiltered ? (facetResult?.results?.[0] ?? null) : (rows[0] ?? null)) as FacetRow | null);
  } else if (scope === "boards") {
    const params = new Params();
    const fromWhere = boardsFromWhere(match, viewer.id, plan.user, false, params);
    const anchorParam = params.add(anchor);
    const ids = await db
      .prepare(`SELECT b.id AS id ${fromWhere} ORDER BY ${boardScoreSql(anchorParam)} DESC, b.id DESC LIMIT ${params.add(limit)} OFFSET ${params.add(offset)}`)
      .bind(...params.values)
      .all<{ id: number }>();
    rowCount = ids.results.length;
    results = await hydrate(db, ids.results.slice(0, limit - 1).map((row) => ({ type: "board" as const, id: row.id })), viewer.id);
  } else if (scope === "users") {
    const params = new Params();
    const v = params.add(viewer.id);
    const where = [`search_users MATCH ${params.add(match)}`, profileVisibleSql(v)];
    if (plan.user !== null) where.push(`u.username = ${params.add(plan.user)}`);
    const rows = await db
      .prepare(
        `SELECT u.id, u.username, u.full_name, u.image_key, u.follower_count
         FROM search_users JOIN users u ON u.id = search_users.rowid
         WHERE ${where.join(" AND ")}
         ORDER BY ${userScoreSql()} DESC, u.id DESC LIMIT ${params.add(limit)} OFFSET ${params.add(offset)}`,
      )
      .bind(...params.values)
      .all<UserRow>();
    rowCount = rows.results.length;
    results = rows.results.slice(0, limit - 1).map(userItem);
  } else {
    // my_content: the viewer's own pins and boards, one ranking over both.
    const params = new Params();
    const pinPart = pinsFromWhere({ ...plan, scope: "my_pins" }, params);
    const anchorParam = params.add(anchor);
    const boardPart = boardsFromWhere(match, viewer.id, plan.user, true, params);
    const rows = await db
      .prepare(
        `SELECT type, id FROM (
           SELECT 'pin' AS type, p.id AS id, ${pinScoreSql(anchorParam)} AS score ${pinPart}
             AND ${HAS_GRID_IMAGE_SQL}
           UNION ALL
           SELECT 'board' AS type, b.id AS id, ${boardScoreSql(anchorParam)} AS score ${boardPart})
         ORDER BY score DESC, type, id DESC LIMIT ${params.add(limit)} OFFSET ${params.add(offset)}`,
      )
      .bind(...params.values)
      .all<{ type: "pin" | "board"; id: number }>();
    rowCount = rows.results.length;
    results = await hydrate(db, rows.results.slice(0, limit - 1), viewer.id);
  }

  const hasMore = rowCount >= limit && offset + limit - 1 < MAX_OFFSET;
  const few = offset === 0 && !hasMore && results.length < FEW_RESULTS;
  const typo = few && PIN_SCOPES.has(scope) && !PERSONAL_SCOPES.has(scope) ? await typoFor(db, query, plan, results.length, tokens) : null;
  if (cacheKey !== null) {
    const ids = results.map((item) => Number(item.id));
    rememberAnswer(cacheKey, { kind: scope === "boards" ? "board" : "pin", ids, hasMore, anchor, guides, corrected: typo?.corrected ?? null }, now);
  }
  return finish(hasMore, results, guides, productFilters, typo?.corrected ?? null);

  /** The response around a page: everything else is the request's own (its spelling of the query included). */
  function finish(more: boolean, page: SearchItem[], pageGuides: { term: string }[], facets: ProductFilters | null, corrected: string | null): SearchResponse {
    const nag = offset === 0 && !more && page.length < FEW_RESULTS;
    const filters = filtersFor(scope, applied);
    return {
      query,
      scope,
      results: page,
      bookmark: more ? encodeBookmark({ key, offset: offset + limit - 1, anchor }) : END_MARKER,
      guides: pageGuides,
      typo: corrected === null ? null : { original: query, corrected },
      nag: nag ? { kind: "few_results" } : null,
      sensitivity: isSensitiveQuery(query) ? { kind: "sensitive_query" } : null,
      filters,
      tabs: tabsFor(scope, viewer),
      modeIcon: scope === "buyable_pins" ? "shopping" : scope === "videos" ? "video" : null,
      oneBarModules: oneBar(filters),
      productFilters: facets,
    };
  }
}

/**
 * Pins by id with what a grid cell shows, only those a signed-out viewer may see now
 * (pinVisibleSql with a null viewer) and whose text still matches: the answer cache's re-read
 * of remembered ids. The match is read once over the ids' rowid range (a bloom-filtered set,
 * 0.2–0.4 ms at 100,000 pins; a MATCH per id would be ~60 µs each).
 */
function visiblePinRowsStatement(db: D1Database, ids: readonly number[], match: string): D1PreparedStatement {
  const params = new Params();
  return db
    .prepare(
      `SELECT ${GRID_CELL_COLUMNS} FROM pins p
       ${PIN_VISIBILITY_JOINS}
       ${GRID_IMAGE_JOINS}
       WHERE ${rememberedMatchingSql("p.id", ids, "search_pins", match, params)} AND ${pinVisibleSql(null)}`,
    )
    .bind(...params.values);
}

/**
 * `column` is one of the remembered `ids` and its row still matches `match` in the full-text
 * table: the re-read of a remembered answer. The match is read once over the ids' rowid range.
 */
function rememberedMatchingSql(column: string, ids: readonly number[], table: "search_pins" | "search_boards" | "search_users", match: string, params: Params): string {
  return `${column} IN (SELECT value FROM json_each(${params.add(JSON.stringify(ids))}))
         AND ${column} IN (SELECT rowid FROM ${table} WHERE ${table} MATCH ${params.add(match)}
                           AND rowid BETWEEN ${params.add(Math.min(...ids))} AND ${params.add(Math.max(...ids))})`;
}

/**
 * A remembered answer's page (answer-cache.server.ts): its rows re-read in one statement that
 * applies visibility and the match again (with buyable_pins' page-1 facets, never remembered,
 * beside it), in the remembered order; a row no longer visible or matching is left out.
 */
async function rereadAnswer(db: D1Database, answer: CachedAnswer, plan: PinFilterPlan, wantFacets: boolean): Promise<{ results: SearchItem[]; facets: FacetRow | null }> {
  const statements: D1PreparedStatement[] = [];
  if (answer.ids.length > 0) statements.push(answer.kind === "pin" ? visiblePinRowsStatement(db, answer.ids, plan.match) : boardRowsStatement(db, answer.ids, null, plan.match));
  if (wantFacets) statements.push(facetStatement(db, plan));
  if (statements.length === 0) return { results: [], facets: null };
  const answers = await db.batch(statements);
  const rowResult = answer.ids.length > 0 ? answers[0] : undefined;
  const facetResult = wantFacets ? answers.at(-1) : undefined;
  const rows = rowResult?.results ?? [];
  const results = itemsInOrder(
    answer.ids.map((id) => ({ type: answer.kind, id })),
    answer.kind === "pin" ? (rows as GridCellRow[]) : [],
    answer.kind === "board" ? (rows as BoardRow[]) : [],
  );
  return { results, facets: wantFacets ? ((facetResult?.results?.[0] ?? null) as FacetRow | null) : null };
}

function productFiltersOf(facets: FacetRow | null): ProductFilters {
  const price = facets?.price_json ? (JSON.parse(facets.price_json) as { min: number | null; max: number | null }) : null;
  return {
    price: price && price.min !== null && price.max !== null ? { min: price.min, max: price.max } : null,
    domains: facets?.domains_json ? (JSON.parse(facets.domains_json) as Array<{ domain: string; count: number }>) : [],
    categories: facets?.categories_json ? (JSON.parse(facets.categories_json) as Array<{ id: string; count: number }>) : [],
  };
}

/** Pins and boards by id, in the order given; a row gone since the ranking is left out. */
async function hydrate(db: D1Database, refs: ReadonlyArray<{ type: "pin" | "board"; id: number }>, viewer: number | null): Promise<SearchItem[]> {
  if (refs.length === 0) return [];
  const pinIds = refs.filter((ref) => ref.type === "pin").map((ref) => ref.id);
  const boardIds = refs.filter((ref) => ref.type === "board").map((ref) => ref.id);
  const [pinResult, boardResult] = await db.batch([
    db.prepare(`SELECT ${GRID_CELL_COLUMNS} FROM pins p ${GRID_IMAGE_JOINS} WHERE p.id IN (SELECT value FROM json_each(?1))`).bind(JSON.stringify(pinIds)),
    boardRowsStatement(db, boardIds, viewer),
  ]);
  return itemsInOrder(refs, (pinResult?.results ?? []) as GridCellRow[], (boardResult?.results ?? []) as BoardRow[]);
}

/** Result items for `refs` in their order, from the rows read for them; a ref without a row is left out. */
function itemsInOrder(refs: ReadonlyArray<{ type: "pin" | "board"; id: number }>, pinRows: readonly GridCellRow[], boardRows: readonly BoardRow[]): SearchItem[] {
  const pins = new Map(pinRows.map((row) => [row.id, row]));
  const boards = new Map(boardRows.map((row) => [row.id, row]));
  const items: SearchItem[] = [];
  for (const ref of refs) {
    if (ref.type === "pin") {
      const row = pins.get(ref.id);
      if (row) items.push({ type: "pin", ...gridPin(row) });
    } else {
      const row = boards.get(ref.id);
      if (row) items.push(boardItem(row));
    }
  }
  return items;
}

function guideTerms(rows: ReadonlyArray<{ term: string }>, query: string, appliedTerms: readonly string[]): { term: string }[] {
  const taken = new Set([query, ...appliedTerms].map((term) => normalizeQuery(term).toLowerCase()));
  const out: { term: string }[] = [];
  for (const row of rows) {
    const key = row.term.toLowerCase();
    if (taken.has(key) || out.length >= MAX_GUIDES) continue;
    taken.add(key);
    out.push({ term: row.term });
  }
  return out;
}

/**
 * A query word in at least this many documents of the index (search_pins_vocab `doc`) that the
 * viewer can also see at least this many pins of (under the search's scope and filters) is
 * spelt right: it is never corrected. The typo path runs only when the query found fewer than
 * FEW_RESULTS pins; a word the viewer sees on 4× that many pins is not why results are few
 * (the combination is), and looking for its neighbours is most of a typo check's cost
 * ("brown butter banana bread": 4 vocabulary scans and 20 counts, 22 ms at 100,000 pins). At
 * 100,000 pins the vocabulary's tail sits below it (681 terms on 1 document, 101 on 2–4),
 * common words far above. Both counts must pass: the vocabulary counts secret, hidden and
 * deleted pins too, and those must not decide anything a viewer sees (a word only secret pins
 * hold is corrected exactly like a word that does not exist).
 */
export const KNOWN_WORD_DOCS = FEW_RESULTS * 4;
/** Vocabulary terms looked at per misspelt word: the commonest of the same first letter and near length. */
const TYPO_CANDIDATES = 400;
/** The closest of those (by distance) whose visible pins are counted; the most visible one wins. */
const TYPO_CLOSEST = 5;
/** Visible pins are counted up to this many per candidate: enough to rank a handful. */
const TYPO_COUNT_CAP = 50;

/**
 * A close query with more visible results, when one exists: each of the first five words is
 * swapped for the index term within edit distance 2 (same first letter) that has the most pins
 * the viewer may see, among its closest few, when that is more than the query found; the
 * corrected words (with the query's later words and the applied filters' words unchanged) are
 * offered only when the viewer would see more pins for them. Only visible counts decide: a
 * word or a candidate that only secret, hidden or deleted pins hold changes nothing.
 */
async function typoFor(db: D1Database, query: string, plan: PinFilterPlan, found: number, matchTokens: readonly string[]): Promise<{ original: string; corrected: string } | null> {
  const queryTokens = tokensOf(query);
  const tokens = queryTokens.slice(0, 5);
  if (tokens.length === 0) return null;
  const misspelt = await lookMisspelt(db, tokens, plan);
  if (misspelt.size === 0) return null;
  const lookups = tokens.map((token) => {
    if (!misspelt.has(token)) return null;
    const first = Array.from(token)[0]!;
    const next = String.fromCodePoint(first.codePointAt(0)! + 1);
    const length = Array.from(token).length;
    return db
      .prepare(
        `SELECT term, doc FROM search_pins_vocab WHERE term >= ?1 AND term < ?2 AND length(term) BETWEEN ?3 AND ?4
         ORDER BY doc DESC LIMIT ${TYPO_CANDIDATES}`,
      )
      .bind(first, next, Math.max(1, length - 2), length + 2);
  });
  const asked = lookups.filter((lookup) => lookup !== null);
  const answers = await db.batch<{ term: string; doc: number }>(asked);
  const vocab = lookups.map((lookup) => (lookup === null ? [] : (answers[asked.indexOf(lookup)]?.results ?? [])));
  const closest = tokens.map((token, index) =>
    vocab[index]!
      .filter((candidate) => candidate.term !== token)
      .map((candidate) => ({ term: candidate.term, distance: editDistance(token, candidate.term, 2) }))
      .filter((candidate) => candidate.distance <= 2)
      .sort((a, b) => a.distance - b.distance)
      .slice(0, TYPO_CLOSEST),
  );
  const candidates = closest.flat();
  if (candidates.length === 0) return null;
  // Each candidate's visible pins under the plan's scope and filters: the same rule as results.
  const counts = await db.batch<{ n: number }>(candidates.map((candidate) => pinCountStatement(db, { ...plan, match: matchExpression([candidate.term])! }, TYPO_COUNT_CAP)));
  const visible = new Map(candidates.map((candidate, index) => [candidate.term, Number(counts[index]?.results[0]?.n ?? 0)]));
  let changed = false;
  const corrected = tokens.map((token, index) => {
    let best: { term: string; distance: number; visible: number } | null = null;
    for (const candidate of closest[index]!) {
      const count = visible.get(candidate.term) ?? 0;
      if (count <= found) continue;
      if (!best || count > best.visible || (count === best.visible && (candidate.distance < best.distance || (candidate.distance === best.distance && candidate.term < best.term)))) {
        best = { ...candidate, visible: count };
      }
    }
    if (!best) return token;
    changed = true;
    return best.term;
  });
  if (!changed) return null;
  // The plan's match holds the query's words then the applied filters' words: only the first five change.
  const correctedMatch = matchExpression([...corrected, ...matchTokens.slice(corrected.length)]);
  if (correctedMatch === null) return null;
  const count = await pinCountStatement(db, { ...plan, match: correctedMatch }, FEW_RESULTS * 4).first<{ n: number }>();
  if (!count || count.n <= found) return null;
  return { original: query, corrected: [...corrected, ...queryTokens.slice(corrected.length)].join(" ") };
}

/**
 * The query words that may be misspelt: all but those the vocabulary holds in KNOWN_WORD_DOCS
 * documents and the viewer sees on KNOWN_WORD_DOCS pins under the plan. One round trip: a
 * vocabulary lookup by term (cheap: one doclist per word) and a visible count per word that
 * stops at the threshold.
 */
async function lookMisspelt(db: D1Database, tokens: readonly string[], plan: PinFilterPlan): Promise<Set<string>> {
  const words = [...new Set(tokens)];
  const [docs, ...visible] = await db.batch([
    db.prepare("SELECT term, doc FROM search_pins_vocab WHERE term IN (SELECT value FROM json_each(?1))").bind(JSON.stringify(words)),
    ...words.map((word) => pinCountStatement(db, { ...plan, match: matchExpression([word])! }, KNOWN_WORD_DOCS)),
  ]);
  const inIndex = new Map(((docs?.results ?? []) as Array<{ term: string; doc: number }>).map((row) => [row.term, Number(row.doc)]));
  return new Set(
    words.filter((word, index) => {
      const seen = Number((visible[index]?.results[0] as { n: number } | undefined)?.n ?? 0);
      return !((inIndex.get(word) ?? 0) >= KNOWN_WORD_DOCS && seen >= KNOWN_WORD_DOCS);
    }),
  );
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

/** A pin the viewer may find in search (the searchPin rule), or null. */
async function visiblePin(db: D1Database, pinId: string, viewer: number | null): Promise<{ id: number; kind: string } | null> {
  return db
    .prepare(
      `SELECT p.id, p.kind FROM pins p JOIN users pu ON pu.id = p.pinner_id LEFT JOIN boards b ON b.id = p.board_id
       WHERE p.id = ?1 AND ${pinVisibleSql("?2")}`,
    )
    .bind(pinId, viewer)
    .first<{ id: number; kind: string }>();
}

/** VisualLiveSearchResource: the pin's interests as search links; null when the viewer may not see the pin. */
export async function visualAnnotations(db: D1Database, pinId: string, viewer: SearchViewer): Promise<{ annotations: { term: string; url: string }[] } | null> {
  const pin = await visiblePin(db, pinId, viewer.id);
  if (!pin) return null;
  const rows = await db
    .prepare("SELECT i.name FROM pin_interests pi JOIN interests i ON i.id = pi.interest_id WHERE pi.pin_id = ?1 ORDER BY i.name LIMIT 20")
    .bind(pin.id)
    .all<{ name: string }>();
  return { annotations: rows.results.map((row) => ({ term: row.name, url: searchUrl("pins", row.name, { rs: "guide" }) })) };
}

/** Pins looked at for the flashlight's facets: the newest visible related ones. */
const FLASHLIGHT_SET = 300;

/**
 * VisualSearchFlashlightUnifiedResource: price, domain and category facets over the pin's
 * visually related set (visible pins of the same kind sharing one of its interests, matching
 * `query` when given). Null when the viewer may not see the pin.
 */
export async function flashlightFilters(
  db: D1Database,
  pinId: string,
  query: string | undefined,
  viewer: SearchViewer,
): Promise<{ price_filters: { min: number; max: number }[]; domain_filters: { domain: string; count: number }[]; category_filters: { id: string; count: number }[] } | null> {
  const pin = await visiblePin(db, pinId, viewer.id);
  if (!pin) return null;
  const match = query === undefined ? null : matchExpression(tokensOf(query));
  const params = new Params();
  const v = params.add(viewer.id);
  const pinParam = params.add(pin.id);
  const kind = params.add(pin.kind);
  // Read newest first along pin_interests' interest index, stopping at FLASHLIGHT_SET rows.
  const row = await db
    .prepare(
      `WITH r AS MATERIALIZED (
         SELECT p.id AS id, p.price_value AS price, p.domain AS domain, p.category AS category
         FROM pins p INDEXED BY pins_search_facts
         JOIN users pu ON pu.id = p.pinner_id LEFT JOIN boards b ON b.id = p.board_id
         WHERE p.id IN (SELECT rpi.pin_id FROM pin_interests rpi WHERE rpi.interest_id IN (SELECT opi.interest_id FROM pin_interests opi WHERE opi.pin_id = ${pinParam}))
           AND p.id != ${pinParam} AND p.kind = ${kind} AND ${pinVisibleSql(v)}
           ${match === null ? "" : `AND p.id IN (SELECT rowid FROM search_pins WHERE search_pins MATCH ${params.add(match)})`}
         ORDER BY p.id DESC LIMIT ${FLASHLIGHT_SET})
       SELECT (SELECT json_group_array(price) FROM (SELECT price FROM r WHERE price IS NOT NULL ORDER BY price)) AS prices_json,
              (SELECT json_group_array(json_object('domain', domain, 'count', n)) FROM (
                 SELECT domain, count(*) AS n FROM r WHERE domain IS NOT NULL AND ${publishedDomainSql("r.domain")}
                 GROUP BY domain ORDER BY n DESC, domain LIMIT ${MAX_FACETS})) AS domains_json,
              (SELECT json_group_array(json_object('id', category, 'count', n)) FROM (
                 SELECT category, count(*) AS n FROM r WHERE category IS NOT NULL GROUP BY category ORDER BY n DESC, category LIMIT ${MAX_FACETS})) AS categories_json`,
    )
    .bind(...params.values)
    .first<{ prices_json: string; domains_json: string; categories_json: string }>();
  return {
    price_filters: priceBuckets(row ? (JSON.parse(row.prices_json) as number[]) : []),
    domain_filters: row ? (JSON.parse(row.domains_json) as Array<{ domain: string; count: number }>) : [],
    category_filters: row ? (JSON.parse(row.categories_json) as Array<{ id: string; count: number }>) : [],
  };
}

/** Up to four price ranges splitting sorted prices into quarters (ranges that would repeat are merged). */
export function priceBuckets(sorted: readonly number[]): { min: number; max: number }[] {
  if (sorted.length === 0) return [];
  const buckets: { min: number; max: number }[] = [];
  const quarters = Math.min(4, sorted.length);
  for (let i = 0; i < quarters; i++) {
    const from = sorted[Math.floor((i * sorted.length) / quarters)]!;
    const to = sorted[Math.floor(((i + 1) * sorted.length) / quarters) - 1]!;
    const last = buckets.at(-1);
    if (last && from <= last.max) last.max = Math.max(last.max, to);
    else buckets.push({ min: from, max: to });
  }
  return buckets;
}
