// Account-switcher entries (spec 000 §3) for the accounts with a live session on this device.
import { cookieValue } from "../context/cookies.ts";
import { DEVICE_COOKIE, deviceSessions } from "./session.server.ts";
import { hashToken, isTokenShaped } from "./tokens.ts";
import { userImageUrl } from "../users/user.ts";
import type { ViewerUserRow } from "./viewer.ts";
import type { SwitcherEntry } from "./switcher.ts";

export type SwitcherRow = Pick<ViewerUserRow, "id" | "username" | "email" | "full_name" | "image_key" | "account_type" | "is_partner" | "business_name">;


const isBusiness = (row: SwitcherRow) => row.account_type === "business" || row.is_partner === 1;

/**
 * One entry. `withPrivate` (the account is signed in on this device) adds the e-mail and the
 * business contact details; anyone else's entry carries only what a profile page shows.
 * Linked businesses and owners are not modelled yet (no table links accounts), so they are [].
 */
export function toSwitcherEntry(row: SwitcherRow, withPrivate: boolean): SwitcherEntry {
  return {
    id: String(row.id),
    username: row.username,
    email: withPrivate ? row.email : null,
    fullName: row.full_name,
    imageMediumUrl: userImageUrl(row.image_key, "medium"),
    imageLargeUrl: userImageUrl(row.image_key, "large"),
    owners: [],
    partner:
      withPrivate && isBusiness(row)
        ? { contact_email: row.email, ownership_email: row.email, business_name: row.business_name ?? row.full_name, is_linked_business: false }
        : null,
    businesses: [],
    isLoggedIn: withPrivate,
  };
}

/** The device id of a request (hash of its device cookie), or null; never mints one. */
export async function deviceIdOf(request: Request): Promise<string | null> {
  const token = cookieValue(request.headers.get("cookie"), DEVICE_COOKIE);
  return isTokenShaped(token) ? hashToken(token) : null;
}

/** The accounts signed in on this device, most recently used first. */
export async function sessionAccounts(db: D1Database, request: Request): Promise<SwitcherEntry[]> {
  const deviceId = await deviceIdOf(request);
  if (!deviceId) return [];
  const sessions = await deviceSessions(db, deviceId);
  return sessions.map((session) => toSwitcherEntry(session.user, true));
}

/** The switcher's rows for these user ids, with what the profile rule needs (at most MAX ids: the caller bounds them). */
export async function switcherRows(db: D1Database, ids: readonly number[]): Promise<Array<SwitcherRow & { is_private_profile: number; login_state: string }>> {
  const { results } = await db
    .prepare(
      `SELECT id, username, email, full_name, image_key, account_type, is_partner, business_name,
              is_private_profile, login_state FROM users
       WHERE id IN (${ids.map((_, index) => `?${index + 1}`).join(", ")})`,
    )
    .bind(...ids)
    .all<SwitcherRow & { is_private_profile: number; login_state: string }>();
  return results;
}
