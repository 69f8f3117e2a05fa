// What a campaign, ad group, ad, keyword and product group may hold (spec 002 §4 "Promotion
// values", §9 "Promotion by country"; migration 0033's tables), as plain rules any writer of them
// shares: bulk editing and quick promote ask the same functions, so a value one accepts the
// other accepts. Each rule answers a stable error code (CAMPAIGN_ERROR_CODES) or null; the
// messages are the i18n keys `bulk:codes.<CODE>`.
import { isAllowedLink, PIN_LINK_MAX } from "~/pins/pin.ts";
import { AUDIENCE_SIZES, minimumDailyBudget, PROMOTION_GOALS } from "~/business/marketing-plan.ts";

export { AUDIENCE_SIZES, PROMOTION_GOALS as CAMPAIGN_GOALS };
export type CampaignGoal = (typeof PROMOTION_GOALS)[number];

/** Every status an object may be in; REJECTED is review's answer, never set by a person. */
export const OBJECT_STATUSES = ["ACTIVE", "PAUSED", "ENDED", "REJECTED"] as const;
export type ObjectStatus = (typeof OBJECT_STATUSES)[number];
/** What a person may set: pause, resume or end (ENDED is final). */
export const SETTABLE_STATUSES = ["ACTIVE", "PAUSED", "ENDED"] as const;
/** A new object starts running or paused; ending something that never ran means nothing. */
export const CREATE_STATUSES = ["ACTIVE", "PAUSED"] as const;
/** Keywords are switched on and off only (0033: ACTIVE, PAUSED). */
export const KEYWORD_STATUSES = ["ACTIVE", "PAUSED"] as const;
export type KeywordStatus = (typeof KEYWORD_STATUSES)[number];

export const MATCH_TYPES = ["BROAD", "PHRASE", "EXACT", "NEGATIVE_PHRASE", "NEGATIVE_EXACT"] as const;
export type MatchType = (typeof MATCH_TYPES)[number];

/** How an ad shows: a pin as an image, a video or a carousel; a product group as shopping. */
export const AD_TYPES = ["STANDARD", "VIDEO", "CAROUSEL", "SHOPPING"] as const;
export type AdType = (typeof AD_TYPES)[number];

/** What one ad account may hold, all kinds together: an account's whole inventory fits one bulk file. */
export const MAX_ACCOUNT_OBJECTS = 5_000;

export const CAMPAIGN_LIMITS = {
  name: 100,
  keyword: 100,
  filters: 2000,
  /** Spec 002 §9: "Duration options: 1 to 365." */
  durationMin: 1,
  durationMax: 365,
  /** Spec 002 §9: "Maximum 1,000,000" (a daily budget or a bid, in the account's currency). */
  moneyMax: 1_000_000,
} as const;

/** The codes these rules answer; the bulk editor adds its file and reference codes to them. */
export const CAMPAIGN_ERROR_CODES = [
  "REQUIRED",
  "TOO_LONG",
  "ENUM_INVALID",
  "NUMBER_INVALID",
  "BUDGET_BELOW_MINIMUM",
  "BUDGET_ABOVE_MAXIMUM",
  "BID_OUT_OF_RANGE",
  "DURATION_OUT_OF_RANGE",
  "DATE_INVALID",
  "DATE_IN_PAST",
  "BOOLEAN_INVALID",
  "URL_INVALID",
  "URL_BLOCKED",
  "STATUS_NOT_ALLOWED",
  "OBJECT_ENDED",
  "GOAL_IMMUTABLE",
  "CREATIVE_REQUIRED",
  "CREATIVE_CONFLICT",
  "CREATIVE_IMMUTABLE",
  "AD_TYPE_MISMATCH",
  "PIN_NOT_PROMOTABLE",
  "PARENT_ENDED",
  "KEYWORD_DUPLICATE",
  "FILTERS_INVALID",
] as const;
type CampaignErrorCode = (typeof CAMPAIGN_ERROR_CODES)[number];

export interface Problem<Code extends string = CampaignErrorCode> {
  code: Code;
  values?: Record<string, string | number>;
}

const MICRO = 1_000_000;
/** A whole or decimal amount with at most two decimals; a comma may be the decimal mark (spreadsheets in many locales write one). */
const MONEY = /^(\d{1,7})(?:[.,](\d{1,2}))?$/;

