// The news hub's reads and its one write of its own (NewsHubDetailsResource, NewsHubBadgeResource,
// the /news/ page and the bell): a person's items newest first, how many they have not seen,
// marking them seen, and the notification settings (users.settings $.news and $.push).
//
// Every read re-checks each item against its recipient now: the pin must still be one they may
// open (visibility rule `pin`), a block with the actor hides the item, a comment hidden since
// hides it, an invite or a join request no longer pending is gone, a tried-it post deleted since
// is gone, and the board and the actor are named only
// when the recipient may see them (rules `boardPage` and `profile`). The count applies the same
// filter as the list, so the bell never promises what the hub will not show.
import { visibleFlagSql, visibleSql } from "~/visibility/visibility.server.ts";
import { userImageUrl } from "~/users/user.ts";
import { boardPath } from "~/boards/write.server.ts";
import { NEWS_ITEMS_KEPT, NOTIFICATION_KEYS, readNotificationGroup, type NewsItem, type NewsKind, type NotificationGroup, type NotificationKey, type NotificationSettings } from "./news.ts";

/** The items a recipient (?1) may be shown (the FROM and WHERE every read shares). */
const SHOWN_FROM = `news_items n
  LEFT JOIN users a ON a.id = n.actor_id
  LEFT JOIN pins p ON p.id = n.pin_id LEFT JOIN boards pb ON pb.id = p.board_id LEFT JOIN users pu ON pu.id = p.pinner_id
  LEFT JOIN boards b ON b.id = n.board_id LEFT JOIN users bo ON bo.id = b.owner_id
  LEFT JOIN comments c ON c.id = n.comment_id`;
const PENDING_INVITE = "EXISTS (SELECT 1 FROM board_collaborators inv WHERE inv.board_id = n.board_id AND inv.user_id = ?1 AND inv.status = 'new' AND inv.type = 'invite')";
const SHOWN_WHERE = `n.user_id = ?1
  AND (n.actor_id IS NULL OR NOT EXISTS (SELECT 1 FROM blocks k WHERE (k.blocker_id = ?1 AND k.blocked_id = n.actor_id) OR (k.blocker_id = n.actor_id AND k.blocked_id = ?1)))
  AND (n.pin_id IS NULL OR ${visibleSql("pin", { pin: "p", board: "pb", pinner: "pu" }, "?1")})
  AND (n.comment_id IS NULL OR c.is_hidden = 0)
  AND (n.board_id IS NULL OR b.id IS NOT NULL)
  AND (n.kind != 'board_invite' OR ${PENDING_INVITE})
  AND (n.kind != 'join_request' OR EXISTS (SELECT 1 FROM board_collaborators rq WHERE rq.board_id = n.board_id AND rq.user_id = n.actor_id AND rq.status = 'new' AND rq.type = 'request'))
  AND (n.kind != 'did_it' OR EXISTS (SELECT 1 FROM did_its dt WHERE dt.pin_id = n.pin_id AND dt.user_id = n.actor_id))`;

interface ItemRow {
  id: number;
  kind: NewsKind;
  created_at: number;
  actor_id: number | null;
  actor_username: string | null;
  actor_full_name: string | null;
  actor_image_key: string | null;
  actor_visible: number;
  pin_id: number | null;
  pin_title: string | null;
  pin_image: string | null;
  board_id: number | null;
  board_name: string | null;
  board_slug: string | null;
  board_owner: string | null;
  board_visible: number;
  board_named: number;
  comment_id: number | null;
  comment_text: string | null;
  last_seen: number;
}

const COMMENT_EXCERPT = 140;

function toItem(row: ItemRow): NewsItem {
  const actorShown = row.actor_id !== null && row.actor_visible === 1 && row.actor_username !== null;
  return {
    id: String(row.id),
    type: row.kind,
    created_at: row.created_at,
    actor: actorShown
      ? { id: String(row.actor_id), username: row.actor_username!, full_name: row.actor_full_name ?? "", image_medium_url: userImageUrl(row.actor_image_key, "medium") }
      : null,
    pin: row.pin_id === null ? null : { id: String(row.pin_id), title: row.pin_title ?? "", image_url: row.pin_image },
    board:
      row.board_id !== null && row.board_named === 1 && row.board_name !== null
        ? { id: String(row.board_id), name: row.board_name, url: (row.board_visible === 1 || row.kind === "board_invite") && row.board_owner && row.board_slug ? boardPath(row.board_owner, row.board_slug) : null }
        : null,
    comment: row.comment_id === null ? null : { id: String(row.comment_id), text: (row.comment_text ?? "").slice(0, COMMENT_EXCERPT) },
    unseen: row.id > row.last_seen,
  };
}

interface NewsPage {
  items: NewsItem[];
  /** The next page's bookmark (the last item's id), or null at the end. */
  bookmark: string | null;
  /** The newest item's id on the first page: what opening the hub marks seen. */
  newest_id: string | null;
}

