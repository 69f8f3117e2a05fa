// Comments on a pin: listing, posting, editing, deleting and hiding. Each
// change is ONE D1 batch that also recounts pins.comment_count and the parent's reply_count
// from the rows at batch time, so the counts stay exact whatever ran in between.
// pins.comment_count counts comments everyone can see: not hidden, and not under a hidden parent.
import { visibleSql } from "~/visibility/visibility.server.ts";
import type { Viewer } from "~/accounts/guards.server.ts";
import { badRequest, conflict, forbidden, notFound } from "~/domain/errors.ts";
import { written, type Written } from "~/domain/written.ts";
import { enforce, RATE_RULES } from "~/server/rate-limit.server.ts";
import { encodeKeyset, keysetPageOf, type Keyset } from "~/feeds/cursor.ts";
import { blockedError, loadVisiblePin, requirePinReaction } from "~/social/guard.server.ts";
import { commentNews, editedMentionNews } from "~/news/record.server.ts";
import { alignTags, parseStoredTags, storedTags, type Comment, type Tag } from "./comment.ts";
import {
  COMMENT_COLUMNS,
  COMMENT_FROM,
  LISTED_FOR_VIEWER,
  loadComment,
  loadCommentForWrite,
  readComment,
  toComment,
  type CommentRow,
} from "./rows.server.ts";

/** Most ids a per-author hide answers (a pin's comments by one person, bounded). */
const MAX_HIDDEN_IDS = 500;

const recountPin = (db: D1Database, pinId: number) =>
  db
    .prepare(
      `UPDATE pins SET comment_count = (SELECT COUNT(*) FROM comments c WHERE c.pin_id = ?1 AND c.is_hidden = 0
         AND (c.parent_id IS NULL OR EXISTS (SELECT 1 FROM comments q WHERE q.id = c.parent_id AND q.is_hidden = 0)))
       WHERE id = ?1`,
    )
    .bind(pinId);

const recountReplies = (db: D1Database, parentId: number) =>
  db.prepare("UPDATE comments SET reply_count = (SELECT COUNT(*) FROM comments r WHERE r.parent_id = ?1 AND r.is_hidden = 0) WHERE id = ?1").bind(parentId);

const recountAllReplies = (db: D1Database, pinId: number) =>
  db
    .prepare("UPDATE comments SET reply_count = (SELECT COUNT(*) FROM comments r WHERE r.parent_id = comments.id AND r.is_hidden = 0) WHERE pin_id = ?1 AND parent_id IS NULL")
    .bind(pinId);

// ── Listing ──────────────────────────────────────────────────────────────────────────────────

export interface ListOptions {
  pin_id: number;
  parent_id?: number | undefined;
  bookmark?: Keyset | null;
  page_size: number;
}

/** Top-level comments newest first, or one comment's replies oldest first; keyset by (created_at, id). */
export async function listComments(db: D1Database, viewerId: number | null, options: ListOptions) {
  const pin = await loadVisiblePin(db, options.pin_id, viewerId);
  if (!pin) throw notFound("api.pinNotFound");
  if (pin.blocked === 1) throw blockedError();
  if (options.parent_id !== undefined) {
    const parent = await loadComment(db, options.parent_id, viewerId);
    if (parent.row.pin_id !== options.pin_id) throw notFound("comments:api.notFound");
  }
  const replies = options.parent_id !== undefined;
  const after = options.bookmark;
  const keyset = after ? (replies ? "AND (c.created_at, c.id) > (?4, ?5)" : "AND (c.created_at, c.id) < (?4, ?5)") : "";
  const rows = await db
    .prepare(
      `SELECT ${COMMENT_COLUMNS} FROM ${COMMENT_FROM}
       WHERE c.pin_id = ?1 AND ${replies ? "c.parent_id = ?3" : "c.parent_id IS NULL AND ?3 IS NULL"} AND ${LISTED_FOR_VIEWER} ${keyset}
       ORDER BY c.created_at ${replies ? "ASC" : "DESC"}, c.id ${replies ? "ASC" : "DESC"} LIMIT ?6`,
    )
    .bind(options.pin_id, viewerId, options.parent_id ?? null, after ? Number(after.key) : null, after?.id ?? null, options.page_size + 1)
    .all<CommentRow>();
  return keysetPageOf(rows.results, options.page_size, (row) => encodeKeyset(row.created_at, row.id), (row) => toComment(row, viewerId));
}

