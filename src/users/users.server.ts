// Profile reads from D1. A profile page costs one round trip: its statements go in one batch,
// and each repeats the visibility conditions (src/visibility/) so nothing of a hidden profile,
// a secret board or a secret pin leaves D1. What comes back is checked again with the same
// rules' JS predicates.
import { USER_IMAGE_SIZES } from "~/media/media.ts";
import { coverImageOf, coverImageSql, gridPin, type CoverImage, type GridPin } from "~/pins/pins.server.ts";
import { GRID_PIN_ALIASES, GRID_PIN_JOINS, gridPinColumns, gridPinSql, gridRowVisible, type GridPinRow } from "~/boards/boards.server.ts";
import { encodeKeyset, keysetPageOf, type Keyset, type KeysetPage } from "~/feeds/cursor.ts";
import { DEFAULT_BOARD_SORT, type BoardSortOrder } from "~/profile/view-state.ts";
import { factColumns, holdsFor, visibleSql } from "~/visibility/visibility.server.ts";
import { displayName, userImageUrl } from "./user.ts";
import { PROFILE_HAS_PUBLIC_CONTENT } from "~/seo/sitemaps.server.ts";

export const PROFILE_PINS_PAGE_SIZE = 25;
export const PROFILE_BOARDS_PAGE_SIZE = 50;

interface ImageBox {
  url: string;
  width: number;
  height: number;
}

export interface BoardCard {
  id: string;
  name: string;
  slug: string;
  url: string;
  /** Pins on the board the viewer may see. */
  pinCount: number;
  /** The 236x image of the first pin the viewer may see, by board_pins.position. */
  cover: (ImageBox & { dominantColor: string }) | null;
}

/** The profile's pin feeds: the pins they created, the pins they saved to their boards, and their story pins (spec 001 "story pins feed"). */
export const PROFILE_PIN_FEEDS = ["created", "saved", "stories"] as const;
export type ProfilePinFeed = (typeof PROFILE_PIN_FEEDS)[number];

export interface ProfilePage {
  id: string;
  username: string;
  name: string;
  about: string;
  url: string;
  /** The large avatar (with its xlarge rendition for 2x screens). */
  avatar: (ImageBox & { url2x: string | null }) | null;
  /** Anyone signed out would see a board or pin here (the sitemap's rule): else the page is noindex. */
  hasPublicContent: boolean;
  /** A business account: a brand or shop, described as an organization rather than a person. */
  isBusiness: boolean;
  businessName: string | null;
  /** A verified merchant: the badge beside the name. */
  isVerifiedMerchant: boolean;
  /** Its storefront is open (an accepted member of the merchant program): the profile links to it. */
  hasShop: boolean;
  followerCount: number;
  followingCount: number;
  /** Boards the viewer may see, in `boardSort` order: the first page. */
  boards: KeysetPage<BoardCard>;
  boardSort: BoardSortOrder;
  /** How many boards the viewer may see in all. */
  boardCount: number;
  /** Pins this user created that the viewer may see, newest first: the first page. */
  created: KeysetPage<GridPin>;
  /** Pins this user saved to boards the viewer may see, last saved first: the first page. */
  saved: KeysetPage<GridPin>;
  /** The story pins this user created that the viewer may see, newest first: the first page. */
  stories: KeysetPage<GridPin>;
  /** The share image: the newest created pin the viewer may see, else the last saved one. */
  cover: CoverImage | null;
}

interface UserRow {
  id: number;
  username: string;
  full_name: string;
  about: string;
  image_key: string | null;
  follower_count: number;
  following_count: number;
  account_type: "personal" | "business";
  business_name: string | null;
  is_verified_merchant: number;
  has_shop: number;
  has_public_content: number;
}

interface BoardCardRow extends Record<string, unknown> {
  id: number;
  owner_id: number;
  name: string;
  slug: string;
  created_at: number;
  updated_at: number;
  pin_count: number;
  cover_url: string | null;
  cover_width: number | null;
  cover_height: number | null;
  cover_color: string | null;
}

interface KeyedPinRow extends GridPinRow {
  sort_key: number;
}

