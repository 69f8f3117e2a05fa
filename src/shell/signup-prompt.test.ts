import { describe, expect, it } from "vitest";
import { PROMPT_SCROLL_VIEWPORTS, shouldPrompt, withNext } from "./signup-prompt.ts";

describe("sign-up prompt", () => {
  const at = (scrollY: number, extra: Partial<Parameters<typeof shouldPrompt>[0]> = {}) =>
    shouldPrompt({ scrollY, viewportHeight: 800, acted: false, dismissed: false, ...extra });

  it.each([
    ["at the top of the page", 0, {}, false],
    ["just short of the threshold", 800 * PROMPT_SCROLL_VIEWPORTS - 1, {}, false],
    ["at the threshold", 800 * PROMPT_SCROLL_VIEWPORTS, {}, true],
    ["after trying to act, even at the top", 0, { acted: true }, true],
    ["never once dismissed, however far", 10_000, { dismissed: true }, false],
    ["never once dismissed, even after acting", 0, { acted: true, dismissed: true }, false],
    ["not before the viewport is known", 500, { viewportHeight: 0 }, false],
  ] as const)("%s", (_name, scrollY, extra, expected) => {
    expect(at(scrollY, extra)).toBe(expected);
  });

  it("returns the visitor to the page they were reading", () => {
    expect(withNext("/signup/", { pathname: "/pin/5/", search: "?utm_campaign=x" })).toBe("/signup/?next=%2Fpin%2F5%2F%3Futm_campaign%3Dx");
    expect(withNext("/login/", { pathname: "/", search: "" })).toBe("/login/");
  });
});
