// The Board and Section answers of the saving API: what one viewer may
// know of a board. Counts are the stored counters for the board's people (owner and accepted
// collaborators) and the grid's own count (the gridPin rule) for anyone else, so a pin first
// pinned to a secret board is never counted for a stranger; the caller has already checked
// that the viewer may see the board, and the SQL checks it again (the board rule).
import { userImageUrl } from "~/users/user.ts";
import { visibleSql } from "~/visibility/visibility.server.ts";
import { listedPinCountSql } from "./boards.server.ts";
import type { BoardJson, SectionJson } from "./board-json.ts";
import type { BoardTableRow } from "./board-row.ts";
import { parseAccess, type BoardAccess } from "./policy.ts";

export type { BoardJson, SectionJson } from "./board-json.ts";

/** The board's own columns (board-row.ts) and what the statement below adds to them. */
interface BoardJsonRow
  extends Pick<
    BoardTableRow,
    "id" | "owner_id" | "name" | "slug" | "description" | "privacy" | "layout" | "is_collaborative" | "section_count" | "collaborator_count" | "follower_count" | "archived_at" | "created_at"
  > {
  visible_pin_count: number;
  visible_sectionless_count: number;
  pending_owner_id: number | null;
  pending_username: string | null;
  username: string;
  full_name: string;
  image_key: string | null;
  my_access: string | null;
  followed_by_me: number;
  join_requested: number;
  cover_id: number | null;
  cover_url: string | null;
}

/** A subquery counting the board's pins matching `extra` that the viewer (`viewer`) may see in the grid. */
const listedCount = (board: string, viewer: string, extra = "") => listedPinCountSql(viewer, `cbp.board_id = ${board} ${extra}`);

/** True (in SQL) when the viewer is the board's owner or an accepted collaborator: they see the stored counters. */
const isPeople = (board: string, viewer: string) => visibleSql("boardPeople", { board }, viewer);

/**
 * Boards by id for a viewer (?1 the ids as a JSON array, ?2 the viewer id or NULL), boards the
 * viewer may not see left out. Order follows the ids.
 */
export function boardsJsonStatement(db: D1Database, boardIds: readonly number[], viewerId: number | null): D1PreparedStatement {
  return db
    .prepare(
      `WITH picked AS (
         SELECT b.*, ${isPeople("b", "?2")} AS people,
                (SELECT bc.access FROM board_collaborators bc WHERE bc.board_id = b.id AND bc.user_id = ?2 AND bc.status = 'accepted') AS my_access
         FROM boards b WHERE b.id IN (SELECT value FROM json_each(?1)) AND ${visibleSql("board", { board: "b" }, "?2")}),
       counted AS (
         SELECT p.*,
                CASE WHEN p.people THEN p.pin_count ELSE ${listedCount("p.id", "?2")} END AS visible_pin_count,
                CASE WHEN p.people THEN p.sectionless_pin_count ELSE ${listedCount("p.id", "?2", "AND cbp.section_id IS NULL")} END AS visible_sectionless_count,
                (SELECT cp.id FROM board_pins cbp JOIN pins cp ON cp.id = cbp.pin_id LEFT JOIN boards cpb ON cpb.id = cp.board_id
                 JOIN users cpu ON cpu.id = cp.pinner_id
                 WHERE cbp.board_id = p.id AND ${visibleSql("gridPin", { pin: "cp", board: "cpb", pinner: "cpu" }, "?2")}
                 ORDER BY (cp.id IS p.cover_pin_id) DESC, cbp.position, cbp.pin_id LIMIT 1) AS cover_id
         FROM picked p)
       SELECT c.id, c.owner_id, c.name, c.slug, c.description, c.privacy, c.layout, c.is_collaborative,
              c.visible_pin_count, c.visible_sectionless_count, c.section_count, c.collaborator_count, c.follower_count,
              c.archived_at, c.created_at, c.pending_owner_id, po.username AS pending_username,
              u.username, u.full_name, u.image_key, c.my_access,
              EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = ?2
                      AND ((f.target_type = 'board' AND f.target_id = c.id) OR (f.target_type = 'user' AND f.target_id = c.owner_id))) AS followed_by_me,
              EXISTS (SELECT 1 FROM board_collaborators bc WHERE bc.board_id = c.id AND bc.user_id = ?2 AND bc.type = 'request' AND bc.status = 'new') AS join_requested,
              c.cover_id, i.url AS cover_url
       FROM counted c
       JOIN users u ON u.id = c.owner_id
       LEFT JOIN users po ON po.id = c.pending_owner_id
       LEFT JOIN pin_images i ON i.pin_id = c.cover_id AND i.size = '236x'`,
    )
    .bind(JSON.stringify(boardIds), viewerId);
}

