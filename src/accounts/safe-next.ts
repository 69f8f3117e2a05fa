// The same-site rule for `?next=` in the browser and on the pages (no open redirect).
// It is the server's rule itself (src/accounts/redirect.ts, pure, no server
// imports), so sign-out's redirect_url, the login and sign-up pages and the islands can never
// disagree about what counts as a path on this site.
import { DEFAULT_LANDING, safeRedirectPath } from "./redirect.ts";

export { DEFAULT_LANDING };

export function isSafeNext(value: unknown): value is string {
  return typeof value === "string" && value !== "" && safeRedirectPath(value) === value;
}

/** `next` when it is a path on this site, else the fallback (the default landing URL). */
export function safeNext(value: unknown, fallback: string = DEFAULT_LANDING): string {
  return isSafeNext(value) ? value : fallback;
}

/** `?next=` for a link: encoded, but slashes kept readable ("/login/?next=/pin/1/"). */
export function withNext(page: string, next: string): string {
  return next === DEFAULT_LANDING ? page : `${page}?next=${encodeURIComponent(next).replace(/%2F/g, "/")}`;
}
