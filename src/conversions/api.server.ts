// The conversions API's storage: access tokens per ad account (made, listed, revoked; only their
// SHA-256 kept), the events a token's calls bring (each through conversionStatement, so the tag's
// and the API's reports of one purchase are kept once), the calls' history, and the account's
// events overview. The hub's side needs a business role (conversions.read to read,
// conversions_token.manage for tokens); the API's side needs only a live token of that account.
import {
  actorMayOn,
  historyRow,
  newId,
  seconds,
} from "~/business/core.server.ts";
import { DomainError, notFound } from "~/domain/errors.ts";
import { enforce, type RateRule } from "~/server/rate-limit.server.ts";
import { sha256Hex, toHex } from "~/runtime/sha256.ts";
import {
  CONVERSION_EVENT_NAMES,
  type ConversionEventName,
} from "./conversion.ts";
import { accountFor, recheckAccount } from "./account.server.ts";
import { conversionStatement } from "./record.server.ts";
import type { EventReading } from "./api-payload.ts";

export const TOKEN_LIMITS = {
  /** Live tokens an account may hold at once: one per server, with room to rotate. */
  live: 20,
  nameLength: 100,
  /** Characters of a token shown after it is made: the scheme and 6 of its hex. */
  prefix: 12,
} as const;

/** The calls one token may make: one a second on average, each up to 1,000 events. */
export const TOKEN_RATE: RateRule = {
  name: "conversions-api:token",
  limit: 60,
  windowMs: 60_000,
};

const TOKEN_SCHEME = "pl_cv_";
const TOKEN_FORMAT = /^pl_cv_[0-9a-f]{64}$/;


// ---- Tokens ----

export interface TokenSummary {
  id: string;
  name: string;
  prefix: string;
  created_time: number;
  created_by: string;
  revoked_time: number | null;
  last_used_time: number | null;
}

function tokenOf(row: Record<string, unknown>): TokenSummary {
  const time = (value: unknown) =>
    value === null ? null : seconds(Number(value));
  return {
    id: String(row["id"]),
    name: String(row["name"]),
    prefix: String(row["prefix"]),
    created_time: seconds(Number(row["created_at"])),
    created_by: String(row["full_name"] || row["username"]),
    revoked_time: time(row["revoked_at"]),
    last_used_time: time(row["last_used_at"]),
  };
}

const TOKEN_SELECT = `SELECT t.id, t.name, t.prefix, t.created_at, t.revoked_at, t.last_used_at, u.full_name, u.username
  FROM conversion_api_tokens t JOIN users u ON u.id = t.created_by`;

/** An account's tokens, live first, newest first (at most the live limit plus the latest revoked). */
export async function listTokens(
  db: D1Database,
  userId: number,
  businessId: number,
  adAccountId: number,
): Promise<TokenSummary[]> {
  const account = await accountFor(
    db,
    userId,
    businessId,
    adAccountId,
    "conversions.read",
  );
  const { results } = await db
    .prepare(
      `${TOKEN_SELECT} WHERE t.ad_account_id = ?1 ORDER BY t.revoked_at IS NOT NULL, t.created_at DESC, t.id LIMIT 50`,
    )
    .bind(account.id)
    .all<Record<string, unknown>>();
  return results.map(tokenOf);
}

/**
 * A new token: its full text is in this answer only; the table keeps its SHA-256 and a prefix
 * that names it. One batch: the token and its history row, each only while the actor may manage
 * tokens and the account holds fewer live tokens than the limit.
 */
export async function createToken(
  db: D1Database,
  userId: number,
  businessId: number,
  adAccountId: number,
  name: string,
  now = Date.now(),
): Promise<{ token: string; item: TokenSummary }> {
  const account = await accountFor(
    db,
    userId,
    businessId,
    adAccountId,
    "conversions_token.manage",
  );
  const token = `${TOKEN_SCHEME}${toHex(crypto.getRandomValues(new Uint8Array(32)))}`;
  const id = newId();
  const room = `(SELECT COUNT(*) FROM conversion_api_tokens WHERE ad_account_id = ?4 AND revoked_at IS NULL) < ${TOKEN_LIMITS.live}`;
  await db.batch([
    db
      .prepare(
        `INSERT INTO conversion_api_tokens (id, ad_account_id, business_id, name, token_sha256, prefix, created_by, created_at)
         SELECT ?3, ?4, ?1, ?5, ?6, ?7, ?2, ?8 WHERE ${actorMayOn("conversions_token.manage", "AD_ACCOUNT", "?4")} AND ${room}`,
      )
      .bind(
        account.businessId,
        userId,
        id,
        account.id,
        name,
        await sha256Hex(token),
        token.slice(0, TOKEN_LIMITS.prefix),
        now,
      ),
    historyRow(
      db,
      account.businessId,
      userId,
      "CONVERSIONS_TOKEN_CREATED",
      "CONVERSIONS_TOKEN",
      id,
      { name, ad_account_id: String(account.id) },
      now,
      `EXISTS (SELECT 1 FROM conversion_api_tokens WHERE id = ${id})`,
    ),
  ]);
  const row = await db
    .prepare(`${TOKEN_SELECT} WHERE t.id = ?1`)
    .bind(id)
    .first<Record<string, unknown>>();
  if (!row) {
    // Not written: the role was taken away meanwhile (403), or the account is full.
    await recheckAccount(db, account, userId, "conversions_token.manage");
    throw new DomainError("conflict", {
      message: "capi:tokens.tooMany",
      values: { maximum: TOKEN_LIMITS.live },
    });
  }
  return { token, item: tokenOf(row) };
}

