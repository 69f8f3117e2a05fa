// Boards: who may see a board, and which pins a board or profile lists. Pure rules of a row
// and the viewer; the SQL in boards.server.ts and users.server.ts mirrors them (so secret
// rows never leave D1) and the results are re-checked with these functions.
import { z } from "zod";

export const BOARD_PRIVACIES = ["public", "secret", "protected"] as const;
export type BoardPrivacy = (typeof BOARD_PRIVACIES)[number];

/** A board slug as a URL segment: letters, digits, hyphens (slugify keeps any script's letters). */
export const boardSlugSchema = z.string().regex(/^[\p{L}\p{N}_-]{1,120}$/u, "board slugs are letters, digits and hyphens");

/** The columns the board rule reads. */
export interface BoardVisibilityRow {
  owner_id: number;
  privacy: BoardPrivacy;
  archived_at: number | null;
}

/**
 * Who may see a board, on its page and in the profile's board list: its owner always;
 * anyone else only when it is public and not archived. Secret, protected and archived boards
 * answer a stranger exactly like a board that does not exist. (Collaborators join with
 * issue 5.) `viewerId` is the signed-in user's id, null when signed out.
 */
export function canViewBoard(board: BoardVisibilityRow, viewerId: number | null): boolean {
  if (viewerId !== null && viewerId === board.owner_id) return true;
  return board.privacy === "public" && board.archived_at === null;
}

/** The columns the pin-listing rule reads: the pin, and the privacy of the board it was first pinned to. */
export interface ListedPinRow {
  pinner_id: number;
  is_deleted: number;
  is_hidden: number;
  /** The pin's own board (pins.board_id); null for a boardless pin. */
  board_id: number | null;
  /** That board's privacy; null when the pin has no board. */
  board_privacy: BoardPrivacy | null;
}

/**
 * Whether a pin appears in a grid (a board's feed, a profile's created pins) and in the
 * counts beside it: never when deleted or hidden; otherwise when it is boardless or its own
 * board is public, or the viewer pinned it. This is the pin page's rule (a pin first pinned to
 * a secret or protected board is a missing pin to strangers), so a grid never links to a 404.
 */
export function isPinListed(pin: ListedPinRow, viewerId: number | null): boolean {
  if (pin.is_deleted !== 0 || pin.is_hidden !== 0) return false;
  if (pin.board_id === null || pin.board_privacy === "public") return true;
  return viewerId !== null && viewerId === pin.pinner_id;
}

/** canViewBoard as a SQL condition on the boards alias `board`; `viewer` is the viewer-id parameter. */
export function boardVisibleSql(board: string, viewer: string): string {
  return `((${board}.privacy = 'public' AND ${board}.archived_at IS NULL) OR ${board}.owner_id = ${viewer})`;
}

/**
 * isPinListed as a SQL condition: `pin` is the pins alias, `ownBoard` the alias of the pin's
 * own board LEFT JOINed on pins.board_id, `viewer` the viewer-id parameter.
 */
export function pinListedSql(pin: string, ownBoard: string, viewer: string): string {
  return `(${pin}.is_deleted = 0 AND ${pin}.is_hidden = 0 AND (${pin}.board_id IS NULL OR ${ownBoard}.privacy = 'public' OR ${pin}.pinner_id = ${viewer}))`;
}
