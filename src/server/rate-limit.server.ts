// Fixed-window throttles counted in D1 (never KV: KV is eventually consistent, so parallel
// guesses would each read the same old count). One UPSERT ... RETURNING per hit is atomic in
// SQLite, so 50 parallel requests see 50 distinct counts.
import { DomainError } from "~/domain/errors.ts";

export interface RateRule {
  /** Rule name, the first part of the key: "login:account". */
  name: string;
  limit: number;
  windowMs: number;
}

export const RATE_RULES = {
  /**
   * Logins: 10 per account from one address, so someone guessing from elsewhere cannot lock
   * the owner out; and a ceiling of 100 per account from all addresses together against
   * guessing spread over many addresses.
   */
  loginPerAccountAndIp: { name: "login:account-ip", limit: 10, windowMs: 15 * 60_000 },
  loginPerAccount: { name: "login:account", limit: 100, windowMs: 15 * 60_000 },
  loginPerIp: { name: "login:ip", limit: 50, windowMs: 15 * 60_000 },
  signupPerIp: { name: "signup:ip", limit: 10, windowMs: 60 * 60_000 },
  mfaPerAccount: { name: "mfa:account", limit: 10, windowMs: 15 * 60_000 },
  emailResendPerAccount: { name: "verify-resend:account", limit: 5, windowMs: 60 * 60_000 },
  fingerprintPerAccount: { name: "fingerprint:account", limit: 30, windowMs: 60 * 60_000 },
  /** The switcher's user look-ups: enough for any menu, not for walking the id space. */
  batchPerIp: { name: "batch:ip", limit: 120, windowMs: 15 * 60_000 },
  /**
   * Each switch and country-domain hand-off writes a session or token row. Switches count per
   * address: the device cookie is new after every switch, and a script can drop it anyway.
   */
  switchPerAddress: { name: "switch:ip", limit: 60, windowMs: 15 * 60_000 },
  cctldPerAccount: { name: "cctld:account", limit: 30, windowMs: 60 * 60_000 },
  /** Comments: a lively thread's pace, not a flood. */
  commentCreatePerUser: { name: "comment:user", limit: 30, windowMs: 10 * 60_000 },
  /** Edits: each rewrites a public text and purges the pin page, so they are paced like posts. */
  commentEditPerUser: { name: "comment-edit:user", limit: 30, windowMs: 10 * 60_000 },
  /** Translations call a paid model: a reader's worth per signed-in user or address. */
  commentTranslatePerViewer: { name: "comment-translate:viewer", limit: 60, windowMs: 10 * 60_000 },
  /** Tried-it posts and their photos (each photo is an R2 write). */
  didItPostPerUser: { name: "did-it-post:user", limit: 20, windowMs: 60 * 60_000 },
  /**
   * Pin builder uploads (each up to 200 MB into R2, an image cut to nine sizes): a busy
   * session's bulk upload of a few dozen files fits, an upload loop does not.
   */
  mediaUploadPerUser: { name: "media-upload:user", limit: 200, windowMs: 60 * 60_000 },
  /**
   * Pages read and images fetched for a person creating pins from websites: each is an outbound
   * fetch made on their behalf. A person trying a few dozen pages fits; a crawler by proxy does not.
   */
  fromWebsitePerUser: { name: "from-website:user", limit: 120, windowMs: 10 * 60_000 },
  /** The builder's previews of found images, fetched through the Worker: fifty a page, a few dozen pages. */
  webImagePreviewPerUser: { name: "web-image-preview:user", limit: 1500, windowMs: 10 * 60_000 },
  /**
   * GraphQL calls (/_/graphql/): per signed-in user, or per address (IPv6 by its /64) signed
   * out. Generous, a browsing session is far below it; a scraper walking pins is not.
   */
  graphqlPerViewer: { name: "graphql:viewer", limit: 300, windowMs: 60_000 },
  /** Searches per signed-in person or address (/64): several a second for a minute is a scraper. */
  searchPerViewer: { name: "search:viewer", limit: 300, windowMs: 60_000 },
  /**
   * Messages sent (a new conversation counts as one): two a second for a minute is a fast
   * typist in a lively chat; a script flooding inboxes is over it within the minute.
   */
  messageSendPerUser: { name: "message-send:user", limit: 120, windowMs: 60_000 },
  /** Typeahead fires per keystroke: twice the searches' pace. */
  typeaheadPerViewer: { name: "typeahead:viewer", limit: 600, windowMs: 60_000 },
} as const satisfies Record<string, RateRule>;

