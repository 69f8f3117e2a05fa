import { describe, expect, it } from "vitest";
import { cropBox, isAllowedRatio, nearestAllowedRatio } from "./aspect-ratio.ts";

describe("which shapes a pin and a story take (spec 001 §5, within 1%)", () => {
  it.each([
    [1000, 1500, "pin", true],
    [1080, 1620, "pin", true],
    [1081, 1620, "pin", true],
    [600, 800, "pin", true],
    [1200, 1200, "pin", true],
    [1209, 1200, "pin", true],
    [1213, 1200, "pin", false],
    [1080, 1350, "pin", false],
    [1920, 1080, "pin", false],
    [1080, 1920, "pin", false],
    [1080, 1920, "story", true],
    [1000, 1500, "story", false],
    [1200, 1200, "story", false],
    [720, 1281, "story", true],
  ] as const)("%d×%d as a %s: %s", (width, height, kind, expected) => {
    expect(isAllowedRatio(width, height, kind)).toBe(expected);
  });
});

describe("the nearest allowed ratio, offered as the crop", () => {
  it.each([
    [1080, 1350, "pin", "3:4"],
    [1920, 1080, "pin", "1:1"],
    [1080, 1920, "pin", "2:3"],
    [1000, 1500, "pin", "2:3"],
    [1000, 1400, "pin", "3:4"],
    [1000, 1300, "pin", "3:4"],
    [1000, 1100, "pin", "1:1"],
    [100, 1000, "pin", "2:3"],
    [4000, 3000, "pin", "1:1"],
    [1920, 1080, "story", "9:16"],
    [1000, 1000, "story", "9:16"],
  ] as const)("%d×%d as a %s is %s", (width, height, kind, expected) => {
    expect(nearestAllowedRatio(width, height, kind)).toBe(expected);
  });

  it("refuses a shape with no area", () => {
    expect(() => nearestAllowedRatio(0, 100, "pin")).toThrow(RangeError);
    expect(() => isAllowedRatio(100, Number.NaN, "story")).toThrow(RangeError);
  });
});

describe("the centred crop box of a ratio", () => {
  it.each([
    [1920, 1080, "1:1", 1080, 1080],
    [1920, 1080, "9:16", 608, 1080],
    [1080, 1920, "2:3", 1080, 1620],
    [1080, 1920, "9:16", 1080, 1920],
    [1000, 1000, "2:3", 667, 1000],
    [1000, 1000, "3:4", 750, 1000],
    [300, 450, "2:3", 300, 450],
    [1, 1000, "1:1", 1, 1],
    [1000, 1, "9:16", 1, 1],
  ] as const)("%d×%d to %s is %d×%d", (width, height, ratio, boxWidth, boxHeight) => {
    expect(cropBox(width, height, ratio)).toEqual({ width: boxWidth, height: boxHeight });
  });
});
