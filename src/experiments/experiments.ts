// Experiment groups (spec 000 §3 "Embedded app state: experiments", §9 "Home feed kept on
// return if last visit under 2.5 minutes (one experiment group) or 1 minute (another)").
// Pure and tiny: the server assigns, the browser only reads the group names it was given.
//
// Assignment is deterministic: a person's group is a hash of the experiment's name and their
// account id, so it is the same on every page and every device, with no storage and no
// cookie. Only signed-in people are enrolled: a signed-out visitor would need an identifier
// cookie set before any consent, and shared (edge-cached) pages carry nothing per visitor, so
// they keep each experiment's first (control) group.

/** Experiments the server assigns, each with its groups, drawn with equal weight. */
export const EXPERIMENTS = {
  /** Home feed restore window on history return: 1 minute (control) or 2.5 minutes. */
  web_home_feed_restore: ["default", "extended"],
  /** The footer under infinite pin grids for signed-in people: shown (control) or hidden. */
  web_pin_grid_footer: ["control", "hide_footer"],
  /** The business hub's customisable navbar shortcuts: off (control) or on. */
  web_business_navigation: ["off", "on"],
} as const satisfies Record<string, readonly [string, ...string[]]>;

export type ExperimentName = keyof typeof EXPERIMENTS;

/**
 * Holdouts (spec 001 §9): one per half-year (the first half of 2023, the second half of 2023,
 * the first half of 2024). Each holds back HOLDOUT_PERCENT of people, drawn by account id like a
 * group, independently per holdout. An experiment that shipped in a half names that half's
 * holdout; a person in it is not eligible: they keep the control (first) group, so the holdout
 * measures the half's shipped changes together against people who never got them.
 */
export const HOLDOUTS = ["holdout_2023_h1", "holdout_2023_h2", "holdout_2024_h1"] as const;
type HoldoutName = (typeof HOLDOUTS)[number];
const HOLDOUT_PERCENT = 5;

/** The holdout each experiment answers to: the half it shipped in. */
const EXPERIMENT_HOLDOUT: Record<ExperimentName, HoldoutName> = {
  web_home_feed_restore: "holdout_2024_h1",
  web_pin_grid_footer: "holdout_2024_h1",
  // Shipped after the last half the spec names a holdout for: the newest holdout keeps it honest.
  web_business_navigation: "holdout_2024_h1",
};

/** Whether an account is held out by this holdout (deterministic: the same answer everywhere). */
export function inHoldout(holdout: HoldoutName, userId: number | string): boolean {
  return bucketOf(`${holdout}:${userId}`) % 100 < HOLDOUT_PERCENT;
}

/** Whether a signed-in person may be drawn into an experiment's groups (not in its holdout). */
export function isEligible(experiment: ExperimentName, userId: number | string | null | undefined): boolean {
  if (userId === null || userId === undefined || String(userId) === "") return false;
  return !inHoldout(EXPERIMENT_HOLDOUT[experiment], userId);
}

export const HOME_FEED_RESTORE_EXPERIMENT = "web_home_feed_restore" satisfies ExperimentName;
export const PIN_GRID_FOOTER_EXPERIMENT = "web_pin_grid_footer" satisfies ExperimentName;

/** FNV-1a (32 bits): spreads "name:unit" evenly over buckets; not a secret, only a coin. */
export function bucketOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  // Final avalanche (murmur3's fmix32): FNV's low bits alone follow the last characters.
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/** Every experiment's group for a signed-in person (by account id; control when held out); none for anyone else. */
export function assignExperiments(userId: number | string | null | undefined): Record<ExperimentName, string> | Record<string, never> {
  if (userId === null || userId === undefined || String(userId) === "") return {};
  const groups = {} as Record<ExperimentName, string>;
  for (const [name, options] of Object.entries(EXPERIMENTS) as Array<[ExperimentName, readonly string[]]>) {
    // Held out: the control group, whatever the draw.
    groups[name] = isEligible(name, userId) ? options[bucketOf(`${name}:${userId}`) % options.length]! : options[0]!;
  }
  return groups;
}
