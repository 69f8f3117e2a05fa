// Quick promote's rules (spec 002 §3 "Quick promote form", §4 "Quick promote" and "Promotion
// values", §9 "Promotion by country"): the defaults and minimums by country, the form's bounds,
// which ad type fits what is promoted, who is asked the GDPR question, and the submission's
// schema. Pure, so the browser shows the same problems the server refuses with.
import { z } from "zod";
import { LOCALES } from "~/context/locales.ts";
import { linkProblem } from "~/builder/drafts.ts";
import { AUDIENCE_SIZES, minimumDailyBudget, PROMOTION_GOALS } from "~/business/marketing-plan.ts";
import { leadFormSchema } from "~/leads/lead-form.ts";

export { AUDIENCE_SIZES, PROMOTION_GOALS, minimumDailyBudget };

/** Spec 002 §9: "Duration options: 1 to 365. Maximum 1,000,000" (the daily budget's ceiling). */
export const DURATION_MIN = 1;
export const DURATION_MAX = 365;
export const MAX_DAILY_BUDGET = 1_000_000;
const CAMPAIGN_NAME_MAX = 100;
const DESTINATION_URL_MAX = 2048;

/** Spec 002 §9 default budget and duration: US 3 for 10 days; SE, NO, DK 10 for 30; others 1 for 10. */
export function promotionDefaults(country: string): { dailyBudget: number; duration: number } {
  if (country === "US") return { dailyBudget: 3, duration: 10 };
  if (country === "SE" || country === "NO" || country === "DK") return { dailyBudget: 10, duration: 30 };
  return { dailyBudget: 1, duration: 10 };
}

/**
 * What the form starts with: the spec's default duration, and its default budget raised to the
 * country's minimum (the US default of 3 sits under its minimum of 7; a form that starts refused
 * helps no one).
 */
export function startingBudget(country: string): number {
  return Math.max(promotionDefaults(country).dailyBudget, minimumDailyBudget(country));
}

/**
 * Where the GDPR modal applies: advertisers in the EU, the EEA, the UK and Switzerland, among the
 * countries the business table lists.
 */
const GDPR_COUNTRIES: ReadonlySet<string> = new Set(["GB", "IE", "FR", "SE", "DE", "AT", "IT", "ES", "NL", "BE", "PT", "CH", "NO", "DK", "FI", "CY", "LU", "MT", "PL", "RO", "HU", "CZ", "GR", "SK"]);
export const gdprApplies = (country: string) => GDPR_COUNTRIES.has(country);

/** The ad formats a quick promotion may take, each fitting what it promotes (adTypeProblem). */
export const AD_TYPES = ["STANDARD", "VIDEO", "CAROUSEL", "IDEA", "SHOPPING"] as const;
export type AdType = (typeof AD_TYPES)[number];
export type PromotionGoal = (typeof PROMOTION_GOALS)[number];
export type AudienceSize = (typeof AUDIENCE_SIZES)[number];

export const AGE_BUCKETS = ["18-24", "25-34", "35-44", "45-54", "55-64", "65+"] as const;
export const GENDERS = ["female", "male", "unspecified"] as const;
const INTERESTS_MAX = 20;

/** The pick-a-pin sheet's sources and list types (spec 002 §2). */
export const PIN_SOURCES = ["PINS", "PRODUCT_GROUPS", "BOARDS", "SELECTED", "SEARCH_RESULTS"] as const;
export const LIST_TYPES = ["RECENT", "PROMOTED"] as const;

/** The events a conversion campaign may optimise for (the tag modal's choice, selectedOCPMTag). */
export const CONVERSION_EVENTS = ["PAGE_VISIT", "ADD_TO_CART", "CHECKOUT", "LEAD", "SIGNUP"] as const;
export type ConversionEvent = (typeof CONVERSION_EVENTS)[number];

/** What is promoted: a pin of some kind, or a product group. */
type Promoted = { pinKind: string } | { productGroup: true };

/** The ad type must suit what is promoted; null when it does. */
export function adTypeProblem(adType: AdType, promoted: Promoted): string | null {
  if ("productGroup" in promoted) return adType === "SHOPPING" ? null : "campaigns:validation.adTypeProductGroup";
  const kind = promoted.pinKind;
  const fits: Record<AdType, boolean> = {
    STANDARD: kind !== "video" && kind !== "carousel",
    VIDEO: kind === "video",
    CAROUSEL: kind === "carousel",
    IDEA: kind === "story",
    SHOPPING: kind === "product",
  };
  return fits[adType] ? null : "campaigns:validation.adTypePin";
}

/** The ad type a pin of this kind is promoted as unless the person picks another. */
export function adTypeFor(promoted: Promoted): AdType {
  if ("productGroup" in promoted) return "SHOPPING";
  switch (promoted.pinKind) {
    case "video":
      return "VIDEO";
    case "carousel":
      return "CAROUSEL";
    case "story":
      return "IDEA";
    case "product":
      return "SHOPPING";
    default:
      return "STANDARD";
  }
}

/** The daily budget's problem in this country's terms, or null. */
export function budgetProblem(dailyBudget: number, country: string): { reason: string; values?: Record<string, number> } | null {
  if (!Number.isFinite(dailyBudget)) return { reason: "campaigns:validation.budgetNumber" };
  const minimum = minimumDailyBudget(country);
  if (dailyBudget < minimum) return { reason: "campaigns:validation.budgetMinimum", values: { minimum } };
  if (dailyBudget > MAX_DAILY_BUDGET) return { reason: "campaigns:validation.budgetMaximum", values: { maximum: MAX_DAILY_BUDGET } };
  return null;
}

