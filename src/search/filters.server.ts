// The shop's filters as SQL: the price, domain and category facets of a search's candidates
// (buyable_pins) and of a pin's visually related set (the flashlight). Both publish a domain
// only under the published-domain rule, so a blocked host's name is never answered.
import { publishedDomainSql } from "~/visibility/visibility.server.ts";
import { priceBuckets } from "./filters.ts";
import { Params, candidatesSql, pinVisibleSql, visiblePin } from "./matching.server.ts";
import type { PinFilterPlan, SearchViewer } from "./plan.ts";
import { matchExpression, tokensOf } from "./query.ts";
import type { FlashlightFilters } from "./types.ts";

const MAX_FACETS = 10;

/** Price, domain and category facets of buyable pins over the candidates without the product filters: one statement, JSON columns. */
export function facetStatement(db: D1Database, plan: PinFilterPlan): D1PreparedStatement {
  const params = new Params();
  return db.prepare(`${candidatesSql(plan, params, true)} SELECT ${facetColumnsSql()}`).bind(...params.values);
}

/** The facet columns (JSON) over the candidate CTE `c`: uncorrelated, so computed once per statement. */
export function facetColumnsSql(): string {
  return `(SELECT json_object('min', min(price), 'max', max(price)) FROM c WHERE price IS NOT NULL) AS price_json,
              (SELECT json_group_array(json_object('domain', domain, 'count', n)) FROM (
                 SELECT domain, count(*) AS n FROM c WHERE domain IS NOT NULL AND ${publishedDomainSql("c.domain")}
                 GROUP BY domain ORDER BY n DESC, domain LIMIT ${MAX_FACETS})) AS domains_json,
              (SELECT json_group_array(json_object('id', category, 'count', n)) FROM (
                 SELECT category, count(*) AS n FROM c WHERE category IS NOT NULL GROUP BY category ORDER BY n DESC, category LIMIT ${MAX_FACETS})) AS categories_json`;
}

/** Pins looked at for the flashlight's facets: the newest visible related ones. */
const FLASHLIGHT_SET = 300;

/**
 * VisualSearchFlashlightUnifiedResource: price, domain and category facets over the pin's
 * visually related set (visible pins of the same kind sharing one of its interests, matching
 * `query` when given). Null when the viewer may not see the pin.
 */
export async function flashlightFilters(db: D1Database, pinId: string, query: string | undefined, viewer: SearchViewer): Promise<FlashlightFilters | null> {
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
