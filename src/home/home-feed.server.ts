// The signed-in home feed from D1 (the blend's rules: blend.ts). One batch, so a signed-in home
// page costs the one round trip the shared feed did: the followed stream, the popular stream,
// the person's board tabs, and (on the first feed after onboarding) the flag's clearing.
//
// Every pin passes the searchPin rule for this viewer (src/visibility/: not deleted, neither
// hidden nor unsafe, and reachable by them), is not their own, and is by nobody they blocked or
// who blocked them. Each source is read through its index and capped, so the work per page is
// bounded however much a person follows.
import { GRID_CELL_COLUMNS, GRID_JOINS, gridPin, type GridCellRow, type GridPin } from "~/pins/pins.server.ts";
import { visibleSql } from "~/visibility/visibility.server.ts";
import { BLEND_WEIGHTS, POPULAR_WEIGHTS, dayOf, daySeed, interleave, type BlendBookmark, type StreamPlace } from "./blend.ts";

const DAY_MS = 86_400_000;
/** Most candidates each source gives a page's ranking: the newest of each. */
const SOURCE_CAP = 600;
/** Popular pins are ranked among the newest this many pins anyone may see. */
const POPULAR_WINDOW = 1000;
/** The person's boards shown as "more ideas" tabs, most recently changed first. */
const MAX_TABS = 8;
/** Topics of a board its "more ideas" tab draws on: its most common ones. */
const TAB_TOPICS = 5;

/** Parameters every statement shares: ?1 viewer, ?2 day seed, ?3 start of the day (ms). */
const VISIBLE = visibleSql("searchPin", { pin: "p", board: "b", pinner: "pu" }, "?1");
const NOT_BLOCKED = `p.pinner_id != ?1 AND NOT EXISTS (SELECT 1 FROM blocks k WHERE (k.blocker_id = ?1 AND k.blocked_id = p.pinner_id) OR (k.blocker_id = p.pinner_id AND k.blocked_id = ?1))`;
/** A number in 0..range-1 fixed by the pin and the day seed: two rounds of a Lehmer generator. */
const jitter = (range: number) => `((((p.id % 2147483647) * 48271 + ?2) % 2147483647) * 16807 % 2147483647) % ${range}`;

const FOLLOWED = `
  fu AS (SELECT target_id AS id FROM follows WHERE follower_id = ?1 AND target_type = 'user' LIMIT 2000),
  fb AS (SELECT target_id AS id FROM follows WHERE follower_id = ?1 AND target_type = 'board' LIMIT 2000),
  fi AS (SELECT target_id AS id FROM follows WHERE follower_id = ?1 AND target_type = 'interest' LIMIT 500)`;

/** 1 for a pin (`p`) of something the person follows, by source. */
const BY_PERSON = "p.pinner_id IN (SELECT id FROM fu)";
const ON_BOARD = "(p.board_id IN (SELECT id FROM fb) OR EXISTS (SELECT 1 FROM board_pins x WHERE x.pin_id = p.id AND x.board_id IN (SELECT id FROM fb)))";
const IN_TOPIC = "EXISTS (SELECT 1 FROM pin_interests y WHERE y.pin_id = p.id AND y.interest_id IN (SELECT id FROM fi))";

/** Keyset condition past a stream's place (?4 rank, ?5 id), newest rank first. */
const PAST_PLACE = "(?4 IS NULL OR rank < ?4 OR (rank = ?4 AND p.id < ?5))";

const FOLLOWED_SQL = `
  WITH ${FOLLOWED},
  cand(id) AS (
    SELECT id FROM (SELECT p.id FROM pins p WHERE p.pinner_id IN (SELECT id FROM fu) ORDER BY p.created_at DESC LIMIT ${SOURCE_CAP})
    UNION SELECT id FROM (SELECT p.id FROM pins p WHERE p.board_id IN (SELECT id FROM fb) ORDER BY p.created_at DESC LIMIT ${SOURCE_CAP})
    UNION SELECT pin_id FROM (SELECT bp.pin_id FROM board_pins bp WHERE bp.board_id IN (SELECT id FROM fb) ORDER BY bp.created_at DESC LIMIT ${SOURCE_CAP})
    UNION SELECT pin_id FROM (SELECT pi.pin_id FROM pin_interests pi WHERE pi.interest_id IN (SELECT id FROM fi) ORDER BY pi.pin_id DESC LIMIT ${SOURCE_CAP})
  )
  SELECT * FROM (
    SELECT ${GRID_CELL_COLUMNS},
           (CASE WHEN ${BY_PERSON} THEN ${BLEND_WEIGHTS.person} ELSE 0 END
            + CASE WHEN ${ON_BOARD} THEN ${BLEND_WEIGHTS.board} ELSE 0 END
            + CASE WHEN ${IN_TOPIC} THEN ${BLEND_WEIGHTS.topic} ELSE 0 END
            + CASE WHEN p.created_at >= ?3 - ${7 * DAY_MS} THEN ${BLEND_WEIGHTS.freshWeek} WHEN p.created_at >= ?3 - ${30 * DAY_MS} THEN ${BLEND_WEIGHTS.freshMonth} ELSE 0 END
            + ${jitter(BLEND_WEIGHTS.jitterRange)}) AS rank
    FROM cand JOIN pins p ON p.id = cand.id
    ${GRID_JOINS}
    WHERE ${VISIBLE} AND ${NOT_BLOCKED}
  ) AS p
  WHERE ${PAST_PLACE}
  ORDER BY rank DESC, p.id DESC
  LIMIT ?6`;

