// GET /v3/ad_accounts/{adAccountId}/results/?start_date&end_date&granularity=DAY&campaign_ids=
// (docs/decisions.md, "Ad results"): impressions, clicks, saves, CTR and spend of an ad account's
// promoted pins per day, per campaign and per ad, with totals. Every member of the account's
// business reads them (results.read); anyone else gets 404, signed out 401.
// GET /v3/ad_accounts/{adAccountId}/results/export/ takes the same query and answers the same
// numbers as a CSV file, one row per campaign per day (src/ads/results-csv.ts).
import { Hono, type Context } from "hono";
import { requireFullViewer } from "~/accounts/guards.server.ts";
import { accountResults, type AccountResults } from "~/ads/results.server.ts";
import { resultsQuerySchema, resultsRange, type Metrics, type ResultsRange } from "~/ads/results.ts";
import { resultsCsv } from "~/ads/results-csv.ts";
import { idOption } from "~/boards/options.ts";
import type { ConversionMetrics } from "~/conversions/attribution.ts";
import { badRequest, notFound, zodProblems } from "~/domain/errors.ts";
import { success } from "~/server/answer.ts";
import type { AppEnv } from "~/server/context.ts";

export const adResultsRoutes = new Hono<AppEnv>();

/** The API's field names (snake_case, money in micro-units as the tables keep it). */
const metricsOut = (metrics: Metrics) => ({ impressions: metrics.impressions, clicks: metrics.clicks, saves: metrics.saves, ctr: metrics.ctr, spend_micro: metrics.spendMicro });

const conversionsOut = (metrics: ConversionMetrics) => ({ conversions: metrics.conversions, value_micro: metrics.valueMicro, spend_micro: metrics.spendMicro, roas: metrics.roas });

function answerOf(results: AccountResults) {
  return {
    ad_account_id: results.adAccountId,
    currency: results.currency,
    start_date: results.startDate,
    end_date: results.endDate,
    granularity: "DAY",
    totals: metricsOut(results.totals),
    days: results.days.map((day) => ({ day: day.day, ...metricsOut(day) })),
    campaigns: results.campaigns.map((campaign) => ({
      campaign_id: campaign.campaignId,
      name: campaign.name,
      status: campaign.status,
      totals: metricsOut(campaign.totals),
      ads: campaign.ads.map((ad) => ({ ad_id: ad.adId, name: ad.name, pin_id: ad.pinId, totals: metricsOut(ad.totals), days: ad.days.map((day) => ({ day: day.day, ...metricsOut(day) })) })),
    })),
    // Conversions attributed to each campaign (click 7 days, view 1 day), with return on ad spend.
    conversions: {
      totals: conversionsOut(results.conversions.totals),
      campaigns: results.conversions.campaigns.map((campaign) => ({ campaign_id: campaign.campaignId, totals: conversionsOut(campaign.totals), days: campaign.days.map((day) => ({ day: day.day, ...conversionsOut(day) })) })),
    },
  };
}

/** The account and range a request names: 404 for an id that cannot be one, 400 naming the field of a bad query. */
function askedFor(c: Context<AppEnv>): { userId: number; adAccountId: number; range: ResultsRange } {
  const userId = requireFullViewer(c.var.ctx).user.id;
  const id = idOption.safeParse(c.req.param("adAccountId"));
  if (!id.success) throw notFound("business:api.adAccountNotFound");
  const input = c.req.query();
  const parsed = resultsQuerySchema.safeParse(input);
  if (!parsed.success) throw badRequest(zodProblems(parsed.error, "", input));
  const range = resultsRange(parsed.data, Date.now());
  if (!range.ok) throw badRequest([{ field: range.field, reason: range.reason, ...(range.values ? { values: range.values } : {}) }]);
  return { userId, adAccountId: id.data, range: range.range };
}

adResultsRoutes.get("/ad_accounts/:adAccountId{[0-9]+}/results/", async (c) => {
  const { userId, adAccountId, range } = askedFor(c);
  return success(c, answerOf(await accountResults(c.env.DB, userId, adAccountId, range)));
});

adResultsRoutes.get("/ad_accounts/:adAccountId{[0-9]+}/results/export/", async (c) => {
  const { userId, adAccountId, range } = askedFor(c);
  const results = await accountResults(c.env.DB, userId, adAccountId, range);
  return c.body(resultsCsv(results, results.currency), 200, {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="results-${results.adAccountId}-${results.startDate}-${results.endDate}.csv"`,
    "Cache-Control": "private, no-store",
  });
});
