import { describe, expect, it } from "vitest";
import { quickSaveTarget, SAVE_BEHAVIOR } from "./save-behavior.ts";

describe("quickSaveTarget", () => {
  it.each([
    [SAVE_BEHAVIOR.chooseBoard, null],
    [SAVE_BEHAVIOR.profile, "profile"],
    [2, null],
    [-1, null],
  ] as const)("save_behavior %i → %s", (value, target) => {
    expect(quickSaveTarget(value)).toBe(target);
  });
});
