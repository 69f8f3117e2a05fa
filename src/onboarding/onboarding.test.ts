import { describe, expect, it } from "vitest";
import { canMove, isFinished, nextState, onboardingUpdateSchema, stateOf } from "./onboarding.ts";

describe("onboarding steps", () => {
  it("starts at welcome and goes welcome, interests, creators, locale, done", () => {
    expect(nextState("welcome")).toBe("interests");
    expect(nextState("interests")).toBe("creators");
    expect(nextState("creators")).toBe("locale");
    expect(nextState("locale")).toBe("done");
  });

  it("reads stored values, treating anything unknown as finished", () => {
    expect(stateOf("creators")).toBe("creators");
    expect(stateOf("skipped")).toBe("skipped");
    expect(stateOf("done")).toBe("done");
    expect(stateOf("nonsense")).toBe("done");
    expect(stateOf(null)).toBe("done");
    expect(isFinished("skipped")).toBe(true);
    expect(isFinished("welcome")).toBe(false);
  });

  it("moves one step forward, back to any earlier step, or to skipped; done only from the last step", () => {
    expect(canMove("welcome", "interests")).toBe(true);
    expect(canMove("welcome", "creators")).toBe(false);
    expect(canMove("creators", "welcome")).toBe(true);
    expect(canMove("creators", "creators")).toBe(true);
    expect(canMove("interests", "skipped")).toBe(true);
    expect(canMove("interests", "done")).toBe(false);
    expect(canMove("locale", "done")).toBe(true);
  });

  it("keeps a finished onboarding finished", () => {
    expect(canMove("done", "welcome")).toBe(false);
    expect(canMove("skipped", "interests")).toBe(false);
    expect(canMove("done", "skipped")).toBe(false);
    expect(canMove("done", "done")).toBe(true);
  });

  it("accepts only known steps and two-letter country codes", () => {
    expect(onboardingUpdateSchema.safeParse({ step: "interests" }).success).toBe(true);
    expect(onboardingUpdateSchema.safeParse({ step: "finale" }).success).toBe(false);
    expect(onboardingUpdateSchema.safeParse({ step: "done", country: "fr" }).success).toBe(false);
    expect(onboardingUpdateSchema.safeParse({ step: "done", country: "FR", locale: "fr" }).success).toBe(true);
    expect(onboardingUpdateSchema.safeParse({ step: "done", extra: 1 }).success).toBe(false);
  });
});
