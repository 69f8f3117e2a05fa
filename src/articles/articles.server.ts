// Editorial article reads from D1. An article page costs one round trip: the article, its
// cover image and its pins go in one batch. Pins follow the home feed's visibility rule
// (VISIBLE_IN_FEEDS), so an article never links to a pin a stranger would get a 404 for.
import { GRID_COLUMNS, GRID_JOINS, VISIBLE_IN_FEEDS, gridPin, type GridPin, type GridRow } from "~/pins/pins.server.ts";
import { userImageUrl } from "~/users/user.ts";
import { visibleSql } from "~/visibility/visibility.server.ts";
import { articlePath } from "./article.ts";

/** Pins shown on one article page at most. */
const ARTICLE_PIN_LIMIT = 100;

interface ArticleAuthor {
  username: string;
  name: string;
  url: string;
  imageMediumUrl: string | null;
}

interface ArticleImage {
  url: string;
  width: number;
  height: number;
  alt: string;
}

export interface Article {
  id: string;
  title: string;
  subtitle: string | null;
  body: string;
  contentType: number;
  isShopping: boolean;
  /** The canonical path (articlePath). */
  path: string;
  publishedAt: string;
  updatedAt: string;
  /** Null when there is none or their profile is not visible to strangers. */
  author: ArticleAuthor | null;
  cover: ArticleImage | null;
  pins: GridPin[];
}

interface ArticleRow {
  id: number;
  title: string;
  subtitle: string | null;
  body: string | null;
  content_type: number;
  is_shopping: number;
  published_at: number;
  updated_at: number;
  author_username: string | null;
  author_full_name: string | null;
  author_image_key: string | null;
}

interface CoverRow {
  url: string;
  width: number;
  height: number;
  alt: string | null;
}

/** A published article with its visible pins, or null when there is no such published article. */
export async function getArticle(db: D1Database, id: number): Promise<Article | null> {
  const [articleResult, coverResult, pinsResult] = await db.batch([
    db
      .prepare(
        `SELECT a.id, a.title, a.subtitle, a.body, a.content_type, a.is_shopping, a.published_at, a.updated_at,
                u.username AS author_username, u.full_name AS author_full_name, u.image_key AS author_image_key
         FROM today_articles a
         LEFT JOIN users u ON u.id = a.author_id AND ${visibleSql("publicProfile", { user: "u" }, null)}
         WHERE a.id = ?1 AND a.is_published = 1`,
      )
      .bind(id),
    // The cover: the largest rendition a page shows (736x, else orig) of a pin anyone may see.
    db
      .prepare(
        `SELECT ci.url, ci.width, ci.height, COALESCE(p.alt_text, p.auto_alt_text, p.title) AS alt
         FROM today_articles a
         JOIN pins p ON p.id = a.cover_pin_id
         JOIN pin_images ci ON ci.pin_id = p.id AND ci.size IN ('736x', 'orig')
         LEFT JOIN boards b ON b.id = p.board_id
         JOIN users pu ON pu.id = p.pinner_id
         WHERE a.id = ?1 AND a.is_published = 1 AND ${VISIBLE_IN_FEEDS}
         ORDER BY ci.size = '736x' DESC
         LIMIT 1`,
      )
      .bind(id),
    db
      .prepare(
        `SELECT ${GRID_COLUMNS}
         FROM today_article_pins ap
         JOIN today_articles a ON a.id = ap.article_id AND a.is_published = 1
         JOIN pins p ON p.id = ap.pin_id
         ${GRID_JOINS}
         WHERE ap.article_id = ?1 AND ${VISIBLE_IN_FEEDS}
         ORDER BY ap.position, p.id
         LIMIT ?2`,
      )
      .bind(id, ARTICLE_PIN_LIMIT),
  ]);
  const row = (articleResult?.results as ArticleRow[] | undefined)?.[0];
  if (!row) return null;
  const cover = (coverResult?.results as CoverRow[] | undefined)?.[0];
  const isShopping = row.is_shopping === 1;
  return {
    id: String(row.id),
    title: row.title,
    subtitle: row.subtitle || null,
    body: row.body ?? "",
    contentType: row.content_type,
    isShopping,
    path: articlePath({ id: row.id, title: row.title, isShopping, contentType: row.content_type }),
    publishedAt: new Date(row.published_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    author: row.author_username
      ? {
          username: row.author_username,
          name: row.author_full_name || row.author_username,
          url: `/${encodeURIComponent(row.author_username)}/`,
          imageMediumUrl: userImageUrl(row.author_image_key, "medium"),
        }
      : null,
    cover: cover ? { url: cover.url, width: cover.width, height: cover.height, alt: cover.alt ?? "" } : null,
    pins: ((pinsResult?.results ?? []) as GridRow[]).map(gridPin),
  };
}
