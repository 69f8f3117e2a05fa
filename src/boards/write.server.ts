// What every board, section and save write shares: the viewer's pin lookup, the feed head a
// new save is placed against, the signed-out pages a write changes (the edge functions purge
// them), and telling a lost race (a UNIQUE index refusing the batch) from a real failure.
import { BOARD_SORT_ORDERS } from "../profile/view-state.ts";
import { DomainError, notFound } from "../domain/errors.ts";
import { profileVisibleSql } from "../users/user.ts";
import { collaboratorSql } from "./board.ts";
import { MAX_LEADING_STORIES, type FeedHead } from "./positions.ts";

/** The pin columns the writes need. */
export interface PinFacts {
  id: number;
  pinner_id: number;
  board_id: number | null;
  section_id: number | null;
  kind: string;
  is_deleted: number;
  pinner_username: string;
}

/**
 * A pin the viewer may see (the pin page's rule: its pinner, its board's people, or anyone when
 * its pinner's profile is visible and its own board is public or none), deleted ones included
 * so the caller can answer 410; null when missing or hidden (the caller's 404).
 */
export async function visiblePin(db: D1Database, pinId: number, viewerId: number | null): Promise<PinFacts | null> {
  return db
    .prepare(
      `SELECT p.id, p.pinner_id, p.board_id, p.section_id, p.kind, p.is_deleted, pu.username AS pinner_username
       FROM pins p JOIN users pu ON pu.id = p.pinner_id LEFT JOIN boards b ON b.id = p.board_id
       WHERE p.id = ?1
         AND (p.pinner_id = ?2 OR b.owner_id = ?2 OR ${collaboratorSql("b.id", "?2")}
              OR (${profileVisibleSql("pu", "?2")} AND (p.board_id IS NULL OR b.privacy = 'public')))`,
    )
    .bind(pinId, viewerId)
    .first<PinFacts>();
}

/** visiblePin, refusing deleted pins with 410 and missing or hidden ones with 404. */
export async function requirePin(db: D1Database, pinId: number, viewerId: number | null): Promise<PinFacts> {
  const pin = await visiblePin(db, pinId, viewerId);
  if (!pin) throw notFound("api.pinNotFound");
  if (pin.is_deleted === 1) throw new DomainError("gone", { message: "api.pinNotFound" });
  return pin;
}

/** The first items of a board's feed (or one section's), for frontPosition. */
export async function boardFeedHead(db: D1Database, boardId: number, sectionId: number | null = null): Promise<FeedHead[]> {
  const { results } = await db
    .prepare(
      `SELECT bp.position, p.kind = 'story' AS is_story FROM board_pins bp JOIN pins p ON p.id = bp.pin_id
       WHERE bp.board_id = ?1 AND (?2 IS NULL OR bp.section_id = ?2)
       ORDER BY bp.position, bp.pin_id LIMIT ?3`,
    )
    .bind(boardId, sectionId, MAX_LEADING_STORIES + 1)
    .all<{ position: number; is_story: number }>();
  return results.map((row) => ({ position: row.position, isStory: row.is_story === 1 }));
}

/** The first items of a person's quick-save (boardless) feed. */
export async function profileFeedHead(db: D1Database, userId: number): Promise<FeedHead[]> {
  const { results } = await db
    .prepare(
      `SELECT ps.position, p.kind = 'story' AS is_story FROM profile_saves ps JOIN pins p ON p.id = ps.pin_id
       WHERE ps.user_id = ?1 ORDER BY ps.position, ps.pin_id LIMIT ?2`,
    )
    .bind(userId, MAX_LEADING_STORIES + 1)
    .all<{ position: number; is_story: number }>();
  return results.map((row) => ({ position: row.position, isStory: row.is_story === 1 }));
}

/** True when a batch failed because a UNIQUE or PRIMARY KEY index refused a row (a lost race, a repeat). */
export function isUniqueViolation(error: unknown): boolean {
  return error instanceof Error && /UNIQUE constraint failed|PRIMARY KEY/i.test(error.message);
}

/** The signed-out pages showing a profile: the profile in each board sort, and the home feed. */
export function profilePaths(username: string): string[] {
  const profile = `/${username}/`;
  return [profile, ...BOARD_SORT_ORDERS.map((sort) => `${profile}?sort=${sort}`)];
}

export const boardPath = (username: string, slug: string) => `/${username}/${slug}/`;
export const pinPath = (pinId: number) => `/pin/${pinId}/`;

/** The owner's username and a board's slug, for purging (null when the board is gone). */
export async function boardPageFacts(db: D1Database, boardId: number): Promise<{ username: string; slug: string } | null> {
  return db.prepare("SELECT u.username, b.slug FROM boards b JOIN users u ON u.id = b.owner_id WHERE b.id = ?1").bind(boardId).first();
}

/** The signed-out pages of these boards and their owners' profiles, for purging (bounded by the caller's list). */
export async function boardPages(db: D1Database, boardIds: readonly number[]): Promise<string[]> {
  if (boardIds.length === 0) return [];
  const { results } = await db
    .prepare("SELECT u.username, b.slug FROM boards b JOIN users u ON u.id = b.owner_id WHERE b.id IN (SELECT value FROM json_each(?1)) LIMIT 100")
    .bind(JSON.stringify(boardIds))
    .all<{ username: string; slug: string }>();
  return results.flatMap((row) => [boardPath(row.username, row.slug), ...profilePaths(row.username)]);
}

/** Pin pages whose visibility follows a board (pins born on it), bounded. */
export async function bornHerePages(db: D1Database, boardId: number): Promise<string[]> {
  const { results } = await db.prepare("SELECT id FROM pins WHERE board_id = ?1 LIMIT 50").bind(boardId).all<{ id: number }>();
  return results.map((row) => pinPath(row.id));
}
