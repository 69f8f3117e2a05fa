import { describe, expect, it } from "vitest";
import { takeResumedComment } from "./resume.ts";

describe("takeResumedComment", () => {
  it("takes a comment intent for this pin once, from the event or the window copy", () => {
    const holder: { pinloomPendingIntent?: { kind: "save" | "comment"; pinId: string } | null; pinloomResumedComment?: string } = {
      pinloomPendingIntent: { kind: "comment", pinId: "5" },
    };
    expect(takeResumedComment("5", null, holder)).toBe(true);
    expect(holder.pinloomPendingIntent).toBeNull();
    expect(takeResumedComment("5", { kind: "comment", pinId: "5" }, holder)).toBe(false);
  });

  it.each([
    { name: "a save intent", intent: { kind: "save" as const, pinId: "5" } },
    { name: "another pin's comment", intent: { kind: "comment" as const, pinId: "6" } },
    { name: "nothing", intent: null },
  ])("leaves $name alone", ({ intent }) => {
    const holder = { pinloomPendingIntent: intent };
    expect(takeResumedComment("5", null, holder)).toBe(false);
    expect(holder.pinloomPendingIntent).toEqual(intent);
  });
});
