// The Today tab (spec 001 §2 "Today/ideas article tab"; feed items typed `todayarticle`, §3):
// published articles grouped by the UTC day they were published, newest day first. Pure: the
// day arithmetic, the item shape the resources answer, and the page's structured data.
import { SITE_NAME } from "~/seo/head.ts";
import type { ArticleSegment } from "./article.ts";

/** Days one Today page (and one TodayTabResource page) shows. */
export const TODAY_DAYS_PER_PAGE = 7;
/** Articles shown for one day at most: an editor's busy day still makes a bounded page. */
export const TODAY_ARTICLES_PER_DAY = 20;
/** Related articles answered at most (RelatedArticlesResource). */
export const RELATED_ARTICLES_LIMIT = 12;

const DAY_MS = 24 * 60 * 60 * 1000;
const DAY_TEXT = /^(\d{4})-(\d{2})-(\d{2})$/;

/** "2026-11-20" → that UTC day's first millisecond; null for anything that is not a real date. */
export function dayStart(day: string): number | null {
  const match = DAY_TEXT.exec(day);
  if (!match) return null;
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const start = Date.UTC(year, month - 1, date);
  const back = new Date(start);
  // Date.UTC rolls 2026-02-31 into March: a day that does not round-trip does not exist.
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== date) return null;
  return start;
}

/** The UTC day after `day` (both "YYYY-MM-DD"). */
export function nextDay(day: string): string {
  return new Date((dayStart(day) ?? 0) + DAY_MS).toISOString().slice(0, 10);
}

/** The UTC day of an epoch-milliseconds time. */
export function dayOf(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 10);
}

interface TodayArticleImage {
  url: string;
  width: number;
  height: number;
  alt: string;
}

/** One article as the Today tab, its feed and related articles list it (type todayarticle). */
export interface TodayArticleItem {
  type: "todayarticle";
  id: string;
  title: string;
  subtitle: string | null;
  segment: ArticleSegment;
  /** The canonical path (articlePath). */
  url: string;
  /** The UTC day it belongs to. */
  date: string;
  published_at: string;
  updated_at: string;
  cover_image: TodayArticleImage | null;
}

export interface TodayDay {
  date: string;
  articles: TodayArticleItem[];
}

type JsonLd = Record<string, unknown>;

/**
 * JSON-LD for the Today index: a CollectionPage whose main entity lists the articles on the
 * page (in page order, at their canonical URLs), and the breadcrumb Pinloom › Today.
 */
export function todayStructuredData(input: { name: string; description: string; days: readonly TodayDay[] }, canonical: string): JsonLd[] {
  const origin = new URL(canonical).origin;
  const articles = input.days.flatMap((day) => day.articles);
  return [
    {
      "@context": "https://schema.org",
      "@type": "CollectionPage",
      url: canonical,
      name: input.name,
      description: input.description,
      isPartOf: { "@type": "WebSite", name: SITE_NAME, url: new URL("/", origin).href },
      mainEntity: {
        "@type": "ItemList",
        numberOfItems: articles.length,
        itemListElement: articles.map((article, index) => ({
          "@type": "ListItem",
          position: index + 1,
          url: new URL(article.url, origin).href,
          name: article.title,
        })),
      },
    },
    {
      "@context": "https://schema.org",
      "@type": "BreadcrumbList",
      itemListElement: [
        { "@type": "ListItem", position: 1, name: SITE_NAME, item: new URL("/", origin).href },
        { "@type": "ListItem", position: 2, name: input.name, item: canonical },
      ],
    },
  ];
}