// ── Mentions ─────────────────────────────────────────────────────────────────────────────────

/**
 * Who the tags name must exist, have a profile the author may see (a private or limited-login
 * account cannot be mentioned, so a tag never reads out its name), allow mentions, have no block with the author, and (on an
 * edit) not have removed themselves from this comment. Any refusal is a 400 on `tags`, so a
 * comment is never stored with half its mentions.
 */
async function checkMentions(db: D1Database, authorId: number, tags: readonly Tag[], commentId: number | null): Promise<void> {
  const ids = [...new Set(tags.map((tag) => Number(tag.user_id)))];
  if (ids.length === 0) return;
  const placeholders = ids.map((_, i) => `?${i + 3}`).join(", ");
  const rows = await db
    .prepare(
      `SELECT u.id,
              COALESCE(json_extract(f.feature_map, '$.allow_mentions'), 1) AS allow_mentions,
              EXISTS (SELECT 1 FROM blocks k WHERE (k.blocker_id = u.id AND k.blocked_id = ?1) OR (k.blocker_id = ?1 AND k.blocked_id = u.id)) AS blocked,
              EXISTS (SELECT 1 FROM comment_mention_removals r WHERE r.comment_id = ?2 AND r.user_id = u.id) AS removed
       FROM users u LEFT JOIN comment_features f ON f.user_id = u.id
       WHERE u.id IN (${placeholders}) AND ${visibleSql("profile", { user: "u" }, "?1")}`,
    )
    .bind(authorId, commentId, ...ids)
    .all<{ id: number; allow_mentions: number; blocked: number; removed: number }>();
  const usable = rows.results.filter((row) => row.id === authorId || (row.allow_mentions === 1 && row.blocked === 0 && row.removed === 0));
  if (usable.length !== ids.length) throw badRequest([{ field: "tags", reason: "comments:validation.cannotMention" }]);
}

function aligned(raw: string, tags: readonly Tag[]): Tag[] {
  const result = alignTags(raw, tags);
  if (result === null) throw badRequest([{ field: "tags", reason: "comments:validation.tagsOutside" }]);
  return result;
}

// ── Posting ──────────────────────────────────────────────────────────────────────────────────

export interface CreateInput {
  pin_id: number;
  /** The text as sent (validated 1..500 after trimming by the resource's schema). */
  raw: string;
  tags: Tag[];
  parent_id?: number | undefined;
}

const BLOCK_BETWEEN = (a: string, b: string) =>
  `EXISTS (SELECT 1 FROM blocks k WHERE (k.blocker_id = ${a} AND k.blocked_id = ${b}) OR (k.blocker_id = ${b} AND k.blocked_id = ${a}))`;

/**
 * What must hold for viewer ?2 to comment on pin p (SQL over `pins p` joined with the owner's
 * `comment_features f`): the pin not deleted, comments on, the owner's allow_comments on (or
 * the viewer is the owner), no block between viewer and owner.
 */
const MAY_COMMENT = `p.is_deleted = 0 AND p.comments_disabled = 0
  AND (p.pinner_id = ?2 OR COALESCE(json_extract(f.feature_map, '$.allow_comments'), 1) = 1)
  AND NOT ${BLOCK_BETWEEN("p.pinner_id", "?2")}`;

const disabledError = () => forbidden("comments:api.disabled");

/** The comment settings of pin ?1 as viewer ?2 sees them now: each refusal with its own message. */
async function requireCommentsOpen(db: D1Database, pinId: number, viewerId: number, pinnerId: number): Promise<void> {
  const settings = await db
    .prepare(
      `SELECT p.comments_disabled, COALESCE(json_extract(f.feature_map, '$.allow_comments'), 1) AS allow_comments, ${BLOCK_BETWEEN("p.pinner_id", "?2")} AS blocked
       FROM pins p LEFT JOIN comment_features f ON f.user_id = p.pinner_id WHERE p.id = ?1 AND p.is_deleted = 0`,
    )
    .bind(pinId, viewerId)
    .first<{ comments_disabled: number; allow_comments: number; blocked: number }>();
  if (!settings) throw notFound("api.pinNotFound");
  if (settings.blocked === 1) throw blockedError();
  if (settings.comments_disabled === 1) throw disabledError();
  if (settings.allow_comments !== 1 && pinnerId !== viewerId) throw forbidden("comments:api.ownerTurnedOff");
}

