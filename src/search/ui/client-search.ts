// The engine's URL and list rules the BROWSER needs (normalizeQuery, searchUrl, addRecent,
// removeRecent, the scopes), without zod: src/search/options.ts builds its zod schema at module
// load, and importing it from an island put ~90 KB of zod on every page through the header's
// search box. These are the same rules; client-search.test.ts checks them against the engine's
// functions on generated inputs, so the two cannot drift apart unnoticed.
import type { Scope, SearchUrlExtra } from "../options.ts";

export type { Scope, SearchUrlExtra };

export const SCOPES: readonly Scope[] = ["pins", "buyable_pins", "my_pins", "videos", "boards", "users", "idea_pins", "my_content"];
export const PERSONAL_SCOPES: ReadonlySet<Scope> = new Set<Scope>(["my_pins", "my_content"]);
export const MAX_QUERY_LENGTH = 200;
export const RECENT_CAP = 20;

export function parseScope(value: string | undefined): Scope | null {
  return (SCOPES as readonly string[]).includes(value ?? "") ? (value as Scope) : null;
}

export function normalizeQuery(text: string): string {
  const collapsed = text.normalize("NFKC").replace(/\s+/gu, " ").trim();
  const chars = Array.from(collapsed);
  return chars.length > MAX_QUERY_LENGTH ? chars.slice(0, MAX_QUERY_LENGTH).join("").trimEnd() : collapsed;
}

function splitList(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

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

const recentKey = (query: string): string => query.normalize("NFKC").toLowerCase();

export function addRecent(list: readonly string[], query: string, cap = RECENT_CAP): string[] {
  const limit = Math.max(0, Math.floor(cap));
  const normalized = normalizeQuery(query);
  const out: string[] = [];
  const seen = new Set<string>();
  for (const item of normalized === "" ? list : [normalized, ...list]) {
    if (out.length >= limit) break;
    const key = recentKey(item);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(item);
  }
  return out;
}

export function removeRecent(list: readonly string[], query: string): string[] {
  const key = recentKey(normalizeQuery(query));
  return list.filter((item) => recentKey(item) !== key);
}
