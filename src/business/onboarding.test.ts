import { describe, expect, it } from "vitest";
import { INITIAL_STEPPER, onboardingSchema, stepperReducer, stepProblems, type StepperAction, type StepperState } from "./onboarding.ts";

const complete = {
  businessGoals: ["INCREASE_SALES"],
  businessName: "Bake & Bloom",
  businessVertical: "FOOD_AND_DRINK",
  numberEmployees: "2_10",
  hasWebsite: true,
  website: "https://bakeandbloom.example",
  country: "FR",
  locale: "fr",
  advertisingIntent: "NOW",
  worksWithAgency: false,
  firstName: "Camille",
  lastName: "Durand",
  email: "camille@bakeandbloom.example",
};

const run = (actions: StepperAction[], from: StepperState = INITIAL_STEPPER) => actions.reduce(stepperReducer, from);

describe("the onboarding stepper", () => {
  it("starts on the first step, count 1, unable to proceed, modal hidden", () => {
    expect(INITIAL_STEPPER).toEqual({ stepIndex: 0, stepperCount: 1, canProceed: false, values: {}, underageModalVisible: false });
  });

  it("stays put on next while the step cannot proceed", () => {
    expect(run([{ type: "next" }])).toBe(INITIAL_STEPPER);
  });

  it("proceeds once the step's fields hold, counts the steps reached, and keeps the count going back", () => {
    const goals = run([{ type: "set", field: "businessGoals", value: ["DRIVE_TRAFFIC"] }]);
    expect(goals.canProceed).toBe(true);
    const second = run([{ type: "next" }], goals);
    expect([second.stepIndex, second.stepperCount, second.canProceed]).toEqual([1, 2, false]);
    const back = run([{ type: "back" }], second);
    expect([back.stepIndex, back.stepperCount, back.canProceed]).toEqual([0, 2, true]);
    expect(run([{ type: "back" }], back).stepIndex).toBe(0);
  });

  it("asks for a website only when the business has one", () => {
    const values = { businessName: "Shop", businessVertical: "RETAIL", numberEmployees: "1", hasWebsite: false };
    expect(stepProblems(1, values)).toEqual([]);
    expect(stepProblems(1, { ...values, hasWebsite: true })).toEqual(["website"]);
    expect(stepProblems(1, { ...values, hasWebsite: true, website: "ftp://shop.example" })).toEqual(["website"]);
    expect(stepProblems(1, { ...values, hasWebsite: true, website: "https://shop.example/" })).toEqual([]);
  });

  it("asks for the agency fields only when the business works with an agency", () => {
    const values = { advertisingIntent: "NOW", worksWithAgency: false };
    expect(stepProblems(3, values)).toEqual([]);
    expect(stepProblems(3, { ...values, worksWithAgency: true }).sort()).toEqual(["agencyClients", "agencyContent", "agencyRole", "agencyService"]);
    const agency = { ...values, worksWithAgency: true, agencyRole: "MEDIA_BUYER", agencyClients: "6_20", agencyContent: "PAID", agencyService: "OTHER" };
    expect(stepProblems(3, agency)).toEqual(["agencyServiceOther"]);
    expect(stepProblems(3, { ...agency, agencyServiceOther: "Pinterest audits" })).toEqual([]);
  });

  it("needs a country code with a phone number, and a phone number for WhatsApp consent", () => {
    const contact = { firstName: "Camille", email: "c@shop.example" };
    expect(stepProblems(4, contact)).toEqual([]);
    expect(stepProblems(4, { ...contact, phoneNumber: "612 345 678" })).toEqual(["countryCode"]);
    expect(stepProblems(4, { ...contact, phoneNumber: "612 345 678", countryCode: "+33" })).toEqual([]);
    expect(stepProblems(4, { ...contact, whatsAppConsent: true })).toEqual(["phoneNumber"]);
  });

  it("shows and hides the underage confirmation modal; confirming records the answer", () => {
    const shown = run([{ type: "showUnderageModal" }]);
    expect(shown.underageModalVisible).toBe(true);
    expect(run([{ type: "hideUnderageModal" }], shown).underageModalVisible).toBe(false);
    const confirmed = run([{ type: "confirmAge" }], shown);
    expect([confirmed.underageModalVisible, confirmed.values.ageConfirmed]).toEqual([false, true]);
  });

  it("accepts a complete answer with its defaults, and refuses countries outside the table", () => {
    const parsed = onboardingSchema.parse(complete);
    expect([parsed.accountType, parsed.whatsAppConsent, parsed.ageConfirmed, parsed.lastName]).toEqual(["ADVERTISER", false, false, "Durand"]);
    expect(onboardingSchema.safeParse({ ...complete, country: "ZZ" }).success).toBe(false);
    expect(onboardingSchema.safeParse({ ...complete, surprise: 1 }).success).toBe(false);
  });
});
