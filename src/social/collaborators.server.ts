// Board collaborators (spec 001 §4 "Collaborator invite status", "Board"; §5; §6): invite
// (status new, access write,delete), request to join (type request), approve (accepted for a
// request, an invite stays new), deny (record removed), accept by the invited person (write
// access, collaborative, count +1), remove or leave (record removed, count -1 when it was
// accepted). Every action asks the board policy first (src/boards/policy.ts), except a
// person's answer to their own pending invite: that needs the pending row, else 404.
// boards.collaborator_count counts accepted rows; each change is one batch whose count
// update is guarded by the row's state, so it stays exact and never falls below 0.
import { requireWriteAllowed, type Viewer } from "~/accounts/guards.server.ts";
import type { BoardTableRow } from "~/boards/board-row.ts";
import { parseAccess, type BoardAccess } from "~/boards/policy.ts";
import { badRequest, conflict, notFound } from "~/domain/errors.ts";
import { written, type Written } from "~/domain/written.ts";
import { userImageUrl } from "~/users/user.ts";
import { visibleSql } from "~/visibility/visibility.server.ts";
import type { CollaboratorStatus, CollaboratorType } from "./collaborators.ts";
import { INVITE_ACCESS } from "./collaborators.ts";
import { requireBoardAction } from "~/boards/access.server.ts";
import { assertNotBlocked, type UserRef } from "./guard.server.ts";
import { inviteNews, joinRequestNews } from "~/news/record.server.ts";

export const MAX_INVITES_PER_CALL = 50;
/** A board's collaborator list is bounded; far above any real board's. */
const MAX_COLLABORATORS_LISTED = 500;

interface RecordRow {
  user_id: number;
  status: "new" | "accepted";
  type: CollaboratorType;
  access: string;
}

async function recordOf(db: D1Database, boardId: number, userId: number): Promise<RecordRow | null> {
  return db.prepare("SELECT user_id, status, type, access FROM board_collaborators WHERE board_id = ?1 AND user_id = ?2").bind(boardId, userId).first<RecordRow>();
}

/** The signed-out pages showing a board's collaborators: the board and its owner's profile. */
async function boardPages(db: D1Database, board: BoardTableRow): Promise<string[]> {
  const owner = await db.prepare("SELECT username FROM users WHERE id = ?1").bind(board.owner_id).first<{ username: string }>();
  return owner ? [`/${owner.username}/${board.slug}/`, `/${owner.username}/`] : [];
}

export interface InviteAnswer {
  invited: string[];
  skipped: string[];
}

/** Invites users (status new); skips anyone with a record already, unknown users, the owner, and blocks either way. */
export async function inviteCollaborators(db: D1Database, viewer: Viewer, boardId: number, userIds: number[]): Promise<InviteAnswer> {
  const { board, viewerId } = await requireBoardAction(db, viewer, boardId, "invite_collaborator");
  const unique = [...new Set(userIds)];
  const marks = unique.map((_, i) => `?${i + 3}`).join(", ");
  const { results } = await db
    .prepare(
      `SELECT u.id FROM users u
       WHERE u.id IN (${marks}) AND u.id != ?2 AND ${visibleSql("profile", { user: "u" }, "?2")}
         AND NOT EXISTS (SELECT 1 FROM board_collaborators bc WHERE bc.board_id = ?1 AND bc.user_id = u.id)
         AND NOT EXISTS (SELECT 1 FROM blocks WHERE (blocker_id = ?2 AND blocked_id = u.id) OR (blocker_id = u.id AND blocked_id = ?2))`,
    )
    .bind(boardId, board.owner_id, ...unique)
    .all<{ id: number }>();
  const invitable = new Set(results.map((row) => row.id));
  const invited = unique.filter((id) => invitable.has(id));
  if (invited.length > 0) {
    const now = Date.now();
    await db.batch([
      ...invited.map((id) =>
        db
          .prepare("INSERT OR IGNORE INTO board_collaborators (board_id, user_id, status, access, type, invited_by, created_at) VALUES (?1, ?2, 'new', ?3, 'invite', ?4, ?5)")
          .bind(boardId, id, INVITE_ACCESS.join(","), viewerId, now),
      ),
      ...inviteNews(db, viewerId!, boardId, invited, now),
    ]);
  }
  return { invited: invited.map(String), skipped: unique.filter((id) => !invitable.has(id)).map(String) };
}