// Every profile statement binds ?1 username, ?2 viewer id (NULL signed out), ?3 and ?4 the
// cursor's key and id (NULL for the first page), ?5 the row limit (page size + 1).
const OWNER = `owner AS (SELECT u.id FROM users u WHERE u.username = ?1 AND ${visibleSql("profile", { user: "u" }, "?2")})`;
// Archived boards leave the profile's boards (spec 001 §4): their owner finds them in the
// archived list (BoardsFeedResource archived), and nobody else sees them at all.
const LISTED_BOARDS = `listed AS (
       SELECT b.id, b.owner_id, b.name, b.slug, b.created_at, b.updated_at, ${factColumns("profileBoard", { board: "b" }, "?2")}
       FROM owner o JOIN boards b ON b.owner_id = o.id
       WHERE ${visibleSql("profileBoard", { board: "b" }, "?2")})`;

/** Each sort order's key column, direction and comparison (keyset paging follows the order). */
const BOARD_ORDER: Record<BoardSortOrder, { key: string; descending: boolean; keyType: "number" | "string" }> = {
  last_saved: { key: "l.updated_at", descending: true, keyType: "number" },
  newest: { key: "l.created_at", descending: true, keyType: "number" },
  alphabetical: { key: "l.name COLLATE NOCASE", descending: false, keyType: "string" },
};

/** Whether a cursor was written for this sort order (a name for A to Z, a time otherwise). */
export function cursorFitsSort(cursor: Keyset, sort: BoardSortOrder): boolean {
  return typeof cursor.key === BOARD_ORDER[sort].keyType;
}

function boardKey(row: BoardCardRow, sort: BoardSortOrder): number | string {
  return sort === "alphabetical" ? row.name : sort === "newest" ? row.created_at : row.updated_at;
}

function boardsStatement(db: D1Database, username: string, viewerId: number | null, sort: BoardSortOrder, cursor: Keyset | null, size: number) {
  const order = BOARD_ORDER[sort];
  const after = order.descending ? "<" : ">";
  const direction = order.descending ? "DESC" : "ASC";
  // Each listed board with its visible pin count and the first visible pin (the cover),
  // numbered per board in one pass over its board_pins.
  return db
    .prepare(
      `WITH ${OWNER}, ${LISTED_BOARDS},
       visible AS (
         SELECT bp.board_id, bp.pin_id,
                row_number() OVER (PARTITION BY bp.board_id ORDER BY bp.position, bp.pin_id) AS rank,
                count(*) OVER (PARTITION BY bp.board_id) AS pin_count
         FROM listed l
         JOIN board_pins bp ON bp.board_id = l.id
         JOIN pins p ON p.id = bp.pin_id
         LEFT JOIN boards pb ON pb.id = p.board_id
         JOIN users pu ON pu.id = p.pinner_id
         WHERE ${visibleSql("gridPin", GRID_PIN_ALIASES, "?2")})
       SELECT l.*,
              coalesce(v.pin_count, 0) AS pin_count,
              i.url AS cover_url, i.width AS cover_width, i.height AS cover_height, i.dominant_color AS cover_color
       FROM listed l
       LEFT JOIN visible v ON v.board_id = l.id AND v.rank = 1
       LEFT JOIN pin_images i ON i.pin_id = v.pin_id AND i.size = '236x'
       WHERE ?3 IS NULL OR ${order.key} ${after} ?3 OR (${order.key} = ?3 AND l.id ${after} ?4)
       ORDER BY ${order.key} ${direction}, l.id ${direction}
       LIMIT ?5`,
    )
    .bind(username, viewerId, cursor?.key ?? null, cursor?.id ?? null, size + 1);
}

function boardsPage(rows: BoardCardRow[], ownerId: number, username: string, sort: BoardSortOrder, size: number, viewerId: number | null): KeysetPage<BoardCard> {
  return keysetPageOf(
    rows,
    size,
    (row) => encodeKeyset(boardKey(row, sort), row.id),
    (board): BoardCard => ({
      id: String(board.id),
      name: board.name,
      slug: board.slug,
      url: `/${username}/${board.slug}/`,
      pinCount: board.pin_count,
      cover:
        board.cover_url !== null && board.cover_width !== null && board.cover_height !== null
          ? { url: board.cover_url, width: board.cover_width, height: board.cover_height, dominantColor: board.cover_color ?? "#e9e9e9" }
          : null,
    }),
    (board) => board.owner_id === ownerId && holdsFor("profileBoard", board, viewerId),
  );
}

/**
 * Created: the user's own pins, newest first. Saved: pins they saved to their visible boards,
 * and (to themselves only: a quick-save is nobody else's business) their boardless quick-saves,
 * by last save.
 */
