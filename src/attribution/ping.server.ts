// Stores one attribution ping and says what register-source header it earns. The throttle's
// count, the promoted pin's check and the conditional insert go to D1 as ONE batch: a ping over
// the limit is refused and never stored, in a single round trip. A genuine view or click of a
// campaign's pin is then queued for counting (src/ads/counting.server.ts).
//
// Only a proven ping counts: it echoes the signed token our page put in the promoted pin's
// markup (token.server.ts) for exactly that pin and advertiser, unexpired; it comes from our
// own page (Sec-Fetch-Site: same-origin, which browsers set and scripts can fake, so it is a
// second check and never the proof); and the pin is still promoted by that advertiser (its
// promoter, or the ad account of a running ad of the named campaign).
// Anything else is answered 204 with no header and not stored, the same answer whatever check
// failed: a cross-site page cannot register sources in a visitor's browser under our name,
// nobody can inflate an advertiser's numbers with made-up pings, and a genuine page left open
// past its token's life loses its ping quietly. A source_event_id is unique per advertiser (one
// advertiser's ids never block another's); a replayed one is stored once (INSERT OR IGNORE).
import { DomainError, badRequest } from "~/domain/errors.ts";
import { hitStatement, rateKey, type RateRule } from "~/server/rate-limit.server.ts";
import { ATTRIBUTION, parseAttributionQuery, registerSourceHeader, type AttributionSource } from "./source.ts";
import { checkAttributionToken } from "./token.server.ts";
import { adRunningSql } from "~/ads/counting.server.ts";
import { enqueueAdEvent } from "~/events/ingest.server.ts";

/** A page shows a few dozen ads at most; 600 pings in 10 minutes from one address (an IPv6 /64) is a script. */
const ATTRIBUTION_RATE_RULE: RateRule = { name: "attribution:ip", limit: 600, windowMs: 10 * 60_000 };

/** The query string is bounded before parsing: seven short parameters and one URL fit easily. */
const MAX_QUERY_LENGTH = 4096;

/** One ping as its request shows it. */
interface AttributionPing {
  /** The URL's query string, "?" included. */
  search: string;
  /** The sender's address (an IPv6 address by its /64): the throttle's subject. */
  address: string;
  /** Sent by our own page (Sec-Fetch-Site: same-origin): a second check, never the proof. */
  sameOrigin: boolean;
  /** The key the page's token was signed with; null while attribution is off. */
  secret: string | null;
  userId: number | null;
  /** A signed-out browser's view key (visitor.ts); null signed in. */
  visitorKey?: string | null;
  requestId: string;
  /** A crawler's ping is stored as before but never counted for an ad. */
  isBot?: boolean;
  /** The EVENTS queue: a genuine view or click of a campaign's pin is counted by its consumer. */
  events: Queue;
}

/** Stores the ping when genuine; answers the register-source header it earns, or null for none. */
export async function recordAttributionPing(db: D1Database, ping: AttributionPing, now = Date.now(), random = Math.random): Promise<string | null> {
  if (ping.search.length > MAX_QUERY_LENGTH) throw badRequest([{ field: "query", reason: "validation.tooLong", values: { maximum: MAX_QUERY_LENGTH } }]);
  const parsed = parseAttributionQuery(new URLSearchParams(ping.search));
  if (!parsed.ok) throw badRequest(parsed.problems);
  const source = parsed.source;

  const subject = ping.address;
  const { statement: counting, windowStart } = hitStatement(db, ATTRIBUTION_RATE_RULE, subject, now);
  const eligible = await isProven(ping.sameOrigin, source, ping.secret, now);
  const statements: D1PreparedStatement[] = [counting];
  if (eligible) {
    statements.push(
      db.prepare(`SELECT 1 AS promoted WHERE EXISTS (SELECT 1 FROM pins WHERE id = ?1 AND promoter_id = ?2 AND is_deleted = 0) OR ${adRunningSql("?1", "?2", "?3")}`).bind(source.pinId, source.advertiserId, source.campaignId),
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
  const genuine = eligible && (promoted?.results.length ?? 0) > 0;
  // A promoted pin of a campaign, seen or clicked by a person (signed in, or signed out by their
  // browser's visitor key), counts toward its results; a crawler's never does. Through the
  // queue, whose consumer counts each event id once however often it comes.
  const viewerKey = ping.userId !== null ? `u${ping.userId}` : (ping.visitorKey ?? null);
  if (genuine && source.campaignId !== null && source.pinId !== null && source.advertiserId !== null && viewerKey !== null && ping.isBot !== true) {
    await enqueueAdEvent(ping.events, {
      kind: "ad",
      type: source.sourceEventType,
      sourceEventId: source.sourceEventId,
      advertiserId: source.advertiserId,
      campaignId: source.campaignId,
      pinId: source.pinId,
      viewerKey,
      receivedAt: now,
    });
  }
  if (random() < ATTRIBUTION.logSampleRate) {
    console.info("attribution ping", JSON.stringify({ type: source.sourceEventType, advertiser: source.advertiserId, campaign: source.campaignId, counted: genuine }));
  }
  return genuine ? registerSourceHeader(source) : null;
}

/** Same-origin, and a valid token for this very pin and advertiser (checked before any D1 work). */
async function isProven(sameOrigin: boolean, source: AttributionSource, secret: string | null, now: number): Promise<boolean> {
  if (!sameOrigin || secret === null) return false;
  if (source.pinId === null || source.advertiserId === null || source.token === undefined) return false;
  return (await checkAttributionToken(secret, source.token, { pinId: source.pinId, advertiserId: source.advertiserId }, now)) === "valid";
}

/**
 * Inserts the ping only while the throttle's count (just written in the same batch) is within
 * the limit and the pin is promoted by the named advertiser; a source_event_id this advertiser
 * has seen before is ignored.
 */
function insertPing(db: D1Database, source: AttributionSource, userId: number | null, requestId: string, now: number, countedKey: string): D1PreparedStatement {
  return db
    .prepare(
      `INSERT OR IGNORE INTO attribution_pings (source_event_id, destination, source_event_type, expiry_seconds, priority,
         advertiser_id, campaign_id, user_id, request_id, received_at, pin_id)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?13
       WHERE (SELECT count FROM rate_limits WHERE key = ?11) <= ?12
         AND (EXISTS (SELECT 1 FROM pins WHERE id = ?13 AND promoter_id = ?6 AND is_deleted = 0)
           OR ${adRunningSql("?13", "?6", "?7")})`,
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
