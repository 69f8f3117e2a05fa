// Board writes (BoardResource create/update/delete, BoardOwnershipTransferResource,
// BoardsFeedResource update). The handler has already passed requireBoardAction; each write is
// one D1 batch whose statements repeat the board id and owner id in their WHERE clauses, and
// whose last statements recount what changed (counts.server.ts).
import { badRequest } from "~/domain/errors.ts";
import type { BoardPrivacy } from "./board.ts";
import type { BoardTableRow } from "./board-row.ts";
import { holds } from "~/visibility/rules.ts";
import { STRANGER_VISIBLE_BOARD, recountBoardPinSaves, recountBoards, recountUserBoards, recountUserPins } from "./counts.server.ts";
import { MAX_SLUG_SUFFIX, slugify, uniqueSlug } from "./slug.ts";
import { isUniqueViolation } from "./write.server.ts";

/** Taken slugs that could collide with `base` (itself and base-N), bounded. */
async function takenSlugs(db: D1Database, ownerId: number, base: string, exceptBoardId: number | null = null): Promise<string[]> {
  const { results } = await db
    .prepare(
      // substr, not LIKE: D1 refuses LIKE patterns longer than 50 bytes, and a slug may be longer.
      `SELECT slug FROM boards WHERE owner_id = ?1 AND (slug = ?2 OR substr(slug, 1, length(?3)) = ?3) AND (?4 IS NULL OR id != ?4) LIMIT ?5`,
    )
    .bind(ownerId, base, `${base}-`, exceptBoardId, MAX_SLUG_SUFFIX + 1)
    .all<{ slug: string }>();
  return results.map((row) => row.slug);
}

export interface NewBoard {
  name: string;
  description: string;
  privacy: BoardPrivacy;
  layout: string;
  category: string | null;
}

/** Creates a board; returns its id. A lost slug race is retried once with the slugs read again. */
export async function createBoard(db: D1Database, ownerId: number, input: NewBoard, now = Date.now()): Promise<number> {
  const base = slugify(input.name);
  for (let attempt = 0; ; attempt++) {
    const slug = uniqueSlug(base, await takenSlugs(db, ownerId, base), now);
    try {
      const [inserted] = await db.batch([
        db
          .prepare(
            `INSERT INTO boards (owner_id, name, slug, description, privacy, layout, category, position, created_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, (SELECT min(position) - 1 FROM boards WHERE owner_id = ?1), ?8, ?8)
             RETURNING id`,
          )
          .bind(ownerId, input.name, slug, input.description, input.privacy, input.layout, input.category, now),
        recountUserBoards(db, [ownerId]),
      ]);
      return Number((inserted?.results as Array<{ id: number }>)[0]!.id);
    } catch (error) {
      if (attempt === 0 && isUniqueViolation(error)) continue;
      throw error;
    }
  }
}

export interface BoardChanges {
  name?: string | undefined;
  description?: string | undefined;
  privacy?: BoardPrivacy | undefined;
  layout?: string | undefined;
  cover_pin_id?: number | null | undefined;
  archived?: boolean | undefined;
}

/** What an update changed, for the caller's purge. */
export interface BoardUpdate {
  oldSlug: string;
  newSlug: string;
  /** Privacy or archive state changed: who may see the board (and its pins) changed. */
  visibilityChanged: boolean;
}

/**
 * Applies the changes to a board the viewer owns. A cover must be a pin on the board (400
 * cover_pin_id otherwise). Renaming moves the slug; privacy and archive changes recount the
 * owner's board counts and the board's pins' save counts in the same batch.
 */
