// Following people and boards, and blocking (spec 001 §4 "Reactions, follows and did-it",
// "Board"). Counts move in the same D1 batch as the follow row, each guarded by the row's
// existence, so a repeated call never counts twice and nothing falls below 0:
// users.follower_count / following_count count user follows only, boards.follower_count
// counts board follows only (docs/demo-accounts.md "Counters"). A block clears follows both
// ways (the two users, and each one's follows of the other's boards) and refuses new follows
// either way with 403 until it is lifted.
import { requireWriteAllowed, type Viewer } from "~/accounts/guards.server.ts";
import { BOARD_SORT_ORDERS } from "~/profile/view-state.ts";
import type { BoardTableRow } from "~/boards/board-row.ts";
import { badRequest, notFound } from "~/domain/errors.ts";
import { written, type Written } from "~/domain/written.ts";
import { factColumns, holdsFor } from "~/visibility/visibility.server.ts";
import { loadBoardWithRole, requireBoardAction } from "~/boards/access.server.ts";
import { canSeeBoard } from "~/boards/policy.ts";
import { assertNotBlocked, blockedError } from "./guard.server.ts";
import { followNews } from "~/news/record.server.ts";

interface TargetUserRow extends Record<string, unknown> {
  id: number;
  username: string;
  blocked: number;
}


/** The other user (404 when unknown or hidden from the viewer), with whether a block stands either way. */
async function loadTarget(db: D1Database, viewerId: number, userId: number, field: string): Promise<TargetUserRow> {
  if (userId === viewerId) throw badRequest([{ field, reason: "social:validation.notYourself" }]);
  const target = await db
    .prepare(
      `SELECT u.id, u.username, ${factColumns("profile", { user: "u" }, "?2")},
              EXISTS (SELECT 1 FROM blocks WHERE (blocker_id = ?2 AND blocked_id = u.id) OR (blocker_id = u.id AND blocked_id = ?2)) AS blocked
       FROM users u WHERE u.id = ?1`,
    )
    .bind(userId, viewerId)
    .first<TargetUserRow>();
  if (!target || !holdsFor("profile", target, viewerId)) throw notFound("social:api.userNotFound");
  return target;
}

/** A profile's signed-out renders (it shows follower and following counts), every board sort included. */
const profilePaths = (username: string) => [`/${username}/`, ...BOARD_SORT_ORDERS.map((sort) => `/${username}/?sort=${sort}`)];

const FOLLOWS_USER = "SELECT 1 FROM follows WHERE follower_id = ?1 AND target_type = 'user' AND target_id = ?2";

/** Statements that end (viewer → user) follow and its counts; a no-op when there is none. */
function unfollowUserStatements(db: D1Database, followerId: number, userId: number): D1PreparedStatement[] {
  return [
    db.prepare(`UPDATE users SET follower_count = MAX(follower_count - 1, 0) WHERE id = ?2 AND EXISTS (${FOLLOWS_USER})`).bind(followerId, userId),
    db.prepare(`UPDATE users SET following_count = MAX(following_count - 1, 0) WHERE id = ?1 AND EXISTS (${FOLLOWS_USER})`).bind(followerId, userId),
    db.prepare("DELETE FROM follows WHERE follower_id = ?1 AND target_type = 'user' AND target_id = ?2").bind(followerId, userId),
  ];
}

/** Statements that end every follow by `followerId` of a board `ownerId` owns, with the boards' counts. */
function unfollowOwnersBoardsStatements(db: D1Database, followerId: number, ownerId: number): D1PreparedStatement[] {
  const followed = "SELECT target_id FROM follows WHERE follower_id = ?1 AND target_type = 'board'";
  return [
    db.prepare(`UPDATE boards SET follower_count = MAX(follower_count - 1, 0) WHERE owner_id = ?2 AND id IN (${followed})`).bind(followerId, ownerId),
    db.prepare(`DELETE FROM follows WHERE follower_id = ?1 AND target_type = 'board' AND target_id IN (SELECT id FROM boards WHERE owner_id = ?2)`).bind(followerId, ownerId),
  ];
}

/**
 * Ends every collaboration (accepted or pending) of `userId` on boards `ownerId` owns: a block
 * takes back the access a collaboration gave. Counts fall with the accepted rows, and a
 * pending ownership transfer to them is cancelled.
 */
