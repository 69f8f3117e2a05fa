// The signed-in home feed from D1 (the blend's rules: blend.ts). One batch, so a signed-in home
// page costs the one round trip the shared feed did: the followed stream, the popular stream,
// the person's board tabs, and (on the first feed after onboarding) the flag's clearing.
//
// Every pin passes the searchPin rule for this viewer (src/visibility/: not deleted, neither
// hidden nor unsafe, and reachable by them), is not their own, and is by nobody they blocked or
// who blocked them. Each source is read through its index and capped, so the work per page is
// bounded however much a person follows.
import { GRID_CELL_COLUMNS, GRID_IMAGE_JOINS, gridPin, type GridCellRow, type GridPin } from "~/pins/pins.server.ts";
import { visibleSql } from "~/visibility/visibility.server.ts";
import { BLEND_WEIGHTS, POPULAR_WEIGHTS, dayOf, daySeed, interleave, type BlendBookmark, type StreamPlace } from "./blend.ts";

const DAY_MS = 86_400_000;
/** Most candidates each source gives a page's ranking: the newest of each. */
const SOURCE_CAP = 200;
/** Popular pins are ranked among the newest this many pins from before the day; older ones follow newest first. */
const POPULAR_WINDOW = 120;
/** The person's boards shown as "more ideas" tabs, most recently changed first. */
const MAX_TABS = 8;
/** Topics of a board its "more ideas" tab draws on: its most common ones. */
const TAB_TOPICS = 5;

/** Parameters every statement shares: ?1 viewer, ?2 day seed, ?3 start of the day (ms). */
const VISIBLE = visibleSql("searchPin", { pin: "p", board: "b", pinner: "pu" }, "?1");
/** A number in 0..range-1 fixed by the pin and the day seed: two rounds of a Lehmer generator. */
const jitter = (range: number) => `((((p.id % 2147483647) * 48271 + ?2) % 2147483647) * 16807 % 2147483647) % ${range}`;

/**
 * What the person follows, whom they are in a block with, and the pins of what they follow by
 * source (a bit each: 1 person, 2 board, 4 topic), each source its newest SOURCE_CAP.
 */
const FOLLOWED = `
  fu AS (SELECT target_id AS id FROM follows WHERE follower_id = ?1 AND target_type = 'user' LIMIT 2000),
  fb AS (SELECT target_id AS id FROM follows WHERE follower_id = ?1 AND target_type = 'board' LIMIT 2000),
  fi AS (SELECT target_id AS id FROM follows WHERE follower_id = ?1 AND target_type = 'interest' LIMIT 500),
  bl(id) AS (SELECT blocked_id FROM blocks WHERE blocker_id = ?1 UNION SELECT blocker_id FROM blocks WHERE blocked_id = ?1),
  src(id, w) AS (
    SELECT id, 1 FROM (SELECT p.id FROM pins p WHERE p.pinner_id IN (SELECT id FROM fu) ORDER BY p.created_at DESC LIMIT ${SOURCE_CAP})
    UNION ALL SELECT id, 2 FROM (SELECT p.id FROM pins p WHERE p.board_id IN (SELECT id FROM fb) ORDER BY p.created_at DESC LIMIT ${SOURCE_CAP})
    UNION ALL SELECT pin_id, 2 FROM (SELECT bp.pin_id FROM board_pins bp WHERE bp.board_id IN (SELECT id FROM fb) ORDER BY bp.created_at DESC LIMIT ${SOURCE_CAP})
    UNION ALL SELECT pin_id, 4 FROM (SELECT pi.pin_id FROM pin_interests pi WHERE pi.interest_id IN (SELECT id FROM fi) ORDER BY pi.pin_id DESC LIMIT ${SOURCE_CAP})
  )`;

/**
 * A candidate row \`p\` (pins, with its board \`b\` and pinner \`pu\`) the viewer may see in their
 * home: the searchPin rule, not their own, nobody in a block with them, and a grid image.
 */
const SHOWABLE = `${VISIBLE} AND p.pinner_id != ?1 AND p.pinner_id NOT IN (SELECT id FROM bl)
  AND EXISTS (SELECT 1 FROM pin_images g WHERE g.pin_id = p.id AND g.size = '236x')`;

/**
 * A stream's page from \`ranked(id, rank)\`: past the place (?4 rank, ?5 id), highest rank first,
 * ?6 rows; the grid's columns are read for those rows only. The candidates are joined first
 * (CROSS JOIN keeps SQLite from walking every pin instead).
 */
