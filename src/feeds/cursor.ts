// Keyset cursors for feeds whose order is not (created_at, id): a board's pins by position
// (a REAL, negative after saves to the front), boards by name or time. The cursor is the last
// row's sort key and id, as opaque base64url JSON, so one codec serves every such order.
import { z } from "zod";
import { textFromBase64Url, textToBase64Url } from "~/runtime/base64.ts";

export type KeysetKey = number | string;
export interface Keyset {
  key: KeysetKey;
  id: number;
}

/** Longest accepted cursor: a 50-character board name in UTF-8, JSON and base64 fits well within. */
const MAX_CURSOR = 400;
const keysetSchema = z.tuple([z.union([z.number().finite(), z.string().max(200)]), z.number().int().min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER)]);

export function encodeKeyset(key: KeysetKey, id: number): string {
  return textToBase64Url(JSON.stringify([key, id]));
}

/** The keyset a cursor names, or null for anything this codec did not write. */
export function decodeKeyset(cursor: string): Keyset | null {
  if (cursor.length > MAX_CURSOR || !/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  try {
    const parsed = keysetSchema.safeParse(JSON.parse(textFromBase64Url(cursor)));
    return parsed.success ? { key: parsed.data[0], id: parsed.data[1] } : null;
  } catch {
    return null;
  }
}

/** A newest-first feed's place: the last row's created_at (ms) and id. */
interface TimeCursor {
  createdAt: number;
  id: number;
}

/** The place a (created_at, id) feed's cursor names (encodeKeyset(createdAt, id)), or null. */
export function decodeTimeCursor(cursor: string): TimeCursor | null {
  const keyset = decodeKeyset(cursor);
  return keyset && typeof keyset.key === "number" && Number.isSafeInteger(keyset.key) ? { createdAt: keyset.key, id: keyset.id } : null;
}

export interface KeysetPage<Item> {
  items: Item[];
  /** The cursor after this page; null when there is no next page. */
  endCursor: string | null;
  hasNextPage: boolean;
}

/**
 * A page from rows fetched with LIMIT size + 1: the first `size` rows, and the cursor of the
 * last one when the extra row shows that more exist. `keep` drops rows a re-check refuses
 * after the cursor is taken, so a refused row never stalls paging.
 */
export function keysetPageOf<Row, Item>(
  rows: Row[],
  size: number,
  cursorOf: (row: Row) => string,
  toItem: (row: Row) => Item,
  keep: (row: Row) => boolean = () => true,
): KeysetPage<Item> {
  const page = rows.slice(0, size);
  const last = page.at(-1);
  const hasNextPage = rows.length > size && last !== undefined;
  return { items: page.filter(keep).map(toItem), hasNextPage, endCursor: hasNextPage ? cursorOf(last) : null };
}
