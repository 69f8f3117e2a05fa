// The server side of the board policy (policy.ts): one D1 read gives a board and the viewer's
// role on it, and `requireBoardAction` turns the policy's answer into the refusal every
// board, section, pin and collaborator handler gives. Handlers call it first and build their
// writes only after it passed; the writes then repeat the board id in their WHERE clauses.
import { requireWriteAllowed, signedOut, type Viewer } from "~/accounts/guards.server.ts";
import { forbidden, notFound } from "~/domain/errors.ts";
import { viewerIdOf } from "~/users/user.ts";
import { visibleFlagSql } from "~/visibility/visibility.server.ts";
import type { BoardTableRow } from "./board-row.ts";
import { decide, isReading, parseAccess, roleOf, type BoardAction, type BoardRole } from "./policy.ts";

export interface BoardWithRole {
  board: BoardTableRow;
  role: BoardRole;
  /**
   * Seen only by its owner and accepted collaborators: secret, protected or archived, or on a
   * private, under-16 or limited-login profile (the publicBoard rule, negated).
   */
  isPrivate: boolean;
}

export interface BoardAccessRow extends BoardTableRow {
  collaborator_access: string | null;
  follows: number;
  /** 1 when anyone may open the board (the publicBoard rule: public, not archived, its owner's profile public). */
  is_public: number;
}

/** The board, whether anyone may open it and the viewer's relation to it, one statement (bound: board id, viewer id or NULL). */
export const BOARD_ACCESS_SQL = `SELECT b.*, ${visibleFlagSql("publicBoard", { board: "b", owner: "u" }, null)} AS is_public,
       (SELECT bc.access FROM board_collaborators bc WHERE bc.board_id = b.id AND bc.user_id = ?2 AND bc.status = 'accepted') AS collaborator_access,
       EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = ?2
               AND ((f.target_type = 'board' AND f.target_id = b.id) OR (f.target_type = 'user' AND f.target_id = b.owner_id))) AS follows
     FROM boards b JOIN users u ON u.id = b.owner_id WHERE b.id = ?1`;

export function boardWithRole(row: BoardAccessRow, viewerId: number | null): BoardWithRole {
  const { collaborator_access, follows, is_public, ...board } = row;
  const access = collaborator_access === null ? null : parseAccess(collaborator_access);
  const role = roleOf({ ownerId: board.owner_id, collaboratorAccess: access, follows: follows === 1 }, viewerId);
  return { board, role, isPrivate: is_public !== 1 };
}

/** The board by id with the viewer's role, or null when no such board exists. */
export async function loadBoardWithRole(db: D1Database, boardId: number, viewerId: number | null): Promise<BoardWithRole | null> {
  const row = await db.prepare(BOARD_ACCESS_SQL).bind(boardId, viewerId).first<BoardAccessRow>();
  return row ? boardWithRole(row, viewerId) : null;
}

/** Throws the policy's answer for a loaded board (null = missing): not found, signed out or forbidden. */
export function assertBoardAction<Loaded extends BoardWithRole>(loaded: Loaded | null, action: BoardAction): Loaded {
  if (!loaded) throw notFound("api.boardNotFound");
  const answer = decide(loaded.role, action, loaded.isPrivate);
  if (answer === "not_found") throw notFound("api.boardNotFound");
  if (answer === "unauthorized") throw signedOut();
  if (answer === "forbidden") throw forbidden();
  return loaded;
}

/**
 * Loads the board and checks the action for the request's viewer. Every action except
 * reading needs a full, write-allowed login (401 signed out, 403 code 17 limited login, 403
 * write-banned), checked before the board is read.
 */
export async function requireBoardAction(db: D1Database, viewer: Viewer, boardId: number, action: BoardAction): Promise<BoardWithRole & { viewerId: number | null }> {
  const reading = isReading(action);
  const viewerId = reading ? viewerIdOf(viewer) : requireWriteAllowed(viewer).user.id;
  const loaded = assertBoardAction(await loadBoardWithRole(db, boardId, viewerId), action);
  return { ...loaded, viewerId };
}
