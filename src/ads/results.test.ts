import { describe, expect, it } from "vitest";
import { defaultResultsRange, resultsQuerySchema, resultsRange, summarize, type SpendRow } from "./results.ts";

const NOW = Date.UTC(2026, 10, 27, 15, 0, 0);

describe("the results range", () => {
  it("defaults to the last seven days, today included", () => {
    expect(defaultResultsRange(NOW)).toEqual({ startDate: "2026-11-21", endDate: "2026-11-27", campaignIds: null });
    expect(resultsRange({}, NOW)).toEqual({ ok: true, range: { startDate: "2026-11-21", endDate: "2026-11-27", campaignIds: null } });
  });

  it("counts seven days back from a given end", () => {
    expect(resultsRange({ end_date: "2026-03-02" }, NOW)).toEqual({ ok: true, range: { startDate: "2026-02-24", endDate: "2026-03-02", campaignIds: null } });
  });

  it("refuses a range that runs backwards or past 92 days, naming the field", () => {
    expect(resultsRange({ start_date: "2026-01-05", end_date: "2026-01-01" }, NOW)).toEqual({ ok: false, field: "start_date", reason: "business:ads.startAfterEnd" });
    expect(resultsRange({ start_date: "2026-01-01", end_date: "2026-04-02" }, NOW)).toEqual({ ok: true, range: { startDate: "2026-01-01", endDate: "2026-04-02", campaignIds: null } });
    expect(resultsRange({ start_date: "2026-01-01", end_date: "2026-04-03" }, NOW)).toEqual({ ok: false, field: "end_date", reason: "validation.tooBig", values: { maximum: 92 } });
  });

  it("reads dates, the granularity and the campaign filter strictly", () => {
    expect(resultsQuerySchema.safeParse({ start_date: "2026-02-30" }).success).toBe(false);
    expect(resultsQuerySchema.safeParse({ start_date: "2026-2-3" }).success).toBe(false);
    expect(resultsQuerySchema.safeParse({ granularity: "HOUR" }).success).toBe(false);
    expect(resultsQuerySchema.safeParse({ other: "1" }).success).toBe(false);
    expect(resultsQuerySchema.parse({ campaign_ids: "7,8,7", granularity: "DAY" })).toEqual({ campaign_ids: [7, 8], granularity: "DAY" });
    expect(resultsQuerySchema.safeParse({ campaign_ids: "7,,8" }).success).toBe(false);
  });
});

describe("summing the results", () => {
  const rows: SpendRow[] = [
    { day: "2026-01-01", campaignId: 1, adId: 11, impressions: 400, clicks: 10, saves: 4, spendMicro: 1_200_000 },
    { day: "2026-01-01", campaignId: 1, adId: 12, impressions: 100, clicks: 0, saves: 0, spendMicro: 300_000 },
    { day: "2026-01-03", campaignId: 2, adId: 21, impressions: 0, clicks: 3, saves: 1, spendMicro: 1_500_000 },
    // Outside the range: left out.
    { day: "2026-01-04", campaignId: 1, adId: 11, impressions: 999, clicks: 999, saves: 999, spendMicro: 999 },
  ];
  const campaigns = [
    { id: 1, name: "Sofas", status: "ACTIVE" },
    { id: 2, name: "Lamps", status: "PAUSED" },
  ];
  const ads = [
    { id: 11, campaignId: 1, name: "Green sofa", pinId: 501 },
    { id: 12, campaignId: 1, name: "Blue sofa", pinId: 502 },
    { id: 21, campaignId: 2, name: "Desk lamp", pinId: null },
  ];

  it("totals the range, fills every day, and sums each campaign and ad", () => {
    const results = summarize({ startDate: "2026-01-01", endDate: "2026-01-03" }, rows, campaigns, ads);
    expect(results.totals).toEqual({ impressions: 500, clicks: 13, saves: 5, ctr: 0.026, spendMicro: 3_000_000 });
    expect(results.days).toEqual([
      { day: "2026-01-01", impressions: 500, clicks: 10, saves: 4, ctr: 0.02, spendMicro: 1_500_000 },
      { day: "2026-01-02", impressions: 0, clicks: 0, saves: 0, ctr: 0, spendMicro: 0 },
      { day: "2026-01-03", impressions: 0, clicks: 3, saves: 1, ctr: 0, spendMicro: 1_500_000 },
    ]);
    expect(results.campaigns.map((campaign) => [campaign.name, campaign.totals])).toEqual([
      ["Sofas", { impressions: 500, clicks: 10, saves: 4, ctr: 0.02, spendMicro: 1_500_000 }],
      ["Lamps", { impressions: 0, clicks: 3, saves: 1, ctr: 0, spendMicro: 1_500_000 }],
    ]);
    // A campaign's days are those it delivered on.
    expect(results.campaigns.map((campaign) => campaign.days)).toEqual([
      [{ day: "2026-01-01", impressions: 500, clicks: 10, saves: 4, ctr: 0.02, spendMicro: 1_500_000 }],
      [{ day: "2026-01-03", impressions: 0, clicks: 3, saves: 1, ctr: 0, spendMicro: 1_500_000 }],
    ]);
    expect(results.campaigns[0]!.ads).toEqual([
      { adId: "11", name: "Green sofa", pinId: "501", totals: { impressions: 400, clicks: 10, saves: 4, ctr: 0.025, spendMicro: 1_200_000 }, days: [{ day: "2026-01-01", impressions: 400, clicks: 10, saves: 4, ctr: 0.025, spendMicro: 1_200_000 }] },
      { adId: "12", name: "Blue sofa", pinId: "502", totals: { impressions: 100, clicks: 0, saves: 0, ctr: 0, spendMicro: 300_000 }, days: [{ day: "2026-01-01", impressions: 100, clicks: 0, saves: 0, ctr: 0, spendMicro: 300_000 }] },
    ]);
  });
});
