// The islands' words, translated on the server (the islands carry no translation tables).
import type { TFunction } from "i18next";
import { ACCOUNT_TYPES, ADVERTISING_INTENTS, AGENCY_CLIENT_BANDS, AGENCY_CONTENT, AGENCY_ROLES, AGENCY_SERVICES, BUSINESS_GOALS, BUSINESS_VERTICALS, EMPLOYEE_BANDS, ONBOARDING_STEPS } from "./onboarding.ts";
import type { OnboardingStrings } from "./OnboardingFlow.tsx";
import type { PlanStrings } from "./MarketingPlanFlow.tsx";
import { AUDIENCE_SIZES, PROMOTION_GOALS } from "./marketing-plan.ts";

const FIELDS = ONBOARDING_STEPS.flatMap((step) => [...step.fields]);
const OPTIONS = { businessGoals: BUSINESS_GOALS, businessVertical: BUSINESS_VERTICALS, numberEmployees: EMPLOYEE_BANDS, advertisingIntent: ADVERTISING_INTENTS, accountType: ACCOUNT_TYPES, agencyRole: AGENCY_ROLES, agencyClients: AGENCY_CLIENT_BANDS, agencyContent: AGENCY_CONTENT, agencyService: AGENCY_SERVICES } as const;

const table = (t: TFunction, prefix: string, keys: readonly string[]) => Object.fromEntries(keys.map((key) => [key, t(`${prefix}.${key}`)]));

export function onboardingStrings(t: TFunction): OnboardingStrings {
  return {
    progress: t("business:stepper.progress", { step: "{{step}}", total: "{{total}}", interpolation: { escapeValue: false } }),
    back: t("business:stepper.back"),
    next: t("business:stepper.next"),
    finish: t("business:stepper.finish"),
    working: t("business:stepper.working"),
    choose: t("business:stepper.choose"),
    failed: t("business:table.failed"),
    steps: table(t, "business:stepper.steps", ONBOARDING_STEPS.map((step) => step.id)),
    fields: table(t, "business:stepper.fields", FIELDS),
    options: Object.fromEntries(Object.entries(OPTIONS).map(([field, keys]) => [field, table(t, `business:stepper.options.${field}`, keys)])),
    underage: table(t, "business:stepper.underage", ["title", "body", "confirm", "cancel", "close"]) as OnboardingStrings["underage"],
  };
}

export function planStrings(t: TFunction, currency: string): PlanStrings {
  return {
    ...(table(t, "business:plan", ["goalsStep", "surveyStep", "continue", "back", "submit", "working", "suggestion", "goal", "audience", "budget", "schedule", "scheduleTitle", "scheduleBody", "scheduleWhen", "scheduleConfirm", "scheduleClose", "toDashboard"]) as Omit<PlanStrings, "fields" | "goals" | "audiences" | "topGoals" | "scheduled" | "failed">),
    scheduled: t("business:plan.scheduled", { when: "{{when}}", interpolation: { escapeValue: false } }),
    failed: t("business:table.failed"),
    fields: { ...table(t, "business:plan.fields", ["weeklyAddToCarts", "weeklyLeads", "weeklyCheckouts", "hasFeed", "marketingPlanName"]), dailyAdsBudget: t("business:plan.fields.dailyAdsBudget", { currency }) },
    goals: table(t, "business:plan.goals", PROMOTION_GOALS),
    audiences: table(t, "business:plan.audiences", AUDIENCE_SIZES),
    topGoals: table(t, "business:stepper.options.businessGoals", BUSINESS_GOALS),
  };
}
