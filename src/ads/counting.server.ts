// Counting a promoted pin's view, click or save once. Views and clicks arrive through the EVENTS
// queue (src/events/consumer.server.ts), sent by the attribution ping that proved them
// (src/attribution/ping.server.ts); each event is written by ONE batch of its own, which may run
// any number of times for the same event: the event id is claimed first (ad_event_receipts,
// under a key new to this delivery), the dedupe row (a view once per viewer per ad per UTC day,
// signed in or out, a click once per click event id) is written only by the delivery that claimed the id, and the
// ad's day in ad_spend_daily is added only from a dedupe row this very delivery wrote. Spend is
// the goal's price (placement.ts PRICES), never taking the campaign's day past its daily
// budget. Counted only while the ad and its campaign are ACTIVE and the ad APPROVED: a page left
// open after a pause earns nothing more.
import { ATTRIBUTION } from "~/attribution/source.ts";
import type { QueuedAdEvent } from "~/events/event.ts";
import { PRICES, utcDay, type CampaignGoal } from "./placement.ts";

/**
 * "An ad of this campaign promotes this pin for this advertiser (its ad account) and runs", as
 * SQL over the parameters that hold the pin, the advertiser and the campaign.
 */
export const adRunningSql = (pin: string, advertiser: string, campaign: string) => `(${campaign} IS NOT NULL AND EXISTS (SELECT 1 FROM ads a JOIN campaigns c ON c.id = a.campaign_id
  WHERE a.pin_id = ${pin} AND a.ad_account_id = ${advertiser} AND a.campaign_id = ${campaign} AND a.status = 'ACTIVE' AND a.review_status = 'APPROVED' AND c.status = 'ACTIVE'))`;

const RUNNING = "a.status = 'ACTIVE' AND a.review_status = 'APPROVED' AND c.status = 'ACTIVE'";

const priceCase = (event: "viewMicro" | "clickMicro") =>
  `CASE c.goal ${(Object.keys(PRICES) as CampaignGoal[]).map((goal) => `WHEN '${goal}' THEN ${PRICES[goal][event]}`).join(" ")} ELSE 0 END`;

const CLAIM_SQL = "INSERT OR IGNORE INTO ad_event_receipts (advertiser_id, source_event_id, request_key, received_at) VALUES (?1, ?2, ?3, ?4)";

const COUNT_SQL = `
  INSERT OR IGNORE INTO ad_delivery_counts (ad_id, kind, day, dedupe_key, request_key, created_at)
  SELECT a.id, ?4, ?5, ?6, ?7, ?8 FROM ads a JOIN campaigns c ON c.id = a.campaign_id
  WHERE a.pin_id = ?1 AND a.ad_account_id = ?2 AND a.campaign_id = ?3 AND ${RUNNING}
    AND EXISTS (SELECT 1 FROM ad_event_receipts r WHERE r.advertiser_id = ?2 AND r.source_event_id = ?9 AND r.request_key = ?7)
  ORDER BY a.id LIMIT 1`;

const SPEND_SQL = `
  INSERT INTO ad_spend_daily (ad_id, campaign_id, ad_account_id, day, impressions, clicks, spend_micro)
  SELECT a.id, a.campaign_id, a.ad_account_id, d.day,
    CASE WHEN d.kind = 'view' THEN 1 ELSE 0 END,
    CASE WHEN d.kind = 'click' THEN 1 ELSE 0 END,
    MIN(CASE WHEN d.kind = 'view' THEN ${priceCase("viewMicro")} ELSE ${priceCase("clickMicro")} END,
        MAX(0, c.daily_budget_micro - COALESCE((SELECT SUM(s.spend_micro) FROM ad_spend_daily s WHERE s.campaign_id = a.campaign_id AND s.day = d.day), 0)))
  FROM ad_delivery_counts d JOIN ads a ON a.id = d.ad_id JOIN campaigns c ON c.id = a.campaign_id
  WHERE d.request_key = ?1
  ON CONFLICT (ad_id, day) DO UPDATE SET
    impressions = impressions + excluded.impressions,
    clicks = clicks + excluded.clicks,
    spend_micro = spend_micro + excluded.spend_micro`;

