// Spec 001 §3 "Feed lists" and §4 "Feed list changes": the client's lists of pins, boards and
// sections, keyed by kind and id, and every change a board action makes to them, as pure
// functions `(lists, event) => lists`. Paging itself (fetching flag, error cleared on a new
// fetch, replace on refresh, append by bookmark, end marker) is src/feeds/feed.ts: these wrap it
// per key rather than repeat it.
import { emptyList, fetchFailed, fetchStarted, fetchSucceeded, type ResourceList } from "~/feeds/feed.ts";

export type FeedKind = "boardfeed" | "boardsectionpins" | "boardsections" | "profileboards" | "archivedboards" | "boardlesspins" | "profilepins";
export type FeedKey = `${FeedKind}:${string}`;

/** Only these lists may be reordered by hand (spec 001 §4). */
const REORDERABLE_KINDS: ReadonlySet<FeedKind> = new Set(["boardfeed", "boardsectionpins", "boardsections", "profileboards"]);

/** Items added to a board feed go after at most this many leading story items (spec 001 §9). */
export const MAX_LEADING_STORIES = 2;

export type ItemType = "pin" | "board" | "section";

/** What a list holds: anything with an id and a type; `story` marks a story pin. */
export interface FeedItem {
  id: string;
  type: ItemType;
  story?: boolean;
}

export type FeedLists<T extends FeedItem = FeedItem> = Partial<Record<FeedKey, ResourceList<T>>>;

export const feedKey = (kind: FeedKind, id: string): FeedKey => `${kind}:${id}`;
const kindOf = (key: FeedKey): FeedKind => key.slice(0, key.indexOf(":")) as FeedKind;

export function canReorder(key: FeedKey): boolean {
  return REORDERABLE_KINDS.has(kindOf(key));
}

function update<T extends FeedItem>(lists: FeedLists<T>, key: FeedKey, change: (list: ResourceList<T>) => ResourceList<T>): FeedLists<T> {
  return { ...lists, [key]: change(lists[key] ?? emptyList<T>()) };
}

function mapEvery<T extends FeedItem>(lists: FeedLists<T>, change: (key: FeedKey, list: ResourceList<T>) => ResourceList<T>): FeedLists<T> {
  const next: FeedLists<T> = {};
  for (const [key, list] of Object.entries(lists) as Array<[FeedKey, ResourceList<T>]>) next[key] = change(key, list);
  return next;
}

const same = (item: FeedItem, type: ItemType, ids: ReadonlySet<string>) => item.type === type && ids.has(item.id);

// --- Resource lists, per key ----------------------------------------------------------------

export function listFetchStarted<T extends FeedItem>(lists: FeedLists<T>, key: FeedKey): FeedLists<T> {
  return update(lists, key, fetchStarted);
}

export function listFetchSucceeded<T extends FeedItem>(lists: FeedLists<T>, key: FeedKey, page: { items: T[]; bookmark: string | null }, refresh: boolean): FeedLists<T> {
  return update(lists, key, (list) => fetchSucceeded(list, page, refresh));
}

export function listFetchFailed<T extends FeedItem>(lists: FeedLists<T>, key: FeedKey, status: number | null): FeedLists<T> {
  return update(lists, key, (list) => fetchFailed(list, status).list);
}

// --- Feed list changes ----------------------------------------------------------------------

/**
 * Deleting a pin, board or section removes it from every feed. A deleted board's or section's
 * own lists go too (nothing can page them any more).
 */
export function removeEverywhere<T extends FeedItem>(lists: FeedLists<T>, type: ItemType, ids: readonly string[]): FeedLists<T> {
  const gone = new Set(ids);
  const owned = (key: FeedKey) => {
    const id = key.slice(key.indexOf(":") + 1);
    if (!gone.has(id)) return false;
    const kind = kindOf(key);
    return (type === "board" && (kind === "boardfeed" || kind === "boardsections")) || (type === "section" && kind === "boardsectionpins");
  };
  const next: FeedLists<T> = {};
  for (const [key, list] of Object.entries(lists) as Array<[FeedKey, ResourceList<T>]>) {
    if (owned(key)) continue;
    next[key] = { ...list, items: list.items.filter((item) => !same(item, type, gone)) };
  }
  return next;
}

/** Puts items at the front of a list (dropping copies of them further down). */
function toFront<T extends FeedItem>(lists: FeedLists<T>, key: FeedKey, items: readonly T[]): FeedLists<T> {
  const ids = new Set(items.map((item) => `${item.type}:${item.id}`));
  return update(lists, key, (list) => ({ ...list, items: [...items, ...list.items.filter((item) => !ids.has(`${item.type}:${item.id}`))] }));
}

/**
 * A new save: to the front of the board, section or boardless feed, but after at most
 * MAX_LEADING_STORIES leading story items. Saving what is already there moves nothing.
 */
export function addSaved<T extends FeedItem>(lists: FeedLists<T>, key: FeedKey, item: T): FeedLists<T> {
  return update(lists, key, (list) => {
    if (list.items.some((existing) => existing.type === item.type && existing.id === item.id)) return list;
    let at = 0;
    while (at < MAX_LEADING_STORIES && at < list.items.length && list.items[at]?.story === true) at += 1;
    return { ...list, items: [...list.items.slice(0, at), item, ...list.items.slice(at)] };
  });
}

