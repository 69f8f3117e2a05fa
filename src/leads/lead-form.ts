// Lead-gen forms on promoted pins (spec 000 "Lead-gen info"; §5 "Lead-gen name and email are
// autofilled only when the user is flagged eligible for each"; §6 "Lead-gen autofill is for
// signed-in users only"): what an advertiser's form may ask, what a submission must hold, and
// which fields are filled in for whom. Pure, so the dialog shows the problems the server refuses with.
import { z } from "zod";
import { linkProblem } from "~/builder/drafts.ts";

/** The four fields a form may ask for, in the order a form shows them. */
export const LEAD_FIELDS = ["fullName", "email", "phoneNumber", "zipCode"] as const;
export type LeadField = (typeof LEAD_FIELDS)[number];

/** The button that opens the form: "Sign up" or "Get in touch". */
export const CALLS_TO_ACTION = ["SIGN_UP", "GET_IN_TOUCH"] as const;
export type CallToAction = (typeof CALLS_TO_ACTION)[number];

export const LEAD_LIMITS = {
  headline: 100,
  privacyPolicyUrl: 2048,
  fullName: 100,
  /** RFC 5321's longest path. */
  email: 254,
  /** E.164: at most 15 digits; fewer than 7 is no reachable number anywhere. */
  phoneDigitsMin: 7,
  phoneDigitsMax: 15,
  /** Digits with the spaces, dashes, dots, brackets and leading + people type between them. */
  phoneLength: 25,
  /** Postal codes run from 3 characters (Iceland) to 10 (US ZIP+4, Brazil's with its dash). */
  zipMin: 3,
  zipMax: 10,
} as const;

const fieldList = z
  .array(z.enum(LEAD_FIELDS))
  .max(LEAD_FIELDS.length)
  // A custom rule rather than min(1), so the refusal says what to do in the feature's words.
  .refine((fields) => fields.length > 0, { message: "leads:validation.fieldsRequired" })
  .refine((fields) => new Set(fields).size === fields.length, { message: "leads:validation.fieldsRepeated" })
  // Kept in the form's own order, whatever order they were ticked in.
  .transform((fields) => LEAD_FIELDS.filter((field) => fields.includes(field)));

/** The advertiser's form. The privacy policy's blocked hosts are the server's to check (privacyPolicyProblem). */
export const leadFormSchema = z.strictObject({
  headline: z.string().trim().min(1).max(LEAD_LIMITS.headline),
  privacyPolicyUrl: z.string().trim().min(1).max(LEAD_LIMITS.privacyPolicyUrl),
  fields: fieldList,
  callToAction: z.enum(CALLS_TO_ACTION).default("SIGN_UP"),
});
export type LeadFormInput = z.output<typeof leadFormSchema>;

/** Spec 000 §5's link rule for the privacy policy: http or https, not a blocked host. */
export function privacyPolicyProblem(url: string, blockedHosts: ReadonlySet<string>): string | null {
  return linkProblem(url.trim(), blockedHosts)?.replace("builder:validation.", "leads:validation.") ?? null;
}

/** What a person sends: the asked fields as typed, and their consent to be contacted. */
export const leadSubmissionSchema = z.strictObject({
  fullName: z.string().max(1000).optional(),
  email: z.string().max(1000).optional(),
  phoneNumber: z.string().max(1000).optional(),
  zipCode: z.string().max(1000).optional(),
  consent: z.boolean(),
});
export type LeadSubmissionInput = z.output<typeof leadSubmissionSchema>;

export interface LeadProblem {
  field: LeadField | "consent";
  reason: string;
  values?: Record<string, number>;
}

/** The values as stored: trimmed; the phone as typed, its digits checked. */
export type LeadValues = Partial<Record<LeadField, string>>;

const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const PHONE_CHARACTERS = /^\+?[0-9 ().-]+$/;
const ZIP = /^[A-Za-z0-9](?:[A-Za-z0-9 -]*[A-Za-z0-9])?$/;

/** The digits of a phone number, as the one-submission rule compares them. */
const phoneDigits = (phone: string) => phone.replace(/[^0-9]/g, "");

