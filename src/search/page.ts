// The search page's rules (spec 000 §2 "Search"), pure so
// they are tested without a Worker: reading a /search/{scope}/ URL into engine options, the
// tidy URL a non-normalized one redirects to, variant and structured data.
import { normalizeQuery, searchOptionsSchema, searchUrl, SCOPES, splitList, type Scope, type SearchOptions, type SearchUrlExtra } from "./options.ts";

export type SearchVariant = "signed-in-desktop" | "mobile-or-signed-out";

/** Query parameters a tidy URL keeps as they are: they do not change the results. */
const KEPT_PARAMS = ["bookmark", "locale", "server_only", "utm_source", "utm_medium", "utm_campaign", "utm_content", "utm_term", "invite_code"] as const;
const MAX_LIST_PARAMS = 10;

export function parseScope(value: string | undefined): Scope | null {
  return (SCOPES as readonly string[]).includes(value ?? "") ? (value as Scope) : null;
}

export interface SearchRequest {
  scope: Scope;
  /** The normalized query; "" is the search landing. */
  query: string;
  /** Engine options for this page (null on the landing). */
  options: SearchOptions | null;
  /** The options as searchUrl takes them (tabs, chips and the next page keep them). */
  extra: SearchUrlExtra;
  /** The URL this request should be at (path and query); a different one 301-redirects here. */
  tidyPath: string;
  /** The canonical path: searchUrl(scope, query), or the landing's own path. */
  canonicalPath: string;
}

/** Repeated parameters (a GET form's checkboxes) and comma lists read alike. */
function listParam(params: URLSearchParams, name: string): string[] {
  return [...new Set(params.getAll(name).flatMap((value) => splitList(value)))].slice(0, MAX_LIST_PARAMS);
}

function numberParam(params: URLSearchParams, name: string): number | undefined {
  const raw = params.get(name);
  if (raw === null || raw.trim() === "") return undefined;
  const value = Number(raw);
  return Number.isFinite(value) ? value : undefined;
}

/**
 * The options a URL asks for, each validated by the engine's own schema: an option it refuses
 * is dropped from the page (and from the tidy URL) rather than failing the whole page.
 */
function optionsFrom(params: URLSearchParams, scope: Scope, query: string): { options: SearchOptions; extra: SearchUrlExtra } {
  let candidate: Record<string, unknown> = { query, scope };
  for (const name of ["rs", "user", "top_pin_id"] as const) {
    const value = params.get(name);
    if (value !== null && value !== "") candidate[name] = value;
  }
  for (const name of ["filters", "applied_filters", "product_filters"] as const) {
    const items = listParam(params, name);
    if (items.length > 0) candidate[name] = items.join(",");
  }
  const domains = listParam(params, "domains").map((domain) => domain.toLowerCase());
  if (domains.length > 0) candidate["domains"] = domains;
  for (const name of ["price_min", "price_max"] as const) {
    const value = numberParam(params, name);
    if (value !== undefined) candidate[name] = value;
  }
  const bookmark = params.get("bookmark");
  if (bookmark) candidate["bookmark"] = bookmark;
  // Each refused field goes; bounded: there are fewer fields than rounds.
  for (let round = 0; round < 16; round++) {
    const parsed = searchOptionsSchema.safeParse(candidate);
    if (parsed.success) {
      const options = parsed.data;
      const extra: SearchUrlExtra = {};
      if (options.rs) extra.rs = options.rs;
      if (options.filters) extra.filters = options.filters;
      if (options.applied_filters) extra.applied_filters = options.applied_filters;
      if (options.product_filters) extra.product_filters = options.product_filters;
      if (options.domains) extra.domains = options.domains;
      if (options.price_min !== undefined) extra.price_min = options.price_min;
      if (options.price_max !== undefined) extra.price_max = options.price_max;
      if (options.user) extra.user = options.user;
      return { options, extra };
    }
    const fields = new Set(parsed.error.issues.map((issue) => String(issue.path[0] ?? "")));
    fields.delete("query");
    fields.delete("scope");
    if (fields.size === 0) break;
    candidate = Object.fromEntries(Object.entries(candidate).filter(([name]) => !fields.has(name)));
  }
  return { options: searchOptionsSchema.parse({ query, scope }), extra: {} };
}

export function readSearchRequest(scope: Scope, url: URL): SearchRequest {
  const params = url.searchParams;
  const query = normalizeQuery(params.get("q") ?? "");
  const landingPath = `/search/${scope}/`;
  if (query === "") {
    const kept = keptParams(params);
    return { scope, query, options: null, extra: {}, tidyPath: params.has("q") || kept ? `${landingPath}${kept ? `?${kept}` : ""}` : landingPath, canonicalPath: landingPath };
  }
  const { options, extra } = optionsFrom(params, scope, query);
  const base = searchUrl(scope, query, extra);
  const topPin = options.top_pin_id ? `&top_pin_id=${options.top_pin_id}` : "";
  const bookmark = options.bookmark ? `&bookmark=${encodeURIComponent(options.bookmark)}` : "";
  const kept = keptParams(params, ["bookmark"]);
  return { scope, query, options, extra, tidyPath: `${base}${topPin}${bookmark}${kept ? `&${kept}` : ""}`, canonicalPath: searchUrl(scope, query) };
}

function keptParams(params: URLSearchParams, skip: string[] = []): string {
  const kept = new URLSearchParams();
  for (const name of KEPT_PARAMS) {
    if (skip.includes(name)) continue;
    const value = params.get(name);
    if (value !== null) kept.set(name, value.slice(0, 200));
  }
  return kept.toString();
}

/**
 * Whether the URL asked for differs from the tidy one. Only ever a same-origin PATH is
 * returned (the tidy path starts with /search/{a known scope}/), so this is no open redirect.
 */
export function redirectTarget(url: URL, request: SearchRequest): string | null {
  const current = url.pathname + url.search;
  if (current === request.tidyPath) return null;
  if (!request.tidyPath.startsWith(`/search/${request.scope}/`)) return null;
  return request.tidyPath;
}

/**
 * Why no search page is indexed (docs/decisions.md, SEO): a results page is a view of other
 * pages, endless in its queries, and search engines ask sites to keep such pages out of their
 * index. Its links stay followed, so the pins, boards and people it lists are found through it.
 */
export const SEARCH_NOINDEX_REASON = "search_results";

export function searchVariant(ctx: { isAuthenticated: boolean; userAgent: { browserType: string } }): SearchVariant {
  return ctx.isAuthenticated && ctx.userAgent.browserType === "desktop" ? "signed-in-desktop" : "mobile-or-signed-out";
}

export interface ListedResult {
  url: string;
  name: string;
  image?: string | null;
}

/** SearchResultsPage whose main entity is the ItemList of this page's results (absolute URLs). */
export function searchStructuredData(canonical: string, title: string, results: readonly ListedResult[]): Record<string, unknown>[] {
  const origin = new URL(canonical).origin;
  return [
    {
      "@context": "https://schema.org",
      "@type": "SearchResultsPage",
      url: canonical,
      name: title,
      mainEntity: {
        "@type": "ItemList",
        numberOfItems: results.length,
        itemListElement: results.slice(0, 50).map((result, index) => ({
          "@type": "ListItem",
          position: index + 1,
          url: new URL(result.url, origin).href,
          name: result.name,
          ...(result.image ? { image: new URL(result.image, origin).href } : {}),
        })),
      },
    },
  ];
}
