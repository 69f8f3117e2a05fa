// Search state (spec 000 §3 "Search state", spec 001 "Search state" and "Search" transitions):
// pure transitions over one plain state value, and the nanostores the islands read. Every rule
// lives in a pure function below so it is unit-tested without a browser; the stores only hold
// the result. Lists and caches are bounded (spec 000 §9 caps recent lists at 20).
import { atom, map } from "nanostores";
// The engine's rules without zod: query-text.ts and recent.ts (islands must not load zod).
import { normalizeQuery, PERSONAL_SCOPES, type Scope } from "./query-text.ts";
import { addRecent, RECENT_CAP, removeRecent } from "./recent.ts";

/** Queries whose results are kept, newest kept first out last. */
export const QUERIES_CACHE_MAX = 20;
/** Typeahead answers kept, keyed by the term typed. */
export const TYPEAHEAD_CACHE_MAX = 50;
/** Viewed pins remembered per valid query. */
export const VIEWED_PINS_MAX = 100;
/** Recommended searches shown on the landing and in an empty typeahead. */
export const RECOMMENDED_MAX = 8;

export interface QueryRecord {
  /** A started query is valid; invalidation marks it invalid (spec 001 "Search"). */
  valid: boolean;
  /** Pins viewed from this query's results, oldest first. */
  pinIds: string[];
}

export interface SkinToneState {
  skinToneQueryUses: { numQueryUses: number; lastQuery: string | null };
  showSkinToneFilters: boolean;
}

export interface ProductFiltersState {
  priceMin: number | null;
  priceMax: number | null;
  domains: string[];
  categories: string[];
}

const NO_PRODUCT_FILTERS: ProductFiltersState = { priceMin: null, priceMax: null, domains: [], categories: [] };

/** The key of one query in the caches: scope and normalized query, compared ignoring case. */
export function queryKey(scope: Scope, query: string): string {
  return `${scope}:${normalizeQuery(query).toLowerCase()}`;
}

/** Map entries bounded by count: a re-set key moves to the newest place, the oldest go first. */
export function boundedSet<T>(cache: Readonly<Record<string, T>>, key: string, value: T, max: number): Record<string, T> {
  const entries = Object.entries(cache).filter(([name]) => name !== key);
  entries.push([key, value]);
  return Object.fromEntries(entries.slice(Math.max(0, entries.length - max)));
}

// --- valid / invalid queries -------------------------------------------------------------

export function startQuery(queries: Readonly<Record<string, QueryRecord>>, key: string): Record<string, QueryRecord> {
  return boundedSet(queries, key, { valid: true, pinIds: [] }, QUERIES_CACHE_MAX);
}

/** A viewed pin joins a VALID query's list (once, newest last, bounded); otherwise nothing changes. */
export function viewPin(queries: Readonly<Record<string, QueryRecord>>, key: string, pinId: string): Readonly<Record<string, QueryRecord>> {
  const record = queries[key];
  if (!record || !record.valid || record.pinIds.includes(pinId)) return queries;
  const pinIds = [...record.pinIds, pinId].slice(-VIEWED_PINS_MAX);
  return { ...queries, [key]: { valid: true, pinIds } };
}

export function invalidateQuery(queries: Readonly<Record<string, QueryRecord>>, key: string): Readonly<Record<string, QueryRecord>> {
  const record = queries[key];
  if (!record || !record.valid) return queries;
  return { ...queries, [key]: { ...record, valid: false } };
}

// --- recent searches ---------------------------------------------------------------------

export interface RecentState {
  recent: string[];
  recentPersonal: string[];
}

/** A search run: into recent personal searches for my_pins/my_content, else into recent searches. */
export function recordSearch(state: RecentState, scope: Scope, query: string): RecentState {
  return PERSONAL_SCOPES.has(scope)
    ? { ...state, recentPersonal: addRecent(state.recentPersonal, query, RECENT_CAP) }
    : { ...state, recent: addRecent(state.recent, query, RECENT_CAP) };
}

export function forgetSearch(state: RecentState, query: string): RecentState {
  return { recent: removeRecent(state.recent, query), recentPersonal: removeRecent(state.recentPersonal, query) };
}

/** A list read from storage or a server answer, made safe: strings only, deduplicated, capped. */
export function sanitizeRecent(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const strings = value.filter((item): item is string => typeof item === "string").slice(0, RECENT_CAP * 2);
  return strings.reduceRight<string[]>((list, item) => addRecent(list, item, RECENT_CAP), []);
}

/** The server's recent list first, then the device's, deduplicated and capped (typeahead merge). */
export function mergeRecent(first: readonly string[], second: readonly string[]): string[] {
  return [...first, ...second].reduceRight<string[]>((list, item) => addRecent(list, item, RECENT_CAP), []);
}

/** Recent searches that start with the term (ignoring case), at most `max`. */
export function matchingRecent(list: readonly string[], term: string, max = 5): string[] {
  const prefix = normalizeQuery(term).toLowerCase();
  return list.filter((item) => item.toLowerCase().startsWith(prefix)).slice(0, max);
}

// --- skin-tone filter -------------------------------------------------------------------

