// Account-switcher entries (spec 000 §3) for the accounts this device holds, and the switch
// between them (see session.server.ts for how the device's hold is bounded).
import { cookieValue } from "~/context/cookies.ts";
import { DEVICE_COOKIE, deviceHolds, switchOnDevice } from "./session.server.ts";
import { hashToken, isTokenShaped } from "./tokens.ts";
import { userImageUrl } from "~/users/user.ts";
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

/**
 * The accounts a device holds, most recently used first. An account whose session expired is
 * listed as not logged in, with only its public face: it is there to be logged in again.
 */
export async function accountsOnDevice(db: D1Database, deviceId: string | null, now = Date.now()): Promise<SwitcherEntry[]> {
  if (!deviceId) return [];
  const sessions = await deviceHolds(db, deviceId, now);
  return sessions.map((session) => toSwitcherEntry(session.user, session.expiresAt > now));
}

/** The accounts on the request's device. */
export async function sessionAccounts(db: D1Database, request: Request): Promise<SwitcherEntry[]> {
  return accountsOnDevice(db, await deviceIdOf(request));
}

export type SwitchOutcome =
  /** Switched: send the cookies (a new session and the device's new token). */
  | { kind: "switched"; cookies: string[]; expiresAt: number; deviceId: string }
  /** The account's own session on this device has expired: its password is asked again. */
  | { kind: "password"; username: string }
  /** This device holds no such account (or no device cookie came). */
  | { kind: "notOnDevice" }
  /** The device changed under the switch (another switch won, or the session just expired). */
  | { kind: "changed" };

/** Switches the request's device to `userId`'s account, when it holds a live session of it. */
export async function switchAccount(db: D1Database, request: Request, userId: number, now = Date.now()): Promise<SwitchOutcome> {
  const deviceId = await deviceIdOf(request);
  if (!deviceId) return { kind: "notOnDevice" };
  const hold = (await deviceHolds(db, deviceId, now)).find((session) => session.user.id === userId);
  if (!hold) return { kind: "notOnDevice" };
  if (hold.expiresAt <= now) return { kind: "password", username: hold.user.username };
  const change = await switchOnDevice(db, request, deviceId, hold, now);
  if (!change.applied(await db.batch(change.statements))) return { kind: "changed" };
  return { kind: "switched", cookies: change.cookies, expiresAt: change.expiresAt, deviceId: change.deviceId };
}

/** The switcher's rows for these user ids, with what the profile rule needs (at most MAX ids: the caller bounds them). */
export async function switcherRows(db: D1Database, ids: readonly number[]): Promise<Array<SwitcherRow & { is_private_profile: number; is_under_16: number; login_state: string }>> {
  const { results } = await db
    .prepare(
      `SELECT id, username, email, full_name, image_key, account_type, is_partner, business_name,
              is_private_profile, is_under_16, login_state FROM users
       WHERE id IN (${ids.map((_, index) => `?${index + 1}`).join(", ")})`,
    )
    .bind(...ids)
    .all<SwitcherRow & { is_private_profile: number; is_under_16: number; login_state: string }>();
  return results;
}
