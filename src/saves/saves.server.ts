// Saves, unsaves, moves, copies and removals of pins on boards (RepinResource, PinResource
// update/delete, BoardBulkResource). The handler has passed requireBoardAction for every board
// involved. Each change is ONE D1 batch: its statements repeat the board ids and the selection,
// a section that vanished meanwhile makes every statement of a move match nothing (never half
// a move), and the counters are recounted from the rows at the end (counts.server.ts).
import { BOARD_ACCESS_SQL, boardWithRole, type BoardAccessRow, type BoardWithRole } from "~/boards/access.server.ts";
import { recountBoards, recountBoardsWithoutPin, recountPinSaves, recountUserPins, STRANGER_VISIBLE_BOARD } from "~/boards/counts.server.ts";
import { firstPosition, frontPosition, type FeedHead } from "~/boards/positions.ts";
import { visibleSql } from "~/visibility/visibility.server.ts";
import { badRequest, notFound } from "~/domain/errors.ts";
import {
  boardFeedHeadSql,
  feedHeadJsonSql,
  feedHeadOf,
  isUniqueViolation,
  profileFeedHeadSql,
  visiblePinJsonSql,
  type PinFacts,
} from "~/boards/write.server.ts";
import { boardCopyNews, saveNews } from "~/news/record.server.ts";

export type { SavedInfo } from "./saved-info.ts";

/** The save of a pin on a board: its section and who saved it; null when the pin is not on the board. */
export async function findSave(db: D1Database, boardId: number, pinId: number): Promise<{ section_id: number | null; saved_by: number } | null> {
  return db.prepare("SELECT section_id, saved_by FROM board_pins WHERE board_id = ?1 AND pin_id = ?2").bind(boardId, pinId).first<{ section_id: number | null; saved_by: number }>();
}

/** Binds exactly the parameters a statement names (?1..?N), from one shared list. */
function bindUsed(statement: D1PreparedStatement, sql: string, params: readonly unknown[]): D1PreparedStatement {
  const used = Math.max(0, ...[...sql.matchAll(/\?(\d+)/g)].map((match) => Number(match[1])));
  return statement.bind(...params.slice(0, used));
}

function prepared(db: D1Database, sql: string, params: readonly unknown[]): D1PreparedStatement {
  return bindUsed(db.prepare(sql), sql, params);
}

