import { describe, expect, it } from "vitest";
import { getT } from "~/i18n/i18n.ts";
import {
  COUNTRY_UNAVAILABLE,
  PROGRAM_COUNTRIES,
  REVIEW_STATUSES,
  celebrationBannerShows,
  pinnerFeedbackScore,
  programOpenIn,
  runChecks,
  transition,
  welcomeBannerShows,
  type EligibilityFacts,
  type ProgramEvent,
  type ReviewState,
} from "./program.ts";

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 1);

describe("the program's countries", () => {
  it("is open in exactly the twelve countries of the spec", () => {
    expect([...PROGRAM_COUNTRIES].sort()).toEqual(["AT", "AU", "BR", "CA", "CH", "DE", "ES", "GB", "IT", "MX", "NL", "US"]);
    for (const country of ["US", "GB", "CA", "AU", "DE", "ES", "IT", "AT", "CH", "NL", "BR", "MX"]) expect(programOpenIn(country)).toBe(true);
  });

  it("refuses France and countries outside the list, with the spec's words", () => {
    for (const country of ["FR", "IE", "JP", "BE", "us", ""]) expect(programOpenIn(country)).toBe(false);
    // The refusal's message key reads the spec's words in English.
    const words = getT("en_US")(COUNTRY_UNAVAILABLE);
    expect(words).toBe("Verified merchant program not yet available in this country");
  });
});

const ready: EligibilityFacts = {
  now: NOW,
  profileCreatedAt: NOW - 30 * DAY,
  domain: "shop.example",
  domainFirstSeenAt: NOW - 30 * DAY,
  hasProfileImage: true,
  hasCoverImage: true,
  bio: "Mugs and bowls by me",
  productPins: 1,
  comments: 4,
  complainedComments: 2,
};
const results = (facts: EligibilityFacts) => Object.fromEntries(runChecks(facts).map((check) => [check.check, check.result]));

describe("the eligibility checks", () => {
  it("passes every check exactly at its threshold: 30 days, 20 characters, one product, a score of 0.5", () => {
    expect(results(ready)).toEqual({ account_age: "PASS", domain_age: "PASS", profile_image: "PASS", profile_cover_image: "PASS", bio: "PASS", shop_tab: "PASS", pinner_feedback: "PASS" });
    expect(runChecks(ready).every((check) => check.reason === null)).toBe(true);
  });

  it("fails one below each threshold, naming the reason", () => {
    const failing = runChecks({
      ...ready,
      profileCreatedAt: NOW - 29 * DAY - 1,
      domainFirstSeenAt: NOW - 29 * DAY,
      hasProfileImage: false,
      hasCoverImage: false,
      bio: "  Mugs and bowls!!  ",
      productPins: 0,
      comments: 3,
      complainedComments: 2,
    });
    expect(failing.map((check) => [check.check, check.result, check.reason])).toEqual([
      ["account_age", "FAIL", "merchants:checks.account_age.fail"],
      ["domain_age", "FAIL", "merchants:checks.domain_age.fail"],
      ["profile_image", "FAIL", "merchants:checks.profile_image.fail"],
      ["profile_cover_image", "FAIL", "merchants:checks.profile_cover_image.fail"],
      ["bio", "FAIL", "merchants:checks.bio.fail"],
      ["shop_tab", "FAIL", "merchants:checks.shop_tab.fail"],
      ["pinner_feedback", "FAIL", "merchants:checks.pinner_feedback.fail"],
    ]);
    expect(failing.find((check) => check.check === "account_age")?.value).toBe(29);
    expect(failing.find((check) => check.check === "bio")?.value).toBe(16);
    expect(failing.find((check) => check.check === "pinner_feedback")?.value).toBe(0.33);
  });

  it("fails the domain age without a claimed domain, or one never seen on the profile's pins", () => {
    expect(results({ ...ready, domain: null, domainFirstSeenAt: null }).domain_age).toBe("FAIL");
    expect(results({ ...ready, domainFirstSeenAt: null }).domain_age).toBe("FAIL");
  });

  it("scores pinner feedback as the share of comments that are no complaint", () => {
    expect(pinnerFeedbackScore(0, 0)).toBe(1);
    expect(pinnerFeedbackScore(10, 0)).toBe(1);
    expect(pinnerFeedbackScore(10, 5)).toBe(0.5);
    expect(pinnerFeedbackScore(4, 3)).toBe(0.25);
    expect(pinnerFeedbackScore(2, 9)).toBe(0);
  });
});

const fresh: ReviewState = { review: "UNDER_REVIEW", program: "APPLIED", canAppeal: true, isAppeal: false, appealCount: 0 };
const disapproved: ReviewState = { ...fresh, review: "DISAPPROVED" };
const accepted: ReviewState = { ...fresh, review: "COMPLETED", program: "ACCEPTED" };