function boardJsonOf(row: BoardJsonRow, viewerId: number | null): BoardJson {
  const isOwner = viewerId !== null && row.owner_id === viewerId;
  const access: BoardAccess[] = isOwner ? ["write", "delete"] : parseAccess(row.my_access);
  return {
    id: String(row.id),
    name: row.name,
    slug: row.slug,
    url: `/${row.username}/${row.slug}/`,
    description: row.description,
    privacy: row.privacy,
    layout: row.layout,
    pin_count: row.visible_pin_count,
    sectionless_pin_count: row.visible_sectionless_count,
    section_count: row.section_count,
    collaborator_count: row.collaborator_count,
    follower_count: row.follower_count,
    cover_pin: row.cover_id !== null && row.cover_url !== null ? { id: String(row.cover_id), image_url: row.cover_url } : null,
    owner: { id: String(row.owner_id), username: row.username, full_name: row.full_name, image_medium_url: userImageUrl(row.image_key, "medium") },
    is_collaborative: row.is_collaborative === 1,
    collaborated_by_me: row.my_access !== null,
    access,
    followed_by_me: row.followed_by_me === 1,
    archived_by_me_at: isOwner ? row.archived_at : null,
    pending_ownership_transfer:
      isOwner && row.pending_owner_id !== null && row.pending_username !== null ? { user_id: String(row.pending_owner_id), username: row.pending_username } : null,
    viewer_collaborator_join_requested: row.join_requested === 1,
    created_at: row.created_at,
  };
}

/** The rows of boardsJsonStatement as answers, in the order of `boardIds`. */
export function boardsFromResult(result: D1Result | undefined, boardIds: readonly number[], viewerId: number | null): BoardJson[] {
  const byId = new Map(((result?.results ?? []) as BoardJsonRow[]).map((row) => [row.id, boardJsonOf(row, viewerId)]));
  return boardIds.flatMap((id) => {
    const board = byId.get(id);
    return board ? [board] : [];
  });
}

async function loadBoards(db: D1Database, boardIds: readonly number[], viewerId: number | null): Promise<BoardJson[]> {
  if (boardIds.length === 0) return [];
  const result = await boardsJsonStatement(db, boardIds, viewerId).all();
  return boardsFromResult(result, boardIds, viewerId);
}

/** One board's answer, or null when it is gone or hidden from the viewer. */
export async function loadBoard(db: D1Database, boardId: number, viewerId: number | null): Promise<BoardJson | null> {
  return (await loadBoards(db, [boardId], viewerId))[0] ?? null;
}

interface SectionRow {
  id: number;
  board_id: number;
  title: string;
  slug: string;
  visible_pin_count: number;
  position: number;
}

/** Sections of the given boards in their order (?1 board ids JSON, ?2 viewer), each with the count the viewer may see. */
export function sectionsStatement(db: D1Database, boardIds: readonly number[], viewerId: number | null, sectionId: number | null = null): D1PreparedStatement {
  return db
    .prepare(
      `SELECT s.id, s.board_id, s.title, s.slug, s.position,
              CASE WHEN ${isPeople("b", "?2")} THEN s.pin_count ELSE ${listedCount("s.board_id", "?2", "AND cbp.section_id = s.id")} END AS visible_pin_count
       FROM board_sections s JOIN boards b ON b.id = s.board_id
       WHERE s.board_id IN (SELECT value FROM json_each(?1)) AND (?3 IS NULL OR s.id = ?3) AND ${visibleSql("board", { board: "b" }, "?2")}
       ORDER BY s.board_id, s.position, s.id`,
    )
    .bind(JSON.stringify(boardIds), viewerId, sectionId);
}

function sectionJsonOf(row: SectionRow): SectionJson {
  return { id: String(row.id), board_id: String(row.board_id), title: row.title, slug: row.slug, pin_count: row.visible_pin_count, position: row.position };
}

export function sectionsFromResult(result: D1Result | undefined): SectionJson[] {
  return ((result?.results ?? []) as SectionRow[]).map(sectionJsonOf);
}

export async function loadSections(db: D1Database, boardIds: readonly number[], viewerId: number | null): Promise<SectionJson[]> {
  if (boardIds.length === 0) return [];
  return sectionsFromResult(await sectionsStatement(db, boardIds, viewerId).all());
}

export async function loadSection(db: D1Database, boardId: number, sectionId: number, viewerId: number | null): Promise<SectionJson | null> {
  return sectionsFromResult(await sectionsStatement(db, [boardId], viewerId, sectionId).all())[0] ?? null;
}
