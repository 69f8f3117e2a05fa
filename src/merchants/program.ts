// The verified merchant program's rules (spec 002 §3–§5, §9 "Merchant"): the countries it is
// open in, the eligibility checks and their thresholds, the review and program states and the
// one table of transitions between them, and the welcome banner's timing. Pure: the server
// (./merchants.server.ts) reads the facts and stores the states; every decision is made here.
// The meanings given to the spec's bare constants are recorded in docs/decisions.md.
import { z } from "zod";

// ---- Constants (spec 002 §9 "Merchant: 2000, 30, 604800000, 3 and 0.5") ----

/** Longest appeal comment, in characters: the same bound as a comment on a pin. */
export const APPEAL_COMMENT_MAX = 2000;
/** Minimum age, in days, of the profile and of its claimed domain on Pinloom. */
const MIN_AGE_DAYS = 30;
/** A dismissed welcome banner comes back after this long (one week, in ms). */
const WELCOME_BANNER_RESHOW_MS = 604_800_000;
/** Appeals a merchant may make; after the last one can_appeal is false. Also the welcome banner's dismissals before it stays away. */
const MAX_APPEALS = 3;
const WELCOME_BANNER_MAX_DISMISSALS = 3;
/** Lowest pinner feedback score (0..1) that passes. */
const MIN_PINNER_FEEDBACK = 0.5;
/** A bio says what the shop sells: at least this many characters once trimmed. */
const MIN_BIO_CHARS = 20;
/** A shop tab needs at least one product pin. */
const MIN_PRODUCT_PINS = 1;

const DAY_MS = 86_400_000;

// ---- Countries (spec 002 §5) ----

/** Where the program is open; FR is excluded on purpose. */
export const PROGRAM_COUNTRIES = ["US", "GB", "CA", "AU", "DE", "ES", "IT", "AT", "CH", "NL", "BR", "MX"] as const;
export type ProgramCountry = (typeof PROGRAM_COUNTRIES)[number];
export const programOpenIn = (country: string): country is ProgramCountry => (PROGRAM_COUNTRIES as readonly string[]).includes(country);
/** The spec's message for any other country, as an i18n key (its English text is the spec's words). */
export const COUNTRY_UNAVAILABLE = "merchants:errors.countryUnavailable";

// ---- Eligibility checks (spec 002 §5) ----

export const CHECKS = ["account_age", "domain_age", "profile_image", "profile_cover_image", "bio", "shop_tab", "pinner_feedback"] as const;
type CheckName = (typeof CHECKS)[number];
type CheckResult = "PASS" | "FAIL";

/** The facts the checks read, gathered by the server from real rows. */
export interface EligibilityFacts {
  now: number;
  /** users.created_at of the business's profile. */
  profileCreatedAt: number;
  /** The profile's claimed domain (its website's host, owned through link_domains), or null. */
  domain: string | null;
  /** When Pinloom first saw that domain on the profile's own pins, or null. */
  domainFirstSeenAt: number | null;
  hasProfileImage: boolean;
  hasCoverImage: boolean;
  bio: string;
  productPins: number;
  /** Comments on the profile's pins, and how many of them were reported or hidden. */
  comments: number;
  complainedComments: number;
}

export interface Check {
  check: CheckName;
  result: CheckResult;
  /** An i18n key saying why it failed (merchants:checks.<name>.fail), or null on PASS. */
  reason: string | null;
  value: number | string | boolean | null;
  threshold: number | string | boolean;
}

/** Share of comments that are no complaint; with no comments there is no complaint (1). */
export function pinnerFeedbackScore(comments: number, complained: number): number {
  if (comments <= 0) return 1;
  return Math.max(0, comments - Math.min(complained, comments)) / comments;
}

const days = (from: number, now: number) => Math.floor((now - from) / DAY_MS);

