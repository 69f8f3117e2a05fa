// The experience platform's rules (spec 002 §3 "Experience", §4 "Experiences", §6, §7): placed
// experience ids, the calls' options, the statuses, and the targeting rules that decide who is
// eligible. Pure: the server (experiences.server.ts) feeds it facts read from D1, the browser's
// store reads the same answer shapes.
import { z } from "zod";

/** Spec 002 §4: where a person stands with an experience; null until the first view. */
export type ExperienceStatus = "viewed" | "completed" | "dismissed" | "completedWithoutHomefeed";

/** The placements the product shows experiences in, and the experiences seeded there (0044). */
export const PLACEMENT = { FOOTER: 1000069, HOME_TOP: 1000071, HUB_TOP: 1000072, MERCHANT_TOP: 1000073, PAGE_BOTTOM: 1000074 } as const;
export const EXPERIENCE = { HIDE_FOOTER: 500417, BUSINESS_UPSELL: 500501, HUB_START: 500502, MERCHANT_WELCOME: 500503, COOKIE_CONSENT: 500504 } as const;

/** The targeting rules an experience row may name (its `rule` column). */
export const RULES = ["personal_account", "business_owner", "merchant_welcome", "consent_required", "footer_experiment"] as const;
export type Rule = (typeof RULES)[number];

/** Placements one call may ask for, and experiences one answer may carry. */
const MAX_PLACEMENTS = 20;
const MAX_CONTEXT_KEYS = 20;
const MAX_CONTEXT_VALUE = 200;

export interface PlacedId {
  placementId: number;
  experienceId: number;
}

/**
 * A placed experience id as clients send it: "placement:experience", the colon often
 * percent-encoded (spec 002 §7 "placement%3Aexperience"). Null when it is not two ids.
 */
export function parsePlacedId(value: string): PlacedId | null {
  const match = /^([1-9][0-9]{0,11})(?::|%3[Aa])([1-9][0-9]{0,11})$/.exec(value);
  if (!match) return null;
  return { placementId: Number(match[1]), experienceId: Number(match[2]) };
}

export const placedIdOf = (placementId: number, experienceId: number): string => `${placementId}:${experienceId}`;

/** The option a write names its experience by: malformed ids are a 400 naming it. */
const placedIdOption = z
  .string()
  .max(40)
  .refine((value) => parsePlacedId(value) !== null, { message: "shell:experiences.errors.malformed" });

/**
 * extra_context and targeting: a small flat object of plain values. The server decides
 * eligibility from what it knows itself, never from these; it keeps extra_context with a write.
 */
const contextValue = z.union([z.string().max(MAX_CONTEXT_VALUE), z.number().finite(), z.boolean(), z.null()]);
const contextOption = z
  .record(z.string().max(64), contextValue)
  .refine((value) => Object.keys(value).length <= MAX_CONTEXT_KEYS, { message: "validation.tooBig" })
  .optional();

const placementIdOption = z.union([z.number().int().positive().max(999_999_999_999), z.string().regex(/^[1-9][0-9]{0,11}$/).transform(Number)]);

export const platformGetOptions = z.strictObject({
  extra_context: contextOption,
  targeting: contextOption,
  /** Every eligible experience per placement instead of the first. */
  multiExperiencePlatform: z.boolean().optional(),
});

export const experienceGetOptions = z.strictObject({
  placement_ids: z.array(placementIdOption).min(1).max(MAX_PLACEMENTS),
  extra_context: contextOption,
  targeting: contextOption,
});

export const experienceWriteOptions = z.strictObject({
  placed_experience_id: placedIdOption,
  extra_context: contextOption,
  targeting: contextOption,
});

export const triggerBody = z.strictObject({ extra_context: contextOption });

/** One experience as the calls answer it. */
export interface Experience {
  experience_id: number;
  placement_id: number;
  placed_experience_id: string;
  /** Spec 002 §3: 0 means none (nothing of its own to show, as the footer check), 1 a banner, 2 a card. */
  type: number;
  status: ExperienceStatus | null;
  display_data: Record<string, unknown> & { anchor?: string };
  metadata: Record<string, unknown>;
  triggerable_placed_exps: string[];
}

/** An experience row as stored. */
export interface Definition {
  experienceId: number;
  placementId: number;
  type: number;
  displayData: Record<string, unknown>;
  metadata: Record<string, unknown>;
  triggerable: string[];
  rule: Rule;
  needsTrigger: boolean;
  priority: number;
}

