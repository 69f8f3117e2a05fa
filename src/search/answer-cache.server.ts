// The answer cache of shared searches, for search's latency budget. A signed-out search sees what
// every signed-out visitor sees, so the expensive part of its answer (ranking thousands of
// matches, the guides, the typo check) is the same for every visitor asking the same page of
// the same search. This remembers that part per page, in isolate memory: the ranked ids of
// the page, whether more follow, the anchor, the guides and the typo's correction. It never
// holds the pins' or boards' own rows: a hit re-reads the page's rows in one statement that
// applies the visibility rule and the query's match again (results.server.ts
// visiblePinRowsStatement, boardRowsStatement with visibleMatching), so a pin or board turned
// secret, hidden or deleted, or edited so it no longer matches, is left out of the very next
// answer. What may lag by up to ANSWER_TTL_MS: the order of a page (saves since), a new match
// not yet among the results, and the guides (interest names) and typo correction, which are
// served as they were computed (both only ever came from what a signed-out visitor could see).
//
// Not cached: signed-in viewers (they may see their own secret pins, and their page 1 records
// a recent search), the personal scopes, people (users scope: one index lookup, 0.2–0.4 ms
// at 100,000 pins; nothing to save), and buyable_pins' facets (counts over the candidates,
// recomputed on every page 1).
import { BoundedLru } from "~/server/bounded-lru.ts";
import type { Scope } from "./options.ts";

/**
 * How long a remembered answer serves: 60 s, the signed-out page cache's FRESH_SECONDS
 * (src/server/page-cache.ts), so a signed-out visitor's search results are never older than
 * the pages around them. Visibility is re-checked on every hit, so the TTL bounds ranking
 * freshness only; a longer one would let a new pin take that long to appear for a common
 * query, a shorter one would re-rank the most asked searches every few seconds for nothing.
 */
const ANSWER_TTL_MS = 60_000;
/** Entries kept at most: a few thousand distinct searches per isolate. */
const ANSWER_MAX_ENTRIES = 4000;
/** Bytes kept at most (an entry is ~0.3–1 KB: 25 ids, 8 guides, a correction). */
const ANSWER_MAX_BYTES = 4 * 1024 * 1024;

/** The scopes whose signed-out answers are remembered. */
export const ANSWERED_SCOPES: ReadonlySet<Scope> = new Set<Scope>(["pins", "buyable_pins", "videos", "idea_pins", "boards"]);

export interface CachedAnswer {
  /** What the ids name: pins for the pin scopes, boards for the boards scope. */
  kind: "pin" | "board";
  /** The page's results in ranked order. */
  ids: number[];
  /** More results follow this page (the bookmark is rebuilt from it, the key and the anchor). */
  hasMore: boolean;
  /** The first page's clock: every page of the search, for every visitor, ranks from it. */
  anchor: number;
  guides: { term: string }[];
  /** The typo suggestion's corrected words (the original is each request's own spelling). */
  corrected: string | null;
}

const answers = new BoundedLru<CachedAnswer>({ maxEntries: ANSWER_MAX_ENTRIES, maxBytes: ANSWER_MAX_BYTES, ttlMs: ANSWER_TTL_MS });

/**
 * The key of one page of one search: the search's canonical identity IN FULL (query and every
 * option that changes results, top pin included; never a short hash, which a crafted query
 * could collide with), the offset, the anchor (null for page 1: whoever asks first sets it for
 * everyone) and the page size. Bounded by the options' schema (query at most 200 characters,
 * lists capped), and counted in the cache's bytes.
 */
export function answerKey(searchIdentity: string, offset: number, anchor: number | null, pageSize: number, topPinId: string | null): string {
  return JSON.stringify([searchIdentity, offset, anchor, pageSize, topPinId]);
}

/** A remembered answer still within its time, or undefined. */
export function recallAnswer(key: string, now: number): CachedAnswer | undefined {
  return answers.get(key, now);
}

export function rememberAnswer(key: string, answer: CachedAnswer, now: number): void {
  answers.set(key, answer, key.length + JSON.stringify(answer).length, now);
}

/**
 * A signed-out typeahead's ranked part for one term (typeahead.server.ts): the interest
 * names (a public list), and the ids of the pins whose titles were suggested, of the boards and
 * of the people found, in their order. A hit re-reads those rows by id with visibility and the
 * prefix match applied again; the names of interests are served as remembered.
 */
export interface CachedTypeahead {
  interests: string[];
  titles: number[];
  boards: number[];
  users: number[];
}

/** Typeahead terms kept at most (an entry is ~0.2–0.5 KB: at most 5 names and 16 ids). */
const TYPEAHEAD_MAX_ENTRIES = 4000;
const TYPEAHEAD_MAX_BYTES = 2 * 1024 * 1024;

const typeaheads = new BoundedLru<CachedTypeahead>({ maxEntries: TYPEAHEAD_MAX_ENTRIES, maxBytes: TYPEAHEAD_MAX_BYTES, ttlMs: ANSWER_TTL_MS });

/** The key of a typeahead: its normalized, lower-cased term in full (at most 100 characters). */
export function typeaheadKey(term: string): string {
  return JSON.stringify(["typeahead", term]);
}

export function recallTypeahead(key: string, now: number): CachedTypeahead | undefined {
  return typeaheads.get(key, now);
}

export function rememberTypeahead(key: string, answer: CachedTypeahead, now: number): void {
  typeaheads.set(key, answer, key.length + JSON.stringify(answer).length, now);
}
