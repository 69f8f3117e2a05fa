// The signed-in home feed's blend (docs/decisions.md, "Home feed"): two ranked streams, the
// pins of what the person follows (people, boards, topics) and popular pins, interleaved so
// every fifth cell is a popular pin while the followed stream lasts. Both orders are fixed for
// a person and a day (their day seed), so a page is the same on a reload and paging never
// repeats a pin. Pure: the SQL that ranks each stream lives in home-feed.server.ts.
import { z } from "zod";
import { textFromBase64Url, textToBase64Url } from "~/runtime/base64.ts";

/** Of every POPULAR_EVERY cells, the last is a popular pin (while followed pins last). */
const POPULAR_EVERY = 5;

/**
 * What a followed pin's rank adds for each thing the person follows that it belongs to. A pin
 * can match several (a followed creator's pin in a followed topic ranks above either alone).
 * Jitter (0..JITTER_RANGE-1, from the day seed) is wider than the gap between single sources,
 * so the sources mix on the page instead of coming in blocks.
 */
export const BLEND_WEIGHTS = { person: 400, board: 300, topic: 250, freshWeek: 150, freshMonth: 75, jitterRange: 400 } as const;
/** A popular pin's rank: its saves (capped, so one viral pin does not pin the order for good) and the day's jitter. */
export const POPULAR_WEIGHTS = { saveCap: 200, jitterRange: 60 } as const;

const DAY_MS = 86_400_000;

/** The UTC day number of `now`: a person's home order changes once a day. */
export function dayOf(now: number): number {
  return Math.floor(now / DAY_MS);
}

/**
 * The seed of a person's order for a day: a 31-bit mix of both (FNV-1a over their decimal
 * digits), so neighbours' ids or consecutive days give unrelated orders.
 */
export function daySeed(viewerId: number, day: number): number {
  let hash = 0x811c9dc5;
  for (const char of `${viewerId}:${day}`) {
    hash ^= char.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash & 0x7fffffff;
}

/** A stream's place: the last row's rank and id, "end" when it has nothing more, null before its first row. */
export type StreamPlace = { rank: number; id: number } | "end" | null;

export interface BlendBookmark {
  /** The followed stream's place (for a board's "more ideas" tab, the tab's one stream). */
  followed: StreamPlace;
  popular: StreamPlace;
}

const placeSchema = z.union([z.literal("end"), z.null(), z.tuple([z.number().int().min(-1e12).max(1e12), z.number().int().min(1).max(Number.MAX_SAFE_INTEGER)])]);
const bookmarkSchema = z.tuple([z.literal("b"), placeSchema, placeSchema]);
const MAX_BOOKMARK = 200;

const placeOut = (place: StreamPlace) => (place === null || place === "end" ? place : [place.rank, place.id]);
const placeIn = (place: z.infer<typeof placeSchema>): StreamPlace => (place === null || place === "end" ? place : { rank: place[0], id: place[1] });

export function encodeBlendBookmark(bookmark: BlendBookmark): string {
  return textToBase64Url(JSON.stringify(["b", placeOut(bookmark.followed), placeOut(bookmark.popular)]));
}

/** The bookmark a blend wrote, or null for anything else. */
export function decodeBlendBookmark(text: string): BlendBookmark | null {
  if (text.length > MAX_BOOKMARK || !/^[A-Za-z0-9_-]+$/.test(text)) return null;
  try {
    const parsed = bookmarkSchema.safeParse(JSON.parse(textFromBase64Url(text)));
    return parsed.success ? { followed: placeIn(parsed.data[1]), popular: placeIn(parsed.data[2]) } : null;
  } catch {
    return null;
  }
}

interface Ranked {
  id: number;
  rank: number;
}

/**
 * One page of `size` cells from the two streams, each fetched past its place with one row more
 * than `size` (so the extra row tells whether it has more). Every POPULAR_EVERY-th cell takes a
 * popular pin, the others a followed one; when one stream runs dry the other fills the page.
 * Returns the page and the bookmark after it (null when both streams are at their end).
 */
export function interleave<Row extends Ranked>(followed: readonly Row[], popular: readonly Row[], size: number, start: BlendBookmark): { rows: Row[]; next: BlendBookmark | null } {
  const rows: Row[] = [];
  let f = 0;
  let p = 0;
  // Only `size` rows of each stream are page candidates: the extra one only says "more".
  const followedUsable = Math.min(followed.length, size);
  const popularUsable = Math.min(popular.length, size);
  const seen = new Set<number>();
  while (rows.length < size && (f < followedUsable || p < popularUsable)) {
    const popularTurn = (rows.length + 1) % POPULAR_EVERY === 0;
    const takePopular = p < popularUsable && (popularTurn || f >= followedUsable);
    const row = takePopular ? popular[p++]! : followed[f++]!;
    if (seen.has(row.id)) continue;
    seen.add(row.id);
    rows.push(row);
  }
  const placeAfter = (stream: readonly Row[], used: number, before: StreamPlace): StreamPlace => {
    if (before === "end") return "end";
    if (used === 0) return stream.length === 0 ? "end" : before;
    const last = stream[used - 1]!;
    // Rows left in the stream beyond those used (the extra row counts): more to come.
    return used < stream.length ? { rank: last.rank, id: last.id } : "end";
  };
  const next = { followed: placeAfter(followed, f, start.followed), popular: placeAfter(popular, p, start.popular) };
  return { rows, next: next.followed === "end" && next.popular === "end" ? null : next };
}
