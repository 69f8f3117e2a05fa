// A campaign's, ad group's or ad's status (spec 002: ACTIVE, PAUSED, ENDED, REJECTED) and the
// moves between them. ENDED and REJECTED are final: an ended campaign is kept for its results,
// never restarted (a new one is made instead), and a rejected one stays rejected. A campaign
// whose end date has passed reads as ENDED whatever its stored status says.

export const CAMPAIGN_STATUSES = ["ACTIVE", "PAUSED", "ENDED", "REJECTED"] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** What a person may do to a running campaign from the hub. Rejection is the review's, not theirs. */
export const STATUS_ACTIONS = ["pause", "resume", "end"] as const;
export type StatusAction = (typeof STATUS_ACTIONS)[number];

/** The one transition table: from a status, by an action, to a status. Missing: not allowed. */
const TRANSITIONS: Record<CampaignStatus, Partial<Record<StatusAction | "reject", CampaignStatus>>> = {
  ACTIVE: { pause: "PAUSED", end: "ENDED", reject: "REJECTED" },
  PAUSED: { resume: "ACTIVE", end: "ENDED", reject: "REJECTED" },
  ENDED: {},
  REJECTED: {},
};

/** The status an action leads to, or null when the table does not allow it. */
export function nextStatus(from: CampaignStatus, action: StatusAction | "reject"): CampaignStatus | null {
  return TRANSITIONS[from][action] ?? null;
}

/** The statuses an action may start from, for a write's own WHERE. */
export function statusesAllowing(action: StatusAction | "reject"): CampaignStatus[] {
  return CAMPAIGN_STATUSES.filter((status) => nextStatus(status, action) !== null);
}

export const isFinal = (status: CampaignStatus) => STATUS_ACTIONS.every((action) => nextStatus(status, action) === null);

/** The status as people and feeds read it: a running campaign past its end date has ENDED. */
export function effectiveStatus(status: CampaignStatus, endAt: number | null, now: number): CampaignStatus {
  if ((status === "ACTIVE" || status === "PAUSED") && endAt !== null && endAt <= now) return "ENDED";
  return status;
}

/** The actions the hub offers for a status as it reads now. */
export const actionsFor = (status: CampaignStatus) => STATUS_ACTIONS.filter((action) => nextStatus(status, action) !== null);
