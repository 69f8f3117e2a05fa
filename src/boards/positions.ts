// Where a pin (or section, or board) goes in a hand-ordered feed. Positions are REALs,
// smaller first (board_pins.position, board_sections.position, boards.position). Pure: the
// server reads the few neighbours it needs, asks these, and writes the answer in its batch.

/** Items added to a board feed go after at most this many leading story items (spec 001 §9). */
export const MAX_LEADING_STORIES = 2;

export interface FeedHead {
  position: number;
  isStory: boolean;
}

/**
 * The position of a new save at the front of a feed (spec 001 §4 "Feed list changes"): before
 * everything, except that up to MAX_LEADING_STORIES story items at the very front stay in
 * front of it. `head` is the feed's first MAX_LEADING_STORIES + 1 items in order.
 */
export function frontPosition(head: readonly FeedHead[]): number {
  let leading = 0;
  while (leading < MAX_LEADING_STORIES && leading < head.length && head[leading]!.isStory) leading++;
  if (leading === 0) return head.length === 0 ? 0 : head[0]!.position - 1;
  const before = head[leading - 1]!.position;
  const after = head[leading]?.position;
  return after === undefined ? before + 1 : between(before, after) ?? before;
}

/** The position before every item (a move to the front, a reorder to first); `first` is the current first. */
export function firstPosition(first: number | null): number {
  return first === null ? 0 : first - 1;
}

/** Smallest gap kept between neighbours before the feed is renumbered. */
const MIN_GAP = 1e-6;

/**
 * A position strictly between two neighbours, or null when they are too close to split (the
 * caller renumbers the feed 1, 2, 3, ... and asks again). `after` null: the end of the feed.
 */
export function between(before: number, after: number | null): number | null {
  if (after === null) return before + 1;
  if (!(after - before > MIN_GAP * 2)) return null;
  return (before + after) / 2;
}

/**
 * The position for an item placed right after `anchor` (null: first) when the item after
 * the anchor is `next` (null: the anchor is last), or null when a renumbering is needed first.
 */
export function positionAfter(anchor: number | null, next: number | null, first: number | null): number | null {
  if (anchor === null) return firstPosition(first);
  return between(anchor, next);
}