/** A written amount in micro-units of the currency, or null when it is not a plain positive amount. */
export function parseMoney(text: string): number | null {
  const match = MONEY.exec(text);
  if (!match) return null;
  const cents = Number((match[2] ?? "").padEnd(2, "0"));
  return Number(match[1]) * MICRO + cents * (MICRO / 100);
}

/** Micro-units written back as the amount a person types ("12.5" → "12.50", "7" → "7"). */
export function formatMoney(micro: number): string {
  const totalCents = Math.round(micro / (MICRO / 100));
  const whole = Math.floor(totalCents / 100);
  const cents = totalCents % 100;
  return cents === 0 ? String(whole) : `${whole}.${String(cents).padStart(2, "0")}`;
}

/** Spec 002 §9: at least the ad account country's minimum, at most 1,000,000. */
export function dailyBudgetProblem(micro: number, country: string): Problem | null {
  const minimum = minimumDailyBudget(country);
  if (micro < minimum * MICRO) return { code: "BUDGET_BELOW_MINIMUM", values: { minimum } };
  if (micro > CAMPAIGN_LIMITS.moneyMax * MICRO) return { code: "BUDGET_ABOVE_MAXIMUM", values: { maximum: CAMPAIGN_LIMITS.moneyMax } };
  return null;
}

/** A bid is more than nothing and at most the budget ceiling. */
export function bidProblem(micro: number): Problem | null {
  return micro <= 0 || micro > CAMPAIGN_LIMITS.moneyMax * MICRO ? { code: "BID_OUT_OF_RANGE", values: { maximum: CAMPAIGN_LIMITS.moneyMax } } : null;
}

/** Spec 002 §9: a run of 1 to 365 days. */
export function durationProblem(days: number): Problem | null {
  return Number.isInteger(days) && days >= CAMPAIGN_LIMITS.durationMin && days <= CAMPAIGN_LIMITS.durationMax
    ? null
    : { code: "DURATION_OUT_OF_RANGE", values: { minimum: CAMPAIGN_LIMITS.durationMin, maximum: CAMPAIGN_LIMITS.durationMax } };
}

export const DAY_MS = 86_400_000;
export const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A calendar date written YYYY-MM-DD as its UTC midnight, or null. */
export function parseDay(text: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return null;
  const ms = Date.parse(`${text}T00:00:00Z`);
  return Number.isNaN(ms) || isoDay(ms) !== text ? null : ms;
}

/**
 * Spec 000 §5's link rule (http or https, not a blocked host; at most 2,048 characters as every
 * pin link), the same isAllowedLink the pin builder and the pin pages use.
 */
export function destinationProblem(url: string, blockedHosts: ReadonlySet<string>): Problem | null {
  if (url.length > PIN_LINK_MAX) return { code: "TOO_LONG", values: { maximum: PIN_LINK_MAX } };
  if (!isAllowedLink(url, new Set())) return { code: "URL_INVALID" };
  if (!isAllowedLink(url, blockedHosts)) return { code: "URL_BLOCKED" };
  return null;
}

/** A product group's catalog filters: a JSON object, small. */
export function filtersProblem(text: string): Problem | null {
  if (text.length > CAMPAIGN_LIMITS.filters) return { code: "TOO_LONG", values: { maximum: CAMPAIGN_LIMITS.filters } };
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? null : { code: "FILTERS_INVALID" };
  } catch {
    return { code: "FILTERS_INVALID" };
  }
}

/** A product group is shown as shopping; a pin never is. */
export function adTypeProblem(adType: AdType, promotes: "pin" | "product_group"): Problem | null {
  return (adType === "SHOPPING") === (promotes === "product_group") ? null : { code: "AD_TYPE_MISMATCH" };
}

/** The ad type when none is given: shopping for a product group, standard for a pin. */
export const defaultAdType = (promotes: "pin" | "product_group"): AdType => (promotes === "product_group" ? "SHOPPING" : "STANDARD");

/** One status change: never out of ENDED (final) or REJECTED (review's), never to REJECTED. */
export function statusChangeProblem(from: ObjectStatus, to: string): Problem | null {
  if (from === to) return null;
  if (from === "ENDED") return { code: "OBJECT_ENDED" };
  if (from === "REJECTED" || !(SETTABLE_STATUSES as readonly string[]).includes(to)) return { code: "STATUS_NOT_ALLOWED" };
  return null;
}