export async function updateBoard(db: D1Database, board: BoardTableRow, changes: BoardChanges, now = Date.now()): Promise<BoardUpdate> {
  if (changes.cover_pin_id !== undefined && changes.cover_pin_id !== null) {
    const onBoard = await db.prepare("SELECT 1 FROM board_pins WHERE board_id = ?1 AND pin_id = ?2").bind(board.id, changes.cover_pin_id).first();
    if (!onBoard) throw badRequest([{ field: "cover_pin_id", reason: "boards:validation.notOnBoard" }]);
  }
  const renamed = changes.name !== undefined && changes.name !== board.name;
  const archivedAt = changes.archived === undefined ? board.archived_at : changes.archived ? (board.archived_at ?? now) : null;
  const privacy = changes.privacy ?? board.privacy;
  const visibilityChanged = privacy !== board.privacy || archivedAt !== board.archived_at;
  for (let attempt = 0; ; attempt++) {
    const slug = renamed ? uniqueSlug(slugify(changes.name!), await takenSlugs(db, board.owner_id, slugify(changes.name!), board.id), now) : board.slug;
    const statements = [
      db
        .prepare(
          `UPDATE boards SET name = ?3, slug = ?4, description = ?5, privacy = ?6, layout = ?7, cover_pin_id = ?8, archived_at = ?9, updated_at = ?10
           WHERE id = ?1 AND owner_id = ?2`,
        )
        .bind(
          board.id,
          board.owner_id,
          changes.name ?? board.name,
          slug,
          changes.description ?? board.description,
          privacy,
          changes.layout ?? board.layout,
          changes.cover_pin_id === undefined ? board.cover_pin_id : changes.cover_pin_id,
          archivedAt,
          now,
        ),
    ];
    if (visibilityChanged) statements.push(recountUserBoards(db, [board.owner_id]), recountBoardPinSaves(db, board.id));
    try {
      await db.batch(statements);
      return { oldSlug: board.slug, newSlug: slug, visibilityChanged };
    } catch (error) {
      if (attempt === 0 && renamed && isUniqueViolation(error)) continue;
      throw error;
    }
  }
}

/** Bound on the pinners and other boards one board deletion reads for its recounts. */
const MAX_DELETE_READ = 1000;

/**
 * Deletes a board the viewer owns, in one batch (spec 001 §4: deleting a board removes it from
 * every feed). Its sections, saves, collaborators, follows, invites and recent-board rows go
 * with it. Pins first pinned to it that are saved nowhere else are deleted (they leave every
 * feed, their page answers 410); a pin also saved elsewhere moves its home to the oldest other
 * save, except that a pin born on a private board never moves home to a public board (it is
 * deleted instead, with its other saves, so a secret pin never turns public). Returns the
 * pages' pins (bounded) for the caller's purge.
 */
export async function deleteBoard(db: D1Database, board: BoardTableRow, now = Date.now()): Promise<{ pinIds: number[] }> {
  const [pinnerResult, boardResult, pinResult] = await db.batch([
    db.prepare("SELECT DISTINCT pinner_id FROM pins WHERE board_id = ?1 LIMIT ?2").bind(board.id, MAX_DELETE_READ),
    db
      .prepare("SELECT DISTINCT board_id FROM board_pins WHERE pin_id IN (SELECT id FROM pins WHERE board_id = ?1) AND board_id != ?1 LIMIT ?2")
      .bind(board.id, MAX_DELETE_READ),
    db.prepare("SELECT pin_id FROM board_pins WHERE board_id = ?1 UNION SELECT id FROM pins WHERE board_id = ?1 LIMIT 100").bind(board.id),
  ]);
  const pinners = ((pinnerResult?.results ?? []) as Array<{ pinner_id: number }>).map((row) => row.pinner_id);
  const otherBoards = ((boardResult?.results ?? []) as Array<{ board_id: number }>).map((row) => row.board_id);
  const wasPublic = holds("board", { rows: { board } }, null) ? 1 : 0;
  // A new home for each pin born here: the oldest save on another board (a private pin only to a private board).
  const newHome = `(SELECT obp.board_id FROM board_pins obp JOIN boards ob ON ob.id = obp.board_id
                    WHERE obp.pin_id = pins.id AND obp.board_id != ?1 AND (?2 = 1 OR NOT ${STRANGER_VISIBLE_BOARD("ob")})
                    ORDER BY obp.created_at, obp.board_id LIMIT 1)`;
  const bornHereAndDeleted = "SELECT id FROM pins WHERE board_id = ?1 AND is_deleted = 1";
  await db.batch([
    // Pins saved here: their save counts without this board (while the rows still say which pins).
    db
      .prepare(
        `UPDATE pins SET save_count = (SELECT count(*) FROM board_pins sbp JOIN boards sb ON sb.id = sbp.board_id
                                       WHERE sbp.pin_id = pins.id AND sbp.board_id != ?1 AND ${STRANGER_VISIBLE_BOARD("sb")})
         WHERE id IN (SELECT pin_id FROM board_pins WHERE board_id = ?1)`,
      )
      .bind(board.id),
    db.prepare(`UPDATE pins SET is_deleted = 1, updated_at = ?3 WHERE board_id = ?1 AND is_deleted = 0 AND ${newHome} IS NULL`).bind(board.id, wasPublic, now),
    db.prepare(`UPDATE pins SET save_count = 0 WHERE id IN (${bornHereAndDeleted})`).bind(board.id),
    // Deleted pins leave every feed: their saves on other boards and the quick-saves. The other
    // boards holding them are recounted first, from the rows as they are now (not the list read
    // before the batch), so a save made in between is counted out too.
    db
      .prepare(
        `UPDATE boards SET
           pin_count = (SELECT count(*) FROM board_pins bp WHERE bp.board_id = boards.id AND bp.pin_id NOT IN (${bornHereAndDeleted})),
           sectionless_pin_count = (SELECT count(*) FROM board_pins bp WHERE bp.board_id = boards.id AND bp.section_id IS NULL AND bp.pin_id NOT IN (${bornHereAndDeleted}))
         WHERE id != ?1 AND id IN (SELECT board_id FROM board_pins WHERE pin_id IN (${bornHereAndDeleted}))`,
      )
      .bind(board.id),
    db
      .prepare(
        `UPDATE board_sections SET pin_count = (SELECT count(*) FROM board_pins bp WHERE bp.board_id = board_sections.board_id AND bp.section_id = board_sections.id
                                                  AND bp.pin_id NOT IN (${bornHereAndDeleted}))
         WHERE board_id != ?1 AND board_id IN (SELECT board_id FROM board_pins WHERE pin_id IN (${bornHereAndDeleted}))`,
      )
      .bind(board.id),
    db.prepare(`DELETE FROM board_pins WHERE pin_id IN (${bornHereAndDeleted})`).bind(board.id),
    db.prepare(`DELETE FROM profile_saves WHERE pin_id IN (${bornHereAndDeleted})`).bind(board.id),
    db
      .prepare(
        `UPDATE pins SET section_id = (SELECT obp.section_id FROM board_pins obp WHERE obp.pin_id = pins.id AND obp.board_id = ${newHome}),
                         board_id = ${newHome}
         WHERE board_id = ?1`,
      )
      .bind(board.id, wasPublic),
    db.prepare("DELETE FROM follows WHERE target_type = 'board' AND target_id = ?1").bind(board.id),
    db.prepare("DELETE FROM invites WHERE object_type = 'board' AND object_id = ?1").bind(board.id),
    db.prepare("DELETE FROM boards WHERE id = ?1 AND owner_id = ?2").bind(board.id, board.owner_id),
    ...recountBoards(db, otherBoards),
    recountUserBoards(db, [board.owner_id]),
    recountUserPins(db, [board.owner_id, ...pinners]),
  ]);
  return { pinIds: ((pinResult?.results ?? []) as Array<{ pin_id: number }>).map((row) => row.pin_id) };
}

