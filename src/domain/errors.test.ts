import { describe, expect, it } from "vitest";
import { z } from "zod";
import { zodProblems } from "./errors.ts";

const schema = z.strictObject({
  id: z.string().regex(/^\d+$/),
  title: z.string().max(50),
  count: z.number().int().min(1),
  scope: z.enum(["pins", "boards"]),
});

describe("zodProblems names the field and the reason", () => {
  it.each([
    [{ title: "x", count: 1, scope: "pins" }, "options.id", "validation.required"],
    [{ id: "a1", title: "x", count: 1, scope: "pins" }, "options.id", "validation.invalidFormat"],
    [{ id: "1", title: "x".repeat(51), count: 1, scope: "pins" }, "options.title", "validation.tooLong"],
    [{ id: "1", title: "x", count: 0, scope: "pins" }, "options.count", "validation.tooSmall"],
    [{ id: "1", title: "x", count: "2", scope: "pins" }, "options.count", "validation.invalidType"],
    [{ id: "1", title: "x", count: 1, scope: "maps" }, "options.scope", "validation.invalidValue"],
    [{ id: "1", title: "x", count: 1, scope: "pins", extra: true }, "options.extra", "validation.unknownKey"],
  ])("%j → %s %s", (input, field, reason) => {
    const result = schema.safeParse(input);
    expect(result.success).toBe(false);
    const [problem] = zodProblems(result.error!, "options", input);
    expect(problem).toMatchObject({ field, reason });
  });
});

describe("zodProblems keeps a feature's own message key from a custom rule", () => {
  const rule = (message: string, values?: Record<string, number>) =>
    z.string().superRefine((_, ctx) => ctx.addIssue({ code: "custom", message, ...(values ? { params: { values } } : {}) }));
  it.each<[string, Record<string, number> | undefined, { field: string; reason: string; values?: Record<string, number> }]>([
    ["comments:validation.empty", undefined, { field: "text", reason: "comments:validation.empty" }],
    ["comments:validation.tooLong", { maximum: 500 }, { field: "text", reason: "comments:validation.tooLong", values: { maximum: 500 } }],
    ["free words, not a key", undefined, { field: "text", reason: "validation.invalid" }],
  ])("%s", (message, values, expected) => {
    const result = z.object({ text: rule(message, values) }).safeParse({ text: "x" });
    expect(zodProblems(result.error!, "", { text: "x" })).toEqual([expected]);
  });
});