/** Asks to join (type request, status new). Asking again is the same answer; a pending invite is 409. */
export async function requestToJoin(db: D1Database, viewer: Viewer, boardId: number): Promise<{ requested: true }> {
  const { board, viewerId } = await requireBoardAction(db, viewer, boardId, "request_to_join");
  const asker = viewerId!;
  await assertNotBlocked(db, asker, board.owner_id);
  const existing = await recordOf(db, boardId, asker);
  if (existing && existing.type !== "request") throw conflict("social:api.alreadyInvited");
  const now = Date.now();
  // Its owner hears of a new request in the same batch (asking again changes nothing and tells no one).
  await db.batch([
    db
      .prepare("INSERT OR IGNORE INTO board_collaborators (board_id, user_id, status, access, type, invited_by, created_at) VALUES (?1, ?2, 'new', ?3, 'request', NULL, ?4)")
      .bind(boardId, asker, INVITE_ACCESS.join(","), now),
    ...joinRequestNews(db, asker, boardId, now),
  ]);
  return { requested: true };
}

export interface CollaboratorChangeAnswer {
  board_id: string;
  user_id: string;
  status: CollaboratorStatus;
  collaborator_count: number;
  is_collaborative: boolean;
}

async function change(db: D1Database, boardId: number, userId: number, statements: D1PreparedStatement[]): Promise<CollaboratorChangeAnswer> {
  const results = await db.batch([
    ...statements,
    db
      .prepare(
        `SELECT b.collaborator_count, b.is_collaborative, (SELECT status FROM board_collaborators WHERE board_id = b.id AND user_id = ?2) AS status
         FROM boards b WHERE b.id = ?1`,
      )
      .bind(boardId, userId),
  ]);
  const row = results.at(-1)?.results?.[0] as { collaborator_count: number; is_collaborative: number; status: "new" | "accepted" | null } | undefined;
  return {
    board_id: String(boardId),
    user_id: String(userId),
    status: row?.status ?? "not_invited",
    collaborator_count: row?.collaborator_count ?? 0,
    is_collaborative: row?.is_collaborative === 1,
  };
}

/** Statements that make a pending row (matching `type`) accepted, with the board's count and flag. */
function acceptStatements(db: D1Database, boardId: number, userId: number, type: CollaboratorType): D1PreparedStatement[] {
  const pending = "SELECT 1 FROM board_collaborators WHERE board_id = ?1 AND user_id = ?2 AND status = 'new' AND type = ?3";
  return [
    db.prepare(`UPDATE boards SET collaborator_count = collaborator_count + 1, is_collaborative = 1, updated_at = ?4 WHERE id = ?1 AND EXISTS (${pending})`).bind(boardId, userId, type, Date.now()),
    db.prepare("UPDATE board_collaborators SET status = 'accepted' WHERE board_id = ?1 AND user_id = ?2 AND status = 'new' AND type = ?3").bind(boardId, userId, type),
  ];
}

export type CollaboratorUpdateAction = "approve" | "deny" | "accept";

