import { afterEach, describe, expect, it } from "vitest";
import { takeResumedSave } from "./saving.client.ts";

type Holder = { pinloomPendingIntent?: unknown; pinloomResumedSave?: string };
const holder = globalThis as unknown as Holder;
(globalThis as { window?: unknown }).window ??= globalThis;

afterEach(() => {
  delete holder.pinloomPendingIntent;
  delete holder.pinloomResumedSave;
});

describe("resuming a signed-out save (unauthSavePinId)", () => {
  it("takes the intent boot.ts stored on window, once", () => {
    holder.pinloomPendingIntent = { kind: "save", pinId: "7" };
    expect(takeResumedSave("7")).toBe(true);
    expect(takeResumedSave("7")).toBe(false);
  });

  it("takes the announced intent even before boot.ts has stored it (the event comes first), and not again from window", () => {
    expect(takeResumedSave("7", { kind: "save", pinId: "7" })).toBe(true);
    holder.pinloomPendingIntent = { kind: "save", pinId: "7" };
    expect(takeResumedSave("7")).toBe(false);
  });

  it.each([
    ["another pin's save", { kind: "save", pinId: "8" }],
    ["a comment intent", { kind: "comment", pinId: "7" }],
  ] as const)("leaves %s alone", (_name, intent) => {
    holder.pinloomPendingIntent = intent;
    expect(takeResumedSave("7")).toBe(false);
    expect(takeResumedSave("7", intent)).toBe(false);
  });
});
