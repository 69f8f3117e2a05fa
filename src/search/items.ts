// Board and person results as a search answer shows them, from the rows the engine and the
// typeahead read. Pure.
import { userImageUrl } from "~/users/user.ts";
import type { SearchBoardItem, SearchUserItem } from "./types.ts";

/** A board result's row: counts and cover over the pins the viewer may see. */
export interface BoardRow {
  id: number;
  name: string;
  slug: string;
  visible_pin_count: number;
  username: string;
  full_name: string;
  cover_url: string | null;
  cover_width: number | null;
  cover_height: number | null;
}

export function boardItem(row: BoardRow): SearchBoardItem {
  return {
    type: "board",
    id: String(row.id),
    name: row.name,
    url: `/${row.username}/${row.slug}/`,
    pinCount: row.visible_pin_count,
    owner: { username: row.username, fullName: row.full_name },
    cover: row.cover_url !== null && row.cover_width !== null && row.cover_height !== null ? { url: row.cover_url, width: row.cover_width, height: row.cover_height } : null,
  };
}

export interface UserRow {
  id: number;
  username: string;
  full_name: string;
  image_key: string | null;
  follower_count: number;
}

export function userItem(row: UserRow): SearchUserItem {
  return {
    type: "user",
    id: String(row.id),
    username: row.username,
    fullName: row.full_name,
    imageUrl: userImageUrl(row.image_key, "medium"),
    followerCount: row.follower_count,
    url: `/${row.username}/`,
  };
}
