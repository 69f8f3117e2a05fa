// Landing-page type labels (spec 000 §2), derived from where a visitor landed. Pure: the
// same path gives the same label to everyone but the board or section's owner.

export type LandingPageType =
  | "today" | "ideas" | "own_section" | "own_board" | "section" | "board" | "closeup" | "home" | "profile" | "search" | "topic";

/** First path segments that are routes of ours, never usernames. */
const RESERVED = new Set(["pin", "search", "today", "ideas", "topics", "topic", "homefeed", "settings", "resource", "v3", "media", "_", "sitemaps", "parental-passcode", "advertiser"]);

/** A segment that is not valid percent-encoded UTF-8 is read as sent: the label is a guess, never a reason to fail. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The label for a path, or null for pages that are not landing pages (settings, API...).
 * `viewerUsername` makes a board or section the viewer's own.
 */
export function landingPageType(pathname: string, viewerUsername: string | null = null): LandingPageType | null {
  const parts = pathname.split("/").filter(Boolean).map(decodeSegment);
  const [first, second] = parts;
  if (parts.length === 0 || (first === "homefeed" && parts.length === 1)) return "home";
  if (first === "pin" && second && /^\d+$/.test(second)) return "closeup";
  if (first === "search") return "search";
  if (first === "today") return "today";
  if (first === "ideas") return "ideas";
  if (first === "topics" || first === "topic") return "topic";
  if (!first || RESERVED.has(first)) return null;
  const own = viewerUsername !== null && first.toLowerCase() === viewerUsername.toLowerCase();
  if (parts.length === 1) return "profile";
  if (parts.length === 2) return own ? "own_board" : "board";
  if (parts.length === 3) return own ? "own_section" : "section";
  return null;
}
