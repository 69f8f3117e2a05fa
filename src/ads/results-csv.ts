// The results as a CSV file (docs/decisions.md, "Ad results"): one row per campaign per day it
// delivered anything, written by the bulk editor's writer (src/bulk/csv.ts: a UTF-8 byte order
// mark, RFC 4180 quoting, cells that would run as formulas kept text). Amounts are exact: spend
// is written from its micro-units without passing through a float, so the rows add up to the
// stored totals to the last micro-unit.
import { writeCsv } from "~/bulk/csv.ts";
import type { Results } from "./results.ts";

/** The API's field names: stable for the scripts and spreadsheets that read the file. */
const RESULTS_CSV_HEADER = ["date", "campaign_id", "campaign", "impressions", "clicks", "saves", "ctr", "spend", "currency"] as const;

/** Micro-units as a decimal amount: at least two decimals, more only when the amount has them. */
export function amountOf(micro: number): string {
  const whole = Math.trunc(micro / 1_000_000);
  const fraction = String(micro % 1_000_000)
    .padStart(6, "0")
    .replace(/0{1,4}$/, "");
  return `${whole}.${fraction}`;
}

/** A rate to four decimals, as the results keep it. */
const rateOf = (ctr: number) => ctr.toFixed(4);

/** The file's rows: campaigns in the results' order, each day oldest first. */
export function resultsCsvRows(results: Pick<Results, "campaigns">, currency: string): string[][] {
  return results.campaigns.flatMap((campaign) =>
    campaign.days.map((day) => [day.day, campaign.campaignId, campaign.name, String(day.impressions), String(day.clicks), String(day.saves), rateOf(day.ctr), amountOf(day.spendMicro), currency]),
  );
}

export function resultsCsv(results: Pick<Results, "campaigns">, currency: string): string {
  return writeCsv(RESULTS_CSV_HEADER, resultsCsvRows(results, currency));
}
