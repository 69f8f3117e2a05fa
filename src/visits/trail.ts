// What a visit leaves in its session, for sign-up (spec 001 §3 "Session": viewedImages; spec 000
// §3 signup payload: visited_pages, user_behavior_data). Pure: the bounds and the rules, shared
// by the browser that keeps the lists and the server that checks them at sign-up.
//
//  - Recently viewed images (spec 001 §9): at most 11 image signatures, the new one plus 10,
//    newest first; viewing one again moves it to the front.
//  - Visited pages (spec 000 §9): at most 20 pages, of which at most 10 pin close-ups, newest
//    first; the path only (a query can hold a search term or a token: never kept), and only
//    pages people land on (home, Today and articles, close-ups, search, profiles, boards and
//    sections), never log-in, sign-up, settings or the builder.
import { pageHandlerId } from "~/context/request-facts.ts";

/** The pages (by their route, src/pages/) a visit's trail keeps. */
const LANDING_HANDLERS = new Set(["/", "/homefeed", "/today", "/today/[segment]/[slug]/[id]", "/pin/[id]", "/pin/[id]/sent", "/search/[scope]", "/[username]", "/[username]/[board]", "/[username]/[board]/[section]"]);
const PIN_HANDLERS = new Set(["/pin/[id]", "/pin/[id]/sent"]);

export const VIEWED_IMAGES_MAX = 11;
export const VISITED_PAGES_MAX = 20;
export const VISITED_PIN_PAGES_MAX = 10;
const PATH_MAX = 2048;

/** An image signature as pins and uploads write them (hex ids; letters, digits, - and _). */
export const IMAGE_SIGNATURE = /^[A-Za-z0-9_-]{1,64}$/;

/** A same-site path: one leading slash, no scheme or host, no backslash, no query. */
export function isSitePath(path: string): boolean {
  return path.length <= PATH_MAX && path.startsWith("/") && !path.startsWith("//") && !/[\\?#\s]/.test(path);
}

export const isPinPage = (path: string) => PIN_HANDLERS.has(pageHandlerId(path) ?? "");

/** The list after viewing an image: it first, then the others that fit (11 in all). */
export function withViewedImage(list: readonly string[], signature: string): string[] {
  if (!IMAGE_SIGNATURE.test(signature)) return [...list].slice(0, VIEWED_IMAGES_MAX);
  return [signature, ...list.filter((each) => each !== signature)].slice(0, VIEWED_IMAGES_MAX);
}

/** Whether a visit to this path is kept at all. */
function isTrailPage(path: string): boolean {
  return isSitePath(path) && LANDING_HANDLERS.has(pageHandlerId(path) ?? "");
}

/** The list after visiting a page: it first, then the others; 20 pages, 10 of them pin pages. */
export function withVisitedPage(list: readonly string[], path: string): string[] {
  const pages = isTrailPage(path) ? [path, ...list.filter((each) => each !== path)] : [...list];
  let pinPages = 0;
  return pages
    .filter((page) => {
      if (!isPinPage(page)) return true;
      pinPages++;
      return pinPages <= VISITED_PIN_PAGES_MAX;
    })
    .slice(0, VISITED_PAGES_MAX);
}

/** The key of user_behavior_data (spec 000 §3 signup payload) that carries the recently viewed images. */
export const VIEWED_IMAGES_KEY = "viewed_images";

/** user_behavior_data for a sign-up: the viewed images, or nothing when there are none. */
export function trailBehavior(images: readonly string[]): Record<string, unknown> | undefined {
  return images.length > 0 ? { [VIEWED_IMAGES_KEY]: images.slice(0, VIEWED_IMAGES_MAX) } : undefined;
}
