import { describe, expect, it } from "vitest";
import { currencyOf } from "~/business/countries.ts";
import { adTypeFor, adTypeProblem, budgetProblem, destinationProblem, durationProblem, gdprApplies, minimumDailyBudget, promotionDefaults, quickPromoteSchema, startingBudget } from "./quick-promote.ts";

// Spec 002 §9 "Promotion by country", written out by hand.
describe("promotion defaults and minimums by country", () => {
  it("defaults the budget and duration: US 3 for 10 days, SE, NO and DK 10 for 30, others 1 for 10", () => {
    const table: Array<[string, number, number]> = [
      ["US", 3, 10],
      ["SE", 10, 30],
      ["NO", 10, 30],
      ["DK", 10, 30],
      ["GB", 1, 10],
      ["FR", 1, 10],
      ["CZ", 1, 10],
      ["JP", 1, 10],
      ["", 1, 10],
    ];
    for (const [country, dailyBudget, duration] of table) expect([country, promotionDefaults(country)]).toEqual([country, { dailyBudget, duration }]);
  });

  it("keeps the minimum daily budgets: US 7, GB 5, CA 9, AU and NZ 10, SE and NO 70, DK 50, CZ 150, others 7", () => {
    const table: Array<[string, number]> = [
      ["US", 7],
      ["GB", 5],
      ["CA", 9],
      ["AU", 10],
      ["NZ", 10],
      ["SE", 70],
      ["NO", 70],
      ["DK", 50],
      ["CZ", 150],
      ["FR", 7],
      ["DE", 7],
      ["BR", 7],
    ];
    for (const [country, minimum] of table) expect([country, minimumDailyBudget(country)]).toEqual([country, minimum]);
  });

  it("starts the form at the default raised to the minimum", () => {
    expect([startingBudget("US"), startingBudget("SE"), startingBudget("GB"), startingBudget("DK"), startingBudget("FR")]).toEqual([7, 70, 5, 50, 7]);
  });

  it("bills in the country's currency, else USD", () => {
    expect(["US", "GB", "SE", "NO", "DK", "CH", "AU", "NZ", "CA", "FR", "CZ", "JP"].map(currencyOf)).toEqual(["USD", "GBP", "SEK", "NOK", "DKK", "CHF", "AUD", "NZD", "CAD", "EUR", "USD", "USD"]);
  });

  it("refuses a budget under the country's minimum or over 1,000,000, naming the bound", () => {
    expect(budgetProblem(6.99, "US")).toEqual({ reason: "campaigns:validation.budgetMinimum", values: { minimum: 7 } });
    expect(budgetProblem(7, "US")).toBeNull();
    expect(budgetProblem(5, "GB")).toBeNull();
    expect(budgetProblem(149, "CZ")).toEqual({ reason: "campaigns:validation.budgetMinimum", values: { minimum: 150 } });
    expect(budgetProblem(1_000_000, "SE")).toBeNull();
    expect(budgetProblem(1_000_001, "SE")).toEqual({ reason: "campaigns:validation.budgetMaximum", values: { maximum: 1_000_000 } });
    expect(budgetProblem(Number.NaN, "US")).toEqual({ reason: "campaigns:validation.budgetNumber" });
  });

  it("takes a duration from 1 to 365 days, or none when ongoing", () => {
    const problem = { reason: "campaigns:validation.duration", values: { minimum: 1, maximum: 365 } };
    expect([durationProblem(0, false), durationProblem(366, false), durationProblem(2.5, false), durationProblem(null, false)]).toEqual([problem, problem, problem, problem]);
    expect([durationProblem(1, false), durationProblem(365, false), durationProblem(null, true), durationProblem(0, true)]).toEqual([null, null, null, null]);
  });
});

describe("who is asked the GDPR question", () => {
  it("asks advertisers in the EU, the EEA, the UK and Switzerland, and no one else", () => {
    expect(["FR", "DE", "IE", "GB", "CH", "NO", "SE", "PL", "CZ"].every(gdprApplies)).toBe(true);
    expect(["US", "CA", "AU", "NZ", "IL", "JP", "KR", "HK", "SG", "BR", "MX", "AR", "CL", "CO"].some(gdprApplies)).toBe(false);
  });
});

describe("ad types", () => {
  it("fits the format to what is promoted", () => {
    expect([adTypeProblem("STANDARD", { pinKind: "image" }), adTypeProblem("VIDEO", { pinKind: "video" }), adTypeProblem("CAROUSEL", { pinKind: "carousel" }), adTypeProblem("IDEA", { pinKind: "story" }), adTypeProblem("SHOPPING", { productGroup: true })]).toEqual([null, null, null, null, null]);
    expect(adTypeProblem("VIDEO", { pinKind: "image" })).toBe("campaigns:validation.adTypePin");
    expect(adTypeProblem("STANDARD", { pinKind: "video" })).toBe("campaigns:validation.adTypePin");
    expect(adTypeProblem("STANDARD", { productGroup: true })).toBe("campaigns:validation.adTypeProductGroup");
    expect([adTypeFor({ pinKind: "recipe" }), adTypeFor({ pinKind: "video" }), adTypeFor({ pinKind: "product" }), adTypeFor({ productGroup: true })]).toEqual(["STANDARD", "VIDEO", "SHOPPING", "SHOPPING"]);
  });
});

describe("the destination URL", () => {
  it("is required and follows the pins' link rule: http or https, not a blocked host", () => {
    expect(destinationProblem("  ")).toBe("campaigns:validation.destinationRequired");
    expect(destinationProblem("ftp://shop.example/")).toBe("campaigns:validation.linkScheme");
    expect(destinationProblem("javascript:alert(1)")).toBe("campaigns:validation.linkScheme");
    expect(destinationProblem("https://spam.example/deal", new Set(["spam.example"]))).toBe("campaigns:validation.linkBlocked");
    expect(destinationProblem("https://shop.example/spring")).toBeNull();
  });
});

describe("the submission's schema", () => {
  const form = { pinId: "42", dailyBudget: 10, duration: 10, destinationUrl: "https://shop.example/", adType: "STANDARD", name: "Spring" };

  it("fills the spec's defaults: auto-targeting on, isFdb true, not ongoing", () => {
    const parsed = quickPromoteSchema.parse(form);
    expect([parsed.audience.isAutoTargeting, parsed.isFdb, parsed.isOngoing, parsed.goal, parsed.audience.size]).toEqual([true, true, false, "CONSIDERATION", "MEDIUM"]);
  });

  it("takes one pin or one product group, never both or neither", () => {
    expect(quickPromoteSchema.safeParse({ ...form, productGroupId: "7" }).success).toBe(false);
    const { pinId: _pin, ...neither } = form;
    expect(quickPromoteSchema.safeParse(neither).success).toBe(false);
    expect(quickPromoteSchema.safeParse({ ...neither, productGroupId: "7", adType: "SHOPPING" }).success).toBe(true);
  });

  it("needs a duration unless ongoing, and a conversion event for a conversion goal", () => {
    expect(quickPromoteSchema.safeParse({ ...form, duration: null }).success).toBe(false);
    expect(quickPromoteSchema.safeParse({ ...form, duration: null, isOngoing: true }).success).toBe(true);
    expect(quickPromoteSchema.safeParse({ ...form, duration: 366 }).success).toBe(false);
    expect(quickPromoteSchema.safeParse({ ...form, goal: "WEB_CONVERSION" }).success).toBe(false);
    expect(quickPromoteSchema.safeParse({ ...form, goal: "WEB_CONVERSION", selectedOCPMTag: "CHECKOUT" }).success).toBe(true);
  });
});
