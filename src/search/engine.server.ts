// The search engine: one page of pins, boards or people matching a search, ranked by
// src/search/ranking.ts over the visible matches of matching.server.ts, paged by a bookmark
// bound to its search, remembered for signed-out visitors (answer-cache.server.ts), with a
// typo suggestion when it finds few pins (typo.server.ts).
import { badRequest } from "~/domain/errors.ts";
import { GRID_CELL_COLUMNS, GRID_IMAGE_JOINS, gridPin, type GridCellRow } from "~/pins/pins.server.ts";
import { ANSWERED_SCOPES, answerKey, recallAnswer, rememberAnswer } from "./answer-cache.server.ts";
import { productFiltersOf, type FacetRow } from "./filters.ts";
import { facetColumnsSql, facetStatement } from "./filters.server.ts";
import { userItem, type UserRow } from "./items.ts";
import { HAS_GRID_IMAGE_SQL, Params, boardsFromWhere, candidatesSql, pinsFromWhere, profileVisibleSql } from "./matching.server.ts";
import { DEFAULT_PAGE_SIZE, PERSONAL_SCOPES, PIN_SCOPES, splitList, type SearchOptions } from "./options.ts";
import { parseSearch, pinFilterPlan, type PinFilterPlan, type SearchViewer } from "./plan.ts";
import { MAX_OFFSET, decodeBookmark, type SearchBookmark } from "./query.ts";
import { boardScoreSql, pinScoreSql, titleBonusSql, userScoreSql } from "./ranking.ts";
import { FEW_RESULTS, MAX_GUIDES, emptyResponse, guideTerms, pageResponse, type PageRequest } from "./response.ts";
import { hydrate, rereadAnswer } from "./results.server.ts";
import { typoFor } from "./typo.server.ts";
import type { ProductFilters, SearchItem, SearchResponse } from "./types.ts";

/** Pins whose interests feed the guides: the best-ranked visible ones. */
const GUIDE_SAMPLE = 200;
/**
 * The best-ranked candidates given the all-in-title bonus (ranking.ts titleBonusSql): their
 * titles are read (wide pins rows) for it. A title holding every word already ranks high by
 * its ×10 title weight; the bonus settles the order among the leaders.
 */
const TITLE_RERANK = 200;

