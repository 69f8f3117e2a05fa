// A board section's page (spec 001 §2 "section pins"): /{username}/{board}/{section}/. One
// round trip: the board and section, the first page of its pins and its share image go in one
// batch, each behind the board page's own visibility target, so a section of a board the viewer
// may not see is read exactly as a section that does not exist.
import { coverImageOf, coverImageSql, type CoverImage, type GridPin } from "~/pins/pins.server.ts";
import { displayName, userImageUrl } from "~/users/user.ts";
import type { Keyset } from "~/feeds/cursor.ts";
import { holds } from "~/visibility/rules.ts";
import { holdsFor } from "~/visibility/visibility.server.ts";
import { BOARD_PAGE_SIZE, boardPinsPage, boardPinsSql, boardTargetSql, listedPinCountSql, type BoardPinRow } from "./boards.server.ts";

interface SectionPage {
  id: string;
  title: string;
  url: string;
  /** Pins in the section the viewer may see. */
  pinCount: number;
  board: {
    id: string;
    name: string;
    url: string;
    /** Anyone may see the board (public and not archived): the board rule for no viewer. */
    isPublic: boolean;
  };
  owner: { id: string; name: string; url: string; imageMediumUrl: string | null };
  pins: GridPin[];
  pinsCursor: string | null;
  cover: CoverImage | null;
}

interface SectionRow extends Record<string, unknown> {
  section_id: number;
  section_title: string;
  section_slug: string;
  section_pin_count: number;
  id: number;
  owner_id: number;
  name: string;
  slug: string;
  privacy: string;
  archived_at: number | null;
  username: string;
  full_name: string;
  image_key: string | null;
}

/**
 * One section by its owner's username, board slug and section slug, or null when any of them
 * does not exist or the viewer may not see the board (or its owner's profile): the caller
 * answers all of these the same way.
 */
export async function getSectionPage(
  db: D1Database,
  username: string,
  boardSlug: string,
  sectionSlug: string,
  viewerId: number | null,
  cursor: Keyset | null = null,
): Promise<SectionPage | null> {
  // ?1 username, ?2 board slug, ?3 viewer id (NULL signed out), ?4 section slug.
  const target = boardTargetSql("u.username = ?1 AND b.slug = ?2", "?3");
  const [sectionResult, pinResult, coverResult] = await db.batch([
    db
      .prepare(
        `${target}
         SELECT t.*, b.owner_id, b.name, b.slug, b.privacy, b.archived_at, u.username, u.full_name, u.image_key,
                s.id AS section_id, s.title AS section_title, s.slug AS section_slug,
                ${listedPinCountSql("?3", "cbp.board_id = s.board_id AND cbp.section_id = s.id")} AS section_pin_count
         FROM target t JOIN boards b ON b.id = t.id JOIN users u ON u.id = b.owner_id
         JOIN board_sections s ON s.board_id = b.id AND s.slug = ?4`,
      )
      .bind(username, boardSlug, viewerId, sectionSlug),
    db
      .prepare(`${target} ${boardPinsSql({ viewer: "?3", section: "?4", key: "?5", id: "?6", limit: "?7" })}`)
      .bind(username, boardSlug, viewerId, sectionSlug, cursor?.key ?? null, cursor?.id ?? null, BOARD_PAGE_SIZE + 1),
    db
      .prepare(`${target} ${coverImageSql(boardPinsSql({ viewer: "?3", section: "?4", key: "NULL", id: "NULL", limit: "1" }))}`)
      .bind(username, boardSlug, viewerId, sectionSlug),
  ]);
  const row = (sectionResult?.results as SectionRow[] | undefined)?.[0];
  // The SQL chose only a board the viewer may see; the pure rule checks the row again.
  if (!row || !holdsFor("boardPage", row, viewerId)) return null;
  const ownerUrl = `/${row.username}/`;
  const boardUrl = `${ownerUrl}${row.slug}/`;
  const page = boardPinsPage((pinResult?.results ?? []) as BoardPinRow[], BOARD_PAGE_SIZE, viewerId);
  return {
    id: String(row.section_id),
    title: row.section_title,
    url: `${boardUrl}${row.section_slug}/`,
    pinCount: row.section_pin_count,
    board: { id: String(row.id), name: row.name, url: boardUrl, isPublic: holds("board", { rows: { board: row } }, null) },
    owner: { id: String(row.owner_id), name: displayName(row), url: ownerUrl, imageMediumUrl: userImageUrl(row.image_key, "medium") },
    pins: page.items,
    pinsCursor: page.endCursor,
    cover: coverImageOf(coverResult),
  };
}
