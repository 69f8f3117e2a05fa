// The /v3 actions on one comment: like, helpful, highlight, flag, removing
// one's own mention, translation. Marks follow the did-it pattern: the count moves in the
// same batch only when the row it mirrors appears or goes, so it is exact and never below 0.
import type { Viewer } from "~/accounts/guards.server.ts";
import { forbidden, notFound } from "~/domain/errors.ts";
import { written, type Written } from "~/domain/written.ts";
import { enforce, RATE_RULES } from "~/server/rate-limit.server.ts";
import { parseStoredTags, storedTags, type Comment } from "./comment.ts";
import { cachedTranslation, type TranslationAi, type TranslationCache } from "./translate.ts";
import { loadComment, loadCommentForWrite, readComment } from "./rows.server.ts";

export type CommentMark = "like" | "helpful";

const MARK = "SELECT 1 FROM comment_marks WHERE comment_id = ?1 AND user_id = ?2 AND kind = ?3";

async function setMark(db: D1Database, viewer: Viewer, commentId: number, kind: CommentMark, on: boolean) {
  const { row, viewerId } = await loadCommentForWrite(db, viewer, commentId);
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

export async function setLike(db: D1Database, viewer: Viewer, commentId: number, on: boolean) {
  const after = await setMark(db, viewer, commentId, "like", on);
  return { reaction_counts: { "1": after.count }, reaction_by_me: after.mine === 1 ? 1 : 0 };
}

export async function setHelpful(db: D1Database, viewer: Viewer, commentId: number, on: boolean) {
  const after = await setMark(db, viewer, commentId, "helpful", on);
  return { helpful_count: after.count, marked_helpful_by_me: after.mine === 1 };
}

/** Only the pin's owner highlights; the comment must sit on the pin named. */
export async function setHighlight(db: D1Database, viewer: Viewer, commentId: number, pinId: number, highlight: boolean): Promise<Written<Comment>> {
  const { row, viewerId } = await loadCommentForWrite(db, viewer, commentId);
  if (row.pin_id !== pinId) throw notFound("comments:api.notFound");
  if (row.pinner_id !== viewerId) throw forbidden("comments:api.onlyOwnerHighlights");
  await db.batch([db.prepare("UPDATE comments SET highlighted_by_pin_owner = ?2 WHERE id = ?1").bind(row.id, highlight ? 1 : 0)]);
  return written(await readComment(db, row.id, viewerId), [`/pin/${row.pin_id}/`]);
}

export async function flagComment(db: D1Database, viewer: Viewer, commentId: number, reason: string, detailedReasons: string[]): Promise<{ flagged: true }> {
  const { row, viewerId } = await loadCommentForWrite(db, viewer, commentId);
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
export async function removeMention(db: D1Database, viewer: Viewer, commentId: number): Promise<Written<Comment>> {
  // A block does not keep someone tied to a mention of themselves.
  const { row, viewerId } = await loadCommentForWrite(db, viewer, commentId, false);
  const tags = parseStoredTags(row.tags);
  const kept = tags.filter((tag) => tag.user_id !== String(viewerId));
  if (kept.length === tags.length) throw forbidden("comments:api.notMentioned");
  await db.batch([
    db.prepare("UPDATE comments SET tags = ?2 WHERE id = ?1").bind(row.id, storedTags(kept)),
    db.prepare("INSERT OR IGNORE INTO comment_mention_removals (comment_id, user_id, created_at) VALUES (?1, ?2, ?3)").bind(row.id, viewerId, Date.now()),
  ]);
  return written(await readComment(db, row.id, viewerId), [`/pin/${row.pin_id}/`]);
}

interface TranslationServices {
  cache: TranslationCache;
  ai: TranslationAi | undefined;
}

interface TranslationReader {
  viewerId: number | null;
  /** The throttle's subject when signed out: the address (an IPv6 address by its /64). */
  address: string;
  /** BCP 47 tag of the language to translate into. */
  language: string;
}

/**
 * The comment in the viewer's language through the optional Workers AI binding, cached in KV
 * CACHE for a day; an empty text when the binding is absent or the model fails
 * (src/comments/translate.ts). Throttled per signed-in person, or per IPv6 /64 (IPv4 address)
 * signed out, whether or not the binding exists, so the limit is the same everywhere.
 */
export async function translateComment(db: D1Database, services: TranslationServices, reader: TranslationReader, commentId: number): Promise<{ text: string }> {
  const { viewerId } = reader;
  const { row } = await loadComment(db, commentId, viewerId);
  await enforce(db, RATE_RULES.commentTranslatePerViewer, viewerId ?? `ip:${reader.address}`);
  return { text: await cachedTranslation(services.cache, services.ai, row.id, row.text, reader.language) };
}
