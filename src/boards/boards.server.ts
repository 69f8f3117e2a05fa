// Board reads from D1. A board page costs one round trip: its statements go in one batch, and
// each repeats the visibility conditions (board.ts, user.ts) so a secret board's name,
// sections and pins never leave D1 for a viewer who may not see them. What comes back is
// checked again with the pure rules.
import { GRID_CELL_COLUMNS, GRID_IMAGE_JOINS, coverImageOf, coverImageSql, gridPin, type CoverImage, type GridCellRow, type GridPin } from "~/pins/pins.server.ts";
import { displayName, userImageUrl } from "~/users/user.ts";
import { encodeKeyset, keysetPageOf, type Keyset, type KeysetPage } from "~/feeds/cursor.ts";
import { holds } from "~/visibility/rules.ts";
import { factColumns, holdsFor, visibleSql, type Aliases } from "~/visibility/visibility.server.ts";
import type { BoardPrivacy } from "./board.ts";
import type { BoardTableRow } from "./board-row.ts";

export const BOARD_PAGE_SIZE = 50;

/** The pin `p` of a grid, its own board `pb` and its pinner `pu`, as GRID_PIN_JOINS names them. */
export const GRID_PIN_ALIASES: Aliases = { pin: "p", board: "pb", pinner: "pu" };

/**
 * A grid cell and the columns the gridPin rule re-checks, for a query naming pins `p` and
 * joining GRID_PIN_JOINS; `viewer` is the viewer-id parameter.
 */
export function gridPinColumns(viewer: string): string {
  return `${GRID_CELL_COLUMNS}, ${factColumns("gridPin", GRID_PIN_ALIASES, viewer)}`;
}
/** The gridPin rule for GRID_PIN_JOINS' pins. */
export const gridPinSql = (viewer: string) => visibleSql("gridPin", GRID_PIN_ALIASES, viewer);
/** Joins for gridPinColumns, after a FROM that names pins `p`. */
export const GRID_PIN_JOINS = `LEFT JOIN boards pb ON pb.id = p.board_id
       JOIN users pu ON pu.id = p.pinner_id
       ${GRID_IMAGE_JOINS}`;

/** A grid row with the visibility facts gridPinColumns selects. */
export type GridPinRow = GridCellRow & Record<string, unknown>;

/** Whether the viewer may see a grid row (the SQL filtered already; this re-checks). */
export const gridRowVisible = (row: GridPinRow, viewerId: number | null) => holdsFor("gridPin", row, viewerId);

/** A board's pins in board order (position, then pin id), after a keyset cursor. */
export interface BoardPinRow extends GridPinRow {
  position: number;
}

/**
 * The board feed's SQL after a `target` CTE naming the board: the pins the viewer may see,
 * by board_pins.position, keyset-paged; with `section` (the SQL of a section slug), that
 * section's pins only. Parameters are named by the caller.
 */
export function boardPinsSql(p: { viewer: string; key: string; id: string; limit: string; section?: string }): string {
  const inSection = p.section === undefined ? "" : `JOIN board_sections s ON s.board_id = t.id AND s.slug = ${p.section}`;
  return `SELECT ${gridPinColumns(p.viewer)}, bp.position
         FROM target t
         ${inSection}
         JOIN board_pins bp ON bp.board_id = t.id${p.section === undefined ? "" : " AND bp.section_id = s.id"}
         JOIN pins p ON p.id = bp.pin_id
         ${GRID_PIN_JOINS}
         WHERE ${gridPinSql(p.viewer)}
           AND (${p.key} IS NULL OR bp.position > ${p.key} OR (bp.position = ${p.key} AND bp.pin_id > ${p.id}))
         ORDER BY bp.position, bp.pin_id
         LIMIT ${p.limit}`;
}

export function boardPinsPage(rows: BoardPinRow[], size: number, viewerId: number | null): KeysetPage<GridPin> {
  return keysetPageOf(rows, size, (row) => encodeKeyset(row.position, row.id), gridPin, (row) => gridRowVisible(row, viewerId));
}

const BOARD_PAGE_ALIASES: Aliases = { board: "b", owner: "u" };

/** The board the viewer may see, as a CTE named `target`; `where` picks it (aliases u, b). */
export function boardTargetSql(where: string, viewer: string): string {
  return `WITH target AS (
       SELECT b.id, ${factColumns("boardPage", BOARD_PAGE_ALIASES, viewer)}
       FROM users u JOIN boards b ON b.owner_id = u.id
       WHERE ${where} AND ${visibleSql("boardPage", BOARD_PAGE_ALIASES, viewer)})`;
}

/**
 * One page of a board's feed (BoardFeedResource), or null when the board does not exist or
 * the viewer may not see it: visibility is checked again on every page, so a bookmark never
 * opens a board its holder may not see.
 */
export async function listBoardPins(
  db: D1Database,
  boardId: number,
  cursor: Keyset | null,
  size: number,
  viewerId: number | null,
): Promise<KeysetPage<GridPin> | null> {
  const target = boardTargetSql("b.id = ?1", "?2");
  const [boardResult, pinResult] = await db.batch([
    db.prepare(`${target} SELECT * FROM target`).bind(boardId, viewerId),
    db.prepare(`${target} ${boardPinsSql({ viewer: "?2", key: "?3", id: "?4", limit: "?5" })}`).bind(boardId, viewerId, cursor?.key ?? null, cursor?.id ?? null, size + 1),
  ]);
  const board = (boardResult?.results as Array<Record<string, unknown>> | undefined)?.[0];
  if (!board || !holdsFor("boardPage", board, viewerId)) return null;
  return boardPinsPage((pinResult?.results ?? []) as BoardPinRow[], size, viewerId);
}

