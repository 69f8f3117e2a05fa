import { describe, expect, it } from "vitest";
import { amountOf, resultsCsv, resultsCsvRows } from "./results-csv.ts";
import { summarize, type SpendRow } from "./results.ts";

const rows: SpendRow[] = [
  { day: "2026-01-01", campaignId: 1, adId: 11, impressions: 400, clicks: 10, saves: 4, spendMicro: 1_200_000 },
  { day: "2026-01-01", campaignId: 1, adId: 12, impressions: 100, clicks: 0, saves: 0, spendMicro: 300_000 },
  { day: "2026-01-02", campaignId: 1, adId: 11, impressions: 3, clicks: 0, saves: 0, spendMicro: 9_000 },
  { day: "2026-01-03", campaignId: 2, adId: 21, impressions: 0, clicks: 3, saves: 1, spendMicro: 1_500_000 },
];
const campaigns = [
  { id: 1, name: "Sofas, chairs", status: "ACTIVE" },
  { id: 2, name: "=HYPERLINK(\"x\")", status: "PAUSED" },
];
const ads = [
  { id: 11, campaignId: 1, name: "Green sofa", pinId: 501 },
  { id: 12, campaignId: 1, name: "Blue sofa", pinId: 502 },
  { id: 21, campaignId: 2, name: "Desk lamp", pinId: null },
];
const results = summarize({ startDate: "2026-01-01", endDate: "2026-01-03" }, rows, campaigns, ads);

describe("the results CSV", () => {
  it("writes amounts exactly from micro-units, two decimals at least", () => {
    expect(amountOf(0)).toBe("0.00");
    expect(amountOf(1_500_000)).toBe("1.50");
    expect(amountOf(3_000)).toBe("0.003");
    expect(amountOf(1_234_567)).toBe("1.234567");
    expect(amountOf(50_000_000)).toBe("50.00");
  });

  it("has one row per campaign per day it delivered, with its saves, rate and spend in the account's currency", () => {
    expect(resultsCsvRows(results, "EUR")).toEqual([
      ["2026-01-01", "1", "Sofas, chairs", "500", "10", "4", "0.0200", "1.50", "EUR"],
      ["2026-01-02", "1", "Sofas, chairs", "3", "0", "0", "0.0000", "0.009", "EUR"],
      ["2026-01-03", "2", "=HYPERLINK(\"x\")", "0", "3", "1", "0.0000", "1.50", "EUR"],
    ]);
  });

  it("starts with a byte order mark, quotes what needs it and keeps a formula as text", () => {
    expect(resultsCsv(results, "EUR")).toBe(
      "\uFEFFdate,campaign_id,campaign,impressions,clicks,saves,ctr,spend,currency\r\n" +
        '2026-01-01,1,"Sofas, chairs",500,10,4,0.0200,1.50,EUR\r\n' +
        '2026-01-02,1,"Sofas, chairs",3,0,0,0.0000,0.009,EUR\r\n' +
        "2026-01-03,2,\"'=HYPERLINK(\"\"x\"\")\",0,3,1,0.0000,1.50,EUR\r\n",
    );
  });
});
