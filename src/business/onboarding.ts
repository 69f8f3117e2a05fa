// Business onboarding (spec 002 §3 "Business onboarding", §4 "Onboarding"): the answers a
// business gives, the steps that collect them, and the stepper's state. One schema serves the
// browser (may this step proceed?) and the server (the whole answer, or a 400 naming each field).
import { z } from "zod";
import { LOCALES } from "~/context/locales.ts";
import { countrySchema } from "./countries.ts";

export const BUSINESS_GOALS = ["BUILD_AWARENESS", "DRIVE_TRAFFIC", "INCREASE_SALES", "GENERATE_LEADS", "GROW_AUDIENCE"] as const;
export const BUSINESS_VERTICALS = ["RETAIL", "CONSUMER_GOODS", "FOOD_AND_DRINK", "HOME_AND_GARDEN", "BEAUTY", "FASHION", "TRAVEL", "EDUCATION", "FINANCE", "MEDIA", "TECHNOLOGY", "HEALTH", "OTHER"] as const;
export const EMPLOYEE_BANDS = ["1", "2_10", "11_50", "51_200", "201_1000", "1001_PLUS"] as const;
export const ADVERTISING_INTENTS = ["NOW", "WITHIN_MONTHS", "NOT_SURE", "NO"] as const;
export const ACCOUNT_TYPES = ["ADVERTISER", "AGENCY"] as const;
export const AGENCY_ROLES = ["ACCOUNT_MANAGER", "MEDIA_BUYER", "STRATEGIST", "CREATIVE", "OTHER"] as const;
export const AGENCY_CLIENT_BANDS = ["1_5", "6_20", "21_PLUS"] as const;
export const AGENCY_CONTENT = ["ORGANIC", "PAID", "BOTH"] as const;
export const AGENCY_SERVICES = ["PAID_MEDIA", "SOCIAL_CONTENT", "CREATIVE", "FULL_SERVICE", "OTHER"] as const;

const text = (max: number) => z.string().trim().min(1).max(max);

/** Every answer the stepper collects, each field on its own (the rules between fields follow). */
const onboardingFields = z.strictObject({
  businessGoals: z.array(z.enum(BUSINESS_GOALS)).min(1).max(BUSINESS_GOALS.length),
  businessName: text(30),
  businessVertical: z.enum(BUSINESS_VERTICALS),
  numberEmployees: z.enum(EMPLOYEE_BANDS),
  hasWebsite: z.boolean(),
  website: z.string().trim().max(2048).optional(),
  country: countrySchema,
  locale: z.enum(LOCALES),
  advertisingIntent: z.enum(ADVERTISING_INTENTS),
  accountType: z.enum(ACCOUNT_TYPES).default("ADVERTISER"),
  worksWithAgency: z.boolean(),
  agencyRole: z.enum(AGENCY_ROLES).optional(),
  agencyClients: z.enum(AGENCY_CLIENT_BANDS).optional(),
  agencyContent: z.enum(AGENCY_CONTENT).optional(),
  agencyService: z.enum(AGENCY_SERVICES).optional(),
  agencyServiceOther: z.string().trim().max(100).optional(),
  firstName: text(50),
  lastName: z.string().trim().max(50).default(""),
  email: z.string().trim().max(254).pipe(z.email()),
  countryCode: z.string().trim().regex(/^\+[1-9][0-9]{0,2}$/).optional(),
  phoneNumber: z.string().trim().regex(/^[0-9][0-9 ]{3,18}[0-9]$/).optional(),
  whatsAppConsent: z.boolean().default(false),
  /** The underage confirmation modal's answer: the person is of age to run a business account. */
  ageConfirmed: z.boolean().default(false),
});

const filled = (value: unknown) => value !== undefined && value !== null && value !== "";

/**
 * The rules between fields: a website when the business has one, the agency fields when it works
 * with an agency, a country code with a phone number, a phone number for WhatsApp. They read
 * partial answers too, so a step can be checked before later steps are filled in.
 */
function crossFieldProblems(values: Record<string, unknown>): Array<{ field: string; message: string }> {
  const problems: Array<{ field: string; message: string }> = [];
  if (values["hasWebsite"] === true && !validWebsite(typeof values["website"] === "string" ? values["website"].trim() : undefined)) problems.push({ field: "website", message: "business:validation.website" });
  if (values["worksWithAgency"] === true) {
    for (const field of ["agencyRole", "agencyClients", "agencyContent", "agencyService"]) if (!filled(values[field])) problems.push({ field, message: "business:validation.agencyField" });
    if (values["agencyService"] === "OTHER" && !(typeof values["agencyServiceOther"] === "string" && values["agencyServiceOther"].trim() !== "")) problems.push({ field: "agencyServiceOther", message: "business:validation.agencyServiceOther" });
  }
  const hasPhone = filled(values["phoneNumber"]);
  if (hasPhone && !filled(values["countryCode"])) problems.push({ field: "countryCode", message: "business:validation.countryCode" });
  if (values["whatsAppConsent"] === true && !hasPhone) problems.push({ field: "phoneNumber", message: "business:validation.whatsAppPhone" });
  return problems;
}