/** One viewer's stored standing with one experience. */
export interface State {
  triggeredAt: number | null;
  viewedAt: number | null;
  completedAt: number | null;
  completedWithoutHomefeed: boolean;
  dismissedAt: number | null;
}

/** What the server knows of the viewer, gathered once per answer. */
export interface ViewerFacts {
  isBot: boolean;
  signedIn: boolean;
  /** A personal account (not a business profile) that has no business of its own. */
  personalWithoutBusiness: boolean;
  ownsBusiness: boolean;
  /** The merchant program's welcome banner shows for them (src/merchants/program.ts). */
  merchantWelcomeShows: boolean;
  /** Consent is asked where they are and not yet given (src/consent/consent.ts). */
  consentAsked: boolean;
  /** In the footer experiment's hide_footer group. */
  hideFooterGroup: boolean;
}

function ruleHolds(rule: Rule, facts: ViewerFacts): boolean {
  switch (rule) {
    case "personal_account":
      return facts.signedIn && facts.personalWithoutBusiness;
    case "business_owner":
      return facts.signedIn && facts.ownsBusiness;
    case "merchant_welcome":
      return facts.signedIn && facts.merchantWelcomeShows;
    case "consent_required":
      return facts.consentAsked;
    case "footer_experiment":
      return facts.signedIn && facts.hideFooterGroup;
  }
}

/**
 * The rules that decide on their own memory, not the experience's status: the merchant welcome
 * banner comes back a week after each of its first dismissals (the program's rule, kept in
 * merchant_banners), and the consent banner asks again whenever no choice stands (a choice
 * lasts a year). A completion or dismissal of theirs is recorded, but does not end them.
 */
const OWN_DISMISSAL_MEMORY: ReadonlySet<Rule> = new Set(["merchant_welcome", "consent_required"]);

export function statusOf(state: State | undefined): ExperienceStatus | null {
  if (!state) return null;
  if (state.dismissedAt !== null) return "dismissed";
  if (state.completedAt !== null) return state.completedWithoutHomefeed ? "completedWithoutHomefeed" : "completed";
  return state.viewedAt !== null ? "viewed" : null;
}

/** Whether the viewer may be shown this experience now. Bots never are (spec 002 §6). */
export function isEligible(definition: Definition, state: State | undefined, facts: ViewerFacts): boolean {
  if (facts.isBot || !ruleHolds(definition.rule, facts)) return false;
  if (definition.needsTrigger && (state?.triggeredAt ?? null) === null) return false;
  if (OWN_DISMISSAL_MEMORY.has(definition.rule)) return true;
  const status = statusOf(state);
  return status === null || status === "viewed";
}

function answerOf(definition: Definition, state: State | undefined): Experience {
  return {
    experience_id: definition.experienceId,
    placement_id: definition.placementId,
    placed_experience_id: placedIdOf(definition.placementId, definition.experienceId),
    type: definition.type,
    // A rule with its own dismissal memory is shown afresh: its old status says nothing now.
    status: OWN_DISMISSAL_MEMORY.has(definition.rule) && statusOf(state) !== "viewed" ? null : statusOf(state),
    display_data: definition.displayData,
    metadata: definition.metadata,
    triggerable_placed_exps: definition.triggerable,
  };
}

/**
 * The experiences eligible per placement: the first by priority (then id), or all of them for
 * the multi-experience platform. Placements with none are left out.
 */
export function eligibleByPlacement(
  definitions: readonly Definition[],
  states: ReadonlyMap<number, State>,
  facts: ViewerFacts,
  multi: boolean,
): Record<string, Experience[]> {
  const out: Record<string, Experience[]> = {};
  const ordered = [...definitions].sort((a, b) => b.priority - a.priority || a.experienceId - b.experienceId);
  for (const definition of ordered) {
    const state = states.get(definition.experienceId);
    if (!isEligible(definition, state, facts)) continue;
    const list = (out[String(definition.placementId)] ??= []);
    if (multi || list.length === 0) list.push(answerOf(definition, state));
  }
  return out;
}

/** The footer check (spec 002 §7): the footer experience 500417 with hide_footer display data. */
export function hidesFooter(experience: Experience | undefined): boolean {
  return experience?.experience_id === EXPERIENCE.HIDE_FOOTER && experience.placement_id === PLACEMENT.FOOTER && experience.display_data["hide_footer"] === true;
}

/** Whether some experience lists `placed` among those it may trigger. */
export function isTriggerable(definitions: readonly Definition[], placed: PlacedId): boolean {
  const id = placedIdOf(placed.placementId, placed.experienceId);
  return definitions.some((definition) => definition.triggerable.includes(id));
}
