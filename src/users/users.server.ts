// Profile reads from D1. A profile page costs one round trip: its statements go in one batch,
// and each repeats the visibility conditions (user.ts, board.ts) so nothing of a hidden
// profile, a secret board or a secret pin leaves D1. What comes back is checked again with
// the pure rules.
import { USER_IMAGE_SIZES } from "../media/media.ts";
import { userImageUrl, type GridPin } from "../pins/pins.server.ts";
import { boardVisibleSql, canViewBoard, pinListedSql, type BoardPrivacy } from "../boards/board.ts";
import { GRID_PIN_COLUMNS, GRID_PIN_JOINS, gridPins, type GridPinRow } from "../boards/boards.server.ts";
import { canViewProfile, displayName, profileVisibleSql, type LoginState } from "./user.ts";

export const PROFILE_PINS_PAGE_SIZE = 25;
export const PROFILE_BOARDS_PAGE_SIZE = 50;

export interface ImageBox {
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

export interface ProfilePage {
  id: string;
  username: string;
  name: string;
  about: string;
  url: string;
  /** The large avatar (with its xlarge rendition for 2x screens). */
  avatar: (ImageBox & { url2x: string | null }) | null;
  followerCount: number;
  followingCount: number;
  /** Boards the viewer may see: the first PROFILE_BOARDS_PAGE_SIZE of them. */
  boards: BoardCard[];
  /** How many boards the viewer may see in all. */
  boardCount: number;
  /** Pins this user created that the viewer may see, newest first: the first page. */
  pins: GridPin[];
}

interface UserRow {
  id: number;
  username: string;
  full_name: string;
  about: string;
  image_key: string | null;
  follower_count: number;
  following_count: number;
  is_private_profile: number;
  login_state: LoginState;
}

interface BoardCardRow {
  id: number;
  owner_id: number;
  name: string;
  slug: string;
  privacy: BoardPrivacy;
  archived_at: number | null;
  pin_count: number;
  cover_url: string | null;
  cover_width: number | null;
  cover_height: number | null;
  cover_color: string | null;
}

/**
 * A profile by username, or null when there is no such user or the viewer may not see the
 * profile (private, limited login): the caller answers both the same way.
 */
export async function getProfilePage(db: D1Database, username: string, viewerId: number | null): Promise<ProfilePage | null> {
  // ?1 username, ?2 viewer id (NULL when signed out).
  const owner = `owner AS (SELECT u.id FROM users u WHERE u.username = ?1 AND ${profileVisibleSql("u", "?2")})`;
  const listed = `listed AS (
       SELECT b.id, b.owner_id, b.name, b.slug, b.privacy, b.archived_at, b.updated_at
       FROM owner o JOIN boards b ON b.owner_id = o.id
       WHERE ${boardVisibleSql("b", "?2")})`;
  const [userResult, boardResult, boardCountResult, pinResult] = await db.batch([
    db
      .prepare(
        `SELECT u.id, u.username, u.full_name, u.about, u.image_key, u.follower_count, u.following_count,
                u.is_private_profile, u.login_state
         FROM users u WHERE u.username = ?1 AND ${profileVisibleSql("u", "?2")}`,
      )
      .bind(username, viewerId),
    // Each listed board with its visible pin count and the first visible pin (the cover),
    // numbered per board in one pass over its board_pins.
    db
      .prepare(
        `WITH ${owner}, ${listed},
         visible AS (
           SELECT bp.board_id, bp.pin_id,
                  row_number() OVER (PARTITION BY bp.board_id ORDER BY bp.position, bp.pin_id) AS rank,
                  count(*) OVER (PARTITION BY bp.board_id) AS pin_count
           FROM listed l
           JOIN board_pins bp ON bp.board_id = l.id
           JOIN pins p ON p.id = bp.pin_id
           LEFT JOIN boards pb ON pb.id = p.board_id
           WHERE ${pinListedSql("p", "pb", "?2")})
         SELECT l.id, l.owner_id, l.name, l.slug, l.privacy, l.archived_at, coalesce(v.pin_count, 0) AS pin_count,
                i.url AS cover_url, i.width AS cover_width, i.height AS cover_height, i.dominant_color AS cover_color
         FROM listed l
         LEFT JOIN visible v ON v.board_id = l.id AND v.rank = 1
         LEFT JOIN pin_images i ON i.pin_id = v.pin_id AND i.size = '236x'
         ORDER BY l.updated_at DESC, l.id DESC
         LIMIT ${PROFILE_BOARDS_PAGE_SIZE}`,
      )
      .bind(username, viewerId),
    db.prepare(`WITH ${owner}, ${listed} SELECT count(*) AS count FROM listed`).bind(username, viewerId),
    db
      .prepare(
        `WITH ${owner}
         SELECT ${GRID_PIN_COLUMNS}
         FROM owner o
         JOIN pins p ON p.pinner_id = o.id
         ${GRID_PIN_JOINS}
         WHERE ${pinListedSql("p", "pb", "?2")}
         ORDER BY p.created_at DESC, p.id DESC
         LIMIT ${PROFILE_PINS_PAGE_SIZE}`,
      )
      .bind(username, viewerId),
  ]);
  const user = (userResult?.results as UserRow[] | undefined)?.[0];
  if (!user || !canViewProfile(user, viewerId)) return null;

  const url = `/${user.username}/`;
  const boards = ((boardResult?.results ?? []) as BoardCardRow[])
    .filter((board) => board.owner_id === user.id && canViewBoard(board, viewerId))
    .map(
      (board): BoardCard => ({
        id: String(board.id),
        name: board.name,
        slug: board.slug,
        url: `${url}${board.slug}/`,
        pinCount: board.pin_count,
        cover:
          board.cover_url !== null && board.cover_width !== null && board.cover_height !== null
            ? { url: board.cover_url, width: board.cover_width, height: board.cover_height, dominantColor: board.cover_color ?? "#e9e9e9" }
            : null,
      }),
    );
  const boardCount = Number((boardCountResult?.results as Array<{ count: number }> | undefined)?.[0]?.count ?? 0);
  const large = userImageUrl(user.image_key, "large");
  return {
    id: String(user.id),
    username: user.username,
    name: displayName(user),
    about: user.about,
    url,
    avatar: large
      ? { url: large, url2x: userImageUrl(user.image_key, "xlarge"), width: USER_IMAGE_SIZES.large, height: USER_IMAGE_SIZES.large }
      : null,
    followerCount: user.follower_count,
    followingCount: user.following_count,
    boards,
    boardCount,
    pins: gridPins((pinResult?.results ?? []) as GridPinRow[], viewerId),
  };
}
