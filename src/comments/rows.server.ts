// Reading comments back: one SELECT shape for every call, turned into the API's Comment
// JSON for a given viewer, and the door every call on an existing comment goes through.
import type { CommentTableRow } from "./comment-row.ts";
import { requireWriteAllowed, type Viewer } from "~/accounts/guards.server.ts";
import { requireBoardAction } from "~/boards/access.server.ts";
import { notFound } from "~/domain/errors.ts";
import { blockedError, loadVisiblePin, type SocialPin } from "~/social/guard.server.ts";
import { userImageUrl } from "~/users/user.ts";
import { visibleFlagSql } from "~/visibility/visibility.server.ts";
import { ANONYMOUS_USER, parseStoredTags, type Comment } from "./comment.ts";
import { TAGGED_USERS_SQL, parseTaggedUsers } from "./tagged-users.ts";

/** Columns of a comment as seen by viewer ?2 (null when signed out). Needs `c`, `u`, `p`. */
export const COMMENT_COLUMNS = `c.id, c.pin_id, c.parent_id, c.user_id, c.text, c.tags, c.like_count, c.helpful_count, c.reply_count,
  c.highlighted_by_pin_owner, c.is_hidden, c.created_at, c.updated_at, u.username, u.full_name, u.image_key, p.pinner_id,
  ${visibleFlagSql("profile", { user: "u" }, "?2")} AS author_visible,
  EXISTS (SELECT 1 FROM comment_marks m WHERE m.comment_id = c.id AND m.user_id = ?2 AND m.kind = 'like') AS liked_by_me,
  EXISTS (SELECT 1 FROM comment_marks m WHERE m.comment_id = c.id AND m.user_id = ?2 AND m.kind = 'helpful') AS helpful_by_me,
  ${TAGGED_USERS_SQL} AS tagged_users,
  COALESCE((SELECT q.is_hidden FROM comments q WHERE q.id = c.parent_id), 0) AS parent_hidden,
  EXISTS (SELECT 1 FROM blocks k WHERE (k.blocker_id = c.user_id AND k.blocked_id = ?2) OR (k.blocker_id = ?2 AND k.blocked_id = c.user_id)) AS author_blocked`;

export const COMMENT_FROM = "comments c JOIN users u ON u.id = c.user_id JOIN pins p ON p.id = c.pin_id";

/** A comment is listed for a viewer unless hidden (its author still sees it) or a block stands between them. */
export const LISTED_FOR_VIEWER = `(c.is_hidden = 0 OR c.user_id = ?2) AND NOT EXISTS (
  SELECT 1 FROM blocks k WHERE (k.blocker_id = c.user_id AND k.blocked_id = ?2) OR (k.blocker_id = ?2 AND k.blocked_id = c.user_id))`;

export interface CommentRow extends CommentTableRow {
  username: string;
  full_name: string;
  image_key: string | null;
  pinner_id: number;
  /** 1 when the viewer may see the author's profile; otherwise the author is answered anonymous. */
  author_visible: number;
  liked_by_me: number;
  helpful_by_me: number;
  tagged_users: string | null;
  author_blocked: number;
  parent_hidden: number;
}

export function toComment(row: CommentRow, viewerId: number | null): Comment {
  const users = parseTaggedUsers(row.tagged_users);
  const known = new Set(users.map((user) => user.id));
  return {
    id: String(row.id),
    pin_id: String(row.pin_id),
    parent_id: row.parent_id === null ? null : String(row.parent_id),
    user: row.author_visible === 1 ? { id: String(row.user_id), username: row.username, full_name: row.full_name, image_medium_url: userImageUrl(row.image_key, "medium") } : { ...ANONYMOUS_USER },
    text: row.text,
    // A tag naming a deleted account is dropped, so every tag answered has its tagged user.
    tags: parseStoredTags(row.tags).filter((tag) => known.has(tag.user_id)),
    tagged_users: users,
    reaction_counts: { "1": row.like_count },
    reaction_by_me: row.liked_by_me === 1 ? 1 : 0,
    helpful_count: row.helpful_count,
    marked_helpful_by_me: row.helpful_by_me === 1,
    highlighted_by_pin_owner: row.highlighted_by_pin_owner === 1,
    comment_count: row.reply_count,
    created_at: row.created_at,
    updated_at: row.updated_at,
    can_edit: viewerId !== null && viewerId === row.user_id,
    can_delete: viewerId !== null && (viewerId === row.user_id || viewerId === row.pinner_id),
    can_highlight: viewerId !== null && viewerId === row.pinner_id,
  };
}

/**
 * Whether a comment is hidden from this viewer: hidden itself, or a reply under a hidden
 * comment, and the viewer not its author. Hidden comments show to their author only (the
 * pin's owner who hid them sees them gone, as everyone else does).
 */
const hiddenFrom = (row: Pick<CommentRow, "is_hidden" | "parent_hidden" | "user_id">, viewerId: number | null) =>
  (row.is_hidden === 1 || row.parent_hidden === 1) && row.user_id !== viewerId;

function selectComment(db: D1Database, commentId: number, viewerId: number | null): D1PreparedStatement {
  return db.prepare(`SELECT ${COMMENT_COLUMNS} FROM ${COMMENT_FROM} WHERE c.id = ?1`).bind(commentId, viewerId);
}

export async function readComment(db: D1Database, commentId: number, viewerId: number | null): Promise<Comment> {
  const row = await selectComment(db, commentId, viewerId).first<CommentRow>();
  if (!row || hiddenFrom(row, viewerId)) throw notFound("comments:api.notFound");
  return toComment(row, viewerId);
}

export interface CommentAccess {
  row: CommentRow;
  pin: SocialPin;
  viewerId: number | null;
}

/**
 * The comment when the viewer may see it: its pin visible to them (else 404, as if it did not
 * exist) and the comment not hidden from them (hiddenFrom: every read by id answers 404).
 * `blockRefuses`: a block between the viewer and
 * the pin's owner or the comment's author is 403; the pin's owner moderating their own pin
 * (delete, hide) passes it, so a block cannot shield a comment from the pin it sits on.
 */
export async function loadComment(db: D1Database, commentId: number, viewerId: number | null, blockRefuses = true): Promise<CommentAccess> {
  const row = await selectComment(db, commentId, viewerId).first<CommentRow>();
  if (!row) throw notFound("comments:api.notFound");
  const pin = await loadVisiblePin(db, row.pin_id, viewerId);
  if (!pin || hiddenFrom(row, viewerId)) throw notFound("comments:api.notFound");
  if (blockRefuses && (pin.blocked === 1 || row.author_blocked === 1)) throw blockedError();
  return { row, pin, viewerId };
}

/** loadComment for a change: a full, write-allowed login first (401 signed out), then the pin's board policy. */
export async function loadCommentForWrite(db: D1Database, viewer: Viewer, commentId: number, blockRefuses = true): Promise<CommentAccess & { viewerId: number }> {
  const viewerId = requireWriteAllowed(viewer).user.id;
  const access = await loadComment(db, commentId, viewerId, blockRefuses);
  const moderating = access.pin.pinner_id === viewerId;
  if (!blockRefuses && !moderating && (access.pin.blocked === 1 || access.row.author_blocked === 1)) throw blockedError();
  if (access.pin.board_id !== null) await requireBoardAction(db, viewer, access.pin.board_id, "react_to_pin");
  return { ...access, viewerId };
}
