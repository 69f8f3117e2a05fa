// The sign-up and login bodies (spec 000 §3 "Signup payload", "Login payload") and their
// rules (§5): registration type, the password rule and its exact message, first name at most
// 30 characters. Shared by the handshakes and UserRegisterResource, so both doors refuse
// the same things with the same words.
import { z } from "zod";
import { LOCALES, parseLocale } from "~/context/locales.ts";
import { zodProblems, type FieldProblem } from "~/domain/errors.ts";
import { MAX_JSON_DEPTH, jsonShapeProblem } from "~/server/json-shape.ts";
import { FIRST_NAME_MAX, PASSWORD_MAX, PASSWORD_MIN, PASSWORD_PATTERN, USERNAME_PATTERN } from "./account-rules.ts";
import { IMAGE_SIGNATURE, VIEWED_IMAGES_KEY, VIEWED_IMAGES_MAX, VISITED_PAGES_MAX, VISITED_PIN_PAGES_MAX, isPinPage, isSitePath } from "~/visits/trail.ts";

export const REGISTRATION_TYPES = ["email", "partner", "facebook"] as const;
export type RegistrationType = (typeof REGISTRATION_TYPES)[number];

/** Spec 000 §5: younger than this by birthday cannot sign up (409 code 13). */
export const MINIMUM_AGE = 13;

/** i18n keys (namespace accounts) of the rules that have their own words. */
export const RULE_MESSAGES = {
  passwordCharacters: "accounts:validation.passwordCharacters",
  username: "accounts:validation.username",
  usernameReserved: "accounts:validation.usernameReserved",
  birthday: "accounts:validation.birthday",
  registrationType: "accounts:validation.registrationType",
  facebookToken: "accounts:validation.facebookToken",
  visitedPages: "accounts:validation.visitedPages",
  viewedImages: "accounts:validation.viewedImages",
} as const;

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
/**
 * A profile lives at /{username}/, so a username may not be a first path segment the site
 * routes itself (src/context/landing-page.ts lists the page ones), nor a word that would read
 * as the site speaking.
 */
const RESERVED_USERNAMES: ReadonlySet<string> = new Set([
  "pin", "pins", "search", "today", "ideas", "topics", "topic", "homefeed", "settings", "resource", "v3", "vx", "media",
  "sitemaps", "advertiser", "login", "signup", "logout", "register", "refresh_token", "refresh_stored_accounts",
  "cctld_session", "healthz", "robots", "_astro", "admin", "api", "help", "about", "support", "security", "business",
  "password", "pinloom", "official", "staff", "root", "null", "undefined", "messages",
  "shop",
]);

/** Form fields arrive as strings; an empty optional field counts as not sent (spec §5). */
const optionalText = (max: number) =>
  z.preprocess((value) => (typeof value === "string" && value.trim() === "" ? undefined : value), z.string().trim().max(max).optional());

/** A JSON value sent either as JSON text (form bodies) or as JSON (JSON bodies). */
function jsonField<T extends z.ZodType>(schema: T, maxChars: number) {
  return z.preprocess((value, context) => {
    if (value === undefined || value === "") return undefined;
    if (typeof value !== "string") return value;
    if (value.length > maxChars) {
      context.addIssue({ code: "too_big", origin: "string", maximum: maxChars, inclusive: true, input: value });
      return z.NEVER;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      context.addIssue({ code: "invalid_format", format: "json", input: value });
      return z.NEVER;
    }
    // A `__proto__` key would vanish in the record's parse instead of being refused.
    const shape = jsonShapeProblem(parsed);
    if (shape?.reason === "validation.unknownKey") context.addIssue({ code: "unrecognized_keys", keys: ["__proto__"], path: shape.path.slice(0, -1), input: parsed as Record<string, unknown> });
    else if (shape) context.addIssue({ code: "custom", message: "common:validation.tooDeep", params: { values: { maximum: MAX_JSON_DEPTH } }, path: shape.path, input: parsed });
    return shape ? z.NEVER : parsed;
  }, schema.optional());
}

const passwordSchema = z
  .string()
  .min(PASSWORD_MIN)
  .max(PASSWORD_MAX)
  .refine((value) => PASSWORD_PATTERN.test(value), { message: RULE_MESSAGES.passwordCharacters });

function isRealDate(text: string): boolean {
  const match = DATE_PATTERN.exec(text);
  if (!match) return false;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d && y >= 1900;
}

/** Whole years between a YYYY-MM-DD birthday and `now`. */
export function ageOn(birthday: string, now = new Date()): number {
  const [y, m, d] = birthday.split("-").map(Number) as [number, number, number];
  let age = now.getUTCFullYear() - y;
  const beforeBirthday = now.getUTCMonth() + 1 < m || (now.getUTCMonth() + 1 === m && now.getUTCDate() < d);
  if (beforeBirthday) age--;
  return age;
}