// `when`: the rules between fields run even when a field is wrong, so one 400 names every problem.
export const onboardingSchema = onboardingFields.superRefine(
  (value, ctx) => {
    for (const problem of crossFieldProblems(value as Record<string, unknown>)) ctx.addIssue({ code: "custom", message: problem.message, path: [problem.field] });
  },
  { when: (payload) => payload.value !== null && typeof payload.value === "object" },
);

export type OnboardingAnswers = z.output<typeof onboardingSchema>;

/** A website is an http(s) address with a host that has a dot (a shop's public page, not localhost). */
function validWebsite(value: string | undefined): boolean {
  if (value === undefined || value === "") return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (url.protocol === "https:" || url.protocol === "http:") && url.hostname.includes(".") && url.username === "" && url.password === "";
}

/** The steps in order and the fields each collects; the last one ends in the underage confirmation. */
export const ONBOARDING_STEPS = [
  { id: "goals", fields: ["businessGoals"] },
  { id: "business", fields: ["businessName", "businessVertical", "numberEmployees", "hasWebsite", "website"] },
  { id: "location", fields: ["country", "locale"] },
  { id: "advertising", fields: ["advertisingIntent", "accountType", "worksWithAgency", "agencyRole", "agencyClients", "agencyContent", "agencyService", "agencyServiceOther"] },
  { id: "contact", fields: ["firstName", "lastName", "email", "countryCode", "phoneNumber", "whatsAppConsent"] },
] as const;

export type OnboardingValues = Partial<Record<keyof OnboardingAnswers, unknown>>;

/** The fields of this step that keep it from proceeding (empty: it may). */
export function stepProblems(stepIndex: number, values: OnboardingValues): string[] {
  const step = ONBOARDING_STEPS[stepIndex];
  if (!step) return [];
  const fields = new Set<string>(step.fields);
  const parsed = onboardingFields.safeParse(values);
  const own = parsed.success ? [] : parsed.error.issues.map((issue) => String(issue.path[0] ?? ""));
  const between = crossFieldProblems(values as Record<string, unknown>).map((problem) => problem.field);
  return [...new Set([...own, ...between].filter((field) => fields.has(field)))];
}

export interface StepperState {
  stepIndex: number;
  /** How many steps have been reached, 1-based: starts at 1, and going back keeps it. */
  stepperCount: number;
  canProceed: boolean;
  values: OnboardingValues;
  underageModalVisible: boolean;
}

export const INITIAL_STEPPER: StepperState = { stepIndex: 0, stepperCount: 1, canProceed: false, values: {}, underageModalVisible: false };

export type StepperAction =
  | { type: "set"; field: keyof OnboardingAnswers; value: unknown }
  | { type: "next" }
  | { type: "back" }
  | { type: "showUnderageModal" }
  | { type: "hideUnderageModal" }
  | { type: "confirmAge" };

const withCheck = (state: StepperState): StepperState => ({ ...state, canProceed: stepProblems(state.stepIndex, state.values).length === 0 });

/** The stepper's transitions: forward only when the step may proceed, back to the first step at most. */
export function stepperReducer(state: StepperState, action: StepperAction): StepperState {
  switch (action.type) {
    case "set":
      return withCheck({ ...state, values: { ...state.values, [action.field]: action.value } });
    case "next": {
      if (!state.canProceed || state.stepIndex >= ONBOARDING_STEPS.length - 1) return state;
      const stepIndex = state.stepIndex + 1;
      return withCheck({ ...state, stepIndex, stepperCount: Math.max(state.stepperCount, stepIndex + 1) });
    }
    case "back":
      return state.stepIndex === 0 ? state : withCheck({ ...state, stepIndex: state.stepIndex - 1 });
    case "showUnderageModal":
      return { ...state, underageModalVisible: true };
    case "hideUnderageModal":
      return { ...state, underageModalVisible: false };
    case "confirmAge":
      return { ...state, underageModalVisible: false, values: { ...state.values, ageConfirmed: true } };
  }
}

/** The person's full name as the contact record keeps it. */
export const fullNameOf = (answers: Pick<OnboardingAnswers, "firstName" | "lastName">) => [answers.firstName, answers.lastName].filter(Boolean).join(" ");