/**
 * The one batch that counts a queued view or click: claim its id, count it, add its day.
 * `requestKey` must be new for every delivery (a fresh UUID): it is what tells this delivery's
 * rows from those of an earlier delivery of the same event.
 */
export function adEventStatements(db: D1Database, event: QueuedAdEvent, requestKey: string): D1PreparedStatement[] {
  const dedupeKey = event.type === "view" ? event.viewerKey : event.sourceEventId;
  return [
    db.prepare(CLAIM_SQL).bind(event.advertiserId, event.sourceEventId, requestKey, event.receivedAt),
    db.prepare(COUNT_SQL).bind(event.pinId, event.advertiserId, event.campaignId, event.type, utcDay(event.receivedAt), dedupeKey, requestKey, event.receivedAt, event.sourceEventId),
    db.prepare(SPEND_SQL).bind(requestKey),
  ];
}

// A save counts for every running ad of the pin whose view this person's browser pinged from a
// feed placement (a ping names its campaign only there) within a view's attribution window, and
// only when the save of the same batch stands (a save refused in its batch counts nothing).
const SAVE_SQL = `
  INSERT OR IGNORE INTO ad_save_counts (ad_id, user_id, day, request_key, created_at)
  SELECT DISTINCT a.id, ?1, ?4, ?5, ?3 FROM attribution_pings p
    JOIN ads a ON a.pin_id = p.pin_id AND a.campaign_id = p.campaign_id AND a.ad_account_id = p.advertiser_id
    JOIN campaigns c ON c.id = a.campaign_id
  WHERE p.user_id = ?1 AND p.pin_id = ?2 AND p.received_at > ?3 - ?6 AND p.source_event_type = 'view' AND p.campaign_id IS NOT NULL
    AND ${RUNNING}
    AND (EXISTS (SELECT 1 FROM board_pins b WHERE b.pin_id = ?2 AND b.saved_by = ?1) OR EXISTS (SELECT 1 FROM profile_saves ps WHERE ps.user_id = ?1 AND ps.pin_id = ?2))`;

const SAVE_DAY_SQL = `
  INSERT INTO ad_spend_daily (ad_id, campaign_id, ad_account_id, day, impressions, clicks, spend_micro, saves)
  SELECT a.id, a.campaign_id, a.ad_account_id, s.day, 0, 0, 0, 1
  FROM ad_save_counts s JOIN ads a ON a.id = s.ad_id
  WHERE s.request_key = ?1
  ON CONFLICT (ad_id, day) DO UPDATE SET saves = saves + excluded.saves`;

/** The two statements that count a person's save of a promoted pin once per ad; the save adds them to its own batch. */
export function adSaveStatements(db: D1Database, userId: number, pinId: number, now: number): D1PreparedStatement[] {
  const requestKey = crypto.randomUUID();
  return [
    db.prepare(SAVE_SQL).bind(userId, pinId, now, utcDay(now), requestKey, ATTRIBUTION.expirySeconds.view * 1000),
    db.prepare(SAVE_DAY_SQL).bind(requestKey),
  ];
}

/**
 * A claim outlives every copy of its event: a queue redelivers for at most 14 days, and a
 * browser's retried ping carries a token that expired long before. Past that, the claim guards
 * nothing, and the table would otherwise grow with every view.
 */
const RECEIPT_RETENTION_MS = 14 * 24 * 60 * 60 * 1000;

/** Housekeeping: claims older than the retention go, at most `limit` a run. */
export function pruneAdEventReceipts(db: D1Database, now: number, limit: number): D1PreparedStatement {
  return db
    .prepare(
      "DELETE FROM ad_event_receipts WHERE (advertiser_id, source_event_id) IN (SELECT advertiser_id, source_event_id FROM ad_event_receipts WHERE received_at < ?1 ORDER BY received_at LIMIT ?2)",
    )
    .bind(now - RECEIPT_RETENTION_MS, limit);
}
