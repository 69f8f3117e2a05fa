// Sessions from the browser (spec 000 §4 "Sign-out", §7 session calls): the handshake-token
// exchange, the account switcher's list and switch, and sign-out with its repeat-call guard.
import { ApiCallError, NetworkError, call, resource, type Transport } from "~/api/api.client.ts";
import { REAUTH_REQUIRED } from "./switcher.ts";
import { safeNext } from "./safe-next.ts";
import type { SwitcherEntry } from "./accounts-list.client.ts";

export interface ExchangeResult {
  user: { id: string; username: string; full_name?: string; [key: string]: unknown } | null;
  viewer_type: "AUTH" | "LIMITED_LOGIN";
  days_to_expiration: number | null;
}

/** Spends a handshake token once; the answer's Set-Cookie starts the session. */
export function exchange(token: string, isRegistration: boolean, transport?: Transport): Promise<ExchangeResult> {
  return call<ExchangeResult>("/v3/sessions/exchange/", { method: "POST", body: { json: { token, isRegistration } } }, transport);
}

/** This device's accounts (UserSessionResource create, session_accounts). */
export async function sessionAccounts(transport?: Transport): Promise<SwitcherEntry[]> {
  const data = await resource<{ session_accounts?: SwitcherEntry[] } | null>("UserSessionResource", "create", { session_accounts: true }, transport);
  return Array.isArray(data?.session_accounts) ? data.session_accounts : [];
}

/** Switches to another account signed in on this device; the server answers a new session. */
export async function switchAccount(userId: string, transport?: Transport): Promise<SwitcherEntry[]> {
  const data = await resource<{ session_accounts?: SwitcherEntry[] } | null>(
    "UserSessionResource",
    "create",
    { session_accounts: true, switch_to_user_id: userId },
    transport,
  );
  return Array.isArray(data?.session_accounts) ? data.session_accounts : [];
}

/**
 * When a switch was refused because the account's own session has expired, the username or
 * e-mail to log in again with (the server names it, else the entry's); null for any other error.
 */
export function passwordAskedFor(error: unknown, fallback: string): string | null {
  if (!(error instanceof ApiCallError) || error.code !== REAUTH_REQUIRED) return null;
  const named = error.extraData?.["username_or_email"];
  return typeof named === "string" && named !== "" ? named : fallback;
}

const isAbort = (error: unknown): boolean =>
  error instanceof Error && (error.name === "AbortError" || (error instanceof NetworkError && isAbort(error.cause)));

export const LOGOUT_FLAG = "pinloom_logging_out";
export const AUTHENTICATION_FAILED = "authentication_failed";

export interface SignOutOptions {
  reason?: string;
  next?: string;
}

export interface SignOutDeps {
  transport?: Transport;
  /** Where the logout flag lives (sessionStorage in the browser): it outlives the page that set it. */
  flags: Pick<Storage, "getItem" | "setItem" | "removeItem">;
  navigate: (url: string) => void;
}

/**
 * Spec §4: a second sign-out for authentication_failed while one is under way does nothing;
 * otherwise the session is revoked and the browser goes to the answered redirect_url (which
 * the server already limits to this site; checked again here). Resolves with where it went,
 * or null when the guard held.
 */
export async function signOut(options: SignOutOptions, deps: SignOutDeps): Promise<string | null> {
  if (options.reason === AUTHENTICATION_FAILED && deps.flags.getItem(LOGOUT_FLAG) !== null) return null;
  deps.flags.setItem(LOGOUT_FLAG, String(Date.now()));
  const requested = safeNext(options.next);
  let target: string;
  try {
    const data = await resource<{ redirect_url?: unknown } | null>(
      "UserSessionResource",
      "delete",
      { disable_auth_failure_redirect: true, ...(options.reason ? { reason: options.reason } : {}), next: requested },
      deps.transport,
    );
    target = safeNext(data?.redirect_url, requested);
  } catch (error) {
    deps.flags.removeItem(LOGOUT_FLAG);
    // Spec §8: an aborted sign-out is ignored; anything else is the caller's to show.
    if (isAbort(error)) return null;
    throw error;
  }
  deps.navigate(target);
  return target;
}

/** Called when a page loads signed in: the last sign-out is over, so its flag goes. */
export function clearLogoutFlag(flags: Pick<Storage, "removeItem">): void {
  flags.removeItem(LOGOUT_FLAG);
}
