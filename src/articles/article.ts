// Editorial "Today" articles (spec 000 §2): the address rules and the structured data. Pure.
//
//   /today/{segment}/{slug}/{id}/
//
// The slug is the title lowercased, stripped of punctuation (Unicode punctuation and symbols,
// \p{P}\p{S}, so hyphens, apostrophes and emoji go too), whitespace runs turned into one
// hyphen, hyphens trimmed, then URL-encoded. The segment is "shop" for shopping items, then
// "trending" for content type 0 or 2, "best" for content type 1, otherwise "article".
import { SITE_NAME } from "~/seo/head.ts";

export type ArticleSegment = "shop" | "trending" | "best" | "article";

/** The slug of a title that has nothing left after stripping (all emoji, all punctuation). */
export const EMPTY_SLUG = "article";

/** What the address depends on. */
export interface ArticleAddress {
  id: number | string;
  title: string;
  isShopping: boolean;
  contentType: number;
}

/** Lone surrogates cannot be URL-encoded (encodeURIComponent throws); they carry no text. */
const LONE_SURROGATE = /\p{Cs}/gu;
const PUNCTUATION_AND_SYMBOLS = /[\p{P}\p{S}]/gu;
const WHITESPACE_RUN = /\s+/gu;
const EDGE_HYPHENS = /^-+|-+$/g;

export function articleSlug(title: string): string {
  const words = title
    .replace(LONE_SURROGATE, "")
    .toLowerCase()
    .replace(PUNCTUATION_AND_SYMBOLS, "")
    .trim()
    .replace(WHITESPACE_RUN, "-")
    .replace(EDGE_HYPHENS, "");
  return encodeURIComponent(words || EMPTY_SLUG);
}

export function articleSegment({ isShopping, contentType }: { isShopping: boolean; contentType: number }): ArticleSegment {
  if (isShopping) return "shop";
  if (contentType === 0 || contentType === 2) return "trending";
  if (contentType === 1) return "best";
  return "article";
}

/** The canonical path, with its trailing slash. */
export function articlePath(article: ArticleAddress): string {
  return `/today/${articleSegment(article)}/${articleSlug(article.title)}/${article.id}/`;
}

const ARTICLE_ID = /^[1-9][0-9]{0,15}$/;

/** A path's id segment as a row id, or null for anything but a plain positive integer. */
export function parseArticleId(text: string | undefined): number | null {
  if (text === undefined || !ARTICLE_ID.test(text)) return null;
  const id = Number(text);
  return Number.isSafeInteger(id) ? id : null;
}

/** Plain-text body → paragraphs: split on blank lines, trimmed, empty ones dropped. */
export function articleParagraphs(body: string | null): string[] {
  if (!body) return [];
  return body
    .replace(/\r\n?/g, "\n")
    .split(/\n[^\S\n]*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph.length > 0);
}

type JsonLd = Record<string, unknown>;

export interface ArticleStructuredInput {
  title: string;
  subtitle: string | null;
  publishedAt: string;
  updatedAt: string;
  author: { name: string; url: string | null } | null;
  /** Absolute or site-relative; made absolute against the canonical URL. */
  image: string | null;
}

/** JSON-LD for an article page: Article, then BreadcrumbList (Pinloom › Today › the article). */
export function articleStructuredData(article: ArticleStructuredInput, canonical: string): JsonLd[] {
  const origin = new URL(canonical).origin;
  const absolute = (url: string) => new URL(url, origin).href;
  const compact = (value: JsonLd): JsonLd => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined));
  const crumbs = [
    { name: SITE_NAME, url: absolute("/") },
    { name: article.title || SITE_NAME, url: canonical },
  ];
  return [
    compact({
      "@context": "https://schema.org",
      "@type": "Article",
      url: canonical,
      mainEntityOfPage: canonical,
      headline: article.title.slice(0, 110),
      description: article.subtitle || null,
      image: article.image ? absolute(article.image) : null,
      datePublished: article.publishedAt,
      dateModified: article.updatedAt,
      author: article.author
        ? compact({ "@type": "Person", name: article.author.name, url: article.author.url ? absolute(article.author.url) : null })
        : { "@type": "Organization", name: SITE_NAME, url: absolute("/") },
      publisher: { "@type": "Organization", name: SITE_NAME, url: absolute("/") },
    }),
    {
      "@context": "https://schema.org",
      "@type": "BreadcrumbList",
      itemListElement: crumbs.map((crumb, index) => ({ "@type": "ListItem", position: index + 1, name: crumb.name, item: crumb.url })),
    },
  ];
}