export function runChecks(facts: EligibilityFacts): Check[] {
  const result = (check: CheckName, pass: boolean, value: Check["value"], threshold: Check["threshold"]): Check => ({
    check,
    result: pass ? "PASS" : "FAIL",
    reason: pass ? null : `merchants:checks.${check}.fail`,
    value,
    threshold,
  });
  const accountDays = days(facts.profileCreatedAt, facts.now);
  const domainDays = facts.domain !== null && facts.domainFirstSeenAt !== null ? days(facts.domainFirstSeenAt, facts.now) : null;
  const bioChars = [...facts.bio.trim()].length;
  const score = pinnerFeedbackScore(facts.comments, facts.complainedComments);
  return [
    result("account_age", accountDays >= MIN_AGE_DAYS, accountDays, MIN_AGE_DAYS),
    result("domain_age", domainDays !== null && domainDays >= MIN_AGE_DAYS, domainDays, MIN_AGE_DAYS),
    result("profile_image", facts.hasProfileImage, facts.hasProfileImage, true),
    result("profile_cover_image", facts.hasCoverImage, facts.hasCoverImage, true),
    result("bio", bioChars >= MIN_BIO_CHARS, bioChars, MIN_BIO_CHARS),
    result("shop_tab", facts.productPins >= MIN_PRODUCT_PINS, facts.productPins, MIN_PRODUCT_PINS),
    result("pinner_feedback", score >= MIN_PINNER_FEEDBACK, Math.round(score * 100) / 100, MIN_PINNER_FEEDBACK),
  ];
}

// ---- States (spec 002 §4) ----

/** Review statuses with their numeric codes; a new review is 2 (spec 002 §3 "review_status 2"): under review. */
export const REVIEW_STATUSES = { PROCESSING: 1, UNDER_REVIEW: 2, COMPLETED: 3, FAILED: 4, DISAPPROVED: 5 } as const;
export type ReviewStatus = keyof typeof REVIEW_STATUSES;
export const reviewStatusOf = (code: number): ReviewStatus => (Object.keys(REVIEW_STATUSES) as ReviewStatus[]).find((name) => REVIEW_STATUSES[name] === code) ?? "PROCESSING";

export type ProgramStatus = "APPLIED" | "ACCEPTED" | "NON_COMPLIANT" | "SUSPENDED" | "CANCELLED";

export type ItemStatus = "approved" | "pending" | "declined" | "appeal_pending";

/** The review as stored (spec 002 §3 "Review defaults"). */
export interface ReviewState {
  review: ReviewStatus;
  /** Null while there is no program membership (checks failed). */
  program: ProgramStatus | null;
  canAppeal: boolean;
  isAppeal: boolean;
  appealCount: number;
}

const REVIEW_DEFAULTS: Omit<ReviewState, "review" | "program"> = { canAppeal: true, isAppeal: false, appealCount: 0 };


/** What a reviewer decides. */
export const REVIEWER_DECISIONS = ["approve", "disapprove", "non_compliant", "suspend", "reinstate", "cancel"] as const;
export type ReviewerDecision = (typeof REVIEWER_DECISIONS)[number];
/** The checks' outcome, what the merchant does (apply, appeal a disapproval, leave) and what a reviewer decides. */
export type ProgramEvent = "checks_passed" | "checks_failed" | "apply" | "appeal" | "withdraw" | ReviewerDecision;

/** Whether a business may (re)apply in this state: never applied, checks failed, or left the program. */
function mayApply(state: ReviewState | null): boolean {
  return state === null || state.review === "FAILED" || state.program === "CANCELLED";
}

/**
 * The one transition table: the next state, or null when the event is not allowed now.
 * `apply` starts PROCESSING; the checks' outcome moves it to UNDER_REVIEW (program APPLIED) or
 * FAILED (no program). A reviewer completes (ACCEPTED) or disapproves; a disapproval may be
 * appealed while can_appeal holds, each appeal counting, the last one closing appeals. An
 * accepted merchant may be marked non-compliant or suspended and later reinstated; any live
 * membership may be cancelled, by the reviewer or by the merchant leaving.
 */