/** The duration's problem (ongoing campaigns have none), or null. */
export function durationProblem(duration: number | null, isOngoing: boolean): { reason: string; values?: Record<string, number> } | null {
  if (isOngoing) return null;
  if (duration === null || !Number.isInteger(duration) || duration < DURATION_MIN || duration > DURATION_MAX) return { reason: "campaigns:validation.duration", values: { minimum: DURATION_MIN, maximum: DURATION_MAX } };
  return null;
}

/** The destination's problem: required, then the pins' link rule (http or https, not a blocked host), in an ad's words. */
export function destinationProblem(url: string, blockedHosts: ReadonlySet<string> = new Set()): string | null {
  if (url.trim() === "") return "campaigns:validation.destinationRequired";
  return linkProblem(url.trim(), blockedHosts)?.replace("builder:validation.", "campaigns:validation.") ?? null;
}

/** Money as the tables keep it: micro-units of the account's currency, so sums stay exact. */
export const toMicro = (amount: number) => Math.round(amount * 1_000_000);
export const fromMicro = (micro: number) => micro / 1_000_000;

const id = z.string().regex(/^[1-9][0-9]{0,17}$/, { message: "campaigns:validation.id" });

const audienceSchema = z.strictObject({
  isAutoTargeting: z.boolean().default(true),
  ages: z.array(z.enum(AGE_BUCKETS)).max(AGE_BUCKETS.length).default([]),
  genders: z.array(z.enum(GENDERS)).max(GENDERS.length).default([]),
  interests: z.array(z.string().trim().min(1).max(50)).max(INTERESTS_MAX).default([]),
  locales: z.array(z.enum(LOCALES)).max(LOCALES.length).default([]),
  size: z.enum(AUDIENCE_SIZES).default("MEDIUM"),
});

/**
 * The submission. Country rules (minimum budget), the link's blocked hosts and what the pin
 * or product group is are the server's to check against storage; the shapes are checked here.
 */
export const quickPromoteSchema = z
  .strictObject({
    pinId: id.optional(),
    productGroupId: id.optional(),
    dailyBudget: z.number().min(0).max(MAX_DAILY_BUDGET),
    duration: z.number().int().min(DURATION_MIN).max(DURATION_MAX).nullable().default(null),
    isOngoing: z.boolean().default(false),
    destinationUrl: z.string().max(DESTINATION_URL_MAX),
    adType: z.enum(AD_TYPES),
    goal: z.enum(PROMOTION_GOALS).default("CONSIDERATION"),
    selectedOCPMTag: z.enum(CONVERSION_EVENTS).nullable().default(null),
    audience: audienceSchema.default({ isAutoTargeting: true, ages: [], genders: [], interests: [], locales: [], size: "MEDIUM" }),
    name: z.string().trim().min(1).max(CAMPAIGN_NAME_MAX),
    isFdb: z.boolean().default(true),
    /** The optional "Collect leads" step: a lead form on the promoted pin's ad (src/leads/). */
    leadForm: leadFormSchema.nullable().default(null),
  })
  .superRefine((input, ctx) => {
    if ((input.pinId === undefined) === (input.productGroupId === undefined)) ctx.addIssue({ code: "custom", path: ["pinId"], message: "campaigns:validation.pinOrProductGroup" });
    if (input.leadForm !== null && input.productGroupId !== undefined) ctx.addIssue({ code: "custom", path: ["leadForm"], message: "leads:validation.pinAdsOnly" });
    if (input.goal === "WEB_CONVERSION" && input.selectedOCPMTag === null) ctx.addIssue({ code: "custom", path: ["selectedOCPMTag"], message: "campaigns:validation.conversionEvent" });
    if (!input.isOngoing && input.duration === null) ctx.addIssue({ code: "custom", path: ["duration"], message: "campaigns:validation.duration", params: { values: { minimum: DURATION_MIN, maximum: DURATION_MAX } } });
  });
export type QuickPromoteInput = z.output<typeof quickPromoteSchema>;

/** A campaign's last day, YYYY-MM-DD, a real calendar day. */
const endDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: "campaigns:validation.endDate" })
  .refine((value) => new Date(Date.parse(`${value}T00:00:00Z`) || 0).toISOString().slice(0, 10) === value, { message: "campaigns:validation.endDate" });

/** A campaign's editable fields in the hub: name, budget and end date (null: ongoing). */
export const campaignUpdateSchema = z
  .strictObject({
    name: z.string().trim().min(1).max(CAMPAIGN_NAME_MAX).optional(),
    dailyBudget: z.number().min(0).max(MAX_DAILY_BUDGET).optional(),
    // An empty end date (the hub's cleared field) means ongoing.
    endDate: z.preprocess((value) => (value === "" ? null : value), endDay.nullable()).optional(),
  })
  .refine((input) => Object.keys(input).length > 0, { message: "campaigns:validation.nothingToChange" });
export type CampaignUpdate = z.output<typeof campaignUpdateSchema>;

/** The test-mode billing form: who pays, and where the invoices go. */
export const billingFormSchema = z.strictObject({
  name: z.string().trim().min(1).max(100),
  email: z.email().max(254),
});

/** The business form: the business's postal address. */
export const addressFormSchema = z.strictObject({
  line1: z.string().trim().min(1).max(100),
  line2: z.string().trim().max(100).default(""),
  city: z.string().trim().min(1).max(60),
  region: z.string().trim().max(60).default(""),
  postalCode: z.string().trim().min(1).max(20),
  country: z.string().regex(/^[A-Z]{2}$/, { message: "campaigns:validation.country" }),
});
