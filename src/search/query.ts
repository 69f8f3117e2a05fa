// Turning search text into FTS5 match expressions, the bookmark codec and typo distance.
// Pure: the engine, typeahead and typo correction (*.server.ts here) and their unit tests use them.
import { normalizeQuery } from "./options.ts";
import { textFromBase64Url, textToBase64Url } from "~/runtime/base64.ts";

/** At most this many words of a query reach the index. */
const MAX_TOKENS = 12;

/** The words of a text as unicode61 would cut them (letters, digits and marks), lower-cased. */
export function tokensOf(text: string): string[] {
  return normalizeQuery(text)
    .toLowerCase()
    .split(/[^\p{L}\p{N}\p{M}]+/u)
    .filter((token) => token.length > 0)
    .slice(0, MAX_TOKENS);
}

const quote = (token: string) => `"${token.replace(/"/g, '""')}"`;

/**
 * An FTS5 expression matching rows holding every token (AND); the last token as a prefix when
 * `prefixLast`. Each token is a quoted string, so no user text is ever read as FTS5 syntax.
 * Null when there is nothing to match.
 */
export function matchExpression(tokens: readonly string[], options: { prefixLast?: boolean; column?: string } = {}): string | null {
  if (tokens.length === 0) return null;
  const parts = tokens.map((token, index) => (options.prefixLast && index === tokens.length - 1 ? `${quote(token)}*` : quote(token)));
  const body = parts.join(" AND ");
  return options.column ? `${options.column} : (${body})` : body;
}

/** Levenshtein distance, giving up (returning max + 1) once it must exceed `max`. */
export function editDistance(a: string, b: string, max = 2): number {
  const left = Array.from(a);
  const right = Array.from(b);
  if (Math.abs(left.length - right.length) > max) return max + 1;
  let previous = Array.from({ length: right.length + 1 }, (_, i) => i);
  for (let i = 1; i <= left.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= right.length; j++) {
      const cost = left[i - 1] === right[j - 1] ? 0 : 1;
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > max) return max + 1;
    previous = current;
  }
  return previous[right.length]!;
}

/** 32-bit FNV-1a of a string, as 8 hex digits: binds a bookmark to the search it came from. */
export function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

export interface SearchBookmark {
  /** fingerprint() of the normalized query and the options that change results. */
  key: string;
  /** Rows already shown. */
  offset: number;
  /** The first page's clock (ms): recency and "created:" filters measure from it. */
  anchor: number;
}

/** Deepest offset a bookmark may carry: search pages stop after this many results. */
export const MAX_OFFSET = 1000;

export function encodeBookmark(bookmark: SearchBookmark): string {
  return textToBase64Url(`s1.${bookmark.key}.${bookmark.offset}.${bookmark.anchor}`);
}

export function decodeBookmark(text: string): SearchBookmark | null {
  if (!/^[A-Za-z0-9_-]{1,120}$/.test(text)) return null;
  let plain: string;
  try {
    plain = textFromBase64Url(text);
  } catch {
    return null;
  }
  const match = /^s1\.([0-9a-f]{8})\.(\d{1,6})\.(\d{1,15})$/.exec(plain);
  if (!match) return null;
  const offset = Number(match[2]);
  const anchor = Number(match[3]);
  if (offset < 1 || offset > MAX_OFFSET) return null;
  return { key: match[1]!, offset, anchor };
}