/** Clears a board's chosen cover when that pin is no longer on it. */
function clearStaleCovers(db: D1Database, boardIds: readonly number[]): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE boards SET cover_pin_id = NULL
       WHERE id IN (SELECT value FROM json_each(?1)) AND cover_pin_id IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM board_pins bp WHERE bp.board_id = boards.id AND bp.pin_id = boards.cover_pin_id)`,
    )
    .bind(JSON.stringify([...new Set(boardIds)]));
}

/** Where a save lands: the pin's save on the board when it is there already, else the feed's head to go in front of. */
export interface SavePlacement {
  existing: { sectionId: number | null } | null;
  head: FeedHead[];
}

/** Everything a save to a board checks and places itself by, read in one statement (loadBoardSave). */
interface BoardSave extends BoardWithRole, SavePlacement {
  /** The board owner's username, for the pages the save makes stale. */
  ownerUsername: string;
  /** The pin as the viewer may see it (visiblePinSql), or null. */
  pin: PinFacts | null;
  /** The board the named section is on: null when no section was named or there is no such section. */
  sectionBoardId: number | null;
}

interface BoardSaveRow extends BoardAccessRow {
  owner_username: string;
  pin: string | null;
  section_board_id: number | null;
  saved: number;
  saved_section_id: number | null;
  head: string;
}

/**
 * The board with the viewer's role, its owner, the pin as the viewer may see it, the named
 * section's board, the pin's save on the board if any, and the board feed's head: ONE
 * statement, so a save costs this read and its write batch. Null when no such board.
 * Parameters: ?1 board, ?2 viewer, ?3 pin, ?4 section (or NULL).
 */
export async function loadBoardSave(db: D1Database, viewerId: number, boardId: number, pinId: number, sectionId: number | null): Promise<BoardSave | null> {
  const row = await db
    .prepare(
      `SELECT board.*, (SELECT u.username FROM users u WHERE u.id = board.owner_id) AS owner_username,
              ${visiblePinJsonSql("?3", "?2")} AS pin,
              (SELECT s.board_id FROM board_sections s WHERE s.id = ?4) AS section_board_id,
              EXISTS (SELECT 1 FROM board_pins sp WHERE sp.board_id = ?1 AND sp.pin_id = ?3) AS saved,
              (SELECT sp.section_id FROM board_pins sp WHERE sp.board_id = ?1 AND sp.pin_id = ?3) AS saved_section_id,
              ${feedHeadJsonSql(boardFeedHeadSql("?1"))} AS head
       FROM (${BOARD_ACCESS_SQL}) board`,
    )
    .bind(boardId, viewerId, pinId, sectionId)
    .first<BoardSaveRow>();
  if (!row) return null;
  const { owner_username, pin, section_board_id, saved, saved_section_id, head, ...access } = row;
  return {
    ...boardWithRole(access, viewerId),
    ownerUsername: owner_username,
    pin: pin === null ? null : (JSON.parse(pin) as PinFacts),
    sectionBoardId: section_board_id,
    existing: saved === 1 ? { sectionId: saved_section_id } : null,
    head: feedHeadOf(head),
  };
}

/**
 * Saves a pin to a board (and maybe one of its sections) at the front of the board's feed,
 * after at most 2 leading story items, placed by what loadBoardSave read. Idempotent: a pin
 * already on the board stays where it is and the answer says so (created false); the INSERT
 * repeats the section's check, so a section deleted since the read is a 404. `also` joins the
 * save's batch (a client request's claim: src/server/client-request.ts).
 */
export async function saveToBoard(
  db: D1Database,
  viewerId: number,
  pinId: number,
  boardId: number,
  sectionId: number | null,
  placement: SavePlacement,
  now = Date.now(),
  also: readonly D1PreparedStatement[] = [],
): Promise<{ sectionId: number | null; created: boolean }> {
  if (placement.existing) return { sectionId: placement.existing.sectionId, created: false };
  const position = frontPosition(placement.head);
  try {
    const [inserted] = await db.batch([
      db
        .prepare(
          `INSERT INTO board_pins (board_id, pin_id, section_id, saved_by, position, created_at)
           SELECT ?1, ?2, ?3, ?4, ?5, ?6
           WHERE ?3 IS NULL OR EXISTS (SELECT 1 FROM board_sections s WHERE s.id = ?3 AND s.board_id = ?1)`,
        )
        .bind(boardId, pinId, sectionId, viewerId, position, now),
      db
        .prepare(
          `INSERT INTO recent_boards (user_id, board_id, saved_at) SELECT ?1, ?2, ?3 WHERE EXISTS (SELECT 1 FROM board_pins WHERE board_id = ?2 AND pin_id = ?4)
           ON CONFLICT (user_id, board_id) DO UPDATE SET saved_at = excluded.saved_at`,
        )
        .bind(viewerId, boardId, now, pinId),
      db.prepare("UPDATE boards SET updated_at = ?2 WHERE id = ?1 AND EXISTS (SELECT 1 FROM board_pins WHERE board_id = ?1 AND pin_id = ?3)").bind(boardId, now, pinId),
      ...recountBoards(db, [boardId]),
      recountPinSaves(db, [pinId]),
      // The pin's owner hears of the save in the same batch (src/news/record.server.ts).
      ...saveNews(db, viewerId, pinId, boardId, now),
      ...also,
    ]);
    if (inserted?.meta.changes !== 1) throw notFound("boards:api.sectionNotFound");
    return { sectionId, created: true };
  } catch (error) {
    // A racing save of the same pin won: answer the save that stands.
    if (!isUniqueViolation(error)) throw error;
    const row = await findSave(db, boardId, pinId);
    if (!row) throw error;
    return { sectionId: row.section_id, created: false };
  }
}

/** Takes a pin off a board (idempotent); returns whether a save was removed. */
/** Takes a pin off a board; with `onlySavedBy`, only that person's own save (checked in the DELETE itself). */
export async function unsaveFromBoard(db: D1Database, pinId: number, boardId: number, onlySavedBy: number | null = null): Promise<boolean> {
  const [deleted] = await db.batch([
    db.prepare("DELETE FROM board_pins WHERE board_id = ?1 AND pin_id = ?2 AND (?3 IS NULL OR saved_by = ?3)").bind(boardId, pinId, onlySavedBy),
    clearStaleCovers(db, [boardId]),
    ...recountBoards(db, [boardId]),
    recountPinSaves(db, [pinId]),
  ]);
  return (deleted?.meta.changes ?? 0) > 0;
}

/** The pin as the viewer may see it and the head of their quick-save feed, in one statement. */
export async function loadProfileSave(db: D1Database, viewerId: number, pinId: number): Promise<{ pin: PinFacts | null; head: FeedHead[] }> {
  const row = await db
    .prepare(`SELECT ${visiblePinJsonSql("?2", "?1")} AS pin, ${feedHeadJsonSql(profileFeedHeadSql("?1"))} AS head`)
    .bind(viewerId, pinId)
    .first<{ pin: string | null; head: string }>();
  return { pin: row?.pin ? (JSON.parse(row.pin) as PinFacts) : null, head: feedHeadOf(row?.head ?? null) };
}

/**
 * A quick-save to the profile's boardless pins, at the front (after at most 2 leading stories
 * of `head`). Idempotent; `also` joins its batch.
 */
export async function saveToProfile(db: D1Database, viewerId: number, pinId: number, head: readonly FeedHead[], now = Date.now(), also: readonly D1PreparedStatement[] = []): Promise<void> {
  const position = frontPosition(head);
  await db.batch([
    db
      .prepare("INSERT INTO profile_saves (user_id, pin_id, position, created_at) VALUES (?1, ?2, ?3, ?4) ON CONFLICT (user_id, pin_id) DO NOTHING")
      .bind(viewerId, pinId, position, now),
    ...saveNews(db, viewerId, pinId, null, now),
    ...also,
  ]);
}

export async function unsaveFromProfile(db: D1Database, viewerId: number, pinId: number): Promise<void> {
  await db.prepare("DELETE FROM profile_saves WHERE user_id = ?1 AND pin_id = ?2").bind(viewerId, pinId).run();
}

/** Which pins of the source board a bulk call means: these ids, or all but these. */
export interface Selection {
  all: boolean;
  /** The ids when !all; the excluded ids when all. At most MAX_BULK_IDS. */
  ids: readonly number[];
}

/**
 * The selection as SQL over a pin-id column; ?3 is the all flag, ?4 the ids as JSON (every
 * bulk statement binds ?1 source board, ?2 target board, ?3, ?4, ?5 front position, ?6 target
 * section id, ?7 new section slug, ?8 viewer id, ?9 now).
 */
const selected = (column: string) =>
  `(CASE WHEN ?3 = 1 THEN ${column} NOT IN (SELECT value FROM json_each(?4)) ELSE ${column} IN (SELECT value FROM json_each(?4)) END)`;
/** The target section: a given one (?6), the one this batch creates (slug ?7), or none. */
const TARGET_SECTION = "coalesce(?6, (SELECT ns.id FROM board_sections ns WHERE ns.board_id = ?2 AND ns.slug = ?7))";
/** A given target section must still be on the target board; else every statement matches nothing. */
const SECTION_GUARD = "(?6 IS NULL OR EXISTS (SELECT 1 FROM board_sections gs WHERE gs.id = ?6 AND gs.board_id = ?2))";
/** Source rows in feed order with the new front positions (the first selected pin first). */
const RANKED = `SELECT pin_id, saved_by, created_at,
                       ?5 - (count(*) OVER () - row_number() OVER (ORDER BY position, pin_id) + 1) AS new_position
                FROM board_pins WHERE board_id = ?1 AND ${selected("pin_id")}`;

/** 400 pin_ids unless every listed pin is on the source board (nothing changes then). */
export async function assertOnBoard(db: D1Database, boardId: number, selection: Selection): Promise<void> {
  if (selection.all || selection.ids.length === 0) return;
  const unique = [...new Set(selection.ids)];
  const row = await db
    .prepare("SELECT count(*) AS count FROM board_pins WHERE board_id = ?1 AND pin_id IN (SELECT value FROM json_each(?2))")
    .bind(boardId, JSON.stringify(unique))
    .first<{ count: number }>();
  if (Number(row?.count ?? 0) !== unique.length) throw badRequest([{ field: "pin_ids", reason: "boards:validation.notOnBoard" }]);
}

async function firstOnBoard(db: D1Database, boardId: number): Promise<number | null> {
  const row = await db.prepare("SELECT min(position) AS first FROM board_pins WHERE board_id = ?1").bind(boardId).first<{ first: number | null }>();
  return row?.first ?? null;
}

export interface MoveTarget {
  boardId: number;
  sectionId: number | null;
  /** A section this batch creates (bulkCreateSection): its slug, and its statements to run first. */
  newSection?: { slug: string; statements: D1PreparedStatement[] };
  /** Other statements of the same change (a pin's edited fields, a client request's claim), run first in the same batch. */
  before?: D1PreparedStatement[];
}

/**
 * Moves the selected pins of `sourceId` to the front of the target board (or of a section),
 * keeping their order (spec 001 §4: moving removes them from the source feed and puts them at
 * the front of the target; move-all leaves only the excluded pins). A pin already on the
 * target keeps one save there. Pins born on the source board move home with it, unless that
 * would make someone else's private pin public. Returns how many pins moved.
 */
export async function movePins(db: D1Database, viewerId: number, sourceId: number, selection: Selection, target: MoveTarget, now = Date.now()): Promise<number> {
  const front = firstPosition(await firstOnBoard(db, target.boardId));
  const params = [sourceId, target.boardId, selection.all ? 1 : 0, JSON.stringify([...new Set(selection.ids)]), front, target.sectionId, target.newSection?.slug ?? null, viewerId, now];
  const same = sourceId === target.boardId;
  const moveStatement = same
    ? `UPDATE board_pins SET section_id = ${TARGET_SECTION}, position = r.new_position
       FROM (${RANKED}) r
       WHERE board_pins.board_id = ?1 AND board_pins.pin_id = r.pin_id AND ${SECTION_GUARD}`
    : `INSERT INTO board_pins (board_id, pin_id, section_id, saved_by, position, created_at)
       SELECT ?2, r.pin_id, ${TARGET_SECTION}, r.saved_by, r.new_position, r.created_at FROM (${RANKED}) r WHERE ${SECTION_GUARD}
       ON CONFLICT (board_id, pin_id) DO UPDATE SET section_id = excluded.section_id, position = excluded.position`;
  const first = [...(target.before ?? []), ...(target.newSection?.statements ?? [])];
  const statements = [
    ...first,
    prepared(db, moveStatement, params),
    // A pin's home board decides who may see it: a move makes it public only when its own
    // pinner moves it; anyone else's pin born on a private board keeps that home (as a copy would).
    prepared(db, `UPDATE pins SET board_id = ?2, section_id = ${TARGET_SECTION}, updated_at = ?9 WHERE board_id = ?1 AND ${selected("id")} AND ${SECTION_GUARD}
                  AND EXISTS (SELECT 1 FROM board_pins mbp WHERE mbp.board_id = ?2 AND mbp.pin_id = pins.id)
                  AND (pins.pinner_id = ?8 OR NOT EXISTS (SELECT 1 FROM boards tb JOIN boards sb ON sb.id = ?1
                       WHERE tb.id = ?2 AND ${STRANGER_VISIBLE_BOARD("tb")} AND NOT (${STRANGER_VISIBLE_BOARD("sb")})))`, params),
    ...(same ? [] : [prepared(db, `DELETE FROM board_pins WHERE board_id = ?1 AND ${selected("pin_id")} AND ${SECTION_GUARD}`, params)]),
    prepared(db, `UPDATE pins SET save_count = (SELECT count(*) FROM board_pins sbp JOIN boards sb ON sb.id = sbp.board_id WHERE sbp.pin_id = pins.id AND ${STRANGER_VISIBLE_BOARD("sb")})
                  WHERE id IN (SELECT pin_id FROM board_pins WHERE board_id = ?2 AND ${selected("pin_id")})`, params),
    clearStaleCovers(db, [sourceId]),
    ...recountBoards(db, [sourceId, target.boardId]),
  ];
  const results = await db.batch(statements);
  return results[first.length]?.meta.changes ?? 0;
}

/**
 * Copies the selected pins the viewer may see on the source board to the front of the target
 * (pins already there are left as they are). Returns how many were copied.
 */
export async function copyPins(db: D1Database, viewerId: number, sourceId: number, selection: Selection, target: MoveTarget, now = Date.now()): Promise<number> {
  const front = firstPosition(await firstOnBoard(db, target.boardId));
  const params = [sourceId, target.boardId, selection.all ? 1 : 0, JSON.stringify([...new Set(selection.ids)]), front, target.sectionId, null, viewerId, now];
  const first = target.before ?? [];
  const results = await db.batch([
    ...first,
    prepared(
      db,
      `INSERT INTO board_pins (board_id, pin_id, section_id, saved_by, position, created_at)
       SELECT ?2, r.pin_id, ?6, ?8, r.new_position, ?9 FROM (${RANKED}
         AND pin_id IN (SELECT cp.id FROM pins cp LEFT JOIN boards cpb ON cpb.id = cp.board_id JOIN users cpu ON cpu.id = cp.pinner_id
                        WHERE cp.id = board_pins.pin_id AND ${visibleSql("gridPin", { pin: "cp", board: "cpb", pinner: "cpu" }, "?8")})) r
       WHERE ${SECTION_GUARD}
       ON CONFLICT (board_id, pin_id) DO NOTHING`,
      params,
    ),
    prepared(
      db,
      `INSERT INTO recent_boards (user_id, board_id, saved_at) SELECT ?8, ?2, ?9 WHERE ${SECTION_GUARD}
       ON CONFLICT (user_id, board_id) DO UPDATE SET saved_at = excluded.saved_at`,
      params,
    ),
    prepared(db, `UPDATE pins SET save_count = (SELECT count(*) FROM board_pins sbp JOIN boards sb ON sb.id = sbp.board_id WHERE sbp.pin_id = pins.id AND ${STRANGER_VISIBLE_BOARD("sb")})
                  WHERE id IN (SELECT pin_id FROM board_pins WHERE board_id = ?2 AND ${selected("pin_id")})`, params),
    ...recountBoards(db, [target.boardId]),
    // Each pinner whose pins were copied hears of it once, in this batch.
    ...boardCopyNews(db, viewerId, target.boardId, now),
  ]);
  return results[first.length]?.meta.changes ?? 0;
}

/** Takes the selected pins off a board (the pins themselves stay). Returns how many. `also` joins the batch. */
export async function removePins(db: D1Database, boardId: number, selection: Selection, also: readonly D1PreparedStatement[] = []): Promise<number> {
  const params = [boardId, boardId, selection.all ? 1 : 0, JSON.stringify([...new Set(selection.ids)])];
  const results = await db.batch([
    // Their save counts without this board, counted while the rows still say which pins.
    prepared(db, `UPDATE pins SET save_count = (SELECT count(*) FROM board_pins sbp JOIN boards sb ON sb.id = sbp.board_id
                                                WHERE sbp.pin_id = pins.id AND sbp.board_id != ?1 AND ${STRANGER_VISIBLE_BOARD("sb")})
                  WHERE id IN (SELECT pin_id FROM board_pins WHERE board_id = ?1 AND ${selected("pin_id")})`, params),
    prepared(db, `DELETE FROM board_pins WHERE board_id = ?1 AND ${selected("pin_id")}`, params),
    clearStaleCovers(db, [boardId]),
    ...recountBoards(db, [boardId]),
    ...also,
  ]);
  return results[1]?.meta.changes ?? 0;
}

/** Bound on the boards one pin deletion reads for its recounts. */
const MAX_PIN_BOARDS = 1000;

/**
 * Deletes a pin (its pinner's call): it leaves every feed (every save and quick-save goes), its
 * page answers 410, and every board it was on is recounted, in one batch. Returns those boards.
 */
export async function deletePin(db: D1Database, pinId: number, pinnerId: number, now = Date.now()): Promise<number[]> {
  const { results } = await db.prepare("SELECT board_id FROM board_pins WHERE pin_id = ?1 LIMIT ?2").bind(pinId, MAX_PIN_BOARDS).all<{ board_id: number }>();
  const boardIds = results.map((row) => row.board_id);
  await db.batch([
    db.prepare("UPDATE pins SET is_deleted = 1, save_count = 0, updated_at = ?3 WHERE id = ?1 AND pinner_id = ?2").bind(pinId, pinnerId, now),
    ...recountBoardsWithoutPin(db, pinId),
    db.prepare("DELETE FROM board_pins WHERE pin_id = ?1 AND EXISTS (SELECT 1 FROM pins WHERE id = ?1 AND is_deleted = 1)").bind(pinId),
    db.prepare("DELETE FROM profile_saves WHERE pin_id = ?1 AND EXISTS (SELECT 1 FROM pins WHERE id = ?1 AND is_deleted = 1)").bind(pinId),
    clearStaleCovers(db, boardIds),
    ...recountBoards(db, boardIds),
    recountUserPins(db, [pinnerId]),
  ]);
  return boardIds;
}
