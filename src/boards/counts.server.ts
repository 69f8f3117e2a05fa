// The counters of spec 001 §4 ("Pin counts change on add, delete, edit and move ... never fall
// below zero"), kept exact by recounting them from the rows as the LAST statements of the same
// D1 batch as the write. A batch is one transaction, so the recount sees exactly what the write
// left, a parallel write cannot make a counter drift, and no counter can go below zero.
//
// Ids travel as one JSON array parameter (json_each), so a statement's size does not grow with
// the number of ids; callers bound the lists (bulk calls take at most 250 ids).
import { visibleSql } from "~/visibility/visibility.server.ts";
import { forgetSessions } from "~/accounts/session.server.ts";

/** pins.save_count counts the saves a stranger could see: on boards the board rule shows to no one in particular. */
export const STRANGER_VISIBLE_BOARD = (alias: string) => visibleSql("board", { board: alias }, null);

const ids = (values: Iterable<number>) => JSON.stringify([...new Set(values)]);

/** boards.pin_count, sectionless_pin_count and section_count, and their sections' pin_count. */
export function recountBoards(db: D1Database, boardIds: Iterable<number>): D1PreparedStatement[] {
  const list = ids(boardIds);
  return [
    db
      .prepare(
        `UPDATE boards SET
           pin_count = (SELECT count(*) FROM board_pins bp WHERE bp.board_id = boards.id),
           sectionless_pin_count = (SELECT count(*) FROM board_pins bp WHERE bp.board_id = boards.id AND bp.section_id IS NULL),
           section_count = (SELECT count(*) FROM board_sections s WHERE s.board_id = boards.id)
         WHERE id IN (SELECT value FROM json_each(?1))`,
      )
      .bind(list),
    db
      .prepare(
        `UPDATE board_sections SET pin_count = (SELECT count(*) FROM board_pins bp WHERE bp.board_id = board_sections.board_id AND bp.section_id = board_sections.id)
         WHERE board_id IN (SELECT value FROM json_each(?1))`,
      )
      .bind(list),
  ];
}

/**
 * Recounts, as if the pin were gone, every board and section the pin is saved on at the
 * moment the batch runs (not a list read before it): put before the statement that removes
 * the pin's saves, so a save made between the read and the batch is counted out too.
 */
export function recountBoardsWithoutPin(db: D1Database, pinId: number): D1PreparedStatement[] {
  // Only once the pin is marked deleted (the batch's first statement), so a refused delete counts nothing out.
  const holding = "SELECT board_id FROM board_pins WHERE pin_id = ?1 AND EXISTS (SELECT 1 FROM pins WHERE id = ?1 AND is_deleted = 1)";
  return [
    db
      .prepare(
        `UPDATE boards SET
           pin_count = (SELECT count(*) FROM board_pins bp WHERE bp.board_id = boards.id AND bp.pin_id != ?1),
           sectionless_pin_count = (SELECT count(*) FROM board_pins bp WHERE bp.board_id = boards.id AND bp.section_id IS NULL AND bp.pin_id != ?1)
         WHERE id IN (${holding})`,
      )
      .bind(pinId),
    db
      .prepare(
        `UPDATE board_sections SET pin_count = (SELECT count(*) FROM board_pins bp WHERE bp.board_id = board_sections.board_id AND bp.section_id = board_sections.id AND bp.pin_id != ?1)
         WHERE board_id IN (${holding})`,
      )
      .bind(pinId),
  ];
}

const SAVE_COUNT = `save_count = (SELECT count(*) FROM board_pins sbp JOIN boards sb ON sb.id = sbp.board_id
                                  WHERE sbp.pin_id = pins.id AND ${STRANGER_VISIBLE_BOARD("sb")})`;

/** pins.save_count of the given pins. */
export function recountPinSaves(db: D1Database, pinIds: Iterable<number>): D1PreparedStatement {
  return db.prepare(`UPDATE pins SET ${SAVE_COUNT} WHERE id IN (SELECT value FROM json_each(?1))`).bind(ids(pinIds));
}

/** pins.save_count of every pin saved to one board (its privacy or archive state changed). */
export function recountBoardPinSaves(db: D1Database, boardId: number): D1PreparedStatement {
  return db.prepare(`UPDATE pins SET ${SAVE_COUNT} WHERE id IN (SELECT pin_id FROM board_pins WHERE board_id = ?1)`).bind(boardId);
}

/**
 * A users counter is part of the viewer every signed-in request carries: the sessions of the
 * people recounted (someone else, when a board changes hands) leave this isolate's session cache.
 */
function recountingUsers(userIds: Iterable<number>): string {
  const list = [...userIds];
  forgetSessions({ userIds: list });
  return ids(list);
}

/** users.board_count (public and protected, not archived) and secret_board_count (secret, not archived). */
export function recountUserBoards(db: D1Database, userIds: Iterable<number>): D1PreparedStatement {
  const list = recountingUsers(userIds);
  return db
    .prepare(
      `UPDATE users SET
         board_count = (SELECT count(*) FROM boards b WHERE b.owner_id = users.id AND b.archived_at IS NULL AND b.privacy != 'secret'),
         secret_board_count = (SELECT count(*) FROM boards b WHERE b.owner_id = users.id AND b.archived_at IS NULL AND b.privacy = 'secret')
       WHERE id IN (SELECT value FROM json_each(?1))`,
    )
    .bind(list);
}

/** users.pin_count: the pins they created that are not deleted. */
export function recountUserPins(db: D1Database, userIds: Iterable<number>): D1PreparedStatement {
  const list = recountingUsers(userIds);
  return db
    .prepare(`UPDATE users SET pin_count = (SELECT count(*) FROM pins p WHERE p.pinner_id = users.id AND p.is_deleted = 0) WHERE id IN (SELECT value FROM json_each(?1))`)
    .bind(list);
}
