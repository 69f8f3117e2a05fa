import { describe, expect, it } from "vitest";
import { boardSlugSchema } from "./board.ts";

describe("boardSlugSchema", () => {
  it.each(["weeknight-dinners", "spring-bakes-2", "café-ideas", "وصفات-العائلة"])("accepts %s", (slug) => {
    expect(boardSlugSchema.safeParse(slug).success).toBe(true);
  });
  it.each(["", "a/b", "a b", "x".repeat(121), "a?b", "..", "%2e"])("refuses %j", (slug) => {
    expect(boardSlugSchema.safeParse(slug).success).toBe(false);
  });
});