export function transition(state: ReviewState | null, event: ProgramEvent): ReviewState | null {
  if (event === "apply") return mayApply(state) ? { review: "PROCESSING", program: null, ...REVIEW_DEFAULTS } : null;
  if (state === null) return null;
  const { review, program } = state;
  switch (event) {
    case "checks_passed":
      return review === "PROCESSING" ? { ...state, review: "UNDER_REVIEW", program: "APPLIED" } : null;
    case "checks_failed":
      return review === "PROCESSING" ? { ...state, review: "FAILED", program: null } : null;
    case "approve":
      return review === "UNDER_REVIEW" && program === "APPLIED" ? { ...state, review: "COMPLETED", program: "ACCEPTED", isAppeal: false } : null;
    case "disapprove":
      return review === "UNDER_REVIEW" && program === "APPLIED" ? { ...state, review: "DISAPPROVED", isAppeal: false } : null;
    case "appeal": {
      if (review !== "DISAPPROVED" || program !== "APPLIED" || !state.canAppeal) return null;
      const appealCount = state.appealCount + 1;
      return { ...state, review: "UNDER_REVIEW", isAppeal: true, appealCount, canAppeal: appealCount < MAX_APPEALS };
    }
    case "non_compliant":
      return program === "ACCEPTED" ? { ...state, program: "NON_COMPLIANT" } : null;
    case "suspend":
      return program === "ACCEPTED" || program === "NON_COMPLIANT" ? { ...state, program: "SUSPENDED" } : null;
    case "reinstate":
      return program === "NON_COMPLIANT" || program === "SUSPENDED" ? { ...state, program: "ACCEPTED" } : null;
    case "cancel":
    case "withdraw":
      return program === "APPLIED" || program === "ACCEPTED" || program === "NON_COMPLIANT" || program === "SUSPENDED" ? { ...state, program: "CANCELLED", isAppeal: false } : null;
  }
}

/** The badge shows only for a merchant in good standing. */
export const isVerified = (program: ProgramStatus | null) => program === "ACCEPTED";

// ---- Banners (spec 002 §3 "Per-user data") ----

export interface BannerState {
  welcomeDismissedAt: number | null;
  welcomeDismissCount: number;
  celebrationDismissed: boolean;
}

/** The welcome banner: after acceptance, until dismissed; back a week after each dismissal, gone after the third. */
export function welcomeBannerShows(banner: BannerState, accepted: boolean, now: number): boolean {
  if (!accepted || banner.welcomeDismissCount >= WELCOME_BANNER_MAX_DISMISSALS) return false;
  return banner.welcomeDismissedAt === null || now - banner.welcomeDismissedAt >= WELCOME_BANNER_RESHOW_MS;
}

/** The celebration banner: once, after acceptance, until dismissed. */
export const celebrationBannerShows = (banner: BannerState, accepted: boolean) => accepted && !banner.celebrationDismissed;

// ---- Inputs ----

const policyUrl = z.string().trim().max(2048);
export const policiesBody = z.strictObject({
  shipping_policy_url: policyUrl.optional(),
  return_policy_url: policyUrl.optional(),
});
export const appealBody = z.strictObject({ appeal_comment: z.string().trim().min(1).max(APPEAL_COMMENT_MAX) });
export const coverBody = z.strictObject({ cover_pin_id: z.string().regex(/^\d{1,19}$/) });
export const bannerBody = z.strictObject({ banner: z.enum(["welcome", "celebration"]) });
export const decisionBody = z.strictObject({
  decision: z.enum(REVIEWER_DECISIONS),
  // A form sends one reason as text; the API takes a list.
  review_reasons: z.preprocess((value) => (typeof value === "string" ? [value] : value), z.array(z.string().trim().min(1).max(200)).max(10)).default([]),
});
export const itemDecisionBody = z.strictObject({ status: z.enum(["approved", "declined"]), reason: z.string().trim().max(200).optional() });
export const itemAppealBody = z.strictObject({ appeal_comment: z.string().trim().min(1).max(APPEAL_COMMENT_MAX) });