/**
 * Posts a comment. The checks are read first for their messages, and the INSERT re-checks
 * them in SQL (INSERT ... SELECT ... WHERE), in the one batch that also recounts: a pin that
 * turns comments off, a block or a hidden parent arriving between the read and the write
 * leaves nothing written. The rate limit needs no re-check: its counter is moved and read by
 * one statement, so two racing posts cannot both take the last slot.
 */
export async function createComment(db: D1Database, viewer: Viewer, input: CreateInput, also: readonly D1PreparedStatement[] = []): Promise<Written<Comment>> {
  const { pin, viewerId } = await requirePinReaction(db, viewer, input.pin_id);
  await requireCommentsOpen(db, input.pin_id, viewerId, pin.pinner_id);

  // A reply to a reply joins its thread: threads are one level deep.
  let parentId: number | null = null;
  if (input.parent_id !== undefined) {
    const parent = await loadComment(db, input.parent_id, viewerId);
    if (parent.row.pin_id !== input.pin_id) throw badRequest([{ field: "parent_id", reason: "comments:validation.otherPin" }]);
    parentId = parent.row.parent_id ?? parent.row.id;
  }
  const text = input.raw.trim();
  const tags = aligned(input.raw, input.tags);
  await checkMentions(db, viewerId, tags, null);
  await enforce(db, RATE_RULES.commentCreatePerUser, viewerId);

  const now = Date.now();
  const results = await db.batch([
    db
      .prepare(
        `INSERT INTO comments (pin_id, user_id, parent_id, text, tags, is_hidden, created_at, updated_at)
         SELECT p.id, ?2, ?3, ?4, ?5, EXISTS (SELECT 1 FROM comment_hidden_authors h WHERE h.pin_id = p.id AND h.user_id = ?2), ?6, ?6
         FROM pins p LEFT JOIN comment_features f ON f.user_id = p.pinner_id
         WHERE p.id = ?1 AND ${MAY_COMMENT}
           AND (?3 IS NULL OR EXISTS (SELECT 1 FROM comments q WHERE q.id = ?3 AND q.pin_id = p.id AND q.parent_id IS NULL
                AND (q.is_hidden = 0 OR q.user_id = ?2) AND NOT ${BLOCK_BETWEEN("q.user_id", "?2")}))
         RETURNING id`,
      )
      .bind(input.pin_id, viewerId, parentId, text, storedTags(tags), now),
    recountPin(db, input.pin_id),
    ...(parentId === null ? [] : [recountReplies(db, parentId)]),
    // The pin's owner, the thread's author and the people tagged hear of it in this batch.
    ...commentNews(db, viewerId, input.pin_id, tags.map((tag) => Number(tag.user_id)), now),
    // A resent post (its answer lost) is applied once: the caller's claim joins the batch.
    ...also,
  ]);
  const id = (results[0]?.results?.[0] as { id: number } | undefined)?.id;
  if (id === undefined) {
    // Something changed between the checks and the write: say what, from the rows as they are now.
    await requireCommentsOpen(db, input.pin_id, viewerId, pin.pinner_id);
    if (parentId !== null) await loadComment(db, parentId, viewerId);
    throw conflict("comments:api.changed");
  }
  return written(await readComment(db, id, viewerId), [`/pin/${input.pin_id}/`]);
}

// ── Editing ──────────────────────────────────────────────────────────────────────────────────

export interface UpdateInput {
  commentId: number;
  raw: string;
  /** Absent: the stored tags, kept only while they still fit the new text. */
  tags?: Tag[] | undefined;
  orbacSubjectId?: number | undefined;
}

