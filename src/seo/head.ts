// The head of every public page: title, description, canonical, robots, hreflang
// alternates for the served locales and x-default, Open Graph and Twitter cards. Pure: pages
// build a PageHead and Base.astro renders it, so the rules are tested without a browser.
import { DEFAULT_LOCALE, toLanguageTag, type Locale } from "~/context/locales.ts";
import { LOCALE_QUERY } from "~/context/request-context.ts";

export const SITE_NAME = "Pinloom";
/** The site's logo (a committed static file), for the Organization in structured data. */
export const SITE_LOGO_PATH = "/images/pinloom-logo.png";
/** The share image of a page with no picture of its own, at Open Graph's 1200×630 (committed, in public/). */
export const DEFAULT_SHARE_IMAGE = { url: "/images/pinloom-share.png", width: 1200, height: 630 } as const;
/** Search snippets cut around 160 characters; longer descriptions are cut on a word. */
const DESCRIPTION_MAX = 160;
/** Below about 50 characters a snippet says too little, and search engines write their own. */
const DESCRIPTION_MIN = 50;

export interface HeadImage {
  url: string;
  width: number;
  height: number;
  alt: string;
}

export interface PageHead {
  title: string;
  description: string;
  /** Path of the page without the locale parameter, e.g. "/pin/123/". */
  canonicalPath: string;
  /** A reason not to index (spec: seoNoindexReason), or null. */
  noindexReason?: string | null;
  ogType?: "website" | "article" | "video.other" | "product" | "profile";
  image?: HeadImage | null;
  /** The source a pin links to (og:see_also). */
  seeAlso?: string | null;
  /** Structured data objects, each rendered as one application/ld+json block. */
  jsonLd?: ReadonlyArray<Record<string, unknown>>;
}

export interface HeadLink {
  rel: "canonical" | "alternate";
  href: string;
  hreflang?: string;
}

export interface HeadMeta {
  name?: string;
  property?: string;
  content: string;
}

export function truncateDescription(text: string, max = DESCRIPTION_MAX): string {
  const clean = text.replace(/\s+/g, " ").trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max - 1);
  const lastSpace = cut.lastIndexOf(" ");
  return `${(lastSpace > max * 0.6 ? cut.slice(0, lastSpace) : cut).replace(/[\s,.;:!?-]+$/, "")}…`;
}

/** Ends a sentence in the scripts the served locales use (Latin, Arabic). */
const SENTENCE_END = /[.!?…؟]$/;

/**
 * A page's description from its own content: the content when it says enough, else the content
 * followed by the page kind's fallback sentence, else the fallback alone; cut at 160 characters.
 */
export function pageDescription(content: string | null | undefined, fallback: string): string {
  const text = (content ?? "").replace(/\s+/g, " ").trim();
  if (text.length >= DESCRIPTION_MIN) return truncateDescription(text);
  const extra = fallback.replace(/\s+/g, " ").trim();
  if (text === "" || text === extra) return truncateDescription(extra);
  if (extra === "") return text;
  const lead = text.replace(/[\s,;:–—-]+$/, "");
  return truncateDescription(`${lead}${SENTENCE_END.test(lead) ? "" : "."} ${extra}`);
}

/** Locale codes need no escaping in a query (letters, digits and "_"), so one parsed URL serves them all. */
const PLAIN_LOCALE = /^[A-Za-z0-9_]+$/;

/**
 * The page's URL in each locale. English has one URL, the page's own: its canonical, its en-US
 * alternate and x-default are the same address. Every other locale is the page with ?locale=.
 */
export function localeUrls(origin: string, path: string): (locale: Locale) => string {
  const page = new URL(path, origin);
  const plain = page.search === "" && page.hash === "";
  return (locale) => {
    if (locale === DEFAULT_LOCALE) return page.href;
    if (plain && PLAIN_LOCALE.test(locale)) return `${page.href}?${LOCALE_QUERY}=${locale}`;
    const url = new URL(path, origin);
    url.searchParams.set(LOCALE_QUERY, locale);
    return url.href;
  };
}

/**
 * Canonical and hreflang links. The canonical is the page in the locale it is served in (each
 * language version is canonical to itself, as hreflang requires); the alternates are the
 * `advertised` locales (the complete ones) and x-default, the English URL.
 */
export function headLinks(origin: string, path: string, locale: Locale, advertised: readonly Locale[]): HeadLink[] {
  const inLocale = localeUrls(origin, path);
  return [
    { rel: "canonical", href: inLocale(locale) },
    ...advertised.map((other): HeadLink => ({ rel: "alternate", hreflang: toLanguageTag(other), href: inLocale(other) })),
    { rel: "alternate", hreflang: "x-default", href: inLocale(DEFAULT_LOCALE) },
  ];
}

/**
 * Open Graph's locale is language_TERRITORY. Locales written without a territory take their
 * language's main one; Latin American Spanish has no single territory, and Facebook names it es_LA.
 */
const OG_LOCALES: Partial<Record<Locale, string>> = {
  de: "de_DE",
  es_419: "es_LA",
  fr: "fr_FR",
  it: "it_IT",
  ja: "ja_JP",
  nl: "nl_NL",
  tr: "tr_TR",
};

export function ogLocale(locale: Locale): string {
  return OG_LOCALES[locale] ?? locale;
}

export function robotsContent(noindexReason: string | null | undefined): string {
  return noindexReason ? "noindex, follow" : "index, follow, max-image-preview:large";
}

export function headMeta(head: PageHead, canonical: string, locale: Locale, advertised: readonly Locale[] = []): HeadMeta[] {
  const description = truncateDescription(head.description);
  const meta: HeadMeta[] = [
    { name: "description", content: description },
    { name: "robots", content: robotsContent(head.noindexReason) },
    { property: "og:site_name", content: SITE_NAME },
    { property: "og:type", content: head.ogType ?? "website" },
    { property: "og:title", content: head.title },
    { property: "og:description", content: description },
    { property: "og:url", content: canonical },
    { property: "og:locale", content: ogLocale(locale) },
    ...advertised.filter((other) => other !== locale).map((other): HeadMeta => ({ property: "og:locale:alternate", content: ogLocale(other) })),
    { name: "twitter:card", content: head.image ? "summary_large_image" : "summary" },
    { name: "twitter:title", content: head.title },
    { name: "twitter:description", content: description },
  ];
  if (head.image) {
    const image = new URL(head.image.url, canonical).href;
    meta.push(
      { property: "og:image", content: image },
      { property: "og:image:width", content: String(head.image.width) },
      { property: "og:image:height", content: String(head.image.height) },
      { property: "og:image:alt", content: head.image.alt },
      { name: "twitter:image", content: image },
      { name: "twitter:image:alt", content: head.image.alt },
    );
  }
  if (head.seeAlso) meta.push({ property: "og:see_also", content: head.seeAlso });
  return meta;
}
