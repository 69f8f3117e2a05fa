import { describe, expect, it } from "vitest";
import { actionsFor, CAMPAIGN_STATUSES, effectiveStatus, isFinal, nextStatus, type CampaignStatus } from "./campaign-status.ts";

// The transition table, written out by hand: from each status, where pause, resume, end and a
// review's reject lead ("-": not allowed). ENDED and REJECTED are final.
const TABLE: Record<CampaignStatus, [pause: string, resume: string, end: string, reject: string]> = {
  ACTIVE: ["PAUSED", "-", "ENDED", "REJECTED"],
  PAUSED: ["-", "ACTIVE", "ENDED", "REJECTED"],
  ENDED: ["-", "-", "-", "-"],
  REJECTED: ["-", "-", "-", "-"],
};

describe("campaign status transitions", () => {
  it("moves as the table says, and nowhere else", () => {
    for (const status of CAMPAIGN_STATUSES) {
      const got = (["pause", "resume", "end", "reject"] as const).map((action) => nextStatus(status, action) ?? "-");
      expect([status, got]).toEqual([status, TABLE[status]]);
    }
  });

  it("keeps ENDED and REJECTED final and offers only the moves allowed", () => {
    expect(CAMPAIGN_STATUSES.filter(isFinal)).toEqual(["ENDED", "REJECTED"]);
    expect([actionsFor("ACTIVE"), actionsFor("PAUSED"), actionsFor("ENDED"), actionsFor("REJECTED")]).toEqual([["pause", "end"], ["resume", "end"], [], []]);
  });

  it("reads a running campaign past its end date as ENDED", () => {
    const now = 1_800_000_000_000;
    expect(effectiveStatus("ACTIVE", now - 1, now)).toBe("ENDED");
    expect(effectiveStatus("PAUSED", now, now)).toBe("ENDED");
    expect(effectiveStatus("ACTIVE", now + 1, now)).toBe("ACTIVE");
    expect(effectiveStatus("ACTIVE", null, now)).toBe("ACTIVE");
    expect(effectiveStatus("REJECTED", now - 1, now)).toBe("REJECTED");
  });
});