export async function updateComment(db: D1Database, viewer: Viewer, input: UpdateInput): Promise<Written<Comment>> {
  const { row, viewerId } = await loadCommentForWrite(db, viewer, input.commentId);
  // orbacSubjectId names the account acting; this product has no shared business access, so
  // it may only name the viewer.
  if (row.user_id !== viewerId || (input.orbacSubjectId !== undefined && input.orbacSubjectId !== viewerId)) {
    throw forbidden("comments:api.onlyAuthorEdits");
  }
  await requireCommentsOpen(db, row.pin_id, viewerId, row.pinner_id);
  const text = input.raw.trim();
  const tags = input.tags === undefined ? parseStoredTags(row.tags).filter((tag) => text.slice(tag.offset, tag.offset + tag.length) === row.text.slice(tag.offset, tag.offset + tag.length)) : aligned(input.raw, input.tags);
  await checkMentions(db, viewerId, tags, row.id);
  await enforce(db, RATE_RULES.commentEditPerUser, viewerId);
  // A highlight is the pin owner's word on the text they read: new text is not what they
  // highlighted, so an edit that changes it takes the highlight off (an edit of the tags alone keeps it).
  const now = Date.now();
  const [updated] = await db.batch([
    db
      .prepare(
        `UPDATE comments SET text = ?2, tags = ?3, updated_at = ?4,
           highlighted_by_pin_owner = CASE WHEN text = ?2 THEN highlighted_by_pin_owner ELSE 0 END
         WHERE id = ?1 AND user_id = ?5
           AND EXISTS (SELECT 1 FROM pins p LEFT JOIN comment_features f ON f.user_id = p.pinner_id WHERE p.id = comments.pin_id AND ${MAY_COMMENT.replaceAll("?2", "?5")})`,
      )
      .bind(row.id, text, storedTags(tags), now, viewerId),
    // Someone the edit tags for the first time hears of the mention.
    ...editedMentionNews(db, viewerId, row.id, row.pin_id, tags.map((tag) => Number(tag.user_id)), now),
  ]);
  if ((updated?.meta.changes ?? 0) === 0) {
    await requireCommentsOpen(db, row.pin_id, viewerId, row.pinner_id);
    throw conflict("comments:api.changed");
  }
  return written(await readComment(db, row.id, viewerId), [`/pin/${row.pin_id}/`]);
}

// ── Deleting and hiding ──────────────────────────────────────────────────────────────────────

const onlyAuthorOrOwner = () => forbidden("comments:api.onlyAuthorOrOwner");

/** The author or the pin's owner deletes; the comment's replies and marks go with it (FK cascade). */
export async function deleteComment(db: D1Database, viewer: Viewer, commentId: number): Promise<Written<{ id: string }>> {
  const { row, viewerId } = await loadCommentForWrite(db, viewer, commentId, false);
  if (row.user_id !== viewerId && row.pinner_id !== viewerId) throw onlyAuthorOrOwner();
  await db.batch([
    db.prepare("DELETE FROM comments WHERE id = ?1").bind(row.id),
    recountPin(db, row.pin_id),
    ...(row.parent_id === null ? [] : [recountReplies(db, row.parent_id)]),
  ]);
  return written({ id: String(row.id) }, [`/pin/${row.pin_id}/`]);
}

/**
 * The author or the pin's owner hides a comment from everyone but its author. `forUser`
 * hides every comment that author has on the pin; asked by the pin's owner, it also hides
 * each one the author posts there later (an author hiding their own keeps posting visibly).
 */
export async function hideComment(db: D1Database, viewer: Viewer, commentId: number, forUser: boolean): Promise<Written<{ hidden_ids: string[] }>> {
  const { row, viewerId } = await loadCommentForWrite(db, viewer, commentId, false);
  if (row.user_id !== viewerId && row.pinner_id !== viewerId) throw onlyAuthorOrOwner();
  const now = Date.now();
  const remember = forUser && row.pinner_id === viewerId && row.user_id !== viewerId;
  const rememberAuthor = db
    .prepare("INSERT INTO comment_hidden_authors (pin_id, user_id, hidden_by, created_at) VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING")
    .bind(row.pin_id, row.user_id, viewerId, now);
  const hide = forUser
    ? [...(remember ? [rememberAuthor] : []), db.prepare("UPDATE comments SET is_hidden = 1 WHERE pin_id = ?1 AND user_id = ?2").bind(row.pin_id, row.user_id)]
    : [db.prepare("UPDATE comments SET is_hidden = 1 WHERE id = ?1").bind(row.id)];
  const results = await db.batch([
    ...hide,
    recountPin(db, row.pin_id),
    recountAllReplies(db, row.pin_id),
    forUser
      ? db.prepare("SELECT id FROM comments WHERE pin_id = ?1 AND user_id = ?2 ORDER BY id LIMIT ?3").bind(row.pin_id, row.user_id, MAX_HIDDEN_IDS)
      : db.prepare("SELECT ?1 AS id").bind(row.id),
  ]);
  return written({ hidden_ids: ((results.at(-1)?.results ?? []) as Array<{ id: number }>).map((hidden) => String(hidden.id)) }, [`/pin/${row.pin_id}/`]);
}