const PAGE_OF_RANKED = `
  SELECT ${GRID_CELL_COLUMNS}, r.rank AS rank
  FROM (SELECT id, rank FROM ranked WHERE ?4 IS NULL OR rank < ?4 OR (rank = ?4 AND id < ?5) ORDER BY rank DESC, id DESC LIMIT ?6) r
  CROSS JOIN pins p ON p.id = r.id
  ${GRID_IMAGE_JOINS}
  ORDER BY r.rank DESC, p.id DESC`;

const FROM_CANDIDATE = `CROSS JOIN pins p ON p.id = c.id LEFT JOIN boards b ON b.id = p.board_id JOIN users pu ON pu.id = p.pinner_id`;

const FOLLOWED_SQL = `
  WITH ${FOLLOWED},
  cand(id, affinity) AS (
    SELECT id, MAX(w & 1) * ${BLEND_WEIGHTS.person} + MAX((w & 2) / 2) * ${BLEND_WEIGHTS.board} + MAX((w & 4) / 4) * ${BLEND_WEIGHTS.topic}
    FROM src GROUP BY id
  ),
  ranked(id, rank) AS (
    SELECT p.id, c.affinity
      + CASE WHEN p.created_at >= ?3 - ${7 * DAY_MS} THEN ${BLEND_WEIGHTS.freshWeek} WHEN p.created_at >= ?3 - ${30 * DAY_MS} THEN ${BLEND_WEIGHTS.freshMonth} ELSE 0 END
      + ${jitter(BLEND_WEIGHTS.jitterRange)}
    FROM cand c ${FROM_CANDIDATE}
    WHERE ${SHOWABLE}
  )
  ${PAGE_OF_RANKED}`;

/**
 * Popular pins: first the newest POPULAR_WINDOW the feed shows from before today, by saves in
 * steps of 50, shuffled within a step for the day (ranks 0 and up); then every older pin, newest
 * first (ranks below 0: its age at the start of the day), so the feed goes on as the shared one
 * does while a page ranks one bounded window at most. None the followed stream holds.
 */
const POPULAR_SQL = `
  WITH ${FOLLOWED},
  win(id) AS (
    SELECT p.id FROM pins p WHERE p.is_deleted = 0 AND p.is_hidden = 0 AND p.created_at < ?3
    ORDER BY p.created_at DESC, p.id DESC LIMIT ${POPULAR_WINDOW}
  ),
  edge(t) AS (SELECT MIN(p.created_at) FROM win JOIN pins p ON p.id = win.id),
  older(id) AS (
    SELECT p.id FROM pins p LEFT JOIN boards b ON b.id = p.board_id JOIN users pu ON pu.id = p.pinner_id
    WHERE p.is_deleted = 0 AND p.is_hidden = 0 AND p.created_at < (SELECT t FROM edge)
      AND (?4 IS NULL OR ?4 >= 0 OR p.created_at < ?3 + ?4 OR (p.created_at = ?3 + ?4 AND p.id < ?5))
      AND ${SHOWABLE} AND p.id NOT IN (SELECT id FROM src)
    ORDER BY p.created_at DESC, p.id DESC LIMIT ?6
  ),
  ranked(id, rank) AS (
    SELECT p.id, MIN(p.save_count, ${POPULAR_WEIGHTS.saveCap}) / 50 * ${POPULAR_WEIGHTS.jitterRange} + ${jitter(POPULAR_WEIGHTS.jitterRange)}
    FROM win c ${FROM_CANDIDATE}
    WHERE (?4 IS NULL OR ?4 >= 0) AND ${SHOWABLE} AND p.id NOT IN (SELECT id FROM src)
    UNION ALL
    SELECT p.id, p.created_at - ?3 FROM older c CROSS JOIN pins p ON p.id = c.id
  )
  ${PAGE_OF_RANKED}`;