/** A profile feed's pins the viewer may see, newest first; binds ?1 username, ?2 viewer, ?3/?4 cursor. */
function pinsSql(feed: ProfilePinFeed, limit: string): string {
  const source =
    feed === "created" || feed === "stories"
      ? `SELECT p.id AS pin_id, p.created_at AS sort_key FROM owner o JOIN pins p ON p.pinner_id = o.id${feed === "stories" ? " AND p.kind = 'story'" : ""}`
      : `SELECT pin_id, max(saved_at) AS sort_key FROM (
           SELECT bp.pin_id, bp.created_at AS saved_at
           FROM owner o JOIN boards b ON b.owner_id = o.id JOIN board_pins bp ON bp.board_id = b.id AND bp.saved_by = o.id
           WHERE ${visibleSql("board", { board: "b" }, "?2")}
           UNION ALL
           SELECT ps.pin_id, ps.created_at FROM owner o JOIN profile_saves ps ON ps.user_id = o.id WHERE o.id = ?2)
         GROUP BY pin_id`;
  return `WITH ${OWNER}, source AS (${source})
       SELECT ${gridPinColumns("?2")}, s.sort_key
       FROM source s
       JOIN pins p ON p.id = s.pin_id
       ${GRID_PIN_JOINS}
       WHERE ${gridPinSql("?2")}
         AND (?3 IS NULL OR s.sort_key < ?3 OR (s.sort_key = ?3 AND p.id < ?4))
       ORDER BY s.sort_key DESC, p.id DESC
       LIMIT ${limit}`;
}

function pinsStatement(db: D1Database, feed: ProfilePinFeed, username: string, viewerId: number | null, cursor: Keyset | null, size: number) {
  return db.prepare(pinsSql(feed, "?5")).bind(username, viewerId, cursor?.key ?? null, cursor?.id ?? null, size + 1);
}

/** The profile's share image: its newest created pin the viewer may see, else its last saved one. */
function coverStatements(db: D1Database, username: string, viewerId: number | null) {
  return (["created", "saved"] as const).map((feed) => db.prepare(coverImageSql(pinsSql(feed, "1"))).bind(username, viewerId, null, null));
}

function pinsPage(rows: KeyedPinRow[], size: number, viewerId: number | null): KeysetPage<GridPin> {
  return keysetPageOf(rows, size, (row) => encodeKeyset(row.sort_key, row.id), gridPin, (row) => gridRowVisible(row, viewerId));
}

function userStatement(db: D1Database, username: string, viewerId: number | null) {
  return db
    .prepare(
      `SELECT u.id, u.username, u.full_name, u.about, u.image_key, u.follower_count, u.following_count, u.account_type, u.business_name, u.is_verified_merchant,
              EXISTS (SELECT 1 FROM merchant_applications a WHERE a.profile_id = u.id AND a.program_status = 'ACCEPTED') AS has_shop,
              ${PROFILE_HAS_PUBLIC_CONTENT} AS has_public_content,
              ${factColumns("profile", { user: "u" }, "?2")}
       FROM users u WHERE u.username = ?1 AND ${visibleSql("profile", { user: "u" }, "?2")}`,
    )
    .bind(username, viewerId);
}

function visibleUser(result: D1Result | undefined, viewerId: number | null): UserRow | null {
  const user = (result?.results as Array<UserRow & Record<string, unknown>> | undefined)?.[0];
  return user && holdsFor("profile", user, viewerId) ? user : null;
}

/**
 * A profile by username, or null when there is no such user or the viewer may not see the
 * profile (private, limited login): the caller answers both the same way. The board grid
 * follows `sort`; `after` starts one feed after a cursor (the crawlable next-page links).
 */
