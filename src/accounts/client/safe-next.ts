// The same-site rule for `?next=` (spec 000 §4 sign-out "the given redirect ... else a default
// landing URL", issue 4 "no open redirect"). The server applies the same rule to sign-out's
// redirect_url; pages and islands use this copy so a link never leaves the site.
// A path is kept only when, after percent-decoding (repeatedly, so %252F is caught too), it
// starts with exactly one "/" and holds no backslash or control character: browsers read
// "\" as "/" and drop tabs and newlines, so "/\host" and "/\t/host" both mean "//host".

export const DEFAULT_LANDING = "/";
const MAX_LENGTH = 2048;
const MAX_DECODES = 4;

function fullyDecoded(value: string): string | null {
  let current = value;
  for (let i = 0; i < MAX_DECODES; i++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return null;
    }
    if (next === current) return current;
    current = next;
  }
  return null; // still changing: refuse rather than guess
}

export function isSafeNext(value: unknown): value is string {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_LENGTH) return false;
  const decoded = fullyDecoded(value);
  if (decoded === null) return false;
  for (const text of [value, decoded]) {
    if (!text.startsWith("/") || text.startsWith("//")) return false;
    // eslint-disable-next-line no-control-regex
    if (/[\\\u0000-\u001f\u007f]/.test(text)) return false;
  }
  try {
    const base = "https://same.invalid";
    return new URL(value, base).origin === base && new URL(decoded, base).origin === base;
  } catch {
    return false;
  }
}

/** `next` when it is a path on this site, else the default landing URL. */
export function safeNext(value: unknown, fallback: string = DEFAULT_LANDING): string {
  return isSafeNext(value) ? value : fallback;
}