function fieldProblem(field: LeadField, value: string): LeadProblem | null {
  if (value === "") return { field, reason: "leads:validation.required" };
  switch (field) {
    case "fullName":
      return value.length > LEAD_LIMITS.fullName ? { field, reason: "leads:validation.tooLong", values: { maximum: LEAD_LIMITS.fullName } } : null;
    case "email":
      return value.length > LEAD_LIMITS.email || !EMAIL.test(value) ? { field, reason: "leads:validation.email" } : null;
    case "phoneNumber": {
      const digits = phoneDigits(value).length;
      return value.length > LEAD_LIMITS.phoneLength || !PHONE_CHARACTERS.test(value) || digits < LEAD_LIMITS.phoneDigitsMin || digits > LEAD_LIMITS.phoneDigitsMax
        ? { field, reason: "leads:validation.phone", values: { minimum: LEAD_LIMITS.phoneDigitsMin, maximum: LEAD_LIMITS.phoneDigitsMax } }
        : null;
    }
    case "zipCode":
      return value.length < LEAD_LIMITS.zipMin || value.length > LEAD_LIMITS.zipMax || !ZIP.test(value)
        ? { field, reason: "leads:validation.zip", values: { minimum: LEAD_LIMITS.zipMin, maximum: LEAD_LIMITS.zipMax } }
        : null;
  }
}

/**
 * A submission against the fields its form asks: each asked field present and well formed, none
 * that was not asked, and consent given. Either the values to store or every problem, by field.
 */
export function checkSubmission(asked: readonly LeadField[], input: LeadSubmissionInput): { ok: true; values: LeadValues } | { ok: false; problems: LeadProblem[] } {
  const problems: LeadProblem[] = [];
  const values: LeadValues = {};
  for (const field of LEAD_FIELDS) {
    const raw = input[field];
    if (!asked.includes(field)) {
      if (raw !== undefined && raw.trim() !== "") problems.push({ field, reason: "leads:validation.notAsked" });
      continue;
    }
    const value = (raw ?? "").trim();
    const problem = fieldProblem(field, value);
    if (problem) problems.push(problem);
    else values[field] = field === "email" ? value.toLowerCase() : value;
  }
  if (!input.consent) problems.push({ field: "consent", reason: "leads:validation.consent" });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, values };
}

/** What the autofill rule reads of a viewer: GET /v3/users/me/'s fields. */
export interface AutofillViewer {
  full_name: string;
  email: string;
  is_name_eligible_for_lead_form_autofill: boolean;
  is_email_eligible_for_lead_form_autofill: boolean;
}

/**
 * The eligibility flags of GET /v3/users/me/: a full login only (a limited login is not signed
 * in for this); the name when there is one, the address once it is verified.
 */
export function autofillFlags(user: { full_name: string; email_verified: number }, fullLogin: boolean): Pick<AutofillViewer, "is_name_eligible_for_lead_form_autofill" | "is_email_eligible_for_lead_form_autofill"> {
  return {
    is_name_eligible_for_lead_form_autofill: fullLogin && user.full_name.trim() !== "",
    is_email_eligible_for_lead_form_autofill: fullLogin && user.email_verified === 1,
  };
}

/**
 * The fields filled in before the person types: name and email only, each only when the form
 * asks for it and the signed-in viewer is flagged eligible for it; nothing for a signed-out
 * visitor (null). Phone and zip are never filled in.
 */
export function autofill(viewer: AutofillViewer | null, asked: readonly LeadField[]): { fullName?: string; email?: string } {
  if (viewer === null) return {};
  return {
    ...(asked.includes("fullName") && viewer.is_name_eligible_for_lead_form_autofill ? { fullName: viewer.full_name } : {}),
    ...(asked.includes("email") && viewer.is_email_eligible_for_lead_form_autofill ? { email: viewer.email } : {}),
  };
}

/** Who sent a submission, for one-per-person: the account, else what the visitor typed, else their address. */
export function dedupeKey(userId: number | null, values: LeadValues, address: string): string {
  if (userId !== null) return `u${userId}`;
  if (values.email) return `e:${values.email.toLowerCase()}`;
  if (values.phoneNumber) return `p:${phoneDigits(values.phoneNumber)}`;
  return `a:${address}`;
}

/** The CSV's columns, in order (the header row is these keys, as the bulk files' are). */
export const LEAD_CSV_COLUMNS = ["submitted_at", "ad_id", "ad_name", "full_name", "email", "phone_number", "zip_code", "locale", "signed_in"] as const;
