// The doors every social call goes through: ids as the API writes them, the board policy
// (src/boards/policy.ts) and the close-up's visibility rule (src/visibility/).
import { requireWriteAllowed, type Viewer } from "~/accounts/guards.server.ts";
import { requireBoardAction } from "~/boards/access.server.ts";
import { forbidden, notFound } from "~/domain/errors.ts";
import { factColumns, holdsFor } from "~/visibility/visibility.server.ts";

/** IDs travel as decimal strings (`"2001"`): the boards API's one rule (positive, safe integers). */
export { idOption as idSchema } from "~/boards/options.ts";

interface PinAccessRow {
  id: number;
  pinner_id: number;
  board_id: number | null;
  sponsorship: string | null;
  did_it_images_count: number;
  /** 1 when the viewer and the pinner block each other (either way). */
  blocked: number;
}

export type SocialPin = PinAccessRow;

const PIN_ACCESS_SQL = `SELECT p.id, p.pinner_id, p.board_id, p.sponsorship, p.did_it_images_count,
         ${factColumns("pin", { pin: "p", board: "b", pinner: "u" }, "?2")},
         EXISTS (SELECT 1 FROM blocks k WHERE (k.blocker_id = p.pinner_id AND k.blocked_id = ?2) OR (k.blocker_id = ?2 AND k.blocked_id = p.pinner_id)) AS blocked
  FROM pins p JOIN users u ON u.id = p.pinner_id LEFT JOIN boards b ON b.id = p.board_id
  WHERE p.id = ?1`;

/** The pin when the viewer may open its close-up (the pin rule), else null: actions go where the page shows. */
export async function loadVisiblePin(db: D1Database, pinId: number, viewerId: number | null): Promise<SocialPin | null> {
  const row = await db.prepare(PIN_ACCESS_SQL).bind(pinId, viewerId).first<PinAccessRow & Record<string, unknown>>();
  return row && holdsFor("pin", row, viewerId) ? row : null;
}

/**
 * A reaction, did-it or comment-like action on a pin: a full, write-allowed login first (401
 * signed out, before anything is looked up, as the policy table says); then 404 when the
 * viewer cannot see the pin, and react_to_pin on the pin's own board. Returns the pin and the
 * viewer's id.
 */
export async function requirePinReaction(db: D1Database, viewer: Viewer, pinId: number): Promise<{ pin: SocialPin; viewerId: number }> {
  const viewerId = requireWriteAllowed(viewer).user.id;
  const pin = await loadVisiblePin(db, pinId, viewerId);
  if (!pin) throw notFound("api.pinNotFound");
  // A block either way ends acting on each other's pins, as it ends following.
  if (pin.blocked === 1) throw blockedError();
  if (pin.board_id !== null) await requireBoardAction(db, viewer, pin.board_id, "react_to_pin");
  return { pin, viewerId };
}

/** A block either way refuses following, inviting and acting on each other's things. */
export const blockedError = () => forbidden("social:api.blocked");

/** 403 when a block stands between the two people, either way. */
export async function assertNotBlocked(db: D1Database, a: number, b: number): Promise<void> {
  const blocked = await db.prepare("SELECT 1 FROM blocks WHERE (blocker_id = ?1 AND blocked_id = ?2) OR (blocker_id = ?2 AND blocked_id = ?1)").bind(a, b).first();
  if (blocked) throw blockedError();
}

/** The public user shape answers carry. */
export interface UserRef {
  id: string;
  username: string;
  full_name: string;
  image_medium_url: string | null;
}
