// Counting a promoted pin's view or click once, in the attribution ping's own batch
// (src/attribution/ping.server.ts): the ping's dedupe row (a view once per viewer per ad per UTC
// day, signed in or out, a click once per click event id), then the ad's day in ad_spend_daily, added only when
// this very ping wrote the dedupe row. Spend is the goal's price (placement.ts PRICES), never
// taking the campaign's day past its daily budget. Counted only while the ad and its campaign
// are ACTIVE: a page left open after a pause earns nothing more.
import type { AttributionSource } from "~/attribution/source.ts";
import { PRICES, utcDay, type CampaignGoal } from "./placement.ts";

/**
 * "An ad of this campaign promotes this pin for this advertiser (its ad account) and runs", as
 * SQL over the parameters that hold the pin, the advertiser and the campaign.
 */
export const adRunningSql = (pin: string, advertiser: string, campaign: string) => `(${campaign} IS NOT NULL AND EXISTS (SELECT 1 FROM ads a JOIN campaigns c ON c.id = a.campaign_id
  WHERE a.pin_id = ${pin} AND a.ad_account_id = ${advertiser} AND a.campaign_id = ${campaign} AND a.status = 'ACTIVE' AND a.review_status = 'APPROVED' AND c.status = 'ACTIVE'))`;

const priceCase = (event: "viewMicro" | "clickMicro") =>
  `CASE c.goal ${(Object.keys(PRICES) as CampaignGoal[]).map((goal) => `WHEN '${goal}' THEN ${PRICES[goal][event]}`).join(" ")} ELSE 0 END`;

const COUNT_SQL = `
  INSERT OR IGNORE INTO ad_delivery_counts (ad_id, kind, day, dedupe_key, request_key, created_at)
  SELECT a.id, ?4, ?5, ?6, ?7, ?8 FROM ads a JOIN campaigns c ON c.id = a.campaign_id
  WHERE a.pin_id = ?1 AND a.ad_account_id = ?2 AND a.campaign_id = ?3 AND a.status = 'ACTIVE' AND a.review_status = 'APPROVED' AND c.status = 'ACTIVE'
    AND (SELECT count FROM rate_limits WHERE key = ?9) <= ?10
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

interface CountRequest {
  source: AttributionSource;
  /** A view's once-a-day key: `u{id}` for a signed-in person, the browser's visitor key (attribution/visitor.ts) signed out. */
  viewerKey: string;
  now: number;
  /** The attribution throttle's row and limit: a ping over it counts nothing. */
  rateKey: string;
  rateLimit: number;
}

/** The two statements that count a proven ad ping once; the caller adds them to its batch. */
export function adCountStatements(db: D1Database, request: CountRequest): D1PreparedStatement[] {
  const { source, now } = request;
  const kind = source.sourceEventType;
  const dedupeKey = kind === "view" ? request.viewerKey : source.sourceEventId;
  const requestKey = crypto.randomUUID();
  return [
    db.prepare(COUNT_SQL).bind(source.pinId, source.advertiserId, source.campaignId, kind, utcDay(now), dedupeKey, requestKey, now, request.rateKey, request.rateLimit),
    db.prepare(SPEND_SQL).bind(requestKey),
  ];
}
