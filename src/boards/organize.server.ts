// What the board and profile pages need to offer board management to a signed-in viewer: their
// role on the board (policy.ts), their own collaborator record (an invite to answer, a request
// already sent), and the owner's archived boards. Read only for signed-in viewers, so none of
// it reaches a signed-out or cached page.
import type { BoardPrivacy } from "./board.ts";
import { parseAccess, roleOf, type BoardRole } from "./policy.ts";
import type { BoardState } from "./board-state.ts";
import type { PinItem } from "./board-store.ts";
import { displayName } from "~/users/user.ts";

export interface ViewerRecord {
  status: "new" | "accepted";
  type: "invite" | "request";
  invitedBy: string | null;
}

export interface ViewerBoardFacts {
  role: BoardRole;
  record: ViewerRecord | null;
  archivedAt: number | null;
  coverPinId: string | null;
}

interface FactsRow {
  owner_id: number;
  archived_at: number | null;
  cover_pin_id: number | null;
  status: "new" | "accepted" | null;
  type: "invite" | "request" | null;
  access: string | null;
  inviter_username: string | null;
  inviter_full_name: string | null;
  follows: number;
}

/** The viewer's relation to one board, in one query. */
export async function viewerBoardFacts(db: D1Database, boardId: string, viewerId: number): Promise<ViewerBoardFacts | null> {
  const row = await db
    .prepare(
      `SELECT b.owner_id, b.archived_at, b.cover_pin_id, bc.status, bc.type, bc.access,
              iu.username AS inviter_username, iu.full_name AS inviter_full_name,
              EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = ?2
                        AND ((f.target_type = 'board' AND f.target_id = b.id) OR (f.target_type = 'user' AND f.target_id = b.owner_id))) AS follows
       FROM boards b
       LEFT JOIN board_collaborators bc ON bc.board_id = b.id AND bc.user_id = ?2
       LEFT JOIN users iu ON iu.id = bc.invited_by
       WHERE b.id = ?1`,
    )
    .bind(Number(boardId), viewerId)
    .first<FactsRow>();
  if (!row) return null;
  const accepted = row.status === "accepted";
  const role = roleOf({ ownerId: row.owner_id, collaboratorAccess: accepted ? parseAccess(row.access) : null, follows: row.follows === 1 }, viewerId);
  const record: ViewerRecord | null =
    row.status && row.type
      ? {
          status: row.status,
          type: row.type,
          invitedBy: row.inviter_username ? displayName({ username: row.inviter_username, full_name: row.inviter_full_name ?? "" }) : null,
        }
      : null;
  return { role, record, archivedAt: row.owner_id === viewerId ? row.archived_at : null, coverPinId: row.cover_pin_id === null ? null : String(row.cover_pin_id) };
}

export interface ArchivedBoard {
  id: string;
  name: string;
  url: string;
  archivedAt: number;
}

/** The owner's archived boards, most recently archived first (bounded: a profile shows 100 at most). */
export async function archivedBoards(db: D1Database, ownerId: number, username: string): Promise<ArchivedBoard[]> {
  const { results } = await db
    .prepare(`SELECT id, name, slug, archived_at FROM boards WHERE owner_id = ?1 AND archived_at IS NOT NULL ORDER BY archived_at DESC, id DESC LIMIT 100`)
    .bind(ownerId)
    .all<{ id: number; name: string; slug: string; archived_at: number }>();
  return results.map((row) => ({ id: String(row.id), name: row.name, url: `/${username}/${row.slug}/`, archivedAt: row.archived_at }));
}

/** What the board page hands BoardOrganizer (everything serialisable). */
export interface BoardPageInput {
  id: string;
  name: string;
  description: string;
  privacy: BoardPrivacy;
  pinCount: number;
  sections: Array<{ id: string; title: string; slug: string; pinCount: number }>;
  pins: Array<{ id: string; kind: string; title: string; image: { url: string } }>;
  pinsCursor: string | null;
}

export function organizerBoard(board: BoardPageInput, facts: ViewerBoardFacts): { board: BoardState; pins: PinItem[]; bookmark: string | null } {
  const inSections = board.sections.reduce((sum, section) => sum + section.pinCount, 0);
  return {
    board: {
      id: board.id,
      name: board.name,
      description: board.description,
      privacy: board.privacy,
      pin_count: board.pinCount,
      sectionless_pin_count: Math.max(0, board.pinCount - inSections),
      section_count: board.sections.length,
      sections: board.sections.map((section) => ({ id: section.id, title: section.title, slug: section.slug, pin_count: section.pinCount })),
      cover_pin_id: facts.coverPinId,
      archived_by_me_at: facts.archivedAt,
      pending_ownership_transfer: null,
    },
    pins: board.pins.map((pin) => ({ id: pin.id, type: "pin", ...(pin.kind === "story" ? { story: true } : {}), title: pin.title, imageUrl: pin.image.url })),
    bookmark: board.pinsCursor,
  };
}