/** Asks an accepted collaborator to take the board over (null cancels). False when user is not one. */
export async function setPendingOwner(db: D1Database, board: BoardTableRow, userId: number | null): Promise<boolean> {
  const result = await db
    .prepare(
      `UPDATE boards SET pending_owner_id = ?3
       WHERE id = ?1 AND owner_id = ?2
         AND (?3 IS NULL OR EXISTS (SELECT 1 FROM board_collaborators bc WHERE bc.board_id = ?1 AND bc.user_id = ?3 AND bc.status = 'accepted'))`,
    )
    .bind(board.id, board.owner_id, userId)
    .run();
  return result.meta.changes === 1;
}

/** Boards one owner may hand-order on their profile (the reorder rewrites every position). */
const MAX_ORDERED_BOARDS = 2000;

/**
 * Puts a board right after another of the same owner's boards on their profile (null: first),
 * renumbering the owner's boards 1..n in one statement. False when `afterBoardId` is not theirs.
 */
export async function reorderProfileBoard(db: D1Database, ownerId: number, boardId: number, afterBoardId: number | null): Promise<boolean> {
  const { results } = await db
    .prepare("SELECT id FROM boards WHERE owner_id = ?1 ORDER BY position IS NULL, position, updated_at DESC, id DESC LIMIT ?2")
    .bind(ownerId, MAX_ORDERED_BOARDS + 1)
    .all<{ id: number }>();
  if (results.length > MAX_ORDERED_BOARDS) throw badRequest([{ field: "board_id", reason: "boards:validation.tooManyBoards", values: { maximum: MAX_ORDERED_BOARDS } }]);
  const order = results.map((row) => row.id).filter((id) => id !== boardId);
  const anchor = afterBoardId === null ? -1 : order.indexOf(afterBoardId);
  if (afterBoardId !== null && anchor === -1) return false;
  order.splice(anchor + 1, 0, boardId);
  await db
    .prepare(
      `UPDATE boards SET position = (SELECT o.key + 1 FROM json_each(?2) o WHERE o.value = boards.id)
       WHERE owner_id = ?1 AND id IN (SELECT value FROM json_each(?2))`,
    )
    .bind(ownerId, JSON.stringify(order))
    .run();
  return true;
}
