// Comment rendering rule (spec 001 §5 "Comments"): a comment is plain text.
// It becomes a list of segments that the server HTML (src/components/PinComments.astro) and the
// island render as escaped text nodes, profile links and outbound links. Nothing here returns
// markup, so no comment text can ever become HTML; the only attribute value a renderer writes
// from a comment is `href`, and that is a URL this module re-serialised after checking its scheme.
//
// Offsets and lengths in tags count UTF-16 code units (JavaScript string indices), as the
// island's textarea selection does.

export interface SegmentUser {
  id: string;
  username: string;
  full_name: string;
}

export interface CommentTag {
  user_id: string;
  offset: number;
  length: number;
}

export type Segment =
  | { type: "text"; text: string }
  | { type: "mention"; text: string; user: SegmentUser }
  | { type: "link"; text: string; href: string };

/** rel for every link a comment produces (nofollow: user-generated; noopener: new tab). */
export const COMMENT_LINK_REL = "nofollow ugc noopener";

/** Bounds: a comment never yields more than this many mentions or links; the rest stay text. */
export const MAX_MENTIONS = 20;
export const MAX_LINKS = 20;
/** Longer stored text (older rows allow 2000) is still segmented, but only this much is scanned. */
const MAX_SCANNED = 2000;

// A candidate URL: a scheme we accept followed by characters that are never whitespace,
// angle brackets, quotes or backticks. Everything else about it is checked by the URL parser.
const URL_CANDIDATE = /https?:\/\/[^\s<>"'`\p{Cc}]+/giu;
// Punctuation that usually ends a sentence rather than a URL.
const TRAILING = /[.,;:!?)\]}*]+$/u;
// Bidirectional controls would let a link's visible text disagree with where it goes.
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/** Whether `host` is a blocked domain or a subdomain of one. `blocked` holds lower-case domains. */
export function isBlockedHost(host: string, blocked: ReadonlySet<string>): boolean {
  let candidate = host.toLowerCase().replace(/\.$/u, "");
  for (let depth = 0; depth < 10 && candidate.length > 0; depth++) {
    if (blocked.has(candidate)) return true;
    const dot = candidate.indexOf(".");
    if (dot < 0) break;
    candidate = candidate.slice(dot + 1);
  }
  return false;
}

/** A safe href for `raw`, or null when it must stay text. */
function safeHref(raw: string, blocked: ReadonlySet<string>): string | null {
  if (BIDI.test(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  // user:password@host hides the real host from a reader.
  if (url.username !== "" || url.password !== "") return null;
  if (url.hostname === "" || !url.hostname.includes(".")) return null;
  if (isBlockedHost(url.hostname, blocked)) return null;
  return url.href;
}

function pushText(out: Segment[], text: string): void {
  if (text === "") return;
  const last = out[out.length - 1];
  if (last?.type === "text") last.text += text;
  else out.push({ type: "text", text });
}

function linkify(out: Segment[], text: string, blocked: ReadonlySet<string>, budget: { links: number }): void {
  let cursor = 0;
  for (const match of text.matchAll(URL_CANDIDATE)) {
    if (budget.links <= 0) break;
    const start = match.index;
    const candidate = match[0].replace(TRAILING, "");
    const href = safeHref(candidate, blocked);
    if (href === null) continue;
    pushText(out, text.slice(cursor, start));
    out.push({ type: "link", text: candidate, href });
    cursor = start + candidate.length;
    budget.links -= 1;
  }
  pushText(out, text.slice(cursor));
}

/**
 * Segments for a comment. A mention appears only where a tag points at a range inside the text
 * and names a user in `users`; overlapping or out-of-range tags are ignored. Joining every
 * segment's `text` always gives back `text` exactly.
 */
export function toSegments(
  text: string,
  tags: readonly CommentTag[],
  users: readonly SegmentUser[],
  blockedHosts: ReadonlySet<string> = new Set(),
): Segment[] {
  const out: Segment[] = [];
  const scanned = text.slice(0, MAX_SCANNED);
  const byId = new Map(users.map((user) => [user.id, user]));
  const usable = tags
    .slice(0, MAX_MENTIONS)
    .filter(
      (tag) =>
        Number.isInteger(tag.offset) &&
        Number.isInteger(tag.length) &&
        tag.offset >= 0 &&
        tag.length > 0 &&
        tag.offset + tag.length <= scanned.length &&
        byId.has(tag.user_id),
    )
    .sort((a, b) => a.offset - b.offset);
  const budget = { links: MAX_LINKS };
  let cursor = 0;
  for (const tag of usable) {
    if (tag.offset < cursor) continue; // overlaps the previous mention
    linkify(out, scanned.slice(cursor, tag.offset), blockedHosts, budget);
    const user = byId.get(tag.user_id);
    if (user === undefined) continue;
    out.push({ type: "mention", text: scanned.slice(tag.offset, tag.offset + tag.length), user });
    cursor = tag.offset + tag.length;
  }
  linkify(out, scanned.slice(cursor), blockedHosts, budget);
  pushText(out, text.slice(MAX_SCANNED));
  return out;
}
