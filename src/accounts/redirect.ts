// Where to send someone after sign-out (or login): only a path on this site. Anything that a
// browser could read as another host is refused and the default landing page is used instead.
// Browsers treat "\" like "/", drop tabs and newlines inside URLs, and some servers decode
// "%2F" before routing, so the check runs on the raw value AND on its decoded forms.

export const DEFAULT_LANDING = "/";
const MAX_LENGTH = 2048;
const MAX_DECODE_ROUNDS = 3;

function isSafeForm(value: string): boolean {
  if (!value.startsWith("/")) return false;
  // "//host" and "/\host" are network-path references; "\" anywhere is read as "/".
  if (value.startsWith("//") || value.includes("\\")) return false;
  // Control characters (tab, CR, LF and the rest) are stripped by URL parsers, so "/\t/host"
  // would become "//host".
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return false;
  }
  return true;
}

/**
 * `next` when it is a same-site path ("/", "/pin/1/?a=b#c"), else DEFAULT_LANDING. Pure:
 * the answer depends only on the string.
 */
export function safeRedirectPath(next: unknown): string {
  if (typeof next !== "string" || next.length === 0 || next.length > MAX_LENGTH) return DEFAULT_LANDING;
  let current = next;
  for (let round = 0; round <= MAX_DECODE_ROUNDS; round++) {
    if (!isSafeForm(current)) return DEFAULT_LANDING;
    let decoded: string;
    try {
      decoded = decodeURIComponent(current);
    } catch {
      return DEFAULT_LANDING;
    }
    if (decoded === current) {
      // Final check with the URL parser itself: it must stay on a placeholder origin.
      const base = "https://pinloom.invalid";
      try {
        const url = new URL(next, base);
        if (url.origin !== base) return DEFAULT_LANDING;
      } catch {
        return DEFAULT_LANDING;
      }
      return next;
    }
    current = decoded;
  }
  // Still changing after several rounds of decoding: nobody needs that in a real path.
  return DEFAULT_LANDING;
}