export async function updateCollaborator(db: D1Database, viewer: Viewer, boardId: number, userId: number, action: CollaboratorUpdateAction): Promise<Written<CollaboratorChangeAnswer>> {
  if (action === "accept") {
    // The invited person's own answer: no board role yet (a secret board is still hidden from them).
    const viewerId = requireWriteAllowed(viewer).user.id;
    if (userId !== viewerId) throw badRequest([{ field: "user_id", reason: "social:validation.ownInviteOnly" }]);
    const record = await recordOf(db, boardId, viewerId);
    if (!record || record.status !== "new" || record.type !== "invite") throw notFound("social:api.inviteNotFound");
    const blocked = await db
      .prepare("SELECT 1 FROM boards b JOIN blocks k ON (k.blocker_id = b.owner_id AND k.blocked_id = ?2) OR (k.blocker_id = ?2 AND k.blocked_id = b.owner_id) WHERE b.id = ?1")
      .bind(boardId, viewerId)
      .first();
    if (blocked) throw notFound("social:api.inviteNotFound");
    const answer = await change(db, boardId, viewerId, acceptStatements(db, boardId, viewerId, "invite"));
    const board = await db.prepare("SELECT * FROM boards WHERE id = ?1").bind(boardId).first<BoardTableRow>();
    return written(answer, board ? await boardPages(db, board) : []);
  }
  const { board } = await requireBoardAction(db, viewer, boardId, "answer_join_request");
  const record = await recordOf(db, boardId, userId);
  if (!record || record.status !== "new") throw notFound("social:api.collaboratorNotFound");
  let statements: D1PreparedStatement[];
  if (action === "deny") statements = [db.prepare("DELETE FROM board_collaborators WHERE board_id = ?1 AND user_id = ?2 AND status = 'new'").bind(boardId, userId)];
  // Approving sets accepted for a request to join; an invite the owner approves stays new.
  else statements = record.type === "request" ? acceptStatements(db, boardId, userId, "request") : [];
  const answer = await change(db, boardId, userId, statements);
  return written(answer, await boardPages(db, board));
}

/** Removes a collaborator (the owner) or leaves (oneself); one's own pending invite or request may always be withdrawn. */
export async function removeCollaborator(db: D1Database, viewer: Viewer, boardId: number, userId: number): Promise<Written<CollaboratorChangeAnswer>> {
  const session = viewer.session;
  const self = session !== null && session.user.id === userId;
  const ownRecord = self ? await recordOf(db, boardId, userId) : null;
  let board: BoardTableRow | null = null;
  if (self && ownRecord?.status === "new") requireWriteAllowed(viewer);
  else board = (await requireBoardAction(db, viewer, boardId, self ? "leave_board" : "remove_collaborator")).board;
  const record = ownRecord ?? (await recordOf(db, boardId, userId));
  if (!record) throw notFound("social:api.collaboratorNotFound");
  const accepted = "SELECT 1 FROM board_collaborators WHERE board_id = ?1 AND user_id = ?2 AND status = 'accepted'";
  const answer = await change(db, boardId, userId, [
    db.prepare(`UPDATE boards SET collaborator_count = MAX(collaborator_count - 1, 0), updated_at = ?3 WHERE id = ?1 AND EXISTS (${accepted})`).bind(boardId, userId, Date.now()),
    db.prepare("DELETE FROM board_collaborators WHERE board_id = ?1 AND user_id = ?2").bind(boardId, userId),
    db.prepare("UPDATE boards SET pending_owner_id = NULL WHERE id = ?1 AND pending_owner_id = ?2").bind(boardId, userId),
  ]);
  return written(answer, board ? await boardPages(db, board) : []);
}

export interface CollaboratorItem {
  user: UserRef;
  status: Exclude<CollaboratorStatus, "not_invited">;
  access: BoardAccess[];
  type: CollaboratorType;
  invited_by_user_id: string | null;
}

/** The board's collaborator records (owner and collaborators only), accepted first, then newest. */
export async function listCollaborators(db: D1Database, viewer: Viewer, boardId: number): Promise<{ results: CollaboratorItem[] }> {
  await requireBoardAction(db, viewer, boardId, "list_collaborators");
  const { results } = await db.prepare(
    `SELECT bc.user_id, bc.status, bc.access, bc.type, bc.invited_by, u.username, u.full_name, u.image_key
     FROM board_collaborators bc JOIN users u ON u.id = bc.user_id
     WHERE bc.board_id = ?1
     ORDER BY bc.status = 'accepted' DESC, bc.created_at DESC, bc.user_id LIMIT ?2`,
  )
    .bind(boardId, MAX_COLLABORATORS_LISTED)
    .all<RecordRow & { invited_by: number | null; username: string; full_name: string; image_key: string | null }>();
  return {
    results: results.map((row) => ({
      user: { id: String(row.user_id), username: row.username, full_name: row.full_name, image_medium_url: userImageUrl(row.image_key, "medium") },
      status: row.status,
      access: parseAccess(row.access),
      type: row.type,
      invited_by_user_id: row.invited_by === null ? null : String(row.invited_by),
    })),
  };
}