/** Revokes a token at once: its next call is refused. Revoking a revoked token changes nothing. */
export async function revokeToken(
  db: D1Database,
  userId: number,
  businessId: number,
  adAccountId: number,
  tokenId: number,
  now = Date.now(),
): Promise<TokenSummary> {
  const account = await accountFor(
    db,
    userId,
    businessId,
    adAccountId,
    "conversions_token.manage",
  );
  const found = await db
    .prepare(
      "SELECT name FROM conversion_api_tokens WHERE id = ?1 AND ad_account_id = ?2",
    )
    .bind(tokenId, account.id)
    .first<{ name: string }>();
  if (!found) throw notFound("capi:tokens.notFound");
  await db.batch([
    db
      .prepare(
        `UPDATE conversion_api_tokens SET revoked_at = ?5, revoked_by = ?2 WHERE id = ?3 AND ad_account_id = ?4 AND revoked_at IS NULL AND ${actorMayOn("conversions_token.manage", "AD_ACCOUNT", "?4")}`,
      )
      .bind(account.businessId, userId, tokenId, account.id, now),
    historyRow(
      db,
      account.businessId,
      userId,
      "CONVERSIONS_TOKEN_REVOKED",
      "CONVERSIONS_TOKEN",
      tokenId,
      { name: found.name, ad_account_id: String(account.id) },
      now,
      "changes() = 1",
    ),
  ]);
  const row = await db
    .prepare(`${TOKEN_SELECT} WHERE t.id = ?1`)
    .bind(tokenId)
    .first<Record<string, unknown>>();
  if (row?.["revoked_at"] === null)
    await recheckAccount(db, account, userId, "conversions_token.manage");
  return tokenOf(row!);
}

// ---- The API's side ----

/** The live token of this account that `presented` is, or null: unknown, revoked and another account's all look the same. */
export async function tokenFor(
  db: D1Database,
  adAccountId: number,
  presented: string,
): Promise<number | null> {
  if (!TOKEN_FORMAT.test(presented)) return null;
  const row = await db
    .prepare(
      "SELECT id FROM conversion_api_tokens WHERE token_sha256 = ?1 AND ad_account_id = ?2 AND revoked_at IS NULL",
    )
    .bind(await sha256Hex(presented), adAccountId)
    .first<{ id: number }>();
  return row?.id ?? null;
}

/** Counts a call against its token's rate; over it is a 429 with Retry-After. */
export const throttleToken = (
  db: D1Database,
  tokenId: number,
  now = Date.now(),
) => enforce(db, TOKEN_RATE, tokenId, now);

type EventStatus = "processed" | "duplicate" | "failed";

export interface EventOutcome {
  index: number;
  status: EventStatus;
  errors?: Array<{ field: string; reason: string }>;
}

/**
 * Stores a call's valid events and records the call, in one batch: each event through
 * conversionStatement (an event id already stored for this account and name is a duplicate,
 * whoever sent it first), then the call's row, whose processed count is read from the events this
 * batch wrote.
 */
export async function ingestEvents(
  db: D1Database,
  tokenId: number,
  adAccountId: number,
  readings: EventReading[],
  test: boolean,
  now = Date.now(),
): Promise<EventOutcome[]> {
  const valid = readings.flatMap((reading) => (reading.ok ? [reading] : []));
  const keys = JSON.stringify(
    valid.map(
      (reading) => `${reading.event.eventName}:${reading.event.eventId}`,
    ),
  );
  const failed = readings.length - valid.length;
  const statements = [
    ...valid.map((reading) =>
      conversionStatement(db, {
        adAccountId,
        tagId: null,
        source: "API",
        event: reading.event,
        receivedAt: now,
      }),
    ),
    db
      .prepare(
        `INSERT INTO conversion_api_calls (id, ad_account_id, token_id, received_at, is_test, event_count, processed_count, duplicate_count, failed_count)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6, n, ?7 - n, ?8 FROM (SELECT COUNT(*) AS n FROM conversion_events
           WHERE ad_account_id = ?2 AND source = 'API' AND received_at = ?4 AND event_name || ':' || event_id IN (SELECT value FROM json_each(?9)))`,
      )
      .bind(
        newId(),
        adAccountId,
        tokenId,
        now,
        test ? 1 : 0,
        readings.length,
        valid.length,
        failed,
        keys,
      ),
    db
      .prepare(
        "UPDATE conversion_api_tokens SET last_used_at = ?2 WHERE id = ?1",
      )
      .bind(tokenId, now),
  ];
  const results = await db.batch(statements);
  const stored = new Map(
    valid.map((reading, at) => [
      reading.index,
      (results[at]?.meta.changes ?? 0) > 0,
    ]),
  );
  return readings.map((reading) =>
    reading.ok
      ? {
          index: reading.index,
          status: stored.get(reading.index) ? "processed" : "duplicate",
        }
      : {
          index: reading.index,
          status: "failed",
          errors: reading.errors.map(({ field, reason }) => ({
            field,
            reason,
          })),
        },
  );
}