interface BoardOwner {
  id: string;
  username: string;
  name: string;
  url: string;
  imageMediumUrl: string | null;
}

interface BoardSection {
  id: string;
  title: string;
  slug: string;
  /** Pins in the section the viewer may see. */
  pinCount: number;
}

export interface BoardPage {
  id: string;
  name: string;
  slug: string;
  description: string;
  url: string;
  privacy: BoardPrivacy;
  isArchived: boolean;
  /** Anyone may see the board itself (public and not archived): the board rule for no viewer. */
  isPublic: boolean;
  /** Pins on the board the viewer may see, not boards.pin_count (which counts every row). */
  pinCount: number;
  owner: BoardOwner;
  sections: BoardSection[];
  /** The first BOARD_PAGE_SIZE pins by board_pins.position. */
  pins: GridPin[];
  /** The cursor of the next page of pins; null at the end. */
  pinsCursor: string | null;
  /** The share image: the first pin in board order the viewer may see. */
  cover: CoverImage | null;
}

/** A board row joined with its owner; pin_count counts only the pins the viewer may see. */
interface BoardRow extends Pick<BoardTableRow, "id" | "owner_id" | "name" | "slug" | "description" | "privacy" | "archived_at" | "pin_count"> {
  username: string;
  full_name: string;
  image_key: string | null;
}

/** A subquery counting the board_pins rows matching `where` (alias `cbp`) that the viewer may see: the grid's rule. */
export function listedPinCountSql(viewer: string, where: string): string {
  return `(SELECT count(*) FROM board_pins cbp
           JOIN pins cp ON cp.id = cbp.pin_id
           LEFT JOIN boards cpb ON cpb.id = cp.board_id
           JOIN users cpu ON cpu.id = cp.pinner_id
           WHERE ${where} AND ${visibleSql("gridPin", { pin: "cp", board: "cpb", pinner: "cpu" }, viewer)})`;
}

/**
 * One board by its owner's username and its slug, or null when it does not exist or the viewer
 * may not see it (or its owner's profile): the caller answers both the same way. Its pins
 * start after `cursor` (the crawlable next-page link) or at the top.
 */
export async function getBoardPage(
  db: D1Database,
  username: string,
  slug: string,
  viewerId: number | null,
  cursor: Keyset | null = null,
): Promise<BoardPage | null> {
  // ?1 username, ?2 slug, ?3 viewer id (NULL when signed out).
  const target = boardTargetSql("u.username = ?1 AND b.slug = ?2", "?3");
  const [boardResult, sectionResult, pinResult, coverResult] = await db.batch([
    db
      .prepare(
        `${target}
         SELECT t.*, b.owner_id, b.name, b.slug, b.description, b.privacy, b.archived_at,
                u.username, u.full_name, u.image_key,
                ${listedPinCountSql("?3", "cbp.board_id = b.id")} AS pin_count
         FROM target t JOIN boards b ON b.id = t.id JOIN users u ON u.id = b.owner_id`,
      )
      .bind(username, slug, viewerId),
    db
      .prepare(
        `${target}
         SELECT s.id, s.title, s.slug, ${listedPinCountSql("?3", "cbp.board_id = s.board_id AND cbp.section_id = s.id")} AS pin_count
         FROM target t JOIN board_sections s ON s.board_id = t.id
         ORDER BY s.position, s.id`,
      )
      .bind(username, slug, viewerId),
    db.prepare(`${target} ${boardPinsSql({ viewer: "?3", key: "?4", id: "?5", limit: "?6" })}`).bind(username, slug, viewerId, cursor?.key ?? null, cursor?.id ?? null, BOARD_PAGE_SIZE + 1),
    db.prepare(`${target} ${coverImageSql(boardPinsSql({ viewer: "?3", key: "NULL", id: "NULL", limit: "1" }))}`).bind(username, slug, viewerId),
  ]);
  const row = (boardResult?.results as Array<BoardRow & Record<string, unknown>> | undefined)?.[0];
  if (!row || !holdsFor("boardPage", row, viewerId)) return null;

  const ownerUrl = `/${row.username}/`;
  const pinsPage = boardPinsPage((pinResult?.results ?? []) as BoardPinRow[], BOARD_PAGE_SIZE, viewerId);
  return {
    id: String(row.id),
    name: row.name,
    slug: row.slug,
    description: row.description,
    url: `${ownerUrl}${row.slug}/`,
    privacy: row.privacy,
    isArchived: row.archived_at !== null,
    isPublic: holds("board", { rows: { board: row } }, null),
    pinCount: row.pin_count,
    owner: {
      id: String(row.owner_id),
      username: row.username,
      name: displayName(row),
      url: ownerUrl,
      imageMediumUrl: userImageUrl(row.image_key, "medium"),
    },
    sections: ((sectionResult?.results ?? []) as Array<{ id: number; title: string; slug: string; pin_count: number }>).map((section) => ({
      id: String(section.id),
      title: section.title,
      slug: section.slug,
      pinCount: section.pin_count,
    })),
    pins: pinsPage.items,
    pinsCursor: pinsPage.endCursor,
    cover: coverImageOf(coverResult),
  };
}