export const INITIAL_SKIN_TONE: SkinToneState = { skinToneQueryUses: { numQueryUses: 0, lastQuery: null }, showSkinToneFilters: false };

/** A query run counts once: the same query again (ignoring case) is not a new use. */
export function useSkinToneQuery(state: SkinToneState, query: string): SkinToneState {
  const normalized = normalizeQuery(query);
  const last = state.skinToneQueryUses.lastQuery;
  if (normalized === "" || (last !== null && last.toLowerCase() === normalized.toLowerCase())) return state;
  return { ...state, skinToneQueryUses: { numQueryUses: state.skinToneQueryUses.numQueryUses + 1, lastQuery: normalized } };
}

export function setShowSkinToneFilters(state: SkinToneState, show: boolean): SkinToneState {
  return state.showSkinToneFilters === show ? state : { ...state, showSkinToneFilters: show };
}

// --- product filters --------------------------------------------------------------------

const DOMAIN = /^[a-z0-9.-]{1,253}$/;
const CATEGORY = /^[a-z0-9_]{1,64}$/;

/** Product filters from a search URL's parameters (the page's GET form writes them). */
export function productFiltersFromParams(params: URLSearchParams): ProductFiltersState {
  const price = (name: string): number | null => {
    const raw = params.get(name);
    if (raw === null || raw.trim() === "") return null;
    const value = Number(raw);
    return Number.isFinite(value) && value >= 0 ? value : null;
  };
  const list = (name: string, pattern: RegExp) =>
    [...new Set(params.getAll(name).flatMap((value) => value.split(",")).map((item) => item.trim().toLowerCase()))].filter((item) => pattern.test(item)).slice(0, 10);
  return { priceMin: price("price_min"), priceMax: price("price_max"), domains: list("domains", DOMAIN), categories: list("product_filters", CATEGORY) };
}

// --- search text shown elsewhere ----------------------------------------------------------

/** sessionStorage key of the last visited non-close-up search page's text (spec 000 §2). */
export const LAST_QUERY_KEY = "pinloom:search:lastQuery";

/** The text a search page leaves for the header box elsewhere; close-ups do not change it. */
export function shownSearchText(previous: string | null, pathname: string, q: string | null): string | null {
  if (!pathname.startsWith("/search/")) return previous;
  const normalized = normalizeQuery(q ?? "");
  return normalized === "" ? previous : normalized;
}

// --- stores -------------------------------------------------------------------------------

export interface CachedResults<T> {
  at: number;
  data: T;
}

export const $queries = map<Record<string, QueryRecord>>({});
const $queriesCache = map<Record<string, CachedResults<unknown>>>({});
export const $recent = atom<RecentState>({ recent: [], recentPersonal: [] });
const $recommended = atom<string[]>([]);
export const $typeaheadCache = map<Record<string, CachedResults<unknown>>>({});
export const $skinTone = atom<SkinToneState>(INITIAL_SKIN_TONE);
const $productFilters = atom<ProductFiltersState>(NO_PRODUCT_FILTERS);

export const searchActions = {
  start(scope: Scope, query: string): void {
    $queries.set(startQuery($queries.get(), queryKey(scope, query)));
    $recent.set(recordSearch($recent.get(), scope, query));
    $skinTone.set(useSkinToneQuery($skinTone.get(), query));
  },
  viewPin(scope: Scope, query: string, pinId: string): void {
    $queries.set(viewPin($queries.get(), queryKey(scope, query), pinId));
  },
  invalidate(scope: Scope, query: string): void {
    $queries.set(invalidateQuery($queries.get(), queryKey(scope, query)));
  },
  cacheResults(scope: Scope, query: string, data: unknown, now = Date.now()): void {
    $queriesCache.set(boundedSet($queriesCache.get(), queryKey(scope, query), { at: now, data }, QUERIES_CACHE_MAX));
  },
  cacheTypeahead(term: string, data: unknown, now = Date.now()): void {
    $typeaheadCache.set(boundedSet($typeaheadCache.get(), normalizeQuery(term).toLowerCase(), { at: now, data }, TYPEAHEAD_CACHE_MAX));
  },
  typeahead<T>(term: string, maxAgeMs: number, now = Date.now()): T | null {
    const hit = $typeaheadCache.get()[normalizeQuery(term).toLowerCase()];
    return hit && now - hit.at < maxAgeMs ? (hit.data as T) : null;
  },
  /** Forgets every cached answer (a removed recent search may be listed in any of them). */
  resetTypeahead(): void {
    $typeaheadCache.set({});
  },
  setRecent(recent: string[]): void {
    $recent.set({ ...$recent.get(), recent: sanitizeRecent(recent) });
  },
  forget(query: string): void {
    $recent.set(forgetSearch($recent.get(), query));
  },
  clearRecent(): void {
    $recent.set({ recent: [], recentPersonal: [] });
  },
  setRecommended(list: string[]): void {
    $recommended.set(sanitizeRecent(list).slice(0, RECOMMENDED_MAX));
  },
  showSkinToneFilters(show: boolean): void {
    $skinTone.set(setShowSkinToneFilters($skinTone.get(), show));
  },
  setProductFilters(params: URLSearchParams): void {
    $productFilters.set(productFiltersFromParams(params));
  },
};
