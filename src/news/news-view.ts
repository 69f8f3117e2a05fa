// How the bell and the updates page show news, shared by both.
import type { NewsItem } from "./news.ts";

/** An item as NewsHubDetailsResource answers it: with its sentence and where it leads. */
export interface ShownNewsItem extends NewsItem {
  text: string;
  url: string | null;
}

/** Most the badge spells out; more reads "99+". */
const BADGE_MAX = 99;

/** The badge's text for an unseen count: nothing for none. */
export function badgeText(count: number): string {
  if (!Number.isFinite(count) || count <= 0) return "";
  return count > BADGE_MAX ? `${BADGE_MAX}+` : String(Math.floor(count));
}