function endCollaborationsStatements(db: D1Database, ownerId: number, userId: number): D1PreparedStatement[] {
  const theirs = "SELECT board_id FROM board_collaborators WHERE user_id = ?2";
  const accepted = "SELECT board_id FROM board_collaborators WHERE user_id = ?2 AND status = 'accepted'";
  return [
    db.prepare(`UPDATE boards SET collaborator_count = MAX(collaborator_count - 1, 0) WHERE owner_id = ?1 AND id IN (${accepted})`).bind(ownerId, userId),
    db.prepare(`UPDATE boards SET pending_owner_id = NULL WHERE owner_id = ?1 AND pending_owner_id = ?2`).bind(ownerId, userId),
    db.prepare(`DELETE FROM board_collaborators WHERE user_id = ?2 AND board_id IN (SELECT id FROM boards WHERE owner_id = ?1 AND id IN (${theirs}))`).bind(ownerId, userId),
  ];
}

export interface UserFollowAnswer {
  user_id: string;
  explicitly_followed_by_me: boolean;
  follower_count: number;
}

export async function setUserFollow(db: D1Database, viewer: Viewer, userId: number, follow: boolean): Promise<Written<UserFollowAnswer>> {
  const session = requireWriteAllowed(viewer);
  const viewerId = session.user.id;
  const target = await loadTarget(db, viewerId, userId, "user_id");
  if (follow && target.blocked === 1) throw blockedError();
  const now = Date.now();
  const statements = follow
    ? [
        db.prepare(`UPDATE users SET follower_count = follower_count + 1 WHERE id = ?2 AND NOT EXISTS (${FOLLOWS_USER})`).bind(viewerId, userId),
        db.prepare(`UPDATE users SET following_count = following_count + 1 WHERE id = ?1 AND NOT EXISTS (${FOLLOWS_USER})`).bind(viewerId, userId),
        db.prepare("INSERT OR IGNORE INTO follows (follower_id, target_type, target_id, explicit, created_at) VALUES (?1, 'user', ?2, 1, ?3)").bind(viewerId, userId, now),
        ...followNews(db, viewerId, { userId }, now),
      ]
    : unfollowUserStatements(db, viewerId, userId);
  const results = await db.batch([...statements, db.prepare("SELECT follower_count FROM users WHERE id = ?1").bind(userId)]);
  const count = (results.at(-1)?.results?.[0] as { follower_count: number } | undefined)?.follower_count ?? 0;
  const answer = { user_id: String(userId), explicitly_followed_by_me: follow, follower_count: count };
  return written(answer, [...profilePaths(target.username), ...profilePaths(session.user.username)]);
}

export interface BlockAnswer {
  user_id: string;
  blocked_by_me: boolean;
}

export async function setUserBlock(db: D1Database, viewer: Viewer, userId: number, block: boolean): Promise<Written<BlockAnswer>> {
  const session = requireWriteAllowed(viewer);
  const viewerId = session.user.id;
  const target = await loadTarget(db, viewerId, userId, "user_id");
  const answer = { user_id: String(userId), blocked_by_me: block };
  if (block) {
    await db.batch([
      ...unfollowUserStatements(db, viewerId, userId),
      ...unfollowUserStatements(db, userId, viewerId),
      ...unfollowOwnersBoardsStatements(db, viewerId, userId),
      ...unfollowOwnersBoardsStatements(db, userId, viewerId),
      ...endCollaborationsStatements(db, viewerId, userId),
      ...endCollaborationsStatements(db, userId, viewerId),
      db.prepare("INSERT OR IGNORE INTO blocks (blocker_id, blocked_id, created_at) VALUES (?1, ?2, ?3)").bind(viewerId, userId, Date.now()),
    ]);
    return written(answer, [...profilePaths(target.username), ...profilePaths(session.user.username)]);
  }
  await db.prepare("DELETE FROM blocks WHERE blocker_id = ?1 AND blocked_id = ?2").bind(viewerId, userId).run();
  return written(answer);
}

export interface BoardFollowAnswer {
  board_id: string;
  /** Followed, on its own or through its owner (spec 001 §4 "Board"). */
  followed_by_me: boolean;
  /** The viewer's own follow of this board (what the Follow button toggles), which followed_by_me cannot tell apart. */
  explicitly_followed_by_me: boolean;
  follower_count: number;
}

const FOLLOWS_BOARD = "SELECT 1 FROM follows WHERE follower_id = ?1 AND target_type = 'board' AND target_id = ?2";

/**
 * followed_by_me of a board: the viewer follows it, or follows its owner (spec 001 §4 "Board").
 * `board` is the boards alias, `viewer` the viewer-id parameter.
 */
function followedByMeSql(board: string, viewer: string): string {
  return `EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = ${viewer}
            AND ((f.target_type = 'board' AND f.target_id = ${board}.id) OR (f.target_type = 'user' AND f.target_id = ${board}.owner_id)))`;
}

