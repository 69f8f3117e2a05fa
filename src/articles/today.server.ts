// Today tab reads from D1 (TodayTabResource, TodayArticleFeedResource, RelatedArticlesResource
// and the /today/ page). Only published articles; a cover shows only when its pin is one a
// stranger may see in a feed (VISIBLE_IN_FEEDS), as on the article page. Days are UTC days.
import { VISIBLE_IN_FEEDS } from "~/pins/pins.server.ts";
import { encodeKeyset, keysetPageOf, type Keyset, type KeysetPage } from "~/feeds/cursor.ts";
import { articlePath, articleSegment } from "./article.ts";
import { RELATED_ARTICLES_LIMIT, TODAY_ARTICLES_PER_DAY, dayOf, dayStart, nextDay, type TodayArticleItem, type TodayDay } from "./today.ts";

interface ItemRow {
  id: number;
  title: string;
  subtitle: string | null;
  content_type: number;
  is_shopping: number;
  published_at: number;
  updated_at: number;
  cover_url: string | null;
  cover_width: number | null;
  cover_height: number | null;
  cover_alt: string | null;
}

const DAY_SQL = "date(a.published_at / 1000, 'unixepoch')";
/** articleSegment in SQL, for an article alias. */
const segmentSql = (alias: string) =>
  `CASE WHEN ${alias}.is_shopping = 1 THEN 'shop' WHEN ${alias}.content_type IN (0, 2) THEN 'trending' WHEN ${alias}.content_type = 1 THEN 'best' ELSE 'article' END`;

/** Item columns for an article `a`, with its cover (the grid size of a pin anyone may see). */
const ITEM_COLUMNS = `a.id, a.title, a.subtitle, a.content_type, a.is_shopping, a.published_at, a.updated_at,
       (SELECT ci.url FROM pins p JOIN pin_images ci ON ci.pin_id = p.id AND ci.size = '236x' LEFT JOIN boards b ON b.id = p.board_id JOIN users pu ON pu.id = p.pinner_id
         WHERE p.id = a.cover_pin_id AND ${VISIBLE_IN_FEEDS}) AS cover_url,
       (SELECT ci.width FROM pin_images ci WHERE ci.pin_id = a.cover_pin_id AND ci.size = '236x') AS cover_width,
       (SELECT ci.height FROM pin_images ci WHERE ci.pin_id = a.cover_pin_id AND ci.size = '236x') AS cover_height,
       (SELECT COALESCE(p.alt_text, p.auto_alt_text, p.title) FROM pins p WHERE p.id = a.cover_pin_id) AS cover_alt`;

