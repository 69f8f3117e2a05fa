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
  /** 1 when the viewer is an accepted collaborator (collaboratorSql); absent means no. */
  viewer_collaborates?: number | null;
}

/**
 * Who may see a board, on its page and in the profile's board list: its owner always;
 * anyone else only when it is public and not archived. Secret, protected and archived boards
 * answer a stranger exactly like a board that does not exist. Its accepted collaborators see
 * it as its owner does (an invitation not yet accepted gives nothing). `viewerId` is the
 * signed-in user's id, null when signed out.
 */
export function canViewBoard(board: BoardVisibilityRow, viewerId: number | null): boolean {
  if (viewerId !== null && (viewerId === board.owner_id || board.viewer_collaborates === 1)) return true;
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
  /** That board's owner, and whether the viewer collaborates on it (absent: no). */
  board_owner_id?: number | null;
  board_viewer_collaborates?: number | null;
}

/**
 * Whether a pin appears in a grid (a board's feed, a profile's created pins) and in the
 * counts beside it: never when deleted or hidden; otherwise when it is boardless or its own
 * board is public, or the viewer pinned it, owns its board or collaborates on it. This is the
 * pin page's rule (a pin first pinned to a secret or protected board is a missing pin to
 * strangers), so a grid never links to a 404.
 */
export function isPinListed(pin: ListedPinRow, viewerId: number | null): boolean {
  if (pin.is_deleted !== 0 || pin.is_hidden !== 0) return false;
  if (pin.board_id === null || pin.board_privacy === "public") return true;
  if (viewerId === null) return false;
  return viewerId === pin.pinner_id || viewerId === pin.board_owner_id || pin.board_viewer_collaborates === 1;
}

/**
 * 1 when the viewer is an accepted collaborator of the board whose id is `boardId`, as a SQL
 * expression (0 when signed out: a NULL viewer matches no row).
 */
export function collaboratorSql(boardId: string, viewer: string): string {
  return `EXISTS (SELECT 1 FROM board_collaborators bc WHERE bc.board_id = ${boardId} AND bc.user_id = ${viewer} AND bc.status = 'accepted')`;
}

/** canViewBoard as a SQL condition on the boards alias `board`; `viewer` is the viewer-id parameter. */
export function boardVisibleSql(board: string, viewer: string): string {
  return `((${board}.privacy = 'public' AND ${board}.archived_at IS NULL) OR ${board}.owner_id = ${viewer} OR ${collaboratorSql(`${board}.id`, viewer)})`;
}

/**
 * isPinListed as a SQL condition: `pin` is the pins alias, `ownBoard` the alias of the pin's
 * own board LEFT JOINed on pins.board_id, `viewer` the viewer-id parameter.
 */
export function pinListedSql(pin: string, ownBoard: string, viewer: string): string {
  return `(${pin}.is_deleted = 0 AND ${pin}.is_hidden = 0 AND (${pin}.board_id IS NULL OR ${ownBoard}.privacy = 'public' OR ${pin}.pinner_id = ${viewer}
           OR ${ownBoard}.owner_id = ${viewer} OR ${collaboratorSql(`${ownBoard}.id`, viewer)}))`;
}
