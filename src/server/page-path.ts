// Page paths Astro cannot read. Astro decodes a page's path until it stops changing; a path
// that does not decode (an invalid percent-escape such as /%FF/) it logs as an error and routes
// raw, and one still changing after ten rounds it answers with a bare 400. Either way the path
// names no page of ours, so the door answers the 404 page before Astro sees it.

/** Astro's limit on decoding rounds (astro/dist/core/util/pathname.js). */
const MAX_DECODE_ROUNDS = 10;

/** Whether a URL's (still encoded) pathname decodes as Astro would decode it. */
export function isDecodablePath(pathname: string): boolean {
  let current = pathname;
  let decoded: string;
  try {
    decoded = decodeURI(current);
  } catch {
    return false;
  }
  for (let round = 0; decoded !== current; round++) {
    if (round >= MAX_DECODE_ROUNDS) return false;
    current = decoded;
    try {
      decoded = decodeURI(current);
    } catch {
      // Astro keeps what decoded so far once the first round has succeeded.
      return true;
    }
  }
  return true;
}
