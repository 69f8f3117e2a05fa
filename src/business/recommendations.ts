// Advertiser recommendations (spec 002 §3 "Recommendation notification", "Notification states";
// §4 "Recommendation loading"): which kinds exist, the thirteen states, which a person may set
// and from where, and what a snooze becomes once it ends. Plain values, shared by the server
// and the advertiser page.
import { z } from "zod";

export const NOTIFICATION_STATES = ["UNREAD", "READ", "ACCEPTED", "REJECTED", "DISMISSED", "INVALID", "MUTED", "SNOOZED", "PMP_REPORTED", "EMAILED", "BULK_DOWNLOADED", "FILTERED", "PUSHED"] as const;
export type NotificationState = (typeof NOTIFICATION_STATES)[number];

/** What an ad account's own data can recommend, in the order they are shown. */
export const RECOMMENDATION_KINDS = ["ADD_BILLING", "INSTALL_TAG", "CREATE_CAMPAIGN", "RAISE_BUDGET"] as const;
export type RecommendationKind = (typeof RECOMMENDATION_KINDS)[number];

/** The states a person sets; the rest (INVALID, PMP_REPORTED, EMAILED, …) only the system sets. */
export const PERSON_STATES = ["READ", "ACCEPTED", "REJECTED", "DISMISSED", "SNOOZED", "MUTED", "UNREAD"] as const;
export type PersonState = (typeof PERSON_STATES)[number];

/**
 * Where a person may take a recommendation from each state. Open ones (unread, read, snoozed and
 * the system's delivery marks) may be read, accepted, rejected, dismissed, snoozed or muted; an
 * accepted one may still be dismissed; a muted one may be unmuted (back to UNREAD). Rejected and
 * dismissed are final, and an INVALID one (its condition no longer holds) takes no answer.
 */
const OPEN: readonly PersonState[] = ["READ", "ACCEPTED", "REJECTED", "DISMISSED", "SNOOZED", "MUTED"];
export const TRANSITIONS: Record<NotificationState, readonly PersonState[]> = {
  UNREAD: OPEN,
  READ: OPEN.filter((state) => state !== "READ"),
  SNOOZED: OPEN.filter((state) => state !== "SNOOZED"),
  PMP_REPORTED: OPEN,
  EMAILED: OPEN,
  BULK_DOWNLOADED: OPEN,
  FILTERED: OPEN,
  PUSHED: OPEN,
  ACCEPTED: ["DISMISSED"],
  MUTED: ["UNREAD"],
  REJECTED: [],
  DISMISSED: [],
  INVALID: [],
};

export const mayMove = (from: NotificationState, to: PersonState) => TRANSITIONS[from].includes(to);

/** A snooze lasts this long unless the person says otherwise (1 to 30 days). */
export const DEFAULT_SNOOZE_DAYS = 7;
const MAX_SNOOZE_DAYS = 30;
const DAY_MS = 86_400_000;

export const snoozedUntil = (now: number, days: number) => now + days * DAY_MS;

/** The state as shown now: a snooze that has ended is unread again. */
export function effectiveState(state: NotificationState, snoozedUntilMs: number | null, now: number): NotificationState {
  return state === "SNOOZED" && (snoozedUntilMs === null || snoozedUntilMs <= now) ? "UNREAD" : state;
}

/** The states the advertiser page shows as open (the others are answered, hidden or gone). */
export const SHOWN_STATES: readonly NotificationState[] = ["UNREAD", "READ", "ACCEPTED", "PMP_REPORTED", "EMAILED", "BULK_DOWNLOADED", "FILTERED", "PUSHED"];

export const recommendationQuery = z.strictObject({
  recipient_id: z.string().regex(/^\d{1,18}$/),
  recipient_type: z.literal("ADVERTISER"),
});

export const recommendationUpdate = z
  .strictObject({
    state: z.enum(PERSON_STATES),
    snooze_days: z.number().int().min(1).max(MAX_SNOOZE_DAYS).optional(),
  })
  .refine((body) => body.snooze_days === undefined || body.state === "SNOOZED", { message: "business:recommendations.snoozeOnly", path: ["snooze_days"] });

/** One recommendation as the call answers it. */
export interface Recommendation {
  id: string;
  type: "RECOMMENDATIONS";
  kind: RecommendationKind;
  state: NotificationState;
  recipient_id: string;
  recipient_type: "ADVERTISER";
  details: Record<string, string | number>;
  snoozed_until: number | null;
  updated_time: number | null;
}
