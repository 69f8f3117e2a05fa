// Pin sponsorship (spec 001 §4 "Pin sponsorship", §6): the creator or the sponsor approve,
// decline or delete; anyone else is refused (403). The stored JSON (pins.sponsorship) changes
// through the same pure transition the close-up island uses (sponsorship.ts), and only if it
// is still what was read: a concurrent change answers 409 rather than being overwritten.
import type { Context } from "hono";
import { requireWriteAllowed } from "../accounts/guards.server.ts";
import type { AppEnv } from "../server/context.ts";
import { ApiError, ErrorCode, notFound } from "../server/errors.ts";
import { userImageUrl } from "../users/user.ts";
import { loadVisiblePin, purgeLater, type UserRef } from "./guard.server.ts";
import { maySponsorshipAct, parseStoredSponsorship, sponsorshipReducer, type SponsorshipAction, type SponsorshipStatus, type StoredSponsorship } from "./sponsorship.ts";

export interface SponsorshipJson {
  creator: UserRef;
  sponsor: UserRef | null;
  status: SponsorshipStatus;
}

export interface SponsorshipAnswer {
  pin_id: string;
  sponsorship: SponsorshipJson | null;
}

async function toJson(db: D1Database, stored: StoredSponsorship | null): Promise<SponsorshipJson | null> {
  if (!stored) return null;
  const ids = [stored.creatorId, stored.sponsorId].filter((id): id is string => id !== null).map(Number);
  const { results } = await db
    .prepare(`SELECT id, username, full_name, image_key FROM users WHERE id IN (${ids.map((_, i) => `?${i + 1}`).join(", ")})`)
    .bind(...ids)
    .all<{ id: number; username: string; full_name: string; image_key: string | null }>();
  const ref = (id: string | null): UserRef | null => {
    const row = results.find((user) => String(user.id) === id);
    return row ? { id: String(row.id), username: row.username, full_name: row.full_name, image_medium_url: userImageUrl(row.image_key, "medium") } : null;
  };
  const creator = ref(stored.creatorId);
  return creator ? { creator, sponsor: ref(stored.sponsorId), status: stored.status } : null;
}

export async function updateSponsorship(c: Context<AppEnv>, pinId: number, action: SponsorshipAction): Promise<SponsorshipAnswer> {
  const db = c.env.DB;
  const pin = await loadVisiblePin(db, pinId, c.var.ctx.session?.user.id ?? null);
  if (!pin) throw notFound("api.pinNotFound");
  const viewerId = requireWriteAllowed(c).user.id;
  const stored = parseStoredSponsorship(pin.sponsorship);
  if (!stored) throw notFound("social:api.noSponsorship");
  if (!maySponsorshipAct(stored, String(viewerId))) throw new ApiError(403, ErrorCode.Forbidden, { message: "social:api.sponsorshipForbidden" });
  const next = sponsorshipReducer(stored, action);
  const written = await db
    .prepare("UPDATE pins SET sponsorship = ?2, updated_at = ?4 WHERE id = ?1 AND sponsorship IS ?3")
    .bind(pinId, next === null ? null : JSON.stringify(next), pin.sponsorship, Date.now())
    .run();
  if (written.meta.changes !== 1) throw new ApiError(409, ErrorCode.Conflict, { message: "social:api.sponsorshipChanged" });
  purgeLater(c, [`/pin/${pinId}/`]);
  return { pin_id: String(pinId), sponsorship: await toJson(db, next) };
}

/** A pin's sponsorship for its close-up (the pins row's column, as read by the page). */
export async function pinSponsorship(db: D1Database, pinId: number): Promise<SponsorshipJson | null> {
  const row = await db.prepare("SELECT sponsorship FROM pins WHERE id = ?1").bind(pinId).first<{ sponsorship: string | null }>();
  return toJson(db, parseStoredSponsorship(row?.sponsorship ?? null));
}