/** New sections (and new boards on the profile) go to the front. */
export function addToFront<T extends FeedItem>(lists: FeedLists<T>, key: FeedKey, item: T): FeedLists<T> {
  return toFront(lists, key, [item]);
}

/** Archiving moves a board from the owner's profile boards to the front of their archived boards. */
export function archiveBoard<T extends FeedItem>(lists: FeedLists<T>, ownerId: string, board: T): FeedLists<T> {
  const without = update(lists, feedKey("profileboards", ownerId), (list) => ({ ...list, items: list.items.filter((item) => !(item.type === "board" && item.id === board.id)) }));
  return toFront(without, feedKey("archivedboards", ownerId), [board]);
}

/** Unarchiving moves it back: off the archived boards, to the front of the profile boards. */
export function unarchiveBoard<T extends FeedItem>(lists: FeedLists<T>, ownerId: string, board: T): FeedLists<T> {
  const without = update(lists, feedKey("archivedboards", ownerId), (list) => ({ ...list, items: list.items.filter((item) => !(item.type === "board" && item.id === board.id)) }));
  return toFront(without, feedKey("profileboards", ownerId), [board]);
}

/** Moving pins removes them from the source feed and puts them, in order, at the front of the target. */
export function movePins<T extends FeedItem>(lists: FeedLists<T>, source: FeedKey, target: FeedKey, pins: readonly T[]): FeedLists<T> {
  if (source === target) return toFront(lists, target, pins);
  const ids = new Set(pins.map((pin) => pin.id));
  const without = update(lists, source, (list) => ({ ...list, items: list.items.filter((item) => !same(item, "pin", ids)) }));
  return toFront(without, target, pins);
}

/** Copying leaves the source alone and puts the copies at the front of the target. */
export function copyPins<T extends FeedItem>(lists: FeedLists<T>, target: FeedKey, pins: readonly T[]): FeedLists<T> {
  return toFront(lists, target, pins);
}

/**
 * Move-all: the source keeps only the excluded pins, and the target is cleared (emptied and
 * unloaded) so its next view fetches it whole in the server's order.
 */
export function moveAll<T extends FeedItem>(lists: FeedLists<T>, source: FeedKey, target: FeedKey, excludedIds: readonly string[]): FeedLists<T> {
  const keep = new Set(excludedIds);
  const trimmed = update(lists, source, (list) => ({ ...list, items: list.items.filter((item) => item.type === "pin" && keep.has(item.id)) }));
  return { ...trimmed, [target]: emptyList<T>() };
}

export interface PinPlace {
  boardId: string | null;
  sectionId: string | null;
}

/**
 * Editing a pin moves it between feeds when its board or section changed: off the old board
 * feed and section, to the front of the new ones. A pin whose place is unchanged stays put.
 */
export function editPinPlace<T extends FeedItem>(lists: FeedLists<T>, pin: T, from: PinPlace, to: PinPlace): FeedLists<T> {
  let next = lists;
  const ids = new Set([pin.id]);
  const drop = (key: FeedKey) => {
    if (next[key]) next = update(next, key, (list) => ({ ...list, items: list.items.filter((item) => !same(item, "pin", ids)) }));
  };
  if (from.boardId !== to.boardId) {
    if (from.boardId !== null) drop(feedKey("boardfeed", from.boardId));
    if (to.boardId !== null) next = toFront(next, feedKey("boardfeed", to.boardId), [pin]);
  }
  if (from.sectionId !== to.sectionId || from.boardId !== to.boardId) {
    if (from.sectionId !== null) drop(feedKey("boardsectionpins", from.sectionId));
    if (to.sectionId !== null) next = toFront(next, feedKey("boardsectionpins", to.sectionId), [pin]);
  }
  return next;
}

/**
 * Moves one item to just after `afterId` (null: first) in a reorderable list. Lists that may
 * not be reordered, and unknown items, are left exactly as they were.
 */
export function reorder<T extends FeedItem>(lists: FeedLists<T>, key: FeedKey, itemId: string, afterId: string | null): FeedLists<T> {
  const list = lists[key];
  if (!list || !canReorder(key) || itemId === afterId) return lists;
  const item = list.items.find((entry) => entry.id === itemId);
  if (!item) return lists;
  const rest = list.items.filter((entry) => entry.id !== itemId);
  const at = afterId === null ? 0 : rest.findIndex((entry) => entry.id === afterId) + 1;
  if (afterId !== null && at === 0) return lists;
  return { ...lists, [key]: { ...list, items: [...rest.slice(0, at), item, ...rest.slice(at)] } };
}

/** The `after` id that moves item `index` one place up or down (null = to the top); undefined when it cannot move. */
export function neighbourAfter(ids: readonly string[], index: number, direction: "up" | "down" | "top"): string | null | undefined {
  if (index < 0 || index >= ids.length) return undefined;
  if (direction === "top" || (direction === "up" && index === 1)) return index === 0 ? undefined : null;
  if (direction === "up") return index === 0 ? undefined : (ids[index - 2] ?? null);
  return index === ids.length - 1 ? undefined : (ids[index + 1] ?? undefined);
}

/** Replaces one item's data where it appears (a renamed section, an edited board). */
export function replaceItem<T extends FeedItem>(lists: FeedLists<T>, item: T): FeedLists<T> {
  return mapEvery(lists, (_key, list) => ({ ...list, items: list.items.map((entry) => (entry.type === item.type && entry.id === item.id ? item : entry)) }));
}
