// Users as profiles: which usernames can name one, the name a profile shows, its avatar. Who
// may see a profile is the visibility table's (src/visibility/rules.ts).
import { z } from "zod";
import { mediaUrl } from "~/media/media.ts";

/** Letters, digits and underscores, as sign-up writes them (the seed's generator agrees). */
export const usernameSchema = z.string().regex(/^[A-Za-z0-9_]{1,30}$/, "usernames are letters, digits and underscores");

export type LoginState = "full" | "limited";

/** The name a profile shows: the full name, else the username. */
export function displayName(user: { full_name: string; username: string }): string {
  return user.full_name.trim() || user.username;
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
