// Which view a page is, from its path (the logger's view_type and the viewed object's id).
import { VIEW_TYPE } from "./logger.client.ts";

export interface PageView {
  viewType: number;
  objectId: string | null;
}

const RESERVED = new Set(["pin", "today", "settings", "login", "signup", "homefeed", "search", "resource", "v3", "media", "advertiser"]);

export function viewOf(pathname: string): PageView {
  if (pathname === "/" || pathname.startsWith("/homefeed/")) return { viewType: VIEW_TYPE.HOME, objectId: null };
  const pin = /^\/pin\/(\d{1,20})\/?/.exec(pathname);
  if (pin) return { viewType: VIEW_TYPE.PIN, objectId: pin[1]! };
  if (pathname.startsWith("/search/")) return { viewType: VIEW_TYPE.SEARCH, objectId: null };
  if (pathname.startsWith("/today/")) return { viewType: VIEW_TYPE.ARTICLE, objectId: null };
  const segments = pathname.split("/").filter(Boolean);
  if (segments.length >= 1 && !RESERVED.has(segments[0]!) && /^[A-Za-z0-9_]{1,30}$/.test(segments[0]!)) {
    return { viewType: segments.length === 1 ? VIEW_TYPE.USER : VIEW_TYPE.BOARD, objectId: null };
  }
  return { viewType: VIEW_TYPE.OTHER, objectId: null };
}

/** The pin id of a grid cell's link, or null. */
export function pinIdOfHref(href: string | null): string | null {
  return href ? (/\/pin\/(\d{1,20})\//.exec(href)?.[1] ?? null) : null;
}
