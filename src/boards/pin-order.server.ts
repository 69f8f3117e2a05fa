// Hand-ordering pins (BoardFeedResource update, BoardSectionPinsResource update; spec 001 §4:
// reordering is allowed only for board feed, section pins, sections and profile boards) and
// reading one section's pins (BoardSectionPinsResource get). A pin goes right after another
// (null: first) of the same feed; positions are split between neighbours, and the board is
// renumbered 1, 2, 3, ... in one statement when two neighbours are too close to split.
import { badRequest } from "~/domain/errors.ts";
import { encodeKeyset, keysetPageOf, type Keyset, type KeysetPage } from "~/feeds/cursor.ts";
import { gridPin, type GridPin } from "~/pins/pins.server.ts";
import { GRID_PIN_JOINS, gridPinColumns, gridPinSql, gridRowVisible, type GridPinRow } from "./boards.server.ts";
import { positionAfter } from "./positions.ts";

interface Neighbours {
  moving: number | null;
  anchor: number | null;
  next: number | null;
  first: number | null;
}

/** ?1 board, ?2 pin moved, ?3 anchor pin (NULL: first), ?4 section (NULL: the whole board feed). */
const NEIGHBOURS_SQL = `SELECT
    (SELECT position FROM board_pins WHERE board_id = ?1 AND pin_id = ?2 AND (?4 IS NULL OR section_id = ?4)) AS moving,
    (SELECT position FROM board_pins WHERE board_id = ?1 AND pin_id = ?3 AND (?4 IS NULL OR section_id = ?4)) AS anchor,
    (SELECT min(position) FROM board_pins WHERE board_id = ?1 AND pin_id != ?2 AND (?4 IS NULL OR section_id = ?4)) AS first,
    (SELECT bp.position FROM board_pins bp, board_pins a
       WHERE a.board_id = ?1 AND a.pin_id = ?3 AND bp.board_id = ?1 AND bp.pin_id NOT IN (?2, ?3) AND (?4 IS NULL OR bp.section_id = ?4)
         AND (bp.position > a.position OR (bp.position = a.position AND bp.pin_id > a.pin_id))
       ORDER BY bp.position, bp.pin_id LIMIT 1) AS next`;

/**
 * Puts `pinId` right after `afterPinId` (null: first) in the board's feed, or in one section's
 * pins when `sectionId` is given. 400 pin_id / after_pin_id when either is not in that feed.
 */
export async function reorderPin(db: D1Database, boardId: number, pinId: number, afterPinId: number | null, sectionId: number | null = null): Promise<void> {
  if (afterPinId === pinId) throw badRequest([{ field: "after_pin_id", reason: "boards:validation.samePin" }]);
  for (let attempt = 0; attempt < 2; attempt++) {
    const row = await db.prepare(NEIGHBOURS_SQL).bind(boardId, pinId, afterPinId, sectionId).first<Neighbours>();
    if (row?.moving === null || row?.moving === undefined) throw badRequest([{ field: "pin_id", reason: "boards:validation.notOnBoard" }]);
    if (afterPinId !== null && row.anchor === null) throw badRequest([{ field: "after_pin_id", reason: "boards:validation.notOnBoard" }]);
    const position = positionAfter(row.anchor, row.next, row.first);
    if (position !== null) {
      await db.prepare("UPDATE board_pins SET position = ?3 WHERE board_id = ?1 AND pin_id = ?2").bind(boardId, pinId, position).run();
      return;
    }
    // Neighbours too close to split: renumber the board's feed 1, 2, 3, ... and ask again.
    await db
      .prepare(
        `UPDATE board_pins SET position = r.rank
         FROM (SELECT pin_id, row_number() OVER (ORDER BY position, pin_id) AS rank FROM board_pins WHERE board_id = ?1) r
         WHERE board_pins.board_id = ?1 AND board_pins.pin_id = r.pin_id`,
      )
      .bind(boardId)
      .run();
  }
  throw badRequest([{ field: "after_pin_id", reason: "validation.invalid" }]);
}

interface SectionPinRow extends GridPinRow {
  position: number;
}

/**
 * One page of a section's pins in board order, the grid's visibility rule applied (the caller
 * has checked that the viewer may see the board).
 */
export async function listSectionPins(
  db: D1Database,
  boardId: number,
  sectionId: number,
  cursor: Keyset | null,
  size: number,
  viewerId: number | null,
): Promise<KeysetPage<GridPin>> {
  const { results } = await db
    .prepare(
      `SELECT ${gridPinColumns("?3")}, bp.position
       FROM board_pins bp
       JOIN pins p ON p.id = bp.pin_id
       ${GRID_PIN_JOINS}
       WHERE bp.board_id = ?1 AND bp.section_id = ?2 AND ${gridPinSql("?3")}
         AND (?4 IS NULL OR bp.position > ?4 OR (bp.position = ?4 AND bp.pin_id > ?5))
       ORDER BY bp.position, bp.pin_id
       LIMIT ?6`,
    )
    .bind(boardId, sectionId, viewerId, cursor?.key ?? null, cursor?.id ?? null, size + 1)
    .all<SectionPinRow>();
  return keysetPageOf(results, size, (row) => encodeKeyset(row.position, row.id), gridPin, (row) => gridRowVisible(row, viewerId));
}
