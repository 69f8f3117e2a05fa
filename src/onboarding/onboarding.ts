// Onboarding for a new account (spec 001 §2, §9: it starts at the step `welcome`): pick topics,
// follow suggested creators, optionally a country and language, then the home feed. Every step
// can be skipped, and the step a person stopped at is kept on the account, so onboarding resumes
// there. Pure rules shared by the server (which stores the step) and the island (which shows it).
import { z } from "zod";

/** The steps in the order a person meets them. */
export const ONBOARDING_STEPS = ["welcome", "interests", "creators", "locale"] as const;
export type OnboardingStep = (typeof ONBOARDING_STEPS)[number];

/** Where onboarding ends: finished through every step, or skipped by the person. */
const FINISHED_STATES = ["done", "skipped"] as const;
export type OnboardingState = OnboardingStep | (typeof FINISHED_STATES)[number];

/** Spec 001 §9: "Default onboarding step: welcome". */
export const DEFAULT_ONBOARDING_STEP: OnboardingStep = "welcome";

/** Creators suggested at most, and topics shown at most. */
export const MAX_CREATOR_SUGGESTIONS = 12;
export const MAX_TOPICS_SHOWN = 60;

export function isFinished(state: string): boolean {
  return (FINISHED_STATES as readonly string[]).includes(state);
}

/** A stored value as a state; anything unknown reads as finished, so nobody is held in onboarding by a bad row. */
export function stateOf(stored: string | null | undefined): OnboardingState {
  if ((ONBOARDING_STEPS as readonly string[]).includes(stored ?? "")) return stored as OnboardingStep;
  return stored === "skipped" ? "skipped" : "done";
}

/** The step after `step`; after the last one, onboarding is done. */
export function nextState(step: OnboardingStep): OnboardingState {
  const index = ONBOARDING_STEPS.indexOf(step);
  return ONBOARDING_STEPS[index + 1] ?? "done";
}

/**
 * Whether a person at `current` may move to `target`: forward by one step, back to any earlier
 * step, to the same step (a repeated call), to done from the last step, and to skipped from
 * anywhere unfinished. A finished onboarding stays finished.
 */
export function canMove(current: OnboardingState, target: OnboardingState): boolean {
  if (isFinished(current)) return current === target;
  if (target === "skipped") return true;
  const from = ONBOARDING_STEPS.indexOf(current as OnboardingStep);
  if (target === "done") return from === ONBOARDING_STEPS.length - 1;
  const to = ONBOARDING_STEPS.indexOf(target as OnboardingStep);
  return to !== -1 && to <= from + 1;
}

/** PUT /v3/users/me/onboarding/: the state to move to; the last step may also set country and locale. */
export const onboardingUpdateSchema = z.strictObject({
  step: z.enum([...ONBOARDING_STEPS, ...FINISHED_STATES]),
  country: z.string().regex(/^[A-Z]{2}$/, "two capital letters").optional(),
  locale: z.string().max(10).optional(),
});

/** GET /v3/users/me/interests/ blend_type: what the list blends (docs/decisions.md, Onboarding). */
export const BLEND_TYPES = ["followed", "suggested", "mixed"] as const;
export type BlendType = (typeof BLEND_TYPES)[number];

/** A topic as the interests calls answer it (spec 001 §3 Topic: id, is_followed). */
export interface InterestAnswer {
  id: string;
  key: string;
  name: string;
  is_followed: boolean;
  /** Pins in the topic: anyone's for a person's topics, the board's own for a board's. */
  pin_count: number;
}

/** A creator suggested while onboarding (spec 000 §3 User, snake_case as the v3 calls write it). */
export interface CreatorAnswer {
  id: string;
  username: string;
  full_name: string;
  image_medium_url: string | null;
  follower_count: number;
  explicitly_followed_by_me: boolean;
  /** The creator's pins anyone may see in the person's topics (0 when suggested for popularity alone). */
  pins_in_your_topics: number;
  /** Up to three of their pins' 236x images, for the suggestion's card. */
  preview_images: string[];
}