export interface RateHit {
  count: number;
  allowed: boolean;
  retryAfterSeconds: number;
}

/** The key a rule counts `subject` under (rate_limits.key). */
export const rateKey = (rule: RateRule, subject: string | number): string => `${rule.name}:${subject}`;

/**
 * The statement that counts one hit of `subject` under `rule` (RETURNING the window's count),
 * for a caller that runs it inside its own batch; `windowStart` is the window it counts in.
 */
export function hitStatement(db: D1Database, rule: RateRule, subject: string | number, now = Date.now()): { statement: D1PreparedStatement; windowStart: number } {
  const windowStart = now - (now % rule.windowMs);
  const statement = db
    .prepare(
      `INSERT INTO rate_limits (key, window_start, count) VALUES (?1, ?2, 1)
       ON CONFLICT(key) DO UPDATE SET
         count = CASE WHEN rate_limits.window_start = excluded.window_start THEN rate_limits.count + 1 ELSE 1 END,
         window_start = excluded.window_start
       RETURNING count`,
    )
    .bind(rateKey(rule, subject), windowStart);
  return { statement, windowStart };
}

/** What a hit statement's RETURNING count means under `rule`. */
export function hitResult(rule: RateRule, count: number, windowStart: number, now: number): RateHit {
  return { count, allowed: count <= rule.limit, retryAfterSeconds: Math.ceil((windowStart + rule.windowMs - now) / 1000) };
}

/** Counts one hit of `subject` under `rule` and says whether it is within the limit. */
async function hit(db: D1Database, rule: RateRule, subject: string | number, now = Date.now()): Promise<RateHit> {
  const { statement, windowStart } = hitStatement(db, rule, subject, now);
  const row = await statement.first<{ count: number }>();
  return hitResult(rule, row?.count ?? 1, windowStart, now);
}

/**
 * SQL true while `subject` is within `rule`, for statements that run in the same batch after
 * its hitStatement (a batch is one transaction, so they read the count that hit wrote). Use it
 * in a LIMIT (CASE WHEN … THEN n ELSE 0 END), which SQLite evaluates before scanning: as a
 * WHERE term it holds a subquery, so SQLite would test it row by row after the scan started.
 */
export function withinLimitSql(rule: RateRule, subject: string | number, param: (value: unknown) => string): string {
  return `coalesce((SELECT count FROM rate_limits WHERE key = ${param(rateKey(rule, subject))}), 0) <= ${param(rule.limit)}`;
}

/** Throws 429 with Retry-After when a hit is over its limit. */
export function assertAllowed(result: RateHit): void {
  if (!result.allowed) {
    throw new DomainError("rate_limited", {
      message: "api.rateLimited",
      retryAfterSeconds: result.retryAfterSeconds,
    });
  }
}

/** Throws 429 with Retry-After when over the limit. */
export async function enforce(db: D1Database, rule: RateRule, subject: string | number, now = Date.now()): Promise<void> {
  assertAllowed(await hit(db, rule, subject, now));
}

/**
 * The statement that clears a subject's counter (a successful login forgives the account's
 * earlier misses), for the caller's own batch.
 */
export function resetStatement(db: D1Database, rule: RateRule, subject: string | number): D1PreparedStatement {
  return db.prepare("DELETE FROM rate_limits WHERE key = ?1").bind(`${rule.name}:${subject}`);
}