export const signupSchema = z
  .strictObject({
    email: z.string().trim().max(254).pipe(z.email()),
    username: z
      .string()
      .trim()
      .max(30)
      .refine((value) => USERNAME_PATTERN.test(value), { message: RULE_MESSAGES.username })
      .refine((value) => !RESERVED_USERNAMES.has(value.toLowerCase()), { message: RULE_MESSAGES.usernameReserved }),
    // Optional only for a Facebook sign-up (the Facebook login stands in for it).
    password: passwordSchema.optional(),
    first_name: optionalText(FIRST_NAME_MAX),
    last_name: optionalText(FIRST_NAME_MAX),
    country: z.string().trim().regex(/^[A-Za-z]{2}$/).transform((value) => value.toUpperCase()),
    locale: z
      .string()
      .trim()
      .max(16)
      .transform((value, context) => {
        const locale = parseLocale(value);
        if (locale === null) {
          context.addIssue({ code: "invalid_value", values: [...LOCALES], input: value });
          return z.NEVER;
        }
        return locale;
      }),
    referrer: z.string().max(2048).optional(),
    birthday: z.preprocess(
      (value) => (value === "" ? undefined : value),
      z.string().refine(isRealDate, { message: RULE_MESSAGES.birthday }).optional(),
    ),
    gender: z.preprocess((value) => (value === "" ? undefined : value), z.enum(["female", "male", "unspecified", "custom"]).optional()),
    custom_gender: optionalText(50),
    business_name: optionalText(FIRST_NAME_MAX),
    invite_code: optionalText(64),
    facebook_id: z.preprocess((value) => (value === "" ? undefined : value), z.string().regex(/^\d{1,32}$/).optional()),
    facebook_token: optionalText(4096),
    recaptcha_v3_token: optionalText(4096),
    // Site paths only (src/visits/trail.ts): at most 20, at most 10 of them pin pages.
    visited_pages: jsonField(
      z
        .array(z.string())
        .refine((pages) => pages.length <= VISITED_PAGES_MAX && pages.every(isSitePath) && pages.filter(isPinPage).length <= VISITED_PIN_PAGES_MAX, {
          message: RULE_MESSAGES.visitedPages,
          params: { values: { maximum: VISITED_PAGES_MAX, pins: VISITED_PIN_PAGES_MAX } },
        }),
      50_000,
    ),
    utm_campaign: optionalText(200),
    user_behavior_data: jsonField(z.record(z.string().max(64), z.unknown()), 4096),
  })
  .superRefine((body, context) => {
    // Its viewed images are recently viewed ones (spec 001 §9): at most 11 image signatures.
    const images = body.user_behavior_data?.[VIEWED_IMAGES_KEY];
    if (images === undefined) return;
    if (!Array.isArray(images) || images.length > VIEWED_IMAGES_MAX || images.some((image) => typeof image !== "string" || !IMAGE_SIGNATURE.test(image))) {
      context.addIssue({ code: "custom", path: ["user_behavior_data", VIEWED_IMAGES_KEY], message: RULE_MESSAGES.viewedImages, params: { values: { maximum: VIEWED_IMAGES_MAX } } });
    }
  })
  .superRefine((body, context) => {
    const type = registrationTypeOf(body);
    if (type !== "partner" && body.first_name === undefined) {
      context.addIssue({ code: "invalid_type", expected: "string", path: ["first_name"], input: undefined });
    }
    if (type !== "facebook" && body.password === undefined) {
      context.addIssue({ code: "invalid_type", expected: "string", path: ["password"], input: undefined });
    }
    if (type === "facebook" && body.facebook_token === undefined) {
      context.addIssue({ code: "custom", path: ["facebook_token"], message: RULE_MESSAGES.facebookToken });
    }
  });
export type SignupBody = z.output<typeof signupSchema>;

/** Spec 000 §5: partner when business_name is given, facebook when facebook_id is, else email. */
export function registrationTypeOf(body: { business_name?: string | undefined; facebook_id?: string | undefined }): RegistrationType {
  if (body.business_name !== undefined) return "partner";
  if (body.facebook_id !== undefined) return "facebook";
  return "email";
}

/** The names a new account gets: a business's first name is its business name (spec §5). */
export function namesOf(body: SignupBody): { firstName: string; lastName: string; fullName: string } {
  const firstName = body.business_name ?? body.first_name ?? "";
  const lastName = body.business_name !== undefined ? "" : (body.last_name ?? "");
  return { firstName, lastName, fullName: [firstName, lastName].filter(Boolean).join(" ") };
}

export const loginSchema = z.strictObject({
  // Spec 000 §5: login trims the username or email.
  username_or_email: z.string().trim().min(1).max(254),
  password: z.string().min(1).max(PASSWORD_MAX * 4),
  referrer: z.string().max(2048).optional(),
  mfa_token: optionalText(16),
  token: optionalText(64),
});

export const mfaLoginSchema = z.strictObject({
  username_or_email: z.string().trim().min(1).max(254),
  mfa_token: z.string().trim().regex(/^\d{6}$/),
  token: z.string().trim().min(1).max(64),
  referrer: z.string().max(2048).optional(),
});

/**
 * zod issues → field problems; a rule with its own words (custom issue) keeps them as the
 * reason, so "password: Oops! Your password can only have…" reaches the form word for word.
 */
export function signupProblems(error: z.ZodError, input: unknown): FieldProblem[] {
  const problems = zodProblems(error, "", input);
  return problems.map((problem, index) => {
    const issue = error.issues[index];
    return issue?.code === "custom" && issue.message.startsWith("accounts:") ? { ...problem, reason: issue.message } : problem;
  });
}
