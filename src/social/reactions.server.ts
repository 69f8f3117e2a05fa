// Reactions on a pin (spec 001 §4): one per person, counts per type in pin_reaction_counts
// with a floor of 0 and a zero row deleted (its CHECK is count > 0). Every change is one
// batch whose statements read the person's current reaction, so repeating a call, or racing
// two, never counts twice.
import type { Viewer } from "~/accounts/guards.server.ts";
import { notFound } from "~/domain/errors.ts";
import { written, type Written } from "~/domain/written.ts";
import { userImageUrl } from "~/users/user.ts";
import { visibleSql } from "~/visibility/visibility.server.ts";
import { loadVisiblePin, requirePinReaction, type UserRef } from "./guard.server.ts";
import type { ReactionCount } from "./reactions.ts";

export interface ReactionAnswer {
  pin_id: string;
  reaction_counts: ReactionCount[];
  reaction_by_me: number;
}

const MINE = "SELECT reaction_type FROM reactions WHERE pin_id = ?1 AND user_id = ?2";

/** Takes the person's current reaction (if any, and if other than `keep`) off the counts. */
function releaseStatements(db: D1Database, pinId: number, userId: number, keep: number | null): D1PreparedStatement[] {
  const old = `(${MINE}${keep === null ? "" : " AND reaction_type != ?3"})`;
  const args = keep === null ? [pinId, userId] : [pinId, userId, keep];
  return [
    // Order matters: delete a count of 1 first, then lower the larger ones, so none reaches 0.
    db.prepare(`DELETE FROM pin_reaction_counts WHERE pin_id = ?1 AND count <= 1 AND reaction_type = ${old}`).bind(...args),
    db.prepare(`UPDATE pin_reaction_counts SET count = count - 1 WHERE pin_id = ?1 AND count > 1 AND reaction_type = ${old}`).bind(...args),
  ];
}

function answerStatements(db: D1Database, pinId: number, userId: number): D1PreparedStatement[] {
  return [
    db.prepare("SELECT reaction_type, count FROM pin_reaction_counts WHERE pin_id = ?1 ORDER BY reaction_type").bind(pinId),
    db.prepare(MINE).bind(pinId, userId),
  ];
}

function toAnswer(pinId: number, results: D1Result[]): ReactionAnswer {
  const counts = (results.at(-2)?.results ?? []) as ReactionCount[];
  const mine = results.at(-1)?.results?.[0] as { reaction_type: number } | undefined;
  return { pin_id: String(pinId), reaction_counts: counts.map(({ reaction_type, count }) => ({ reaction_type, count })), reaction_by_me: mine?.reaction_type ?? 0 };
}

export async function react(db: D1Database, viewer: Viewer, pinId: number, reactionType: number): Promise<Written<ReactionAnswer>> {
  const { viewerId } = await requirePinReaction(db, viewer, pinId);
  const results = await db.batch([
    ...releaseStatements(db, pinId, viewerId, reactionType),
    db
      .prepare(
        `INSERT INTO pin_reaction_counts (pin_id, reaction_type, count)
         SELECT ?1, ?3, 1 WHERE NOT EXISTS (${MINE} AND reaction_type = ?3)
         ON CONFLICT (pin_id, reaction_type) DO UPDATE SET count = count + 1`,
      )
      .bind(pinId, viewerId, reactionType),
    db
      .prepare(
        `INSERT INTO reactions (pin_id, user_id, reaction_type, created_at) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (pin_id, user_id) DO UPDATE SET reaction_type = excluded.reaction_type, created_at = excluded.created_at
         WHERE reactions.reaction_type != excluded.reaction_type`,
      )
      .bind(pinId, viewerId, reactionType, Date.now()),
    ...answerStatements(db, pinId, viewerId),
  ]);
  return written(toAnswer(pinId, results), [`/pin/${pinId}/`]);
}

export async function unreact(db: D1Database, viewer: Viewer, pinId: number): Promise<Written<ReactionAnswer>> {
  const { viewerId } = await requirePinReaction(db, viewer, pinId);
  const results = await db.batch([
    ...releaseStatements(db, pinId, viewerId, null),
    db.prepare("DELETE FROM reactions WHERE pin_id = ?1 AND user_id = ?2").bind(pinId, viewerId),
    ...answerStatements(db, pinId, viewerId),
  ]);
  return written(toAnswer(pinId, results), [`/pin/${pinId}/`]);
}

/** The page size of ReactionsResource (and its bound). */
const REACTIONS_PAGE_SIZE = 25;

export interface ReactionListItem {
  /** Built from the pin id, user id and reaction type (spec 001 §3 "Reaction"). */
  id: string;
  type: "reaction";
  reaction_type: number;
  user: UserRef;
}

/**
 * Who reacted to a pin, newest first, paged by bookmark (the offset-free keyset: created_at
 * and user id). Reactions by people whose profiles the viewer cannot see are left out.
 */
export async function listReactions(db: D1Database, viewerId: number | null, pinId: number, bookmark: string | null): Promise<{ results: ReactionListItem[]; bookmark: string | null }> {
  if (!(await loadVisiblePin(db, pinId, viewerId))) throw notFound("api.pinNotFound");
  const after = decodeBookmark(bookmark);
  const { results } = await db
    .prepare(
      `SELECT r.user_id, r.reaction_type, r.created_at, u.username, u.full_name, u.image_key
       FROM reactions r JOIN users u ON u.id = r.user_id
       WHERE r.pin_id = ?1 AND ${visibleSql("profile", { user: "u" }, "?2")}
         AND (?3 IS NULL OR r.created_at < ?3 OR (r.created_at = ?3 AND r.user_id < ?4))
       ORDER BY r.created_at DESC, r.user_id DESC LIMIT ?5`,
    )
    .bind(pinId, viewerId, after?.createdAt ?? null, after?.userId ?? null, REACTIONS_PAGE_SIZE + 1)
    .all<{ user_id: number; reaction_type: number; created_at: number; username: string; full_name: string; image_key: string | null }>();
  const page = results.slice(0, REACTIONS_PAGE_SIZE);
  const last = page.at(-1);
  return {
    results: page.map((row) => ({
      id: `${pinId}-${row.user_id}-${row.reaction_type}`,
      type: "reaction",
      reaction_type: row.reaction_type,
      user: { id: String(row.user_id), username: row.username, full_name: row.full_name, image_medium_url: userImageUrl(row.image_key, "medium") },
    })),
    bookmark: results.length > REACTIONS_PAGE_SIZE && last ? `${last.created_at}.${last.user_id}` : null,
  };
}

/** A bookmark is "createdAt.userId"; anything else starts from the top. */
export const REACTIONS_BOOKMARK = /^(\d{1,15})\.(\d{1,18})$/;

function decodeBookmark(bookmark: string | null): { createdAt: number; userId: number } | null {
  const match = bookmark ? REACTIONS_BOOKMARK.exec(bookmark) : null;
  return match ? { createdAt: Number(match[1]), userId: Number(match[2]) } : null;
}
