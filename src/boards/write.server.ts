// What every board, section and save write shares: the viewer's pin lookup, the feed head a
// new save is placed against, the signed-out pages a write changes (the edge functions purge
// them), and telling a lost race (a UNIQUE index refusing the batch) from a real failure.
import { BOARD_SORT_ORDERS } from "~/profile/view-state.ts";
import { DomainError, notFound } from "~/domain/errors.ts";
import { visibleSql } from "~/visibility/visibility.server.ts";
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
 * A pin that exists for the viewer (the close-up's pinExists rule), deleted ones included so the
 * caller can answer 410. `pin` and `viewer` name its parameters, so a larger statement can carry
 * it (a save reads it with the board in one statement).
 */
function visiblePinSql(pin: string, viewer: string): string {
  return `SELECT p.id, p.pinner_id, p.board_id, p.section_id, p.kind, p.is_deleted, pu.username AS pinner_username
       FROM pins p JOIN users pu ON pu.id = p.pinner_id LEFT JOIN boards b ON b.id = p.board_id
       WHERE p.id = ${pin} AND ${visibleSql("pinExists", { pin: "p", board: "b", pinner: "pu" }, viewer)}`;
}

/** visiblePinSql as one JSON object (PinFacts), NULL when missing or hidden: for a column of a larger statement. */
export function visiblePinJsonSql(pin: string, viewer: string): string {
  return `(SELECT json_object('id', v.id, 'pinner_id', v.pinner_id, 'board_id', v.board_id, 'section_id', v.section_id, 'kind', v.kind,
                              'is_deleted', v.is_deleted, 'pinner_username', v.pinner_username)
           FROM (${visiblePinSql(pin, viewer)}) v)`;
}

/** A pin the viewer may see (visiblePinSql); null when missing or not the viewer's to see (the caller's 404). */
export async function visiblePin(db: D1Database, pinId: number, viewerId: number | null): Promise<PinFacts | null> {
  return db.prepare(visiblePinSql("?1", "?2")).bind(pinId, viewerId).first<PinFacts>();
}

/** A looked-up pin a write may use: deleted ones refused as gone (410), missing or hidden ones as not found (404). */
export function usablePin(pin: PinFacts | null): PinFacts {
  if (!pin) throw notFound("api.pinNotFound");
  if (pin.is_deleted === 1) throw new DomainError("gone", { message: "api.pinNotFound" });
  return pin;
}

/** visiblePin, refusing deleted pins with 410 and missing or hidden ones with 404. */
export async function requirePin(db: D1Database, pinId: number, viewerId: number | null): Promise<PinFacts> {
  return usablePin(await visiblePin(db, pinId, viewerId));
}

/** The first items of a board's feed, for frontPosition; `board` names the board-id parameter. */
export const boardFeedHeadSql = (board: string) =>
  `SELECT bp.position, p.kind = 'story' AS is_story, bp.pin_id FROM board_pins bp JOIN pins p ON p.id = bp.pin_id
   WHERE bp.board_id = ${board} ORDER BY bp.position, bp.pin_id LIMIT ${MAX_LEADING_STORIES + 1}`;

/** The first items of a person's quick-save (boardless) feed; `user` names the user-id parameter. */
export const profileFeedHeadSql = (user: string) =>
  `SELECT ps.position, p.kind = 'story' AS is_story, ps.pin_id FROM profile_saves ps JOIN pins p ON p.id = ps.pin_id
   WHERE ps.user_id = ${user} ORDER BY ps.position, ps.pin_id LIMIT ${MAX_LEADING_STORIES + 1}`;

/** A feed head query as one JSON column ([[position, is_story, pin_id], ...]), for a larger statement. */
export const feedHeadJsonSql = (headSql: string) => `(SELECT json_group_array(json_array(h.position, h.is_story, h.pin_id)) FROM (${headSql}) h)`;

/** The feed head from its JSON column, in feed order (position, then pin id). */
export function feedHeadOf(json: string | null): FeedHead[] {
  const rows = JSON.parse(json ?? "[]") as Array<[number, number, number]>;
  return rows
    .sort((a, b) => a[0] - b[0] || a[2] - b[2])
    .map(([position, isStory]) => ({ position, isStory: isStory === 1 }));
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

export const sectionPath = (username: string, boardSlug: string, sectionSlug: string) => `/${username}/${boardSlug}/${sectionSlug}/`;

/** The owner's username, a board's slug and its sections' slugs (at most 100), for purging (null when the board is gone). */
export async function boardPageFacts(db: D1Database, boardId: number): Promise<{ username: string; slug: string; sections: string[] } | null> {
  const row = await db
    .prepare(
      `SELECT u.username, b.slug,
              (SELECT json_group_array(slug) FROM (SELECT s.slug FROM board_sections s WHERE s.board_id = b.id ORDER BY s.id LIMIT 100)) AS sections
       FROM boards b JOIN users u ON u.id = b.owner_id WHERE b.id = ?1`,
    )
    .bind(boardId)
    .first<{ username: string; slug: string; sections: string | null }>();
  return row ? { username: row.username, slug: row.slug, sections: JSON.parse(row.sections ?? "[]") as string[] } : null;
}

/** A board's section pages under one of its slugs (the old one too, after a rename). */
export function sectionPaths(facts: { username: string; sections: readonly string[] }, boardSlug: string): string[] {
  return facts.sections.map((section) => sectionPath(facts.username, boardSlug, section));
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