/** A board's "more ideas": pins in its most common topics that are not on it, shuffled for the day. ?7 is the board. */
const MORE_IDEAS_SQL = `
  WITH bl(id) AS (SELECT blocked_id FROM blocks WHERE blocker_id = ?1 UNION SELECT blocker_id FROM blocks WHERE blocked_id = ?1),
  bi(id) AS (
    SELECT pi.interest_id FROM board_pins bp JOIN pin_interests pi ON pi.pin_id = bp.pin_id
    WHERE bp.board_id = ?7 AND EXISTS (SELECT 1 FROM boards o WHERE o.id = ?7 AND o.owner_id = ?1)
    GROUP BY pi.interest_id ORDER BY COUNT(*) DESC, pi.interest_id LIMIT ${TAB_TOPICS}
  ),
  cand(id) AS (SELECT DISTINCT pin_id FROM (SELECT pi.pin_id FROM pin_interests pi WHERE pi.interest_id IN (SELECT id FROM bi) ORDER BY pi.pin_id DESC LIMIT ${SOURCE_CAP * 2})),
  ranked(id, rank) AS (
    SELECT p.id, ${jitter(1_000_000)}
    FROM cand c ${FROM_CANDIDATE}
    WHERE ${SHOWABLE} AND NOT EXISTS (SELECT 1 FROM board_pins z WHERE z.board_id = ?7 AND z.pin_id = p.id)
  )
  ${PAGE_OF_RANKED}`;

const TABS_SQL = `SELECT b.id, b.name FROM boards b
  WHERE b.owner_id = ?1 AND b.archived_at IS NULL AND b.pin_count > 0
  ORDER BY b.updated_at DESC, b.id DESC LIMIT ${MAX_TABS}`;

/** A home tab (spec 001 §2: kept as a board id plus an index); index 0 is the blend itself. */
export interface HomeTab {
  boardId: string;
  name: string;
  index: number;
}

interface PersonalHomePage {
  pins: GridPin[];
  /** The first row of the request's `beside` read, if it had one. */
  besideRow?: unknown;
  /** The bookmark after this page, null at the end. */
  next: BlendBookmark | null;
  tabs: HomeTab[];
  /** The tab shown: null for the blend, or one of `tabs` (an unknown board falls back to the blend). */
  tab: HomeTab | null;
}

interface PersonalHomeRequest {
  viewerId: number;
  now: number;
  size: number;
  bookmark: BlendBookmark | null;
  /** A board's "more ideas" tab, or null for the blend. */
  tabBoardId: number | null;
  /** This is the first home feed after onboarding: clear the flag in the same batch. */
  clearFirstAfterNux: boolean;
  /** A read of another part of the page (the viewer's promoted-pin facts) that rides in the feed's batch: one round trip. */
  beside?: D1PreparedStatement | null;
}

type RankedRow = GridCellRow & { rank: number };

/** A place's two parameters, and whether the stream is read at all. */
const placeBinds = (place: StreamPlace): [number | null, number | null] => (place === null || place === "end" ? [null, null] : [place.rank, place.id]);

export async function personalHomePage(db: D1Database, request: PersonalHomeRequest): Promise<PersonalHomePage> {
  const { viewerId, now, size, bookmark, tabBoardId } = request;
  const day = dayOf(now);
  const shared = [viewerId, daySeed(viewerId, day), day * DAY_MS] as const;
  const start: BlendBookmark = bookmark ?? { followed: null, popular: null };
  const nothing = () => db.prepare("SELECT 1 WHERE 0");
  const stream = (sql: string, place: StreamPlace, ...extra: number[]) =>
    place === "end" ? nothing() : db.prepare(sql).bind(...shared, ...placeBinds(place), size + 1, ...extra);
  const statements = [
    db.prepare(TABS_SQL).bind(viewerId),
    tabBoardId === null ? stream(FOLLOWED_SQL, start.followed) : stream(MORE_IDEAS_SQL, start.followed, tabBoardId),
    tabBoardId === null ? stream(POPULAR_SQL, start.popular) : nothing(),
  ];
  if (request.clearFirstAfterNux) statements.push(db.prepare("UPDATE users SET first_home_feed_after_nux = 0 WHERE id = ?1").bind(viewerId));
  if (request.beside) statements.push(request.beside);
  const results = await db.batch(statements);
  const [tabResult, followedResult, popularResult] = results;
  const tabs = ((tabResult?.results ?? []) as Array<{ id: number; name: string }>).map((row, index): HomeTab => ({ boardId: String(row.id), name: row.name, index: index + 1 }));
  const tab = tabBoardId === null ? null : (tabs.find((candidate) => candidate.boardId === String(tabBoardId)) ?? null);
  const followed = (followedResult?.results ?? []) as RankedRow[];
  const popular = (popularResult?.results ?? []) as RankedRow[];
  // A tab is one stream; its popular side stays at its end.
  const from: BlendBookmark = tabBoardId === null ? start : { followed: start.followed, popular: "end" };
  const page = interleave(followed, tabBoardId === null ? popular : [], size, from);
  return { pins: page.rows.map(gridPin), next: page.next, tabs, tab, ...(request.beside ? { besideRow: results.at(-1)?.results[0] } : {}) };
}