const BOARD_FOLLOW_STATE_SQL = `SELECT b.follower_count, ${followedByMeSql("b", "?2")} AS followed,
         EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = ?2 AND f.target_type = 'board' AND f.target_id = b.id) AS explicit
  FROM boards b WHERE b.id = ?1`;

interface BoardFollowRow {
  follower_count: number;
  followed: number;
  explicit: number;
}

/** The viewer's follow state of a board they may see, after a change, and its page gone stale. */
async function boardFollowAnswer(db: D1Database, board: Pick<BoardTableRow, "id" | "owner_id" | "slug">, viewer: number): Promise<Written<BoardFollowAnswer>> {
  const [state, owner] = await db.batch([
    db.prepare(BOARD_FOLLOW_STATE_SQL).bind(board.id, viewer),
    db.prepare("SELECT username FROM users WHERE id = ?1").bind(board.owner_id),
  ]);
  const row = state?.results?.[0] as BoardFollowRow | undefined;
  const username = (owner?.results?.[0] as { username: string } | undefined)?.username;
  const answer = { board_id: String(board.id), followed_by_me: row?.followed === 1, explicitly_followed_by_me: row?.explicit === 1, follower_count: row?.follower_count ?? 0 };
  return written(answer, username ? [`/${username}/${board.slug}/`] : []);
}

export async function setBoardFollow(db: D1Database, viewer: Viewer, boardId: number, follow: boolean): Promise<Written<BoardFollowAnswer>> {
  return follow ? followBoard(db, viewer, boardId) : unfollowBoard(db, viewer, boardId);
}

async function followBoard(db: D1Database, viewer: Viewer, boardId: number): Promise<Written<BoardFollowAnswer>> {
  const { board, viewerId } = await requireBoardAction(db, viewer, boardId, "follow_board");
  const follower = viewerId!;
  await assertNotBlocked(db, follower, board.owner_id);
  const now = Date.now();
  await db.batch([
    db.prepare(`UPDATE boards SET follower_count = follower_count + 1 WHERE id = ?2 AND NOT EXISTS (${FOLLOWS_BOARD})`).bind(follower, boardId),
    db.prepare("INSERT OR IGNORE INTO follows (follower_id, target_type, target_id, explicit, created_at) VALUES (?1, 'board', ?2, 1, ?3)").bind(follower, boardId, now),
    ...followNews(db, follower, { boardId }, now),
  ]);
  return boardFollowAnswer(db, board, follower);
}

/**
 * Takes back one's own board follow. No board role is needed: a board that turned secret
 * after being followed must still be unfollowable, and the answer then tells nothing of it
 * (no count: the same answer as for a board one never followed).
 */
async function unfollowBoard(db: D1Database, viewer: Viewer, boardId: number): Promise<Written<BoardFollowAnswer>> {
  const follower = requireWriteAllowed(viewer).user.id;
  await db.batch([
    db.prepare(`UPDATE boards SET follower_count = MAX(follower_count - 1, 0) WHERE id = ?2 AND EXISTS (${FOLLOWS_BOARD})`).bind(follower, boardId),
    db.prepare("DELETE FROM follows WHERE follower_id = ?1 AND target_type = 'board' AND target_id = ?2").bind(follower, boardId),
  ]);
  const loaded = await loadBoardWithRole(db, boardId, follower);
  if (!loaded || !canSeeBoard(loaded.role, loaded.isPrivate)) return written({ board_id: String(boardId), followed_by_me: false, explicitly_followed_by_me: false, follower_count: 0 });
  return boardFollowAnswer(db, loaded.board, follower);
}

/** The viewer's relation to a profile, for its page (null signed out or on their own profile). */
export async function userRelation(db: D1Database, viewerId: number | null, userId: number): Promise<{ followed: boolean; blockedByMe: boolean } | null> {
  if (viewerId === null || viewerId === userId) return null;
  const row = await db
    .prepare(
      `SELECT EXISTS (${FOLLOWS_USER}) AS followed,
              EXISTS (SELECT 1 FROM blocks WHERE blocker_id = ?1 AND blocked_id = ?2) AS blocked_by_me`,
    )
    .bind(viewerId, userId)
    .first<{ followed: number; blocked_by_me: number }>();
  return { followed: row?.followed === 1, blockedByMe: row?.blocked_by_me === 1 };
}

/** The viewer's follow of a board (derived and own) and its count, for the board page. */
export async function boardFollowState(db: D1Database, viewerId: number | null, boardId: number): Promise<{ followed: boolean; explicit: boolean; followerCount: number } | null> {
  const row = await db.prepare(BOARD_FOLLOW_STATE_SQL).bind(boardId, viewerId).first<BoardFollowRow>();
  return row ? { followed: row.followed === 1, explicit: row.explicit === 1, followerCount: row.follower_count } : null;
}
