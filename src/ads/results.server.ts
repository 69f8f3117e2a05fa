// An ad account's results from ad_spend_daily: every member of the account's business with the
// results.read action (src/business/roles.ts) reads them; a stranger is told the account does not
// exist. One batch reads the days, the campaigns and their ads, each bounded.
import { notFound } from "~/domain/errors.ts";
import { requireAction } from "~/business/core.server.ts";
import { summarize, type Results, type ResultsRange, type SpendRow } from "./results.ts";

const MAX_CAMPAIGNS = 200;
const MAX_ADS = 1000;
/** A quarter of days for a thousand ads, at most. */
const MAX_ROWS = 92 * MAX_ADS;

export interface AccountResults extends Results {
  adAccountId: string;
  name: string;
  currency: string;
  businessId: string;
}

/** The campaign filter as SQL (`?4` a JSON array of ids), or no filter. */
const campaignFilter = (column: string, ids: number[] | null) => (ids === null ? "" : ` AND ${column} IN (SELECT value FROM json_each(?4))`);

export async function accountResults(db: D1Database, userId: number, adAccountId: number, range: ResultsRange): Promise<AccountResults> {
  const account = await db.prepare("SELECT id, business_id, name, currency FROM ad_accounts WHERE id = ?1").bind(adAccountId).first<{ id: number; business_id: number; name: string; currency: string }>();
  if (!account) throw notFound("business:api.adAccountNotFound");
  await requireAction(db, account.business_id, userId, "results.read");
  const filter = range.campaignIds === null ? null : JSON.stringify(range.campaignIds);
  const binds = [adAccountId, range.startDate, range.endDate, ...(filter === null ? [] : [filter])];
  const [spend, campaigns, ads] = await db.batch([
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
  ]);
  const rows = ((spend?.results ?? []) as Array<{ day: string; campaign_id: number; ad_id: number; impressions: number; clicks: number; saves: number; spend_micro: number }>).map(
    (row): SpendRow => ({ day: row.day, campaignId: row.campaign_id, adId: row.ad_id, impressions: row.impressions, clicks: row.clicks, saves: row.saves, spendMicro: row.spend_micro }),
  );
  const campaignRows = (campaigns?.results ?? []) as Array<{ id: number; name: string; status: string }>;
  const adRows = ((ads?.results ?? []) as Array<{ id: number; campaign_id: number; name: string; pin_id: number | null }>).map((ad) => ({ id: ad.id, campaignId: ad.campaign_id, name: ad.name, pinId: ad.pin_id }));
  return {
    adAccountId: String(account.id),
    name: account.name,
    currency: account.currency,
    businessId: String(account.business_id),
    ...summarize(range, rows, campaignRows, adRows),
  };
}
