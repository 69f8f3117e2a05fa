// The marketing plan (spec 002 §3 "Marketing plan"): a business answers the goals step and the
// survey, and gets a suggested plan computed from its answers by the rule recorded in
// docs/decisions.md ("Business: the suggested marketing plan"). Pure, so the browser can show the
// suggestion the server will store.
import { z } from "zod";
import { BUSINESS_GOALS } from "./onboarding.ts";

/** Spec 002 §9 minimum daily budgets by country (in the account's currency); others 7. */
const MINIMUM_DAILY_BUDGET: Record<string, number> = { US: 7, GB: 5, CA: 9, AU: 10, NZ: 10, SE: 70, NO: 70, DK: 50, CZ: 150 };
export const minimumDailyBudget = (country: string) => (Object.hasOwn(MINIMUM_DAILY_BUDGET, country) ? MINIMUM_DAILY_BUDGET[country]! : 7);

/** Spec 002 §9: budgets stop at 1,000,000. */
const MAXIMUM_DAILY_BUDGET = 1_000_000;
const weekly = z.number().int().min(0).max(10_000_000);

export const marketingPlanSchema = z.strictObject({
  topBusinessGoal: z.enum(BUSINESS_GOALS),
  dailyAdsBudget: z.number().int().min(0).max(MAXIMUM_DAILY_BUDGET),
  weeklyAddToCarts: weekly,
  weeklyLeads: weekly,
  weeklyCheckouts: weekly,
  hasFeed: z.boolean(),
  marketingPlanName: z.string().trim().min(1).max(50).optional(),
  /** The scheduling modal's answer: when the business wants a call about its plan (ms since epoch). */
  consultationAt: z.number().int().min(0).max(8_640_000_000_000_000).optional(),
});
export type MarketingPlanAnswers = z.output<typeof marketingPlanSchema>;

export const PROMOTION_GOALS = ["CONSIDERATION", "WEB_CONVERSION", "CATALOG_SALES"] as const;
export const AUDIENCE_SIZES = ["NARROW", "MEDIUM", "WIDE"] as const;

export interface MarketingPlanSuggestion {
  goal: (typeof PROMOTION_GOALS)[number];
  audienceSize: (typeof AUDIENCE_SIZES)[number];
  dailyBudget: number;
  /** The scheduling modal is offered to plans big enough to be worth a call. */
  calendlyUpsellEligible: boolean;
}

/** Conversions a week an ad group needs before the bidder can optimise for them. */
const CONVERSIONS_TO_OPTIMISE = 50;

export function suggestPlan(answers: MarketingPlanAnswers, country: string): MarketingPlanSuggestion {
  const minimum = minimumDailyBudget(country);
  const dailyBudget = Math.max(answers.dailyAdsBudget, minimum);
  const conversions = answers.weeklyCheckouts + answers.weeklyLeads + answers.weeklyAddToCarts;
  const sells = answers.topBusinessGoal === "INCREASE_SALES" || answers.weeklyCheckouts > 0;
  const goal =
    answers.hasFeed && sells ? "CATALOG_SALES" : (answers.topBusinessGoal === "INCREASE_SALES" || answers.topBusinessGoal === "GENERATE_LEADS") && conversions >= CONVERSIONS_TO_OPTIMISE ? "WEB_CONVERSION" : "CONSIDERATION";
  const audienceSize = dailyBudget < 3 * minimum ? "NARROW" : dailyBudget < 10 * minimum ? "MEDIUM" : "WIDE";
  return { goal, audienceSize, dailyBudget, calendlyUpsellEligible: dailyBudget >= 10 * minimum };
}
