// Attributing conversions to campaigns (spec 002 §9: click 7 days, view 1 day; docs/decisions.md,
// "Conversion attribution"). A conversion counts for the campaign whose promoted pin the person
// clicked (the conversion carries that click's id) within the 7 days before it, else whose promoted
// pin the matched person saw within the day before it; a click beats any view, and among touches
// of one kind the latest wins. Computed when results are read, from the stored clicks and views,
// so nothing is stored twice. Pure: results.server.ts reads the touches.
import { ATTRIBUTION } from "~/attribution/source.ts";

const ATTRIBUTION_WINDOW_MS = { click: ATTRIBUTION.expirySeconds.click * 1000, view: ATTRIBUTION.expirySeconds.view * 1000 } as const;

export interface Touch {
  kind: "click" | "view";
  campaignId: number;
  /** When the click or view was counted (epoch ms). */
  at: number;
}

/** The campaign a conversion at `eventTime` is attributed to, or null when no touch qualifies. */
export function attributedCampaign(eventTime: number, touches: readonly Touch[]): number | null {
  let best: Touch | null = null;
  for (const touch of touches) {
    if (touch.at > eventTime || eventTime - touch.at > ATTRIBUTION_WINDOW_MS[touch.kind]) continue;
    if (best === null || rank(touch) > rank(best) || (rank(touch) === rank(best) && (touch.at > best.at || (touch.at === best.at && touch.campaignId < best.campaignId)))) best = touch;
  }
  return best?.campaignId ?? null;
}

const rank = (touch: Touch) => (touch.kind === "click" ? 2 : 1);

/** One conversion with the touches that might earn it, as the results query returns them. */
export interface ConversionTouches {
  conversionId: number;
  eventTime: number;
  valueMicro: number | null;
  currency: string | null;
  touches: Touch[];
}

export interface ConversionMetrics {
  conversions: number;
  /** Conversion value in the account's currency, micro-units. */
  valueMicro: number;
  spendMicro: number;
  /** Return on ad spend: value / spend, to two decimals; null without spend. */
  roas: number | null;
}

export interface ConversionResults {
  totals: ConversionMetrics;
  /** The whole account's, day by day: what the results charts draw beside spend. */
  days: Array<ConversionMetrics & { day: string }>;
  campaigns: Array<{ campaignId: string; totals: ConversionMetrics; days: Array<ConversionMetrics & { day: string }> }>;
}

const roasOf = (valueMicro: number, spendMicro: number) => (spendMicro === 0 ? null : Math.round((valueMicro / spendMicro) * 100) / 100);
const metricsOf = (conversions: number, valueMicro: number, spendMicro: number): ConversionMetrics => ({ conversions, valueMicro, spendMicro, roas: roasOf(valueMicro, spendMicro) });
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Conversions and their value per campaign per day beside the day's spend. A value counts only
 * in the account's currency (or with none named): values in other currencies are not converted.
 */
export function conversionResults(
  days: readonly string[],
  campaigns: ReadonlyArray<{ id: number }>,
  spend: ReadonlyArray<{ day: string; campaignId: number; spendMicro: number }>,
  conversions: readonly ConversionTouches[],
  accountCurrency: string,
): ConversionResults {
  const cell = new Map<string, { conversions: number; valueMicro: number }>();
  for (const conversion of conversions) {
    const campaignId = attributedCampaign(conversion.eventTime, conversion.touches);
    if (campaignId === null) continue;
    const key = `${campaignId}|${dayOf(conversion.eventTime)}`;
    const sum = cell.get(key) ?? { conversions: 0, valueMicro: 0 };
    sum.conversions += 1;
    if (conversion.valueMicro !== null && (conversion.currency === null || conversion.currency === accountCurrency)) sum.valueMicro += conversion.valueMicro;
    cell.set(key, sum);
  }
  const spendOf = (campaignId: number, day: string) => spend.filter((row) => row.campaignId === campaignId && row.day === day).reduce((total, row) => total + row.spendMicro, 0);
  const rows = campaigns.map((campaign) => {
    const perDay = days.map((day) => {
      const sum = cell.get(`${campaign.id}|${day}`) ?? { conversions: 0, valueMicro: 0 };
      return { day, ...metricsOf(sum.conversions, sum.valueMicro, spendOf(campaign.id, day)) };
    });
    const total = perDay.reduce((acc, day) => ({ conversions: acc.conversions + day.conversions, valueMicro: acc.valueMicro + day.valueMicro, spendMicro: acc.spendMicro + day.spendMicro }), { conversions: 0, valueMicro: 0, spendMicro: 0 });
    return { campaignId: String(campaign.id), totals: metricsOf(total.conversions, total.valueMicro, total.spendMicro), days: perDay };
  });
  const all = rows.reduce((acc, row) => ({ conversions: acc.conversions + row.totals.conversions, valueMicro: acc.valueMicro + row.totals.valueMicro, spendMicro: acc.spendMicro + row.totals.spendMicro }), { conversions: 0, valueMicro: 0, spendMicro: 0 });
  const accountDays = days.map((day, index) => {
    const sum = rows.reduce((acc, row) => {
      const entry = row.days[index]!;
      return { conversions: acc.conversions + entry.conversions, valueMicro: acc.valueMicro + entry.valueMicro, spendMicro: acc.spendMicro + entry.spendMicro };
    }, { conversions: 0, valueMicro: 0, spendMicro: 0 });
    return { day, ...metricsOf(sum.conversions, sum.valueMicro, sum.spendMicro) };
  });
  return { totals: metricsOf(all.conversions, all.valueMicro, all.spendMicro), days: accountDays, campaigns: rows };
}
