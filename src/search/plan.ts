// A search request read into what the engine runs: the words and FTS5 match of its query and
// applied guides, the filter chips, the identity its bookmark and answer cache are bound to,
// and the plan every pin read of the search shares. Pure: the SQL that runs a plan is in
// matching.server.ts.
import { normalizeQuery, splitList, type Scope, type SearchOptions } from "./options.ts";
import { fingerprint, matchExpression, tokensOf } from "./query.ts";

export interface SearchViewer {
  id: number | null;
}

/** What the pin reads of one search filter on: its match, scope, viewer, clock and filters. */
export interface PinFilterPlan {
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

/** A search's options as the engine reads them, before any D1 read. */
interface ParsedSearch {
  scope: Scope;
  /** The query in its normal form (normalizeQuery), as the response echoes it. */
  query: string;
  /** searchIdentity(): the answer cache's key. */
  identity: string;
  /** fingerprint() of the identity: the key a bookmark of this search carries. */
  key: string;
  /** The filter chips applied (`filters`). */
  applied: string[];
  /** The query's words then the applied guides' words, at most 16. */
  tokens: string[];
  /** Their FTS5 match, or null when there is nothing to match. */
  match: string | null;
}

export function parseSearch(options: SearchOptions): ParsedSearch {
  const scope: Scope = options.scope ?? "pins";
  const query = normalizeQuery(options.query);
  const identity = searchIdentity({ ...options, query }, scope);
  const tokens = [...tokensOf(query), ...splitList(options.applied_filters).flatMap(tokensOf)].slice(0, 16);
  return { scope, query, identity, key: fingerprint(identity), applied: splitList(options.filters), tokens, match: matchExpression(tokens) };
}

/** The plan of a search that matches something, its clock at `anchor`. */
export function pinFilterPlan(options: SearchOptions, parsed: ParsedSearch & { match: string }, viewer: SearchViewer, anchor: number): PinFilterPlan {
  const { applied } = parsed;
  const createdDays = applied.filter((id) => id.startsWith("created:")).map((id) => Number.parseInt(id.slice("created:".length), 10));
  return {
    match: parsed.match,
    tokens: parsed.tokens,
    scope: parsed.scope,
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
}
