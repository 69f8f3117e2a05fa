// The session's trail in the browser (src/visits/trail.ts): kept in sessionStorage, this tab's
// visit only, and read once, by the sign-up form. Storage that refuses (private mode) keeps
// nothing and breaks nothing.
import { IMAGE_SIGNATURE, VISITED_PAGES_MAX, VIEWED_IMAGES_MAX, isSitePath, withViewedImage, withVisitedPage } from "./trail.ts";

const PAGES_KEY = "pinloom_visited_pages";
const IMAGES_KEY = "pinloom_viewed_images";

type Store = Pick<Storage, "getItem" | "setItem">;

function sessionStore(): Store | null {
  try {
    return typeof sessionStorage === "undefined" ? null : sessionStorage;
  } catch {
    return null;
  }
}

/** A stored list, or [] when it is missing or not a list of what it should hold. */
function readList(storage: Store | null, key: string, valid: (value: string) => boolean, max: number): string[] {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(key) ?? "[]");
    return Array.isArray(parsed) ? parsed.filter((value): value is string => typeof value === "string" && valid(value)).slice(0, max) : [];
  } catch {
    return [];
  }
}

function writeList(storage: Store | null, key: string, list: readonly string[]): void {
  try {
    storage?.setItem(key, JSON.stringify(list));
  } catch {
    // Full or refused: the trail is a nicety, never a reason to fail a page.
  }
}

export const visitedPages = (storage: Store | null = sessionStore()) => readList(storage, PAGES_KEY, isSitePath, VISITED_PAGES_MAX);
export const viewedImages = (storage: Store | null = sessionStore()) => readList(storage, IMAGES_KEY, (value) => IMAGE_SIGNATURE.test(value), VIEWED_IMAGES_MAX);

/**
 * Records this page: its path among the visited pages while signed out (they go with a
 * sign-up), and the close-up's image among the recently viewed.
 */
export function recordVisit(path: string, imageSignature: string | null, signedOut: boolean, storage: Store | null = sessionStore()): void {
  if (signedOut) writeList(storage, PAGES_KEY, withVisitedPage(visitedPages(storage), path));
  if (imageSignature !== null) writeList(storage, IMAGES_KEY, withViewedImage(viewedImages(storage), imageSignature));
}
