// Client feed rules of spec 000 §4 and 001 §4, as pure functions the feed islands apply:
// resource lists paged by bookmark, the home feed's restore window, scroll on navigation and
// the pin-grid footer.
import { HOME_FEED_RESTORE_EXPERIMENT } from "~/experiments/experiments.ts";

/** The bookmark a server sends when there is nothing more. */
export const END_MARKER = "-end-";

export interface ResourceList<T> {
  items: T[];
  bookmark: string | null;
  fetching: boolean;
  error: { status: number | null } | null;
  /** At the end: the last bookmark was the end marker. */
  ended: boolean;
  /** Whether the first load has already been retried once after a server error. */
  retried: boolean;
  loaded: boolean;
}

export function emptyList<T>(): ResourceList<T> {
  return { items: [], bookmark: null, fetching: false, error: null, ended: false, retried: false, loaded: false };
}

/** A fetch starts: the fetching flag is set and any previous error is cleared. */
export function fetchStarted<T>(list: ResourceList<T>): ResourceList<T> {
  return { ...list, fetching: true, error: null };
}

/** Data replaces the list on refresh and is appended when paging by bookmark. */
export function fetchSucceeded<T>(list: ResourceList<T>, page: { items: T[]; bookmark: string | null }, refresh: boolean): ResourceList<T> {
  return {
    ...list,
    items: refresh ? page.items : [...list.items, ...page.items],
    bookmark: page.bookmark,
    ended: page.bookmark === END_MARKER || page.bookmark === null,
    fetching: false,
    error: null,
    loaded: true,
  };
}

/**
 * A fetch failed. On the first load, a server error (no status, or 500 and above) asks for
 * exactly one refetch; any other failure is kept as the list's error.
 */
export function fetchFailed<T>(list: ResourceList<T>, status: number | null): { list: ResourceList<T>; refetch: boolean } {
  const serverError = status === null || status >= 500;
  const refetch = !list.loaded && serverError && !list.retried;
  return { list: { ...list, fetching: false, error: { status }, retried: list.retried || refetch }, refetch };
}

/** The next page may be asked for: not already fetching, not at the end, not failed. */
export function canPage<T>(list: ResourceList<T>): boolean {
  return list.loaded && !list.fetching && !list.ended && list.error === null && list.bookmark !== null;
}

/** Home feed kept on return within this window, by experiment group (spec 000 §9). */
const HOME_FEED_RESTORE_MS = { default: 60_000, extended: 150_000 } as const;
export type RestoreGroup = keyof typeof HOME_FEED_RESTORE_MS;

/** The restore window's group from the viewer's experiments (src/experiments): control unless assigned "extended". */
export function restoreGroupOf(experiments: Readonly<Record<string, unknown>>): RestoreGroup {
  return experiments[HOME_FEED_RESTORE_EXPERIMENT] === "extended" ? "extended" : "default";
}

export function shouldRestoreHomeFeed(lastVisitAt: number | null, now: number, group: RestoreGroup = "default"): boolean {
  return lastVisitAt !== null && now >= lastVisitAt && now - lastVisitAt < HOME_FEED_RESTORE_MS[group];
}

export type NavigationKind = "push" | "replace" | "pop";

/** Back and forward restore scroll; push and replace start at the top. */
export function scrollOnNavigation(kind: NavigationKind): "restore" | "top" {
  return kind === "pop" ? "restore" : "top";
}

export interface NavigationHistory {
  previous: string[];
  current: string | null;
  forward: string[];
}

/**
 * Previous, current and forward entries on push, replace and pop. A pop goes forward when
 * the next forward entry is the destination, else back.
 */
export function navigate(history: NavigationHistory, kind: NavigationKind, url: string, maxEntries = 50): NavigationHistory {
  const trim = (list: string[]) => list.slice(-maxEntries);
  if (kind === "replace") return { ...history, current: url };
  if (kind === "push") {
    return { previous: trim(history.current === null ? history.previous : [...history.previous, history.current]), current: url, forward: [] };
  }
  if (history.forward[0] === url) {
    return { previous: trim(history.current === null ? history.previous : [...history.previous, history.current]), current: url, forward: history.forward.slice(1) };
  }
  const back = history.previous.slice(0, -1);
  return { previous: back, current: url, forward: history.current === null ? history.forward : [history.current, ...history.forward] };
}

/**
 * Pin-grid footer (spec 000 §4): shown to signed-out visitors and wherever the experiment
 * does not apply; hidden for signed-in people in the experiment.
 */
export function showPinGridFooter(signedIn: boolean, inFooterExperiment: boolean): boolean {
  return !signedIn || !inFooterExperiment;
}

/**
 * A grid cell's picture, inside a link that also shows the pin's title: its own alt text where
 * it has one, else nothing, since the title beside it already names the link and a screen
 * reader would read it twice.
 */
export function cellImageAlt(altText: string | null | undefined, title: string | null | undefined): string {
  if (!altText || altText.trim() === (title ?? "").trim()) return "";
  return altText;
}
