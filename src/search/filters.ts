// The filters a search answer offers: the filter chips of a scope, and the shop's price, domain
// and category facets read from the JSON columns filters.server.ts selects. Pure.
import { CREATED_FILTERS, KIND_FILTERS, PIN_SCOPES, type Scope } from "./options.ts";
import type { ProductFilters, SearchChip } from "./types.ts";

const MAX_CHIPS = 6;

/** The filter chips a scope offers: kinds where kinds differ, creation windows on every pin scope. */
export function filtersFor(scope: Scope, applied: readonly string[]): SearchChip[] {
  if (!PIN_SCOPES.has(scope)) return [];
  const ids: string[] = scope === "pins" || scope === "my_pins" ? [...KIND_FILTERS, ...CREATED_FILTERS] : [...CREATED_FILTERS];
  return ids.map((id) => ({ id, applied: applied.includes(id) }));
}

/** The quick chips: the applied ones first, at most MAX_CHIPS. */
export function oneBar(filters: SearchChip[]): SearchChip[] {
  return [...filters.filter((chip) => chip.applied), ...filters.filter((chip) => !chip.applied)].slice(0, MAX_CHIPS);
}

/** The facet columns of a search's candidates (filters.server.ts facetColumnsSql), as JSON. */
export interface FacetRow {
  price_json: string | null;
  domains_json: string | null;
  categories_json: string | null;
}

export function productFiltersOf(facets: FacetRow | null): ProductFilters {
  const price = facets?.price_json ? (JSON.parse(facets.price_json) as { min: number | null; max: number | null }) : null;
  return {
    price: price && price.min !== null && price.max !== null ? { min: price.min, max: price.max } : null,
    domains: facets?.domains_json ? (JSON.parse(facets.domains_json) as Array<{ domain: string; count: number }>) : [],
    categories: facets?.categories_json ? (JSON.parse(facets.categories_json) as Array<{ id: string; count: number }>) : [],
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
