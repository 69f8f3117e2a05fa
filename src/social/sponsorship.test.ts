// Spec 001 §4 "Pin sponsorship" and §6.
import { describe, expect, it } from "vitest";
import { maySponsorshipAct, parseStoredSponsorship, sponsorshipReducer, type SponsorshipAction, type StoredSponsorship } from "./sponsorship.ts";

const pending: StoredSponsorship = { creatorId: "3", sponsorId: "2", status: 0 };

describe("sponsorshipReducer", () => {
  it.each<[SponsorshipAction, StoredSponsorship | null]>([
    ["approve", { creatorId: "3", sponsorId: "2", status: 1 }],
    ["decline", { creatorId: "3", sponsorId: null, status: 2 }],
    ["delete_sponsor", { creatorId: "3", sponsorId: null, status: 3 }],
    ["delete_creator", null],
  ])("%s", (action, after) => {
    expect(sponsorshipReducer(pending, action)).toEqual(after);
  });
  it("no sponsorship stays none", () => {
    expect(sponsorshipReducer(null, "approve")).toBeNull();
  });
});

describe("maySponsorshipAct: the creator or the sponsor only", () => {
  it.each<[string | null, StoredSponsorship | null, boolean]>([
    ["3", pending, true],
    ["2", pending, true],
    ["5", pending, false],
    [null, pending, false],
    ["2", { ...pending, sponsorId: null, status: 2 }, false],
    ["3", null, false],
  ])("viewer %s", (viewer, state, allowed) => {
    expect(maySponsorshipAct(state, viewer)).toBe(allowed);
  });
});

describe("parseStoredSponsorship", () => {
  it.each<[string | null, StoredSponsorship | null]>([
    ['{"creatorId":"3","sponsorId":"2","status":1}', { creatorId: "3", sponsorId: "2", status: 1 }],
    ['{"creatorId":"3","sponsorId":null,"status":2}', { creatorId: "3", sponsorId: null, status: 2 }],
    ['{"creatorId":"3","sponsorId":"2","status":"approved"}', null],
    ["not json", null],
    [null, null],
  ])("%s", (text, parsed) => {
    expect(parseStoredSponsorship(text)).toEqual(parsed);
  });
});