describe("the transition table", () => {
  it("numbers review statuses with a new review at 2, under review", () => {
    expect(REVIEW_STATUSES).toEqual({ PROCESSING: 1, UNDER_REVIEW: 2, COMPLETED: 3, FAILED: 4, DISAPPROVED: 5 });
  });

  it("applies from nothing, from failed checks and from a cancelled membership, with the review defaults", () => {
    const processing = { review: "PROCESSING", program: null, canAppeal: true, isAppeal: false, appealCount: 0 };
    expect(transition(null, "apply")).toEqual(processing);
    expect(transition({ ...fresh, review: "FAILED", program: null }, "apply")).toEqual(processing);
    expect(transition({ ...accepted, program: "CANCELLED", appealCount: 2, canAppeal: false }, "apply")).toEqual(processing);
    expect(transition(fresh, "apply")).toBeNull();
    expect(transition(accepted, "apply")).toBeNull();
    expect(transition({ ...accepted, program: "SUSPENDED" }, "apply")).toBeNull();
  });

  it("moves processing to under review (APPLIED) or failed (no membership)", () => {
    const processing: ReviewState = { review: "PROCESSING", program: null, canAppeal: true, isAppeal: false, appealCount: 0 };
    expect(transition(processing, "checks_passed")).toEqual(fresh);
    expect(transition(processing, "checks_failed")).toEqual({ ...processing, review: "FAILED" });
    expect(transition(fresh, "checks_passed")).toBeNull();
  });

  it("lets a reviewer complete (ACCEPTED) or disapprove an application under review, and nothing else", () => {
    expect(transition(fresh, "approve")).toEqual(accepted);
    expect(transition(fresh, "disapprove")).toEqual(disapproved);
    expect(transition(disapproved, "approve")).toBeNull();
    expect(transition(accepted, "approve")).toBeNull();
    expect(transition(accepted, "disapprove")).toBeNull();
    expect(transition(null, "approve")).toBeNull();
  });

  it("allows three appeals, each counted, the third closing appeals", () => {
    const first = transition(disapproved, "appeal");
    expect(first).toEqual({ review: "UNDER_REVIEW", program: "APPLIED", canAppeal: true, isAppeal: true, appealCount: 1 });
    const second = transition(transition(first, "disapprove"), "appeal");
    expect(second).toEqual({ review: "UNDER_REVIEW", program: "APPLIED", canAppeal: true, isAppeal: true, appealCount: 2 });
    const third = transition(transition(second, "disapprove"), "appeal");
    expect(third).toEqual({ review: "UNDER_REVIEW", program: "APPLIED", canAppeal: false, isAppeal: true, appealCount: 3 });
    const final = transition(third, "disapprove");
    expect(final).toEqual({ review: "DISAPPROVED", program: "APPLIED", canAppeal: false, isAppeal: false, appealCount: 3 });
    expect(transition(final, "appeal")).toBeNull();
  });

  it("ends an appeal when it is decided", () => {
    expect(transition({ ...fresh, isAppeal: true, appealCount: 1 }, "approve")).toEqual({ ...accepted, appealCount: 1 });
  });

  it("refuses appeals of anything but a disapproval", () => {
    for (const state of [fresh, accepted, { ...fresh, review: "FAILED" as const, program: null }]) expect(transition(state, "appeal")).toBeNull();
  });

  it("walks an accepted membership through non-compliance, suspension, reinstatement and cancellation", () => {
    const table: Array<[ReviewState["program"], ProgramEvent, ReviewState["program"] | "refused"]> = [
      ["ACCEPTED", "non_compliant", "NON_COMPLIANT"],
      ["ACCEPTED", "suspend", "SUSPENDED"],
      ["ACCEPTED", "reinstate", "refused"],
      ["ACCEPTED", "cancel", "CANCELLED"],
      ["ACCEPTED", "withdraw", "CANCELLED"],
      ["NON_COMPLIANT", "reinstate", "ACCEPTED"],
      ["NON_COMPLIANT", "suspend", "SUSPENDED"],
      ["NON_COMPLIANT", "non_compliant", "refused"],
      ["NON_COMPLIANT", "cancel", "CANCELLED"],
      ["SUSPENDED", "reinstate", "ACCEPTED"],
      ["SUSPENDED", "non_compliant", "refused"],
      ["SUSPENDED", "suspend", "refused"],
      ["SUSPENDED", "withdraw", "CANCELLED"],
      ["APPLIED", "cancel", "CANCELLED"],
      ["APPLIED", "non_compliant", "refused"],
      ["CANCELLED", "cancel", "refused"],
      ["CANCELLED", "reinstate", "refused"],
    ];
    for (const [program, event, expected] of table) {
      const next = transition({ ...accepted, program }, event);
      expect([program, event, next === null ? "refused" : next.program]).toEqual([program, event, expected]);
    }
  });
});

describe("the banners", () => {
  const never = { welcomeDismissedAt: null, welcomeDismissCount: 0, celebrationDismissed: false };
  const WEEK = 604_800_000;

  it("shows the welcome banner after acceptance until dismissed, again a week after, and not after the third dismissal", () => {
    expect(welcomeBannerShows(never, true, NOW)).toBe(true);
    expect(welcomeBannerShows(never, false, NOW)).toBe(false);
    expect(welcomeBannerShows({ ...never, welcomeDismissedAt: NOW - WEEK + 1, welcomeDismissCount: 1 }, true, NOW)).toBe(false);
    expect(welcomeBannerShows({ ...never, welcomeDismissedAt: NOW - WEEK, welcomeDismissCount: 1 }, true, NOW)).toBe(true);
    expect(welcomeBannerShows({ ...never, welcomeDismissedAt: NOW - WEEK, welcomeDismissCount: 2 }, true, NOW)).toBe(true);
    expect(welcomeBannerShows({ ...never, welcomeDismissedAt: NOW - 10 * WEEK, welcomeDismissCount: 3 }, true, NOW)).toBe(false);
  });

  it("shows the celebration banner once accepted, until dismissed", () => {
    expect(celebrationBannerShows(never, true)).toBe(true);
    expect(celebrationBannerShows(never, false)).toBe(false);
    expect(celebrationBannerShows({ ...never, celebrationDismissed: true }, true)).toBe(false);
  });
});
