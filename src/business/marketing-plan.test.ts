import { describe, expect, it } from "vitest";
import { marketingPlanSchema, minimumDailyBudget, suggestPlan, type MarketingPlanAnswers } from "./marketing-plan.ts";

const base: MarketingPlanAnswers = { topBusinessGoal: "BUILD_AWARENESS", dailyAdsBudget: 20, weeklyAddToCarts: 0, weeklyLeads: 0, weeklyCheckouts: 0, hasFeed: false };

describe("the suggested marketing plan", () => {
  it("uses the spec's minimum daily budgets by country, 7 elsewhere", () => {
    expect([minimumDailyBudget("US"), minimumDailyBudget("GB"), minimumDailyBudget("CA"), minimumDailyBudget("AU"), minimumDailyBudget("NZ")]).toEqual([7, 5, 9, 10, 10]);
    expect([minimumDailyBudget("SE"), minimumDailyBudget("NO"), minimumDailyBudget("DK"), minimumDailyBudget("CZ"), minimumDailyBudget("FR")]).toEqual([70, 70, 50, 150, 7]);
  });

  it("sells a catalogue when there is a feed and the business sells", () => {
    expect(suggestPlan({ ...base, hasFeed: true, topBusinessGoal: "INCREASE_SALES" }, "US").goal).toBe("CATALOG_SALES");
    expect(suggestPlan({ ...base, hasFeed: true, weeklyCheckouts: 3 }, "US").goal).toBe("CATALOG_SALES");
    expect(suggestPlan({ ...base, hasFeed: true }, "US").goal).toBe("CONSIDERATION");
  });

  it("optimises for conversions only with 50 a week to learn from", () => {
    expect(suggestPlan({ ...base, topBusinessGoal: "GENERATE_LEADS", weeklyLeads: 30, weeklyAddToCarts: 20 }, "US").goal).toBe("WEB_CONVERSION");
    expect(suggestPlan({ ...base, topBusinessGoal: "GENERATE_LEADS", weeklyLeads: 49 }, "US").goal).toBe("CONSIDERATION");
    expect(suggestPlan({ ...base, topBusinessGoal: "DRIVE_TRAFFIC", weeklyLeads: 500 }, "US").goal).toBe("CONSIDERATION");
  });

  it("raises the budget to the country's minimum and sizes the audience by budget", () => {
    expect(suggestPlan({ ...base, dailyAdsBudget: 0 }, "SE")).toEqual({ goal: "CONSIDERATION", audienceSize: "NARROW", dailyBudget: 70, calendlyUpsellEligible: false });
    expect(suggestPlan({ ...base, dailyAdsBudget: 20 }, "US")).toEqual({ goal: "CONSIDERATION", audienceSize: "NARROW", dailyBudget: 20, calendlyUpsellEligible: false });
    expect(suggestPlan({ ...base, dailyAdsBudget: 21 }, "US").audienceSize).toBe("MEDIUM");
    expect(suggestPlan({ ...base, dailyAdsBudget: 69 }, "US")).toMatchObject({ audienceSize: "MEDIUM", calendlyUpsellEligible: false });
    expect(suggestPlan({ ...base, dailyAdsBudget: 70 }, "US")).toMatchObject({ audienceSize: "WIDE", calendlyUpsellEligible: true });
  });

  it("refuses budgets above 1,000,000 and negative counts", () => {
    expect(marketingPlanSchema.safeParse({ ...base, dailyAdsBudget: 1_000_001 }).success).toBe(false);
    expect(marketingPlanSchema.safeParse({ ...base, weeklyLeads: -1 }).success).toBe(false);
    expect(marketingPlanSchema.safeParse({ ...base, dailyAdsBudget: 1_000_000 }).success).toBe(true);
  });
});