function itemOf(row: ItemRow): TodayArticleItem {
  const isShopping = row.is_shopping === 1;
  return {
    type: "todayarticle",
    id: String(row.id),
    title: row.title,
    subtitle: row.subtitle || null,
    segment: articleSegment({ isShopping, contentType: row.content_type }),
    url: articlePath({ id: row.id, title: row.title, isShopping, contentType: row.content_type }),
    date: dayOf(row.published_at),
    published_at: new Date(row.published_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
    // The cover's size rows exist whenever its URL does (the same pin, the same size).
    cover_image:
      row.cover_url !== null && row.cover_width !== null && row.cover_height !== null
        ? { url: row.cover_url, width: row.cover_width, height: row.cover_height, alt: row.cover_alt ?? "" }
        : null,
  };
}

interface TodayDaysPage {
  days: TodayDay[];
  /** The day the next (older) page starts before, or null at the end. */
  before: string | null;
  /** The newest day older than the page's days (the next page's first), or null. */
  olderDay: string | null;
}

/**
 * Up to `dayCount` days with published articles, newest first, each with up to
 * TODAY_ARTICLES_PER_DAY of its articles (newest first). `before` ("YYYY-MM-DD") starts the
 * page at the days older than it.
 */
export async function listTodayDays(db: D1Database, options: { before?: string | null; dayCount: number }): Promise<TodayDaysPage> {
  const beforeMs = options.before ? dayStart(options.before) : null;
  // ?1 before (ms, or NULL), ?2 days + 1 (the extra one says whether an older page exists), ?3 per day.
  const { results } = await db
    .prepare(
      `WITH days AS (
         SELECT DISTINCT ${DAY_SQL} AS day FROM today_articles a
         WHERE a.is_published = 1 AND (?1 IS NULL OR a.published_at < ?1)
         ORDER BY day DESC LIMIT ?2),
       ranked AS (
         SELECT a.id, ${DAY_SQL} AS day,
                row_number() OVER (PARTITION BY ${DAY_SQL} ORDER BY a.published_at DESC, a.id DESC) AS rank
         FROM today_articles a
         WHERE a.is_published = 1 AND (?1 IS NULL OR a.published_at < ?1) AND ${DAY_SQL} IN (SELECT day FROM days))
       SELECT ${ITEM_COLUMNS}, r.day AS day
       FROM ranked r JOIN today_articles a ON a.id = r.id
       WHERE r.rank <= ?3
       ORDER BY r.day DESC, a.published_at DESC, a.id DESC`,
    )
    .bind(beforeMs, options.dayCount + 1, TODAY_ARTICLES_PER_DAY)
    .all<ItemRow & { day: string }>();
  const days: TodayDay[] = [];
  for (const row of results) {
    const last = days.at(-1);
    if (last && last.date === row.day) last.articles.push(itemOf(row));
    else days.push({ date: row.day, articles: [itemOf(row)] });
  }
  const more = days.length > options.dayCount;
  const shown = days.slice(0, options.dayCount);
  return { days: shown, before: more ? (shown.at(-1)?.date ?? null) : null, olderDay: days[options.dayCount]?.date ?? null };
}

interface TodayTab extends TodayDay {
  /** The nearest older day with articles, or null. */
  previous_date: string | null;
  /** The nearest newer day with articles, or null. */
  next_date: string | null;
}

/** One day's tab (the newest day when `date` is null), or null when that day has no published article. */
export async function getTodayTab(db: D1Database, date: string | null): Promise<TodayTab | null> {
  const page = await listTodayDays(db, { before: date === null ? null : nextDay(date), dayCount: 1 });
  const day = page.days[0];
  if (!day || (date !== null && day.date !== date)) return null;
  const start = dayStart(day.date)!;
  const newer = await db
    .prepare(`SELECT min(${DAY_SQL}) AS day FROM today_articles a WHERE a.is_published = 1 AND a.published_at >= ?1`)
    .bind(start + 24 * 60 * 60 * 1000)
    .first<{ day: string | null }>();
  return { ...day, previous_date: page.olderDay, next_date: newer?.day ?? null };
}

/** Every published article, newest first, keyset-paged by (published_at, id) descending. */
export async function listTodayArticles(db: D1Database, cursor: Keyset | null, size: number): Promise<KeysetPage<TodayArticleItem>> {
  const { results } = await db
    .prepare(
      `SELECT ${ITEM_COLUMNS}
       FROM today_articles a
       WHERE a.is_published = 1 AND (?1 IS NULL OR a.published_at < ?1 OR (a.published_at = ?1 AND a.id < ?2))
       ORDER BY a.published_at DESC, a.id DESC
       LIMIT ?3`,
    )
    .bind(cursor?.key ?? null, cursor?.id ?? null, size + 1)
    .all<ItemRow>();
  return keysetPageOf(results, size, (row) => encodeKeyset(row.published_at, row.id), itemOf, () => true);
}

/**
 * Articles related to a published one, or null when it is not published: those sharing the
 * most visible pins with it first, then those of its segment, then the nearest in time.
 */
export async function listRelatedArticles(db: D1Database, articleId: number, size = RELATED_ARTICLES_LIMIT): Promise<TodayArticleItem[] | null> {
  const [origin, related] = await db.batch([
    db.prepare("SELECT id FROM today_articles WHERE id = ?1 AND is_published = 1").bind(articleId),
    db
      .prepare(
        `WITH me AS (SELECT id, content_type, is_shopping, published_at FROM today_articles WHERE id = ?1 AND is_published = 1)
         SELECT ${ITEM_COLUMNS},
                (SELECT count(*) FROM today_article_pins mine JOIN today_article_pins theirs ON theirs.pin_id = mine.pin_id
                  WHERE mine.article_id = me.id AND theirs.article_id = a.id) AS shared,
                (${segmentSql("a")}) = (${segmentSql("me")}) AS same_segment
         FROM me JOIN today_articles a ON a.id <> me.id AND a.is_published = 1
         ORDER BY shared DESC, same_segment DESC, abs(a.published_at - me.published_at), a.id
         LIMIT ?2`,
      )
      .bind(articleId, size),
  ]);
  if (!origin?.results.length) return null;
  return ((related?.results ?? []) as ItemRow[]).map(itemOf);
}
