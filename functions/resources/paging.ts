// Options and answer shared by the feed resources: a keyset bookmark, a bounded page size,
// and the resource-cache answer (results and bookmark, END_MARKER at the end).
import { z } from "zod";
import { END_MARKER } from "~/feeds/feed.ts";
import { decodeKeyset, type Keyset } from "~/feeds/cursor.ts";

export const keysetBookmark = z.string().refine((value) => decodeKeyset(value) !== null, "not a bookmark this feed wrote");
export const pageSize = z.number().int().min(1).max(50);

export function bookmarkKeyset(bookmark: string | undefined): Keyset | null {
  return bookmark === undefined ? null : decodeKeyset(bookmark);
}

/** The resource-cache answer (spec 000 §4): the page's items and the bookmark of the next. */
export function feedAnswer<Item>(page: { items: Item[]; endCursor: string | null }) {
  return { results: page.items, bookmark: page.endCursor ?? END_MARKER };
}
