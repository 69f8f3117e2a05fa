// An ad account's results from ad_spend_daily: whoever the role table (src/business/roles.ts)
// allows results.read on this account reads them (the role held on the account decides, a
// partner's too); a stranger is told the account does not exist. One batch reads the days, the campaigns and their ads, each bounded.
import { notFound } from "~/domain/errors.ts";
import { requireAssetAction } from "~/business/core.server.ts";
import { summarize, type Results, type ResultsRange, type SpendRow } from "./results.ts";
import { conversionResults, type ConversionResults, type ConversionTouches } from "~/conversions/attribution.ts";

const MAX_CAMPAIGNS = 200;
const MAX_ADS = 1000;
/** A quarter of days for a thousand ads, at most. */
const MAX_ROWS = 92 * MAX_ADS;

export interface AccountResults extends Results {
  adAccountId: string;
  name: string;
  currency: string;
  businessId: string;
  /** Conversions attributed to each campaign, per day, with return on ad spend. */
  conversions: ConversionResults;
}

/** Conversions read for one answer, at most. */
const MAX_CONVERSIONS = 20_000;
const DAY_SECONDS = 86_400;

/**
 * The account's counted conversions in the range, each with the clicks and views that might earn
 * it (conversions/attribution.ts decides which): a click of one of the account's ads whose id the
 * conversion carries, counted in the 7 days before it; a view of one by the matched person (a
 * view's dedupe key is "u<user id>"), counted in the day before it. The day bounds let SQLite
 * look each touch up by the counts' primary key.
 */
const TOUCHES_SQL = `
  WITH conv AS (
    SELECT id, event_time, value_micro, currency, click_id, user_id FROM conversion_events
    WHERE ad_account_id = ?1 AND is_test = 0 AND event_time >= ?2 AND event_time < ?3
    ORDER BY event_time, id LIMIT ${MAX_CONVERSIONS}
  )
  SELECT conv.id, conv.event_time, conv.value_micro, conv.currency, 'click' AS kind, a.campaign_id, d.created_at
  FROM conv JOIN ads a ON a.ad_account_id = ?1
  JOIN ad_delivery_counts d ON d.ad_id = a.id AND d.kind = 'click' AND d.dedupe_key = conv.click_id
    AND d.day BETWEEN date(conv.event_time / 1000 - ${7 * DAY_SECONDS}, 'unixepoch') AND date(conv.event_time / 1000, 'unixepoch')
  WHERE conv.click_id IS NOT NULL
  UNION ALL
  SELECT conv.id, conv.event_time, conv.value_micro, conv.currency, 'view' AS kind, a.campaign_id, d.created_at
  FROM conv JOIN ads a ON a.ad_account_id = ?1
  JOIN ad_delivery_counts d ON d.ad_id = a.id AND d.kind = 'view' AND d.dedupe_key = 'u' || conv.user_id
    AND d.day BETWEEN date(conv.event_time / 1000 - ${DAY_SECONDS}, 'unixepoch') AND date(conv.event_time / 1000, 'unixepoch')
  WHERE conv.user_id IS NOT NULL`;

type TouchRow = { id: number; event_time: number; value_micro: number | null; currency: string | null; kind: "click" | "view"; campaign_id: number; created_at: number };

function touchesOf(rows: readonly TouchRow[]): ConversionTouches[] {
  const byConversion = new Map<number, ConversionTouches>();
  for (const row of rows) {
    const entry = byConversion.get(row.id) ?? { conversionId: row.id, eventTime: row.event_time, valueMicro: row.value_micro, currency: row.currency, touches: [] };
    entry.touches.push({ kind: row.kind, campaignId: row.campaign_id, at: row.created_at });
    byConversion.set(row.id, entry);
  }
  return [...byConversion.values()];
}

/** The campaign filter as SQL (`?4` a JSON array of ids), or no filter. */
const campaignFilter = (column: string, ids: number[] | null) => (ids === null ? "" : ` AND ${column} IN (SELECT value FROM json_each(?4))`);

export async function accountResults(db: D1Database, userId: number, adAccountId: number, range: ResultsRange): Promise<AccountResults> {
  const account = await db.prepare("SELECT id, business_id, name, currency FROM ad_accounts WHERE id = ?1").bind(adAccountId).first<{ id: number; business_id: number; name: string; currency: string }>();
  if (!account) throw notFound("business:api.adAccountNotFound");
  await requireAssetAction(db, account.business_id, userId, "results.read", { type: "AD_ACCOUNT", id: adAccountId });
  const filter = range.campaignIds === null ? null : JSON.stringify(range.campaignIds);
  const binds = [adAccountId, range.startDate, range.endDate, ...(filter === null ? [] : [filter])];
  const [spend, campaigns, ads, touches] = await db.batch([
    db
      .prepare(
        `SELECT day, campaign_id, ad_id, impressions, clicks, saves, spend_micro FROM ad_spend_daily
         WHERE ad_account_id = ?1 AND day BETWEEN ?2 AND ?3${campaignFilter("campaign_id", range.campaignIds)}
         ORDER BY day LIMIT ${MAX_ROWS}`,
      )
      .bind(...binds),
    db
      .prepare(
        `SELECT id, name, status FROM campaigns WHERE ad_account_id = ?1 AND ?2 <= ?3${campaignFilter("id", range.campaignIds)}
         ORDER BY created_at, id LIMIT ${MAX_CAMPAIGNS}`,
      )
      .bind(...binds),
    db
      .prepare(
        `SELECT id, campaign_id, name, pin_id FROM ads WHERE ad_account_id = ?1 AND ?2 <= ?3${campaignFilter("campaign_id", range.campaignIds)}
         ORDER BY created_at, id LIMIT ${MAX_ADS}`,
      )
      .bind(...binds),
    db.prepare(TOUCHES_SQL).bind(adAccountId, Date.parse(`${range.startDate}T00:00:00Z`), Date.parse(`${range.endDate}T00:00:00Z`) + DAY_SECONDS * 1000),
  ]);
  const rows = ((spend?.results ?? []) as Array<{ day: string; campaign_id: number; ad_id: number; impressions: number; clicks: number; saves: number; spend_micro: number }>).map(
    (row): SpendRow => ({ day: row.day, campaignId: row.campaign_id, adId: row.ad_id, impressions: row.impressions, clicks: row.clicks, saves: row.saves, spendMicro: row.spend_micro }),
  );
  const campaignRows = (campaigns?.results ?? []) as Array<{ id: number; name: string; status: string }>;
  const adRows = ((ads?.results ?? []) as Array<{ id: number; campaign_id: number; name: string; pin_id: number | null }>).map((ad) => ({ id: ad.id, campaignId: ad.campaign_id, name: ad.name, pinId: ad.pin_id }));
  const summary = summarize(range, rows, campaignRows, adRows);
  return {
    adAccountId: String(account.id),
    name: account.name,
    currency: account.currency,
    businessId: String(account.business_id),
    ...summary,
    conversions: conversionResults(
      summary.days.map((day) => day.day),
      campaignRows,
      rows,
      touchesOf((touches?.results ?? []) as TouchRow[]),
      account.currency,
    ),
  };
}
