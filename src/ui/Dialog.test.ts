import { describe, expect, it } from "vitest";
import { onBackdrop } from "./Dialog.tsx";

describe("onBackdrop", () => {
  const box = { left: 100, top: 50, right: 500, bottom: 450 };

  it.each([
    ["left of the box", 99, 200, true],
    ["right of it", 501, 200, true],
    ["above it", 300, 49, true],
    ["below it", 300, 451, true],
    ["inside it", 300, 200, false],
    ["on its edge", 100, 50, false],
  ])("a click %s: %s", (_where, x, y, outside) => {
    expect(onBackdrop(box, x, y)).toBe(outside);
  });
});
