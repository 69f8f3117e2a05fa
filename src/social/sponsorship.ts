// Pin sponsorship (spec 001 §4 "Pin sponsorship", §6): approving sets status 1 and keeps the
// sponsor; declining sets 2 and clears the sponsor; deleting the sponsor sets 3 and clears it;
// deleting the creator removes the sponsorship. Only the creator or the sponsor may act. One
// pure transition, used by the server (the stored JSON) and the close-up island alike.
import { z } from "zod";

export const SPONSORSHIP_ACTIONS = ["approve", "decline", "delete_sponsor", "delete_creator"] as const;
export type SponsorshipAction = (typeof SPONSORSHIP_ACTIONS)[number];

/** 0 pending (as created), 1 approved, 2 declined, 3 sponsor deleted. */
const SPONSORSHIP_STATUS = { pending: 0, approved: 1, declined: 2, sponsorDeleted: 3 } as const;
export type SponsorshipStatus = (typeof SPONSORSHIP_STATUS)[keyof typeof SPONSORSHIP_STATUS];

/** The stored shape (pins.sponsorship JSON): ids as decimal strings. */
const storedSponsorshipSchema = z.object({
  creatorId: z.string().regex(/^\d{1,18}$/),
  sponsorId: z.string().regex(/^\d{1,18}$/).nullable(),
  status: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]),
});
export type StoredSponsorship = z.infer<typeof storedSponsorshipSchema>;

export function sponsorshipReducer(state: StoredSponsorship | null, action: SponsorshipAction): StoredSponsorship | null {
  if (state === null) return null;
  switch (action) {
    case "approve":
      return { ...state, status: SPONSORSHIP_STATUS.approved };
    case "decline":
      return { ...state, sponsorId: null, status: SPONSORSHIP_STATUS.declined };
    case "delete_sponsor":
      return { ...state, sponsorId: null, status: SPONSORSHIP_STATUS.sponsorDeleted };
    case "delete_creator":
      return null;
  }
}

/** Actions work for the creator or the sponsor (spec 001 §6). */
export function maySponsorshipAct(state: StoredSponsorship | null, viewerId: string | null): boolean {
  if (state === null || viewerId === null) return false;
  return viewerId === state.creatorId || viewerId === state.sponsorId;
}

/** Reads the pins.sponsorship column; anything unreadable is no sponsorship. */
export function parseStoredSponsorship(text: string | null): StoredSponsorship | null {
  if (!text) return null;
  try {
    const parsed = storedSponsorshipSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The answer's shape (people as objects), moved by the same rule as the stored one. */
export interface SponsorshipView<Person> {
  creator: Person;
  sponsor: Person | null;
  status: SponsorshipStatus;
}

export function sponsorshipViewReducer<Person extends { id: string }>(view: SponsorshipView<Person> | null, action: SponsorshipAction): SponsorshipView<Person> | null {
  if (view === null) return null;
  const next = sponsorshipReducer({ creatorId: view.creator.id, sponsorId: view.sponsor?.id ?? null, status: view.status }, action);
  return next === null ? null : { creator: view.creator, sponsor: next.sponsorId === null ? null : view.sponsor, status: next.status };
}
