// Recent searches (spec 000 §9: recent and recent personal searches each capped at 20,
// deduplicated case-insensitively). Pure: the server store and the signed-out device store
// both apply it.
import { normalizeQuery } from "./query-text.ts";

export const RECENT_CAP = 20;

/** The comparison key: NFKC then a locale-independent lower case. */
export function recentKey(query: string): string {
  return query.normalize("NFKC").toLowerCase();
}

/**
 * The list after searching `query`: it goes first in its newest spelling, any earlier entry
 * equal ignoring case is dropped, and the list keeps at most `cap` entries. An empty query
 * leaves the list as it was (deduplicated and capped).
 */
export function addRecent(list: readonly string[], query: string, cap = RECENT_CAP): string[] {
  const limit = Math.max(0, Math.floor(cap));
  const normalized = normalizeQuery(query);
  const out: string[] = [];
  const seen = new Set<string>();
  const candidates = normalized === "" ? list : [normalized, ...list];
  for (const item of candidates) {
    if (out.length >= limit) break;
    const key = recentKey(item);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(item);
  }
  return out;
}

/** The list without `query` (compared ignoring case). */
export function removeRecent(list: readonly string[], query: string): string[] {
  const key = recentKey(normalizeQuery(query));
  return list.filter((item) => recentKey(item) !== key);
}

/**
 * Whether a search request is the person's own, and so may be recorded as a recent search.
 * A cross-site page can make a signed-in browser GET any search URL (an image, a link), which
 * must not fill the person's list. Recorded: our scripts' calls (`X-Requested-With:
 * XMLHttpRequest`, which a cross-site request cannot send without a CORS preflight we refuse, or
 * `Sec-Fetch-Site: same-origin`); for a page navigation (`navigation`), also a typed or
 * bookmarked URL (`Sec-Fetch-Site: none`). Browsers without Sec-Fetch-* headers record only
 * through the scripts' header.
 */
export function isOwnSearch(headers: Pick<Headers, "get">, navigation = false): boolean {
  if (headers.get("x-requested-with") === "XMLHttpRequest") return true;
  const site = headers.get("sec-fetch-site");
  return site === "same-origin" || (navigation && site === "none");
}