export async function getProfilePage(
  db: D1Database,
  username: string,
  viewerId: number | null,
  options: { sort?: BoardSortOrder; after?: { feed: ProfilePinFeed | "boards"; cursor: Keyset } | null } = {},
): Promise<ProfilePage | null> {
  const sort = options.sort ?? DEFAULT_BOARD_SORT;
  const after = (feed: ProfilePinFeed | "boards") => (options.after?.feed === feed ? options.after.cursor : null);
  const [userResult, boardResult, boardCountResult, createdResult, savedResult, storiesResult, createdCover, savedCover] = await db.batch([
    userStatement(db, username, viewerId),
    boardsStatement(db, username, viewerId, sort, after("boards"), PROFILE_BOARDS_PAGE_SIZE),
    db.prepare(`WITH ${OWNER}, ${LISTED_BOARDS} SELECT count(*) AS count FROM listed`).bind(username, viewerId),
    pinsStatement(db, "created", username, viewerId, after("created"), PROFILE_PINS_PAGE_SIZE),
    pinsStatement(db, "saved", username, viewerId, after("saved"), PROFILE_PINS_PAGE_SIZE),
    pinsStatement(db, "stories", username, viewerId, after("stories"), PROFILE_PINS_PAGE_SIZE),
    ...coverStatements(db, username, viewerId),
  ]);
  const user = visibleUser(userResult, viewerId);
  if (!user) return null;
  const boardCount = Number((boardCountResult?.results as Array<{ count: number }> | undefined)?.[0]?.count ?? 0);
  const large = userImageUrl(user.image_key, "large");
  return {
    id: String(user.id),
    username: user.username,
    name: displayName(user),
    about: user.about,
    url: `/${user.username}/`,
    avatar: large
      ? { url: large, url2x: userImageUrl(user.image_key, "xlarge"), width: USER_IMAGE_SIZES.large, height: USER_IMAGE_SIZES.large }
      : null,
    hasPublicContent: user.has_public_content === 1,
    isBusiness: user.account_type === "business",
    businessName: user.business_name?.trim() || null,
    isVerifiedMerchant: user.is_verified_merchant === 1,
    hasShop: user.has_shop === 1,
    followerCount: user.follower_count,
    followingCount: user.following_count,
    boards: boardsPage((boardResult?.results ?? []) as BoardCardRow[], user.id, user.username, sort, PROFILE_BOARDS_PAGE_SIZE, viewerId),
    boardSort: sort,
    boardCount,
    created: pinsPage((createdResult?.results ?? []) as KeyedPinRow[], PROFILE_PINS_PAGE_SIZE, viewerId),
    saved: pinsPage((savedResult?.results ?? []) as KeyedPinRow[], PROFILE_PINS_PAGE_SIZE, viewerId),
    stories: pinsPage((storiesResult?.results ?? []) as KeyedPinRow[], PROFILE_PINS_PAGE_SIZE, viewerId),
    cover: coverImageOf(createdCover) ?? coverImageOf(savedCover),
  };
}

/**
 * One page of a profile's created or saved pins (UserPinsResource), or null when the viewer
 * may not see the profile: checked again on every page.
 */
export async function listProfilePins(
  db: D1Database,
  feed: ProfilePinFeed,
  username: string,
  cursor: Keyset | null,
  size: number,
  viewerId: number | null,
): Promise<KeysetPage<GridPin> | null> {
  const [userResult, pinResult] = await db.batch([userStatement(db, username, viewerId), pinsStatement(db, feed, username, viewerId, cursor, size)]);
  if (!visibleUser(userResult, viewerId)) return null;
  return pinsPage((pinResult?.results ?? []) as KeyedPinRow[], size, viewerId);
}

/** One page of a profile's boards in `sort` order (BoardsFeedResource), or null as above. */
export async function listProfileBoards(
  db: D1Database,
  username: string,
  sort: BoardSortOrder,
  cursor: Keyset | null,
  size: number,
  viewerId: number | null,
): Promise<KeysetPage<BoardCard> | null> {
  const [userResult, boardResult] = await db.batch([userStatement(db, username, viewerId), boardsStatement(db, username, viewerId, sort, cursor, size)]);
  const user = visibleUser(userResult, viewerId);
  if (!user) return null;
  return boardsPage((boardResult?.results ?? []) as BoardCardRow[], user.id, user.username, sort, size, viewerId);
}

/**
 * One person by username (any case), when the viewer may see their profile and no block stands
 * between them either way (nobody is offered for a mention or an invite across a block); else null.
 */
export async function findVisibleUser(db: D1Database, username: string, viewerId: number): Promise<{ id: number; username: string; full_name: string; image_key: string | null } | null> {
  return db
    .prepare(
      `SELECT u.id, u.username, u.full_name, u.image_key FROM users u WHERE u.username = ?1 COLLATE NOCASE AND ${visibleSql("profile", { user: "u" }, "?2")}
         AND NOT EXISTS (SELECT 1 FROM blocks k WHERE (k.blocker_id = u.id AND k.blocked_id = ?2) OR (k.blocker_id = ?2 AND k.blocked_id = u.id))`,
    )
    .bind(username, viewerId)
    .first<{ id: number; username: string; full_name: string; image_key: string | null }>();
}