/** A page of the person's news, newest first, after the item `before` (an id) when given. */
export async function listNews(db: D1Database, userId: number, pageSize: number, before: number | null = null): Promise<NewsPage> {
  const { results } = await db
    .prepare(
      `SELECT n.id, n.kind, n.created_at, n.actor_id, a.username AS actor_username, a.full_name AS actor_full_name, a.image_key AS actor_image_key,
              ${visibleFlagSql("profile", { user: "a" }, "?1")} AS actor_visible,
              n.pin_id, p.title AS pin_title, (SELECT i.url FROM pin_images i WHERE i.pin_id = p.id AND i.size = '236x') AS pin_image,
              n.board_id, b.name AS board_name, b.slug AS board_slug, bo.username AS board_owner,
              ${visibleFlagSql("boardPage", { board: "b", owner: "bo" }, "?1")} AS board_visible,
              CASE WHEN ${visibleSql("board", { board: "b" }, "?1")} OR (n.kind = 'board_invite' AND ${PENDING_INVITE}) THEN 1 ELSE 0 END AS board_named,
              n.comment_id, c.text AS comment_text,
              coalesce((SELECT s.last_seen_id FROM news_hub_seen s WHERE s.user_id = ?1), 0) AS last_seen
       FROM ${SHOWN_FROM}
       WHERE ${SHOWN_WHERE} AND (?2 IS NULL OR n.id < ?2)
       ORDER BY n.id DESC LIMIT ?3`,
    )
    .bind(userId, before, pageSize + 1)
    .all<ItemRow>();
  const items = results.slice(0, pageSize).map(toItem);
  const more = results.length > pageSize;
  return { items, bookmark: more ? (items.at(-1)?.id ?? null) : null, newest_id: before === null ? (items[0]?.id ?? null) : null };
}

/** How many of the person's shown items are newer than the last they saw (at most NEWS_ITEMS_KEPT). */
export async function unseenNewsCount(db: D1Database, userId: number): Promise<number> {
  const row = await db
    .prepare(
      `SELECT count(*) AS n FROM ${SHOWN_FROM}
       WHERE ${SHOWN_WHERE} AND n.id > coalesce((SELECT s.last_seen_id FROM news_hub_seen s WHERE s.user_id = ?1), 0)`,
    )
    .bind(userId)
    .first<{ n: number }>();
  return Math.min(row?.n ?? 0, NEWS_ITEMS_KEPT);
}

/**
 * Marks the person's news seen up to the item `upTo` (the newest they were shown; what arrived
 * after stays unseen). Never moves backwards, and never past an item that is not theirs.
 */
export async function markNewsSeen(db: D1Database, userId: number, upTo: number, now = Date.now()): Promise<void> {
  await db.batch([
    db
      .prepare(
        `INSERT INTO news_hub_seen (user_id, last_seen_id, seen_at)
         SELECT ?1, n.id, ?3 FROM news_items n WHERE n.id = ?2 AND n.user_id = ?1
         ON CONFLICT (user_id) DO UPDATE SET last_seen_id = max(last_seen_id, excluded.last_seen_id), seen_at = excluded.seen_at`,
      )
      .bind(userId, upTo, now),
  ]);
}

/** A stored group's JSON text as a value (null for none, or for text that does not parse). */
function parseStored(text: string | null): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** One notification settings list as stored (each field its default unless stored). */
export async function readNotificationSettings(db: D1Database, userId: number, group: NotificationGroup): Promise<NotificationSettings> {
  const row = await db
    .prepare(`SELECT CASE WHEN json_valid(settings) THEN json_extract(settings, '$.${group}') END AS stored FROM users WHERE id = ?1`)
    .bind(userId)
    .first<{ stored: string | null }>();
  return readNotificationGroup(parseStored(row?.stored ?? null));
}

/**
 * Changes the given fields of one list and answers the whole list: merged in SQL (json_patch
 * over the stored group), so two changes to different fields never undo each other.
 */
export async function writeNotificationSettings(
  db: D1Database,
  userId: number,
  group: NotificationGroup,
  changes: Partial<Record<NotificationKey, boolean | undefined>>,
): Promise<NotificationSettings> {
  const given = Object.fromEntries(NOTIFICATION_KEYS.filter((key) => changes[key] !== undefined).map((key) => [key, changes[key]]));
  const [, read] = await db.batch([
    db
      .prepare(
        `UPDATE users SET settings = json_set(
            CASE WHEN json_valid(settings) AND json_type(settings) = 'object' THEN settings ELSE '{}' END,
            '$.${group}',
            json_patch(coalesce(CASE WHEN json_valid(settings) THEN CASE WHEN json_type(settings, '$.${group}') = 'object' THEN json_extract(settings, '$.${group}') END END, '{}'), ?2))
          WHERE id = ?1`,
      )
      .bind(userId, JSON.stringify(given)),
    db.prepare(`SELECT json_extract(settings, '$.${group}') AS stored FROM users WHERE id = ?1`).bind(userId),
  ]);
  return readNotificationGroup(parseStored((read?.results?.[0] as { stored: string | null } | undefined)?.stored ?? null));
}
