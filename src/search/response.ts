// The answer around a page of search results: tabs, chips, the bookmark, the guides, the nag
// and the notices, all from the request and the page. Pure: engine.server.ts reads the page.
import { PERSONAL_SCOPES, SCOPES, normalizeQuery, type Scope } from "./options.ts";
import { filtersFor, oneBar } from "./filters.ts";
import type { SearchViewer } from "./plan.ts";
import { encodeBookmark } from "./query.ts";
import { isSensitiveQuery } from "./sensitive.ts";
import { END_MARKER, type ProductFilters, type SearchItem, type SearchResponse, type SearchTab } from "./types.ts";

/** Fewer results than this on the first page: the nag, the typo check and `noindex`. */
export const FEW_RESULTS = 5;
export const MAX_GUIDES = 8;

/** The scopes offered to a viewer: the personal ones only when signed in. */
export function tabsFor(scope: Scope, viewer: SearchViewer): SearchTab[] {
  return SCOPES.filter((candidate) => viewer.id !== null || !PERSONAL_SCOPES.has(candidate)).map((candidate) => ({ scope: candidate, selected: candidate === scope }));
}

const modeIcon = (scope: Scope): SearchResponse["modeIcon"] => (scope === "buyable_pins" ? "shopping" : scope === "videos" ? "video" : null);

/** The answer to a search that matches nothing to look for (no words, or a personal scope signed out). */
export function emptyResponse(query: string, scope: Scope, viewer: SearchViewer, applied: string[]): SearchResponse {
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
    modeIcon: modeIcon(scope),
    oneBarModules: oneBar(filters),
    productFilters: scope === "buyable_pins" ? { price: null, domains: [], categories: [] } : null,
  };
}

/** The request's side of a page: everything the response around it repeats or derives. */
export interface PageRequest {
  query: string;
  scope: Scope;
  viewer: SearchViewer;
  applied: string[];
  /** The search's bookmark key (fingerprint of its identity). */
  key: string;
  offset: number;
  /** Rows asked for: the page size plus one, which tells whether more follow. */
  limit: number;
  anchor: number;
}

/** A page's own part of the answer: its rows and what came with them. */
interface PageAnswer {
  more: boolean;
  results: SearchItem[];
  guides: { term: string }[];
  productFilters: ProductFilters | null;
  /** The typo suggestion's corrected words, or null. */
  corrected: string | null;
}

/** The response around a page: everything else is the request's own (its spelling of the query included). */
export function pageResponse(request: PageRequest, page: PageAnswer): SearchResponse {
  const { query, scope, offset, limit } = request;
  const nag = offset === 0 && !page.more && page.results.length < FEW_RESULTS;
  const filters = filtersFor(scope, request.applied);
  return {
    query,
    scope,
    results: page.results,
    bookmark: page.more ? encodeBookmark({ key: request.key, offset: offset + limit - 1, anchor: request.anchor }) : END_MARKER,
    guides: page.guides,
    typo: page.corrected === null ? null : { original: query, corrected: page.corrected },
    nag: nag ? { kind: "few_results" } : null,
    sensitivity: isSensitiveQuery(query) ? { kind: "sensitive_query" } : null,
    filters,
    tabs: tabsFor(scope, request.viewer),
    modeIcon: modeIcon(scope),
    oneBarModules: oneBar(filters),
    productFilters: page.productFilters,
  };
}

/** At most MAX_GUIDES interest names as refinements, none repeating the query or an applied guide (ignoring case). */
export function guideTerms(rows: ReadonlyArray<{ term: string }>, query: string, appliedTerms: readonly string[]): { term: string }[] {
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
