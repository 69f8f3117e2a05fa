// Which link hosts in comments are blocked (link_domains.is_blocked), without publishing the
// blocked list: the page hands the island SHA-256 digests of the blocked hosts, and the island
// digests only the hosts that occur in the comments it shows. Until a host is checked it counts
// as blocked, so a link is never shown before it is known to be allowed (it stays text).

const URL_CANDIDATE = /https?:\/\/[^\s<>"'`]+/giu;
const TRAILING = /[.,;:!?)\]}*]+$/u;
/** Bound the work per comment (segments.ts links at most 20 URLs in the first 2000 characters). */
const MAX_URLS = 20;
const MAX_SCANNED = 2000;

/** Every URL host in the text and each of its parent domains, lower-case. */
export function hostsIn(text: string): string[] {
  const hosts = new Set<string>();
  let count = 0;
  for (const match of text.slice(0, MAX_SCANNED).matchAll(URL_CANDIDATE)) {
    if (++count > MAX_URLS) break;
    let host: string;
    try {
      host = new URL(match[0].replace(TRAILING, "")).hostname.toLowerCase().replace(/\.$/u, "");
    } catch {
      continue;
    }
    for (let depth = 0; depth < 10 && host.length > 0; depth++) {
      hosts.add(host);
      const dot = host.indexOf(".");
      if (dot < 0) break;
      host = host.slice(dot + 1);
    }
  }
  return [...hosts];
}

/** Hex SHA-256 of a lower-case host: the same on the server (page props) and in the island. */
export async function hostDigest(host: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(host.toLowerCase())));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * The hosts to treat as blocked, failing closed: every host is blocked unless it was checked
 * and found allowed. A host the extractor above missed (a control character, the 21st URL)
 * is therefore never linked, whatever segments.ts would make of it.
 */
export function blockedSet(verdicts: ReadonlyMap<string, boolean>): ReadonlySet<string> {
  const allowed = (host: string) => verdicts.get(host) === false;
  return { has: (host: string) => !allowed(host) } as ReadonlySet<string>;
}

/** Checks hosts against the digests of blocked hosts: host → blocked. */
export async function checkHosts(hosts: readonly string[], blockedDigests: ReadonlySet<string>): Promise<Map<string, boolean>> {
  const verdicts = new Map<string, boolean>();
  await Promise.all(hosts.map(async (host) => verdicts.set(host, blockedDigests.has(await hostDigest(host)))));
  return verdicts;
}
