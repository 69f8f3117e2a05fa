// Search-engine recognition by host (spec 000 §5) and search-engine cache hosts (§2: the app
// does nothing on a cache host). Hosts are matched on label boundaries, never by substring,
// so "google.com.evil.example" is not Google.

export type SearchEngine = "google" | "bing" | "yahoo" | "yandex" | "rakuten" | "naver" | "duckduckgo" | "amp";

const ENGINE_DOMAINS: ReadonlyArray<[SearchEngine, RegExp]> = [
  // google.com, google.co.uk, google.com.br, www.google.fr …
  ["google", /(^|\.)google\.(com?\.)?[a-z]{2,3}$/],
  ["bing", /(^|\.)bing\.com$/],
  ["yahoo", /(^|\.)yahoo\.(com?\.)?[a-z]{2,3}$/],
  ["yandex", /(^|\.)yandex\.(com\.)?[a-z]{2,3}$/],
  ["rakuten", /(^|\.)rakuten\.(co\.)?[a-z]{2,3}$/],
  ["naver", /(^|\.)naver\.com$/],
  ["duckduckgo", /(^|\.)duckduckgo\.com$/],
  ["amp", /(^|\.)(cdn\.)?ampproject\.org$/],
];

const CACHE_HOSTS: readonly RegExp[] = [
  /^webcache\.googleusercontent\.com$/,
  /^cc\.bingj\.com$/,
  /(^|\.)cdn\.ampproject\.org$/,
  /(^|\.)translate\.goog$/,
  /^cache\.yandex(net)?\.[a-z]{2,3}$/,
];

function hostOf(urlOrHost: string): string | null {
  const text = urlOrHost.trim().toLowerCase();
  if (!text) return null;
  try {
    return text.includes("://") ? new URL(text).hostname : text.split(":")[0]!;
  } catch {
    return null;
  }
}

/** The search engine a Referer header points at, or null. */
export function searchEngineFromReferrer(referrer: string | null | undefined): SearchEngine | null {
  const host = referrer ? hostOf(referrer) : null;
  if (!host) return null;
  for (const [engine, pattern] of ENGINE_DOMAINS) if (pattern.test(host)) return engine;
  return null;
}

/**
 * Every request asks about its own host, and an isolate serves one host or a few: the
 * answers for short hosts are kept (a handful at most, oldest out first).
 */
const HOST_MEMO_MAX = 16;
const cacheHostMemo = new Map<string, boolean>();

export function isSearchCacheHost(host: string | null | undefined): boolean {
  if (!host) return false;
  const known = cacheHostMemo.get(host);
  if (known !== undefined) return known;
  const name = hostOf(host);
  const answer = !!name && CACHE_HOSTS.some((pattern) => pattern.test(name));
  if (host.length <= 253) {
    if (cacheHostMemo.size >= HOST_MEMO_MAX) cacheHostMemo.delete(cacheHostMemo.keys().next().value!);
    cacheHostMemo.set(host, answer);
  }
  return answer;
}
