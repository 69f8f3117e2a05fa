// What a web page offers the pin builder: its images (og:image, twitter:image, link
// rel=image_src, img src and srcset, in document order) and its title, description and
// canonical link. The HTML is read by the Worker's HTMLRewriter (find-images.server.ts); what
// it gathers is turned into the answer here, pure, so the rules are tested in Node.
import { PIN_DESCRIPTION_MAX, PIN_LINK_MAX, PIN_TITLE_MAX } from "~/pins/pin.ts";
import { isPrivateHost } from "./web-address.ts";

/** Spec: FindPinImagesResource answers at most 50 items. */
export const FOUND_IMAGES_MAX = 50;
/**
 * Candidates gathered from one page before any is judged: enough to fill 50 after data URIs,
 * icons and duplicates are dropped, and a bound on what a page can make the Worker hold.
 */
export const PAGE_CANDIDATES_MAX = 300;
/** An image the page declares smaller than this on either side is an icon, a spacer or a tracking pixel. */
const MIN_IMAGE_SIDE = 100;
/** Alt text kept per image: the draft's own limit for alt text. */
const ALT_MAX = 500;

export interface ImageCandidate {
  src: string;
  width: number | null;
  height: number | null;
  alt: string;
}

/** What the rewriter gathered from the page's HTML, raw (attribute values not yet decoded). */
export interface PageRead {
  baseHref: string | null;
  title: string;
  description: string;
  canonical: string | null;
  candidates: ImageCandidate[];
}

export interface FoundImage {
  /** Absolute http(s) URL. */
  src: string;
  width: number | null;
  height: number | null;
  alt: string;
}

/** The named references titles, descriptions and alt text use; a rarer one stays as written. */
const NAMED_ENTITIES: Record<string, string> = {
  amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0",
  mdash: "\u2014", ndash: "\u2013", hellip: "\u2026", lsquo: "\u2018", rsquo: "\u2019", ldquo: "\u201c", rdquo: "\u201d",
  laquo: "\u00ab", raquo: "\u00bb", middot: "\u00b7", bull: "\u2022", copy: "\u00a9", reg: "\u00ae", trade: "\u2122",
  deg: "\u00b0", times: "\u00d7", euro: "\u20ac", pound: "\u00a3",
  eacute: "\u00e9", egrave: "\u00e8", ecirc: "\u00ea", agrave: "\u00e0", acirc: "\u00e2", ccedil: "\u00e7",
  ocirc: "\u00f4", icirc: "\u00ee", ucirc: "\u00fb", uuml: "\u00fc", ouml: "\u00f6", auml: "\u00e4", szlig: "\u00df",
};

/** HTML character references in an attribute value or text (the rewriter hands them over as written). */
export function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,6});?/gi, (whole, name: string) => {
    if (name.startsWith("#")) {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : "\ufffd";
    }
    return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** A positive pixel count from an attribute ("640", "640px"); null for anything else ("100%", "auto"). */
export function pixelSize(value: string | null): number | null {
  if (value === null) return null;
  const match = /^\s*([0-9]{1,6})(?:\.[0-9]+)?\s*(?:px)?\s*$/i.exec(value);
  if (!match) return null;
  const pixels = Number(match[1]);
  return pixels > 0 ? pixels : null;
}

/** The srcset candidate with the most pixels (by its w, else x descriptor) and its width when it says. */
export function largestSrcsetCandidate(srcset: string): { src: string; width: number | null } | null {
  let best: { src: string; width: number | null; score: number } | null = null;
  // Candidates are separated by a comma followed by white space; a URL may hold bare commas.
  for (const part of srcset.split(/,\s+/).slice(0, 32)) {
    const [src, descriptor = "1x"] = part.trim().split(/\s+/);
    if (!src) continue;
    const w = /^([0-9]+)w$/.exec(descriptor);
    const x = /^([0-9]*\.?[0-9]+)x$/.exec(descriptor);
    const score = w ? Number(w[1]) : x ? Number(x[1]) : 1;
    // A width descriptor outranks any density one: it names real pixels.
    const ranked = w ? score * 1000 : score;
    if (!best || ranked > best.score) best = { src: src.replace(/,$/, ""), width: w ? Number(w[1]) : null, score: ranked };
  }
  return best ? { src: best.src, width: best.width } : null;
}

/** An absolute http(s) URL from a page's reference, or null (data:, javascript:, broken, too long). */
export function absoluteUrl(reference: string, base: URL): URL | null {
  const text = decodeEntities(reference).trim();
  if (text === "" || /^data:/i.test(text)) return null;
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  url.hash = "";
  return url.href.length <= PIN_LINK_MAX ? url : null;
}

const cleanText = (text: string, maximum: number) => decodeEntities(text).replace(/\s+/g, " ").trim().slice(0, maximum);

/** The base relative references resolve against: the page's <base href> when it is a web address, else the page's own. */
function pageBase(read: Pick<PageRead, "baseHref">, pageUrl: URL): URL {
  return (read.baseHref === null ? null : absoluteUrl(read.baseHref, pageUrl)) ?? pageUrl;
}

/**
 * The page's images as the builder offers them: absolute, in page order, without data URIs,
 * images declared smaller than MIN_IMAGE_SIDE, private addresses or duplicates (a repeat lends
 * the first its missing size or alt). Not yet judged against the blocked hosts, which need D1.
 */
export function foundImages(read: PageRead, pageUrl: URL): FoundImage[] {
  const base = pageBase(read, pageUrl);
  const bySrc = new Map<string, FoundImage>();
  for (const candidate of read.candidates.slice(0, PAGE_CANDIDATES_MAX)) {
    const url = absoluteUrl(candidate.src, base);
    if (!url || isPrivateHost(url.hostname)) continue;
    const { width, height } = candidate;
    if ((width !== null && width < MIN_IMAGE_SIDE) || (height !== null && height < MIN_IMAGE_SIDE)) continue;
    const alt = cleanText(candidate.alt, ALT_MAX);
    const seen = bySrc.get(url.href);
    if (seen) {
      seen.width ??= width;
      seen.height ??= height;
      if (seen.alt === "") seen.alt = alt;
      continue;
    }
    bySrc.set(url.href, { src: url.href, width, height, alt });
  }
  return [...bySrc.values()];
}

/** The page's title and description, cut to a pin's own limits so the builder can use them as they are. */
export function pageText(read: PageRead): { title: string; description: string } {
  return { title: cleanText(read.title, PIN_TITLE_MAX), description: cleanText(read.description, PIN_DESCRIPTION_MAX) };
}

/** The page's canonical link as an absolute web address, or null when it names none usable. */
export function canonicalUrl(read: PageRead, pageUrl: URL): URL | null {
  if (read.canonical === null) return null;
  const url = absoluteUrl(read.canonical, pageBase(read, pageUrl));
  return url && !isPrivateHost(url.hostname) ? url : null;
}