/** Popular pins: among the newest the feed shows, by saves in steps of 50, shuffled within a step for the day. */
const POPULAR_SQL = `
  WITH ${FOLLOWED},
  win(id) AS (SELECT p.id FROM pins p WHERE p.is_deleted = 0 AND p.is_hidden = 0 ORDER BY p.created_at DESC LIMIT ${POPULAR_WINDOW})
  SELECT * FROM (
    SELECT ${GRID_CELL_COLUMNS},
           (MIN(p.save_count, ${POPULAR_WEIGHTS.saveCap}) / 50 * ${POPULAR_WEIGHTS.jitterRange} + ${jitter(POPULAR_WEIGHTS.jitterRange)}) AS rank
    FROM win JOIN pins p ON p.id = win.id
    ${GRID_JOINS}
    WHERE ${VISIBLE} AND ${NOT_BLOCKED} AND NOT ${BY_PERSON} AND NOT ${ON_BOARD} AND NOT ${IN_TOPIC}
  ) AS p
  WHERE ${PAST_PLACE}
  ORDER BY rank DESC, p.id DESC
  LIMIT ?6`;

/** A board's "more ideas": pins in its most common topics that are not on it, shuffled for the day. ?7 is the board. */
const MORE_IDEAS_SQL = `
  WITH bi(id) AS (
    SELECT pi.interest_id FROM board_pins bp JOIN pin_interests pi ON pi.pin_id = bp.pin_id
    WHERE bp.board_id = ?7 AND EXISTS (SELECT 1 FROM boards o WHERE o.id = ?7 AND o.owner_id = ?1)
    GROUP BY pi.interest_id ORDER BY COUNT(*) DESC, pi.interest_id LIMIT ${TAB_TOPICS}
  ),
  cand(id) AS (SELECT DISTINCT pin_id FROM (SELECT pi.pin_id FROM pin_interests pi WHERE pi.interest_id IN (SELECT id FROM bi) ORDER BY pi.pin_id DESC LIMIT ${SOURCE_CAP * 2}))
  SELECT * FROM (
    SELECT ${GRID_CELL_COLUMNS}, (${jitter(1_000_000)}) AS rank
    FROM cand JOIN pins p ON p.id = cand.id
    ${GRID_JOINS}
    WHERE ${VISIBLE} AND ${NOT_BLOCKED} AND NOT EXISTS (SELECT 1 FROM board_pins z WHERE z.board_id = ?7 AND z.pin_id = p.id)
  ) AS p
  WHERE ${PAST_PLACE}
  ORDER BY rank DESC, p.id DESC
  LIMIT ?6`;

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
  const [tabResult, followedResult, popularResult] = await db.batch(statements);
  const tabs = ((tabResult?.results ?? []) as Array<{ id: number; name: string }>).map((row, index): HomeTab => ({ boardId: String(row.id), name: row.name, index: index + 1 }));
  const tab = tabBoardId === null ? null : (tabs.find((candidate) => candidate.boardId === String(tabBoardId)) ?? null);
  const followed = (followedResult?.results ?? []) as RankedRow[];
  const popular = (popularResult?.results ?? []) as RankedRow[];
  // A tab is one stream; its popular side stays at its end.
  const from: BlendBookmark = tabBoardId === null ? start : { followed: start.followed, popular: "end" };
  const page = interleave(followed, tabBoardId === null ? popular : [], size, from);
  return { pins: page.rows.map(gridPin), next: page.next, tabs, tab };
}
