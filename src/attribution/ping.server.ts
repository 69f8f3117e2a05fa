// Stores one attribution ping and says what register-source header it earns. The throttle's
// count, the promoted pin's check and the conditional insert go to D1 as ONE batch: a ping over
// the limit is refused and never stored, in a single round trip.
//
// Only a genuine ping counts: sent by our own page (Sec-Fetch-Site: same-origin) about a pin
// that the named advertiser promotes. Anything else is answered 204 with no header and not
// stored: a cross-site page cannot register sources in a visitor's browser under our name, and
// nobody can inflate an advertiser's numbers with made-up pings. A replayed source_event_id is
// stored once (unique index, INSERT OR IGNORE).
import { DomainError, badRequest } from "../domain/errors.ts";
import { hitStatement, rateKey, type RateRule } from "../server/rate-limit.server.ts";
import { ATTRIBUTION, parseAttributionQuery, registerSourceHeader, type AttributionSource } from "./source.ts";

/** A page shows a few dozen ads at most; 600 pings in 10 minutes from one address (an IPv6 /64) is a script. */
export const ATTRIBUTION_RATE_RULE: RateRule = { name: "attribution:ip", limit: 600, windowMs: 10 * 60_000 };

/** The query string is bounded before parsing: seven short parameters and one URL fit easily. */
const MAX_QUERY_LENGTH = 4096;

/** One ping as its request shows it. */
interface AttributionPing {
  /** The URL's query string, "?" included. */
  search: string;
  /** The sender's address (an IPv6 address by its /64): the throttle's subject. */
  address: string;
  /** Sent by our own page (Sec-Fetch-Site: same-origin). */
  sameOrigin: boolean;
  userId: number | null;
  requestId: string;
}

/** Stores the ping when genuine; answers the register-source header it earns, or null for none. */
export async function recordAttributionPing(db: D1Database, ping: AttributionPing, now = Date.now(), random = Math.random): Promise<string | null> {
  if (ping.search.length > MAX_QUERY_LENGTH) throw badRequest([{ field: "query", reason: "validation.tooLong", values: { maximum: MAX_QUERY_LENGTH } }]);
  const parsed = parseAttributionQuery(new URLSearchParams(ping.search));
  if (!parsed.ok) throw badRequest(parsed.problems);
  const source = parsed.source;

  const subject = ping.address;
  const { statement: counting, windowStart } = hitStatement(db, ATTRIBUTION_RATE_RULE, subject, now);
  const eligible = ping.sameOrigin && source.pinId !== null && source.advertiserId !== null;
  const statements: D1PreparedStatement[] = [counting];
  if (eligible) {
    statements.push(
      db.prepare("SELECT 1 AS promoted FROM pins WHERE id = ?1 AND promoter_id = ?2 AND is_deleted = 0").bind(source.pinId, source.advertiserId),
      insertPing(db, source, ping.userId, ping.requestId.slice(0, 64), now, rateKey(ATTRIBUTION_RATE_RULE, subject)),
    );
  }
  const [counted, promoted] = await db.batch<{ count: number; promoted: number }>(statements);
  const count = counted?.results[0]?.count ?? 1;
  if (count > ATTRIBUTION_RATE_RULE.limit) {
    throw new DomainError("rate_limited", {
      message: "api.rateLimited",
      retryAfterSeconds: Math.ceil((windowStart + ATTRIBUTION_RATE_RULE.windowMs - now) / 1000),
    });
  }
  if (random() < ATTRIBUTION.logSampleRate) {
    console.info("attribution ping", JSON.stringify({ type: source.sourceEventType, advertiser: source.advertiserId, campaign: source.campaignId }));
  }
  const genuine = eligible && (promoted?.results.length ?? 0) > 0;
  return genuine ? registerSourceHeader(source) : null;
}

/**
 * Inserts the ping only while the throttle's count (just written in the same batch) is within
 * the limit and the pin is promoted by the named advertiser; a source_event_id seen before is ignored.
 */
function insertPing(db: D1Database, source: AttributionSource, userId: number | null, requestId: string, now: number, countedKey: string): D1PreparedStatement {
  return db
    .prepare(
      `INSERT OR IGNORE INTO attribution_pings (source_event_id, destination, source_event_type, expiry_seconds, priority,
         advertiser_id, campaign_id, user_id, request_id, received_at, pin_id)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?13
       WHERE (SELECT count FROM rate_limits WHERE key = ?11) <= ?12
         AND EXISTS (SELECT 1 FROM pins WHERE id = ?13 AND promoter_id = ?6 AND is_deleted = 0)`,
    )
    .bind(
      source.sourceEventId,
      source.destination,
      source.sourceEventType,
      source.expirySeconds,
      source.priority,
      source.advertiserId,
      source.campaignId,
      userId,
      requestId,
      now,
      countedKey,
      ATTRIBUTION_RATE_RULE.limit,
      source.pinId,
    );
}
