// The /v3 actions on one comment: like, helpful, highlight, flag, removing
// one's own mention, translation. Marks follow the did-it pattern: the count moves in the
// same batch only when the row it mirrors appears or goes, so it is exact and never below 0.
import type { Context } from "hono";
import type { AppEnv } from "../server/context.ts";
import { ApiError, ErrorCode, notFound } from "../server/errors.ts";
import { enforce, RATE_RULES } from "../server/rate-limit.server.ts";
import { clientIp, throttleSubject } from "../server/client-ip.ts";
import { purgeLater } from "../social/guard.server.ts";
import { parseStoredTags, storedTags, type Comment } from "./comment.ts";
import { cachedTranslation } from "./translate.ts";
import { loadComment, loadCommentForWrite, readComment } from "./rows.server.ts";

export type CommentMark = "like" | "helpful";

const MARK = "SELECT 1 FROM comment_marks WHERE comment_id = ?1 AND user_id = ?2 AND kind = ?3";

async function setMark(c: Context<AppEnv>, commentId: number, kind: CommentMark, on: boolean) {
  const db = c.env.DB;
  const { row, viewerId } = await loadCommentForWrite(c, commentId);
  const column = kind === "like" ? "like_count" : "helpful_count";
  const statements = on
    ? [
        db.prepare(`UPDATE comments SET ${column} = ${column} + 1 WHERE id = ?1 AND NOT EXISTS (${MARK})`).bind(row.id, viewerId, kind),
        db.prepare("INSERT OR IGNORE INTO comment_marks (comment_id, user_id, kind, created_at) VALUES (?1, ?2, ?3, ?4)").bind(row.id, viewerId, kind, Date.now()),
      ]
    : [
        db.prepare(`UPDATE comments SET ${column} = MAX(${column} - 1, 0) WHERE id = ?1 AND EXISTS (${MARK})`).bind(row.id, viewerId, kind),
        db.prepare("DELETE FROM comment_marks WHERE comment_id = ?1 AND user_id = ?2 AND kind = ?3").bind(row.id, viewerId, kind),
      ];
  const results = await db.batch([
    ...statements,
    db.prepare(`SELECT ${column} AS count, EXISTS (${MARK}) AS mine FROM comments WHERE id = ?1`).bind(row.id, viewerId, kind),
  ]);
  const after = results.at(-1)?.results?.[0] as { count: number; mine: number } | undefined;
  if (!after) throw notFound("comments:api.notFound");
  return after;
}

export async function setLike(c: Context<AppEnv>, commentId: number, on: boolean) {
  const after = await setMark(c, commentId, "like", on);
  return { reaction_counts: { "1": after.count }, reaction_by_me: after.mine === 1 ? 1 : 0 };
}

export async function setHelpful(c: Context<AppEnv>, commentId: number, on: boolean) {
  const after = await setMark(c, commentId, "helpful", on);
  return { helpful_count: after.count, marked_helpful_by_me: after.mine === 1 };
}

/** Only the pin's owner highlights; the comment must sit on the pin named. */
export async function setHighlight(c: Context<AppEnv>, commentId: number, pinId: number, highlight: boolean): Promise<Comment> {
  const db = c.env.DB;
  const { row, viewerId } = await loadCommentForWrite(c, commentId);
  if (row.pin_id !== pinId) throw notFound("comments:api.notFound");
  if (row.pinner_id !== viewerId) throw new ApiError(403, ErrorCode.Forbidden, { message: "comments:api.onlyOwnerHighlights" });
  await db.batch([db.prepare("UPDATE comments SET highlighted_by_pin_owner = ?2 WHERE id = ?1").bind(row.id, highlight ? 1 : 0)]);
  purgeLater(c, [`/pin/${row.pin_id}/`]);
  return readComment(db, row.id, viewerId);
}

export async function flagComment(c: Context<AppEnv>, commentId: number, reason: string, detailedReasons: string[]): Promise<{ flagged: true }> {
  const db = c.env.DB;
  const { row, viewerId } = await loadCommentForWrite(c, commentId);
  await db
    .prepare(
      `INSERT INTO comment_flags (comment_id, user_id, reason, detailed_reasons, created_at) VALUES (?1, ?2, ?3, ?4, ?5)
       ON CONFLICT(comment_id, user_id) DO UPDATE SET reason = excluded.reason, detailed_reasons = excluded.detailed_reasons, created_at = excluded.created_at`,
    )
    .bind(row.id, viewerId, reason, JSON.stringify(detailedReasons), Date.now())
    .run();
  return { flagged: true };
}

/** The mentioned viewer takes their own mention out: the text stays, the tags naming them go. */
export async function removeMention(c: Context<AppEnv>, commentId: number): Promise<Comment> {
  const db = c.env.DB;
  // A block does not keep someone tied to a mention of themselves.
  const { row, viewerId } = await loadCommentForWrite(c, commentId, false);
  const tags = parseStoredTags(row.tags);
  const kept = tags.filter((tag) => tag.user_id !== String(viewerId));
  if (kept.length === tags.length) throw new ApiError(403, ErrorCode.Forbidden, { message: "comments:api.notMentioned" });
  await db.batch([
    db.prepare("UPDATE comments SET tags = ?2 WHERE id = ?1").bind(row.id, storedTags(kept)),
    db.prepare("INSERT OR IGNORE INTO comment_mention_removals (comment_id, user_id, created_at) VALUES (?1, ?2, ?3)").bind(row.id, viewerId, Date.now()),
  ]);
  purgeLater(c, [`/pin/${row.pin_id}/`]);
  return readComment(db, row.id, viewerId);
}

/**
 * The comment in the viewer's language through the optional Workers AI binding, cached in KV
 * CACHE for a day; an empty text when the binding is absent or the model fails
 * (src/comments/translate.ts). Throttled per signed-in person, or per IPv6 /64 (IPv4 address)
 * signed out, whether or not the binding exists, so the limit is the same everywhere.
 */
export async function translateComment(c: Context<AppEnv>, commentId: number): Promise<{ text: string }> {
  const viewerId = c.var.ctx.session?.user.id ?? null;
  const { row } = await loadComment(c, commentId, viewerId);
  await enforce(c.env.DB, RATE_RULES.commentTranslatePerViewer, viewerId ?? `ip:${throttleSubject(clientIp(c.req.raw))}`);
  return { text: await cachedTranslation(c.env.CACHE, c.env.AI, row.id, row.text, c.var.ctx.language) };
}
