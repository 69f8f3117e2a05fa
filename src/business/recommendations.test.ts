import { describe, expect, it } from "vitest";
import { effectiveState, mayMove, NOTIFICATION_STATES, PERSON_STATES, recommendationQuery, recommendationUpdate, TRANSITIONS } from "./recommendations.ts";

// Where a person may take a recommendation from each state, written out by hand:
// columns READ, ACCEPTED, REJECTED, DISMISSED, SNOOZED, MUTED, UNREAD; Y may, . may not.
const TABLE: Record<string, string> = {
  UNREAD: "YYYYYY.",
  READ: ".YYYYY.",
  SNOOZED: "YYYY.Y.",
  ACCEPTED: "...Y...",
  MUTED: "......Y",
  REJECTED: ".......",
  DISMISSED: ".......",
  INVALID: ".......",
  PMP_REPORTED: "YYYYYY.",
  EMAILED: "YYYYYY.",
  BULK_DOWNLOADED: "YYYYYY.",
  FILTERED: "YYYYYY.",
  PUSHED: "YYYYYY.",
};

describe("recommendation states", () => {
  it("are the spec's thirteen, each with a row of moves", () => {
    expect(NOTIFICATION_STATES).toEqual(["UNREAD", "READ", "ACCEPTED", "REJECTED", "DISMISSED", "INVALID", "MUTED", "SNOOZED", "PMP_REPORTED", "EMAILED", "BULK_DOWNLOADED", "FILTERED", "PUSHED"]);
    expect(Object.keys(TRANSITIONS).sort()).toEqual(Object.keys(TABLE).sort());
  });

  it("move as the table says", () => {
    const columns = ["READ", "ACCEPTED", "REJECTED", "DISMISSED", "SNOOZED", "MUTED", "UNREAD"] as const;
    expect([...PERSON_STATES].sort()).toEqual([...columns].sort());
    for (const from of NOTIFICATION_STATES) {
      expect([from, columns.map((to) => (mayMove(from, to) ? "Y" : ".")).join("")]).toEqual([from, TABLE[from]]);
    }
  });

  it("turn an ended snooze back to unread, and leave other states alone", () => {
    expect(effectiveState("SNOOZED", 2_000, 1_000)).toBe("SNOOZED");
    expect(effectiveState("SNOOZED", 1_000, 1_000)).toBe("UNREAD");
    expect(effectiveState("SNOOZED", null, 1_000)).toBe("UNREAD");
    expect(effectiveState("DISMISSED", null, 1_000)).toBe("DISMISSED");
  });

  it("read a recipient only as an advertiser with a numeric id", () => {
    expect(recommendationQuery.safeParse({ recipient_id: "12", recipient_type: "ADVERTISER" }).success).toBe(true);
    expect(recommendationQuery.safeParse({ recipient_id: "12", recipient_type: "USER" }).success).toBe(false);
    expect(recommendationQuery.safeParse({ recipient_id: "x", recipient_type: "ADVERTISER" }).success).toBe(false);
  });

  it("take only a person's states, and a snooze length only with a snooze", () => {
    expect(recommendationUpdate.safeParse({ state: "SNOOZED", snooze_days: 3 }).success).toBe(true);
    expect(recommendationUpdate.safeParse({ state: "DISMISSED", snooze_days: 3 }).success).toBe(false);
    expect(recommendationUpdate.safeParse({ state: "INVALID" }).success).toBe(false);
    expect(recommendationUpdate.safeParse({ state: "EMAILED" }).success).toBe(false);
    expect(recommendationUpdate.safeParse({ state: "SNOOZED", snooze_days: 31 }).success).toBe(false);
  });
});
