// Search text and URL rules without zod (spec 000 §3): the scopes, the query's normal form
// and the canonical search URL. Shared by the API (options.ts builds its schema on them), the
// pages and the browser's search box, which must not load zod for them.

export const SCOPES = ["pins", "buyable_pins", "my_pins", "videos", "boards", "users", "idea_pins", "my_content"] as const;
export type Scope = (typeof SCOPES)[number];

export const RS_VALUES = ["direct_navigation", "typed", "typeahead", "recent", "recommended", "guide", "filter", "tab", "typo"] as const;
type SearchRs = (typeof RS_VALUES)[number];

/** Scopes that read the viewer's own content: signed-in only, and their searches are "personal". */
export const PERSONAL_SCOPES: ReadonlySet<Scope> = new Set(["my_pins", "my_content"]);

/** Scopes whose results are pins (the kind and created filters apply). */
export const PIN_SCOPES: ReadonlySet<Scope> = new Set(["pins", "buyable_pins", "my_pins", "videos", "idea_pins"]);

export const MAX_QUERY_LENGTH = 200;

/** A scope name from a URL segment, or null. */
export function parseScope(value: string | undefined): Scope | null {
  return (SCOPES as readonly string[]).includes(value ?? "") ? (value as Scope) : null;
}

/** NFKC, trimmed, runs of whitespace collapsed to one space, at most 200 characters (code points). */
export function normalizeQuery(text: string): string {
  const collapsed = text.normalize("NFKC").replace(/\s+/gu, " ").trim();
  const chars = Array.from(collapsed);
  return chars.length > MAX_QUERY_LENGTH ? chars.slice(0, MAX_QUERY_LENGTH).join("").trimEnd() : collapsed;
}

/** "a,b, c" → ["a","b","c"]: empty entries dropped. */
export function splitList(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

/** Options beside scope and query that a canonical URL carries when they are not the default. */
export interface SearchUrlExtra {
  rs?: SearchRs;
  filters?: string;
  applied_filters?: string;
  product_filters?: string;
  domains?: string[];
  price_min?: number;
  price_max?: number;
  user?: string;
}

/**
 * The canonical search URL: /search/{scope}/?q=normalized, then rs when it is not
 * direct_navigation, then each other option given and non-empty, in a fixed order.
 */
export function searchUrl(scope: Scope, query: string, extra: SearchUrlExtra = {}): string {
  const params = new URLSearchParams();
  params.set("q", normalizeQuery(query));
  if (extra.rs !== undefined && extra.rs !== "direct_navigation") params.set("rs", extra.rs);
  for (const key of ["filters", "applied_filters", "product_filters"] as const) {
    const items = splitList(extra[key]);
    if (items.length > 0) params.set(key, items.join(","));
  }
  if (extra.domains && extra.domains.length > 0) params.set("domains", extra.domains.join(","));
  if (extra.price_min !== undefined) params.set("price_min", String(extra.price_min));
  if (extra.price_max !== undefined) params.set("price_max", String(extra.price_max));
  if (extra.user !== undefined && extra.user !== "") params.set("user", extra.user);
  return `/search/${scope}/?${params.toString()}`;
}
