// Page paths no page can have. Astro decodes a page's path until it stops changing; a path
// that does not decode (an invalid percent-escape such as /%FF/) it logs as an error and routes
// raw, and one still changing after ten rounds it answers with a bare 400. And its error pages
// are routes of their own: /500 asked for directly would answer 500 for a page that failed
// nowhere. All of these name no page of ours, so the door answers the 404 page for them.

/** Astro's limit on decoding rounds (astro/dist/core/util/pathname.js). */
const MAX_DECODE_ROUNDS = 10;
/** The error page Astro renders when a page throws, as the path it would route. */
const ERROR_PAGE_ROUTE = /^\/500\/?$/;

/** The path as Astro routes it (decoded, repeated slashes collapsed), or null when it does not decode. */
export function routedPagePath(pathname: string): string | null {
  let current = pathname;
  let decoded: string;
  try {
    decoded = decodeURI(current);
  } catch {
    return null;
  }
  for (let round = 0; decoded !== current; round++) {
    if (round >= MAX_DECODE_ROUNDS) return null;
    current = decoded;
    try {
      decoded = decodeURI(current);
    } catch {
      // Astro keeps what decoded so far once the first round has succeeded.
      break;
    }
  }
  return current.replace(/\/{2,}/g, "/");
}

/** Whether a URL's (still encoded) pathname can name a page at all. */
export function canNamePage(pathname: string): boolean {
  const routed = routedPagePath(pathname);
  return routed !== null && !ERROR_PAGE_ROUTE.test(routed);
}
