// The head of every public page: title, description, canonical, robots, hreflang
// alternates for the 45 locales and x-default, Open Graph and Twitter cards. Pure: pages
// build a PageHead and Base.astro renders it, so the rules are tested without a browser.
import { LOCALES, toLanguageTag, type Locale } from "~/context/locales.ts";
import { LOCALE_QUERY } from "~/context/request-context.ts";

export const SITE_NAME = "Pinloom";
/** Search snippets cut around 160 characters; longer descriptions are cut on a word. */
const DESCRIPTION_MAX = 160;

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

/** The URL of a page in one locale: hreflang alternates point at these. */
function localizedUrl(origin: string, path: string, locale: Locale): string {
  const url = new URL(path, origin);
  url.searchParams.set(LOCALE_QUERY, locale);
  return url.href;
}

/**
 * Canonical: the page's own URL, with ?locale= only when the visitor asked for a locale
 * explicitly (each language version is canonical to itself, as hreflang requires).
 */
export function canonicalUrl(origin: string, path: string, explicitLocale: Locale | null): string {
  return explicitLocale ? localizedUrl(origin, path, explicitLocale) : new URL(path, origin).href;
}

/** Locale codes need no escaping in a query (letters, digits and "_"), so one parsed URL serves all 45. */
const PLAIN_LOCALE = /^[A-Za-z0-9_]+$/;

export function headLinks(origin: string, path: string, explicitLocale: Locale | null): HeadLink[] {
  const page = new URL(path, origin);
  const plain = page.search === "" && page.hash === "";
  // Every render names 45 alternates: one URL parse for them all instead of one each (the
  // general path stays for a page whose path carries a query or fragment).
  const inLocale = (locale: Locale) => (plain && PLAIN_LOCALE.test(locale) ? `${page.href}?${LOCALE_QUERY}=${locale}` : localizedUrl(origin, path, locale));
  return [
    { rel: "canonical", href: explicitLocale ? inLocale(explicitLocale) : page.href },
    ...LOCALES.map((locale): HeadLink => ({ rel: "alternate", hreflang: toLanguageTag(locale), href: inLocale(locale) })),
    { rel: "alternate", hreflang: "x-default", href: page.href },
  ];
}

export function robotsContent(noindexReason: string | null | undefined): string {
  return noindexReason ? "noindex, follow" : "index, follow, max-image-preview:large";
}

export function headMeta(head: PageHead, canonical: string, locale: Locale): HeadMeta[] {
  const description = truncateDescription(head.description);
  const meta: HeadMeta[] = [
    { name: "description", content: description },
    { name: "robots", content: robotsContent(head.noindexReason) },
    { property: "og:site_name", content: SITE_NAME },
    { property: "og:type", content: head.ogType ?? "website" },
    { property: "og:title", content: head.title },
    { property: "og:description", content: description },
    { property: "og:url", content: canonical },
    { property: "og:locale", content: locale.includes("_") ? locale : `${locale}_${locale.toUpperCase()}` },
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