// ---- The hub's overview and history ----

const DAY_MS = 86_400_000;
const OVERVIEW_DAYS = 7;

export interface EventsOverview {
  /** Oldest first: each day's date (UTC) and its events per name. */
  days: Array<{
    date: string;
    counts: Record<ConversionEventName, number>;
    total: number;
  }>;
  total: number;
  matched: number;
  tests: number;
  bySource: Record<"TAG" | "API" | "UPLOAD", number>;
}

/** The account's events of the last 7 days (today included), by day and name, by their event time; test events apart. */
export async function eventsOverview(
  db: D1Database,
  userId: number,
  businessId: number,
  adAccountId: number,
  now = Date.now(),
): Promise<EventsOverview> {
  const account = await accountFor(
    db,
    userId,
    businessId,
    adAccountId,
    "conversions.read",
  );
  const firstDay = Math.floor(now / DAY_MS) - (OVERVIEW_DAYS - 1);
  const [byDay, bySource] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `SELECT event_time / ${DAY_MS} AS day, event_name, COUNT(*) AS n, SUM(user_id IS NOT NULL) AS matched FROM conversion_events
         WHERE ad_account_id = ?1 AND event_time >= ?2 AND is_test = 0 GROUP BY day, event_name`,
      )
      .bind(account.id, firstDay * DAY_MS),
    db
      .prepare(
        "SELECT source, is_test, COUNT(*) AS n FROM conversion_events WHERE ad_account_id = ?1 AND event_time >= ?2 GROUP BY source, is_test",
      )
      .bind(account.id, firstDay * DAY_MS),
  ]);
  const zero = () =>
    Object.fromEntries(
      CONVERSION_EVENT_NAMES.map((name) => [name, 0]),
    ) as Record<ConversionEventName, number>;
  const days = Array.from({ length: OVERVIEW_DAYS }, (_, at) => ({
    date: new Date((firstDay + at) * DAY_MS).toISOString().slice(0, 10),
    counts: zero(),
    total: 0,
  }));
  let total = 0;
  let matched = 0;
  for (const row of byDay!.results) {
    const day = days[Number(row["day"]) - firstDay];
    if (!day) continue;
    const n = Number(row["n"]);
    day.counts[row["event_name"] as ConversionEventName] += n;
    day.total += n;
    total += n;
    matched += Number(row["matched"]);
  }
  const sources = { TAG: 0, API: 0, UPLOAD: 0 };
  let tests = 0;
  for (const row of bySource!.results) {
    if (Number(row["is_test"]) === 1) tests += Number(row["n"]);
    else sources[row["source"] as keyof typeof sources] += Number(row["n"]);
  }
  return { days, total, matched, tests, bySource: sources };
}

export interface ApiCall {
  id: string;
  received_time: number;
  token: string | null;
  test: boolean;
  events: number;
  processed: number;
  duplicates: number;
  failed: number;
}

const CALL_HISTORY_LIMIT = 50;

/** The account's latest API calls with what became of their events, newest first. */
export async function listCalls(
  db: D1Database,
  userId: number,
  businessId: number,
  adAccountId: number,
): Promise<ApiCall[]> {
  const account = await accountFor(
    db,
    userId,
    businessId,
    adAccountId,
    "conversions.read",
  );
  const { results } = await db
    .prepare(
      `SELECT c.id, c.received_at, c.is_test, c.event_count, c.processed_count, c.duplicate_count, c.failed_count, t.name, t.prefix
       FROM conversion_api_calls c LEFT JOIN conversion_api_tokens t ON t.id = c.token_id
       WHERE c.ad_account_id = ?1 ORDER BY c.received_at DESC, c.id LIMIT ${CALL_HISTORY_LIMIT}`,
    )
    .bind(account.id)
    .all<Record<string, unknown>>();
  return results.map((row) => ({
    id: String(row["id"]),
    received_time: seconds(Number(row["received_at"])),
    token:
      row["name"] === null
        ? null
        : `${String(row["name"])} (${String(row["prefix"])}…)`,
    test: Number(row["is_test"]) === 1,
    events: Number(row["event_count"]),
    processed: Number(row["processed_count"]),
    duplicates: Number(row["duplicate_count"]),
    failed: Number(row["failed_count"]),
  }));
}
