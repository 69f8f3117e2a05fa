import { describe, expect, it } from "vitest";
import { feedbackDataSchema, isEmptyFeedback } from "./feedback.ts";

describe("feedback", () => {
  it.each(["", " ", "\n\t  "])("%j counts as empty", (text) => {
    expect(isEmptyFeedback(text)).toBe(true);
  });

  it("keeps the text trimmed, with where it came from", () => {
    expect(feedbackDataSchema.parse({ verbatim_text: "  Nice  ", action_from: "settings" })).toEqual({ verbatim_text: "Nice", action_from: "settings", page: "" });
  });

  it("refuses blank or overlong text and unknown fields", () => {
    expect(feedbackDataSchema.safeParse({ verbatim_text: "   " }).success).toBe(false);
    expect(feedbackDataSchema.safeParse({ verbatim_text: "x".repeat(2001) }).success).toBe(false);
    expect(feedbackDataSchema.safeParse({ verbatim_text: "ok", mood: "great" }).success).toBe(false);
  });
});
