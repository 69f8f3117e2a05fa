// CSRF for every route (spec 000 §7: the CSRF header on every call). Double-submit token:
// the first response sets a `csrftoken` cookie the page's script can read; every request
// that is not GET, HEAD or OPTIONS must echo it in X-CSRFToken AND come from this site
// (Origin, else Sec-Fetch-Site), whatever its content type. Either check alone has gaps
// (subdomain cookie injection; browsers without Origin on some requests); together they hold.
import type { MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { ApiError, ErrorCode } from "./errors.ts";
import { toHex } from "~/runtime/sha256.ts";

export const CSRF_COOKIE = "csrftoken";
const CSRF_HEADER = "X-CSRFToken";
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const TOKEN_PATTERN = /^[a-f0-9]{64}$/;
/**
 * Cross-site by design: the country-domain session hand-off (functions/session-routes.ts) is a
 * form POSTed from our main domain, which cannot carry this domain's cookie. Its handler checks
 * the Origin against our own domains and spends a one-time token instead.
 */
const CROSS_SITE_PATHS = new Set(["/cctld_session/"]);
/**
 * Cross-site by design too: the conversion tag posts events from advertisers' sites with no
 * credentials (functions/conversion-tag.ts). No session is read there, so there is nothing for
 * a forged request to act as; the endpoint is throttled per tag and address instead.
 */
const CONVERSION_TAG_EVENTS = /^\/ct\/[1-9][0-9]{0,18}\/events\/$/;
/**
 * Server-to-server calls authenticated by a bearer token alone (the conversions API): no cookie
 * gives them any authority, so a forged cross-site request carries nothing to abuse.
 */
const BEARER_ONLY_PATHS = /^\/v5\/ad_accounts\/\d{1,20}\/events\/?$/;

const TOKEN_BYTES = 32;
/**
 * Random bytes for tokens, drawn from the CSPRNG 64 tokens at a time: every signed-out first
 * visit gets a token, and one call for many costs less than one each. Each byte is used once.
 */
const pool = new Uint8Array(TOKEN_BYTES * 64);
let poolOffset = pool.length;

/** 32 random bytes as 64 hex digits. */
function newToken(): string {
  if (poolOffset === pool.length) {
    crypto.getRandomValues(pool);
    poolOffset = 0;
  }
  const bytes = pool.subarray(poolOffset, poolOffset + TOKEN_BYTES);
  poolOffset += TOKEN_BYTES;
  return toHex(bytes);
}

/** The cookie's attributes: a year less a week, readable by the page's script (not HttpOnly), sent same-site. */
const COOKIE_ATTRIBUTES = `; Max-Age=${60 * 60 * 24 * 364}; Path=/; Secure; SameSite=Lax`;

/** Equal-time comparison of two tokens of the fixed format. */
function sameToken(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

function isSameSite(request: Request): boolean {
  const origin = request.headers.get("origin");
  if (origin !== null) return origin === new URL(request.url).origin;
  return request.headers.get("sec-fetch-site") === "same-origin";
}

const refuse = (reason: string) =>
  new ApiError(403, ErrorCode.CsrfFailed, { message: "api.csrfFailed", extraData: { reason } });

/**
 * The Set-Cookie that issues a token, or null: with documents and API answers only, to a
 * request that has no valid one; never on media, assets or anything cacheable, where a
 * Set-Cookie could be stored and replayed to others. The page cache's early answers are
 * given theirs here too (src/app.ts).
 */
export function csrfTokenCookie(response: Response, path: string, hasValidCookie: boolean): string | null {
  const type = response.headers.get("content-type") ?? "";
  const isDocumentOrApi = type.startsWith("text/html") || type.startsWith("application/json");
  // The conversion tag's answers go to advertisers' sites, which get no cookie of ours.
  if (hasValidCookie || !isDocumentOrApi || path.startsWith("/media/") || path.startsWith("/ct/")) return null;
  return `${CSRF_COOKIE}=${newToken()}${COOKIE_ATTRIBUTES}`;
}

/** Whether a csrftoken cookie value has the token's shape. */
export function hasCsrfCookie(token: string | undefined): boolean {
  return token !== undefined && TOKEN_PATTERN.test(token);
}

export function csrf(): MiddlewareHandler {
  return async (c, next) => {
    const cookieToken = getCookie(c, CSRF_COOKIE);
    const hasValidCookie = hasCsrfCookie(cookieToken);
    if (!SAFE_METHODS.has(c.req.method) && !(c.req.method === "POST" && (CROSS_SITE_PATHS.has(c.req.path) || CONVERSION_TAG_EVENTS.test(c.req.path) || BEARER_ONLY_PATHS.test(c.req.path)))) {
      if (!isSameSite(c.req.raw)) throw refuse("origin");
      const headerToken = c.req.header(CSRF_HEADER) ?? "";
      if (!hasValidCookie || !sameToken(headerToken, cookieToken ?? "")) throw refuse("token");
    }
    await next();
    const cookie = csrfTokenCookie(c.res, c.req.path, hasValidCookie);
    if (cookie === null) return;
    try {
      c.res.headers.append("Set-Cookie", cookie);
    } catch {
      // Responses from bindings (cache, fetch) have immutable headers: copy only then.
      c.res = new Response(c.res.body, c.res);
      c.res.headers.append("Set-Cookie", cookie);
    }
  };
}
