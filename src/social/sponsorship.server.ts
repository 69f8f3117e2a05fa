// Pin sponsorship (spec 001 §4 "Pin sponsorship", §6): the creator or the sponsor approve,
// decline or delete; anyone else is refused (403). The stored JSON (pins.sponsorship) changes
// through the same pure transition the close-up island uses (sponsorship.ts), and only if it
// is still what was read: a concurrent change answers 409 rather than being overwritten.
import { requireWriteAllowed, type Viewer } from "~/accounts/guards.server.ts";
import { conflict, forbidden, notFound } from "~/domain/errors.ts";
import { written, type Written } from "~/domain/written.ts";
import { userImageUrl, viewerIdOf } from "~/users/user.ts";
import { loadVisiblePin, type UserRef } from "./guard.server.ts";
import { maySponsorshipAct, parseStoredSponsorship, sponsorshipReducer, type SponsorshipAction, type SponsorshipStatus, type StoredSponsorship } from "./sponsorship.ts";

interface SponsorshipJson {
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

export async function updateSponsorship(db: D1Database, viewer: Viewer, pinId: number, action: SponsorshipAction): Promise<Written<SponsorshipAnswer>> {
  const pin = await loadVisiblePin(db, pinId, viewerIdOf(viewer));
  if (!pin) throw notFound("api.pinNotFound");
  const viewerId = requireWriteAllowed(viewer).user.id;
  const stored = parseStoredSponsorship(pin.sponsorship);
  if (!stored) throw notFound("social:api.noSponsorship");
  if (!maySponsorshipAct(stored, String(viewerId))) throw forbidden("social:api.sponsorshipForbidden");
  const next = sponsorshipReducer(stored, action);
  const update = await db
    .prepare("UPDATE pins SET sponsorship = ?2, updated_at = ?4 WHERE id = ?1 AND sponsorship IS ?3")
    .bind(pinId, next === null ? null : JSON.stringify(next), pin.sponsorship, Date.now())
    .run();
  if (update.meta.changes !== 1) throw conflict("social:api.sponsorshipChanged");
  return written({ pin_id: String(pinId), sponsorship: await toJson(db, next) }, [`/pin/${pinId}/`]);
}
