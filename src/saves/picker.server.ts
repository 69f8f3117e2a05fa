// The board picker's read (BoardPickerResource get): the viewer's recent boards, the boards
// they may save to (name-filtered), those boards' sections, and where the pin is already
// saved by them. Only boards the viewer owns or collaborates on (accepted) and that are not
// archived are offered; every list is bounded.
import { boardsFromResult, boardsJsonStatement, sectionsFromResult, sectionsStatement, type BoardJson, type SectionJson } from "~/boards/board-json.server.ts";
import { visibleSql } from "~/visibility/visibility.server.ts";
import type { SavedInfo } from "./saves.server.ts";

const RECENT_BOARDS = 5;

/** The viewer may save to it: theirs or accepted collaboration, and not archived. */
const WRITABLE = (board: string, viewer: string) => `${board}.archived_at IS NULL AND ${visibleSql("boardPeople", { board }, viewer)}`;

export interface PickerAnswer {
  recent: BoardJson[];
  boards: BoardJson[];
  sections: Record<string, SectionJson[]>;
  saved: SavedInfo[];
}

/**
 * `filter` matches anywhere in board names, case-insensitively (SQLite's lower() folds ASCII
 * letters; other scripts match as typed). instr, not LIKE: D1 refuses LIKE patterns over 50 bytes.
 */
export async function pickerData(db: D1Database, viewerId: number, username: string, pinId: number | null, filter: string | null, pageSize: number): Promise<PickerAnswer> {

  const [recentResult, boardResult, savedResult, profileResult] = await db.batch([
    db
      .prepare(
        `SELECT rb.board_id AS id FROM recent_boards rb JOIN boards b ON b.id = rb.board_id
         WHERE rb.user_id = ?1 AND ${WRITABLE("b", "?1")} ORDER BY rb.saved_at DESC, rb.board_id DESC LIMIT ?2`,
      )
      .bind(viewerId, RECENT_BOARDS),
    db
      .prepare(
        `SELECT b.id FROM boards b WHERE ${WRITABLE("b", "?1")} AND (?2 IS NULL OR instr(lower(b.name), lower(?2)) > 0)
         ORDER BY b.name COLLATE NOCASE, b.id LIMIT ?3`,
      )
      .bind(viewerId, filter, pageSize),
    db
      .prepare(
        `SELECT bp.board_id, bp.section_id, b.name, b.slug, u.username FROM board_pins bp
         JOIN boards b ON b.id = bp.board_id JOIN users u ON u.id = b.owner_id
         WHERE bp.pin_id = ?2 AND bp.saved_by = ?1 AND ${visibleSql("board", { board: "b" }, "?1")}
         ORDER BY bp.created_at DESC LIMIT 50`,
      )
      .bind(viewerId, pinId),
    db.prepare("SELECT 1 AS saved FROM profile_saves WHERE user_id = ?1 AND pin_id = ?2").bind(viewerId, pinId),
  ]);
  const ids = (result: D1Result | undefined) => ((result?.results ?? []) as Array<{ id: number }>).map((row) => row.id);
  const recentIds = ids(recentResult);
  const boardIds = ids(boardResult);
  const all = [...new Set([...recentIds, ...boardIds])];
  const saved: SavedInfo[] = ((savedResult?.results ?? []) as Array<{ board_id: number; section_id: number | null; name: string; slug: string; username: string }>).map((row) => ({
    boardId: String(row.board_id),
    sectionId: row.section_id === null ? null : String(row.section_id),
    title: row.name,
    type: "board",
    url: `/${row.username}/${row.slug}/`,
    localPinId: String(pinId),
  }));
  if (pinId !== null && (profileResult?.results?.length ?? 0) > 0) saved.push(profileSavedInfo(username, pinId));
  if (all.length === 0) return { recent: [], boards: [], sections: {}, saved };
  const [boardsResult, sectionsResult] = await db.batch([boardsJsonStatement(db, all, viewerId), sectionsStatement(db, all, viewerId)]);
  const boards = boardsFromResult(boardsResult, all, viewerId);
  const byId = new Map(boards.map((board) => [board.id, board]));
  const sections: Record<string, SectionJson[]> = {};
  for (const section of sectionsFromResult(sectionsResult)) (sections[section.board_id] ??= []).push(section);
  const pick = (list: number[]) => list.flatMap((id) => byId.get(String(id)) ?? []);
  return { recent: pick(recentIds), boards: pick(boardIds), sections, saved };
}

/** savedInfo of a quick-save to the profile (no board). */
export function profileSavedInfo(username: string, pinId: number): SavedInfo {
  return { boardId: null, sectionId: null, title: username, type: "profile", url: `/${username}/`, localPinId: String(pinId) };
}
