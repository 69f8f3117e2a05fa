// Users as profiles: who may see a profile, and which usernames can name one. Pure rules of
// a users row and the viewer; the SQL in users.server.ts mirrors them and re-checks with them.
import { z } from "zod";
import { mediaUrl } from "../media/media.ts";

/** Letters, digits and underscores, as sign-up writes them (the seed's generator agrees). */
export const usernameSchema = z.string().regex(/^[A-Za-z0-9_]{1,30}$/, "usernames are letters, digits and underscores");

export type LoginState = "full" | "limited";

/** The columns the profile rule reads. */
export interface ProfileVisibilityRow {
  id: number;
  is_private_profile: number;
  login_state: LoginState;
}

/**
 * Who may see a profile (and anything under it: its boards, its board pages): its owner
 * always; anyone else only when the profile is public and the account has a full login. A
 * private profile or a limited-login account answers exactly like an unknown user.
 * `viewerId` is the signed-in user's id, null when signed out.
 */
export function canViewProfile(user: ProfileVisibilityRow, viewerId: number | null): boolean {
  if (viewerId !== null && viewerId === user.id) return true;
  return user.is_private_profile === 0 && user.login_state === "full";
}

/** The name a profile shows: the full name, else the username. */
export function displayName(user: { full_name: string; username: string }): string {
  return user.full_name.trim() || user.username;
}

/**
 * canViewProfile as a SQL condition, so a hidden profile's rows never leave D1. `user` is
 * the users alias, `viewer` the parameter holding the viewer id (NULL signed out, which
 * matches no id).
 */
export function profileVisibleSql(user: string, viewer: string): string {
  return `((${user}.is_private_profile = 0 AND ${user}.login_state = 'full') OR ${user}.id = ${viewer})`;
}

/**
 * The id the visibility rules compare with: the session's user, limited-login included (an
 * account always sees its own rows), null when signed out.
 */
export function viewerIdOf(ctx: { session: { user: { id: number } } | null }): number | null {
  return ctx.session?.user.id ?? null;
}

export type UserImageSize = "small" | "medium" | "large" | "xlarge";

/** A user's avatar in one of its sizes (R2 keys under users.image_key), or null without one. */
export function userImageUrl(imageKey: string | null, size: UserImageSize): string | null {
  return imageKey ? mediaUrl(`${imageKey}/${size}.jpg`) : null;
}
