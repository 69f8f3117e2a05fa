// An ad account's results (docs/decisions.md, "Ad results"): the query's date range and filters
// checked, and the stored days (ad_spend_daily) summed per day, per campaign and per ad, with
// CTR. Pure: results.server.ts reads the rows, the API and the page show this.
import { z } from "zod";

/** The longest range one answer covers: a quarter. */
const MAX_RANGE_DAYS = 92;
/** The default range: the last seven days, today included (today's clicks show at once). */
const DEFAULT_DAYS = 7;
const MAX_CAMPAIGN_FILTER = 50;
const DAY_MS = 86_400_000;

const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "validation.invalidFormat")
  .refine((text) => !Number.isNaN(Date.parse(`${text}T00:00:00Z`)) && new Date(`${text}T00:00:00Z`).toISOString().startsWith(text), "business:ads.invalidDate");

const idList = z
  .string()
  .max(1100)
  .regex(/^\d{1,16}(,\d{1,16})*$/, "validation.invalidFormat")
  .transform((text) => [...new Set(text.split(",").map(Number))])
  .refine((ids) => ids.length <= MAX_CAMPAIGN_FILTER, { message: "business:ads.tooManyCampaigns", params: { values: { maximum: MAX_CAMPAIGN_FILTER } } });

export const resultsQuerySchema = z
  .object({
    start_date: isoDay.optional(),
    end_date: isoDay.optional(),
    granularity: z.literal("DAY").optional(),
    campaign_ids: idList.optional(),
  })
  .strict();

export interface ResultsRange {
  startDate: string;
  endDate: string;
  campaignIds: number[] | null;
}

const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayMs = (text: string) => Date.parse(`${text}T00:00:00Z`);

/** The range when none is asked for: the last DEFAULT_DAYS days, today included, every campaign. */
export function defaultResultsRange(now: number): ResultsRange {
  return { startDate: dayText(now - (DEFAULT_DAYS - 1) * DAY_MS), endDate: dayText(now), campaignIds: null };
}

/** The range asked for, defaults filled in; a problem naming the field when it is backwards or too long. */
export function resultsRange(query: z.output<typeof resultsQuerySchema>, now: number): { ok: true; range: ResultsRange } | { ok: false; field: string; reason: string; values?: Record<string, number> } {
  const endDate = query.end_date ?? dayText(now);
  const startDate = query.start_date ?? dayText(dayMs(endDate) - (DEFAULT_DAYS - 1) * DAY_MS);
  if (startDate > endDate) return { ok: false, field: "start_date", reason: "business:ads.startAfterEnd" };
  if ((dayMs(endDate) - dayMs(startDate)) / DAY_MS + 1 > MAX_RANGE_DAYS) return { ok: false, field: "end_date", reason: "validation.tooBig", values: { maximum: MAX_RANGE_DAYS } };
  return { ok: true, range: { startDate, endDate, campaignIds: query.campaign_ids ?? null } };
}

/** Every day of the range, oldest first. */
function daysOf(range: Pick<ResultsRange, "startDate" | "endDate">): string[] {
  const days: string[] = [];
  for (let ms = dayMs(range.startDate); ms <= dayMs(range.endDate) && days.length < MAX_RANGE_DAYS; ms += DAY_MS) days.push(dayText(ms));
  return days;
}

export interface Metrics {
  impressions: number;
  clicks: number;
  saves: number;
  /** Clicks per impression, 0 without impressions, to four decimals. */
  ctr: number;
  spendMicro: number;
}

/** The metrics every view of the results shows, in order: the charts, the tables and the CSV file. */
export const RESULT_METRICS = ["impressions", "clicks", "saves", "ctr", "spendMicro"] as const satisfies ReadonlyArray<keyof Metrics>;
export type ResultMetric = (typeof RESULT_METRICS)[number];

export interface SpendRow {
  day: string;
  campaignId: number;
  adId: number;
  impressions: number;
  clicks: number;
  saves: number;
  spendMicro: number;
}

interface DayMetrics extends Metrics {
  day: string;
}

interface AdResults {
  adId: string;
  name: string;
  pinId: string | null;
  totals: Metrics;
  days: DayMetrics[];
}

interface CampaignResults {
  campaignId: string;
  name: string;
  status: string;
  totals: Metrics;
  /** The campaign's days that delivered anything, oldest first. */
  days: DayMetrics[];
  ads: AdResults[];
}

export interface Results {
  startDate: string;
  endDate: string;
  totals: Metrics;
  /** The account's days, every day of the range (zeros where nothing ran): what the chart draws. */
  days: DayMetrics[];
  campaigns: CampaignResults[];
}

const ctrOf = (impressions: number, clicks: number) => (impressions === 0 ? 0 : Math.round((clicks / impressions) * 10_000) / 10_000);
const metrics = (impressions: number, clicks: number, saves: number, spendMicro: number): Metrics => ({ impressions, clicks, saves, ctr: ctrOf(impressions, clicks), spendMicro });

function sum(rows: readonly SpendRow[]): Metrics {
  let impressions = 0;
  let clicks = 0;
  let saves = 0;
  let spend = 0;
  for (const row of rows) {
    impressions += row.impressions;
    clicks += row.clicks;
    saves += row.saves;
    spend += row.spendMicro;
  }
  return metrics(impressions, clicks, saves, spend);
}

const delivered = (day: Metrics) => day.impressions + day.clicks + day.saves + day.spendMicro > 0;

function byDay(rows: readonly SpendRow[], days: readonly string[]): DayMetrics[] {
  return days.map((day) => ({ day, ...sum(rows.filter((row) => row.day === day)) }));
}

/** Sums the stored rows for the range: totals, each day, each campaign and its ads (campaigns and ads in the order given). */
export function summarize(
  range: Pick<ResultsRange, "startDate" | "endDate">,
  rows: readonly SpendRow[],
  campaigns: ReadonlyArray<{ id: number; name: string; status: string }>,
  ads: ReadonlyArray<{ id: number; campaignId: number; name: string; pinId: number | null }>,
): Results {
  const days = daysOf(range);
  const inRange = rows.filter((row) => row.day >= range.startDate && row.day <= range.endDate);
  return {
    startDate: range.startDate,
    endDate: range.endDate,
    totals: sum(inRange),
    days: byDay(inRange, days),
    campaigns: campaigns.map((campaign) => {
      const own = inRange.filter((row) => row.campaignId === campaign.id);
      return {
        campaignId: String(campaign.id),
        name: campaign.name,
        status: campaign.status,
        totals: sum(own),
        days: byDay(own, days).filter(delivered),
        ads: ads
          .filter((ad) => ad.campaignId === campaign.id)
          .map((ad) => {
            const adRows = own.filter((row) => row.adId === ad.id);
            return { adId: String(ad.id), name: ad.name, pinId: ad.pinId === null ? null : String(ad.pinId), totals: sum(adRows), days: byDay(adRows, days).filter(delivered) };
          }),
      };
    }),
  };
}