interface ScoredPinRow extends GridCellRow {
  score: number;
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

/** A page as read: `rowCount` rows came back for the `limit` asked (one more than shown tells that more follow). */
interface PageRows {
  rowCount: number;
  results: SearchItem[];
  guides: { term: string }[];
  productFilters: ProductFilters | null;
}

/**
 * A page of a pin scope: the page and its guides in one statement; buyable_pins page 1 answers
 * facets over the candidates without the product filters: with none applied those are the
 * page's own candidates, counted in the page statement itself.
 */
async function pinPage(db: D1Database, plan: PinFilterPlan, request: PageRequest, options: SearchOptions): Promise<PageRows> {
  const { offset, limit } = request;
  const wantFacets = offset === 0 && plan.scope === "buyable_pins";
  const productFiltered = plan.domains.length > 0 || plan.categories.length > 0 || plan.priceMin !== null || plan.priceMax !== null;
  const statements = [pinPageStatement(db, plan, options.top_pin_id ?? null, limit, offset, wantFacets && !productFiltered)];
  if (wantFacets && productFiltered) statements.push(facetStatement(db, plan));
  const [pageResult, facetResult] = await db.batch(statements);
  const rows = (pageResult?.results ?? []) as Array<ScoredPinRow & { guides_json: string | null } & Partial<FacetRow>>;
  const guideNames = rows[0]?.guides_json ? (JSON.parse(rows[0].guides_json) as string[]) : [];
  return {
    rowCount: rows.length,
    results: rows.slice(0, limit - 1).map((row) => ({ type: "pin", ...gridPin(row) })),
    guides: guideTerms(guideNames.map((term) => ({ term })), request.query, splitList(options.applied_filters)),
    productFilters: plan.scope === "buyable_pins" ? productFiltersOf((productFiltered ? (facetResult?.results?.[0] ?? null) : (rows[0] ?? null)) as FacetRow | null) : null,
  };
}

/** A page of the boards scope: ranked ids, then the boards' rows. */
async function boardPage(db: D1Database, plan: PinFilterPlan, request: PageRequest): Promise<PageRows> {
  const { offset, limit } = request;
  const params = new Params();
  const fromWhere = boardsFromWhere(plan.match, plan.viewer, plan.user, false, params);
  const anchorParam = params.add(plan.anchor);
  const ids = await db
    .prepare(`SELECT b.id AS id ${fromWhere} ORDER BY ${boardScoreSql(anchorParam)} DESC, b.id DESC LIMIT ${params.add(limit)} OFFSET ${params.add(offset)}`)
    .bind(...params.values)
    .all<{ id: number }>();
  const results = await hydrate(db, ids.results.slice(0, limit - 1).map((row) => ({ type: "board" as const, id: row.id })), plan.viewer);
  return { rowCount: ids.results.length, results, guides: [], productFilters: null };
}

/** A page of the users scope: one statement. */
async function userPage(db: D1Database, plan: PinFilterPlan, request: PageRequest): Promise<PageRows> {
  const { offset, limit } = request;
  const params = new Params();
  const v = params.add(plan.viewer);
  const where = [`search_users MATCH ${params.add(plan.match)}`, profileVisibleSql(v)];
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
  return { rowCount: rows.results.length, results: rows.results.slice(0, limit - 1).map(userItem), guides: [], productFilters: null };
}

/** A page of my_content: the viewer's own pins and boards, one ranking over both. */
async function myContentPage(db: D1Database, plan: PinFilterPlan, request: PageRequest): Promise<PageRows> {
  const { offset, limit } = request;
  const params = new Params();
  const pinPart = pinsFromWhere({ ...plan, scope: "my_pins" }, params);
  const anchorParam = params.add(plan.anchor);
  const boardPart = boardsFromWhere(plan.match, plan.viewer, plan.user, true, params);
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
  const results = await hydrate(db, rows.results.slice(0, limit - 1), plan.viewer);
  return { rowCount: rows.results.length, results, guides: [], productFilters: null };
}

/** The page of a search's scope, ranked fresh. */
function readPage(db: D1Database, plan: PinFilterPlan, request: PageRequest, options: SearchOptions): Promise<PageRows> {
  if (PIN_SCOPES.has(plan.scope)) return pinPage(db, plan, request, options);
  if (plan.scope === "boards") return boardPage(db, plan, request);
  if (plan.scope === "users") return userPage(db, plan, request);
  return myContentPage(db, plan, request);
}

/** The bookmark a request carries, or null on page 1; a 400 (field options.bookmark) for one another search wrote. */
function bookmarkOf(text: string | undefined, key: string): SearchBookmark | null {
  if (text === undefined) return null;
  const bookmark = decodeBookmark(text);
  if (!bookmark || bookmark.key !== key) throw badRequest([{ field: "options.bookmark", reason: "validation.invalid" }]);
  return bookmark;
}

/**
 * One page of search results for a viewer. Throws a 400 (field options.bookmark) for a
 * bookmark another search wrote. Personal scopes need a signed-in viewer: the caller answers
 * 401 before calling; here they simply match nothing for a signed-out viewer.
 */
export async function search(db: D1Database, options: SearchOptions, viewer: SearchViewer): Promise<SearchResponse> {
  const parsed = parseSearch(options);
  const { scope, query, key, applied, match } = parsed;
  const bookmark = bookmarkOf(options.bookmark, key);
  if (match === null || (PERSONAL_SCOPES.has(scope) && viewer.id === null)) return emptyResponse(query, scope, viewer, applied);

  const now = Date.now();
  const offset = bookmark?.offset ?? 0;
  const pageSize = options.page_size ?? DEFAULT_PAGE_SIZE;
  const limit = Math.min(pageSize, MAX_OFFSET - offset) + 1;
  // Signed out in a shared scope: every visitor asking this page gets the same answer.
  const cacheKey = viewer.id === null && ANSWERED_SCOPES.has(scope) ? answerKey(parsed.identity, offset, bookmark?.anchor ?? null, pageSize, options.top_pin_id ?? null) : null;
  const cached = cacheKey === null ? undefined : recallAnswer(cacheKey, now);
  const anchor = bookmark?.anchor ?? cached?.anchor ?? now;
  const plan = pinFilterPlan(options, { ...parsed, match }, viewer, anchor);
  const request: PageRequest = { query, scope, viewer, applied, key, offset, limit, anchor };

  if (cached) {
    const reread = await rereadAnswer(db, cached, plan, offset === 0 && scope === "buyable_pins");
    const productFilters = scope === "buyable_pins" ? productFiltersOf(reread.facets) : null;
    return pageResponse(request, { more: cached.hasMore, results: reread.results, guides: cached.guides, productFilters, corrected: cached.corrected });
  }

  const page = await readPage(db, plan, request, options);
  const more = page.rowCount >= limit && offset + limit - 1 < MAX_OFFSET;
  const few = offset === 0 && !more && page.results.length < FEW_RESULTS;
  const typo = few && PIN_SCOPES.has(scope) && !PERSONAL_SCOPES.has(scope) ? await typoFor(db, query, plan, page.results.length, parsed.tokens) : null;
  const corrected = typo?.corrected ?? null;
  if (cacheKey !== null) {
    const ids = page.results.map((item) => Number(item.id));
    rememberAnswer(cacheKey, { kind: scope === "boards" ? "board" : "pin", ids, hasMore: more, anchor, guides: page.guides, corrected }, now);
  }
  return pageResponse(request, { more, results: page.results, guides: page.guides, productFilters: page.productFilters, corrected });
}
