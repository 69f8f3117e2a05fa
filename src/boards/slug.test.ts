import { describe, expect, it } from "vitest";
import { boardSlugSchema } from "./board.ts";
import { MAX_SLUG_SUFFIX, slugify, uniqueSlug } from "./slug.ts";

describe("slugify", () => {
  it.each([
    ["Weeknight dinners", "weeknight-dinners"],
    ["  Spring   bakes 2 ", "spring-bakes-2"],
    ["Café ideas!", "cafe-ideas"],
    ["Rock & roll -- vibes", "rock-roll-vibes"],
    ["وصفات العائلة", "وصفات-العائلة"],
    ["🎉🎉", "board"],
    ["---", "board"],
    ["snake_case name", "snake_case-name"],
  ])("%j → %j", (name, slug) => {
    expect(slugify(name)).toBe(slug);
    expect(boardSlugSchema.safeParse(slug).success).toBe(true);
  });
  it("uses the given fallback (sections)", () => {
    expect(slugify("!!!", "section")).toBe("section");
  });
  it("stays a valid URL segment for a 50-character name", () => {
    const slug = slugify("a ".repeat(25));
    expect(boardSlugSchema.safeParse(slug).success).toBe(true);
  });
});

describe("uniqueSlug", () => {
  it.each([
    ["free", "pasta", [], "pasta"],
    ["taken once", "pasta", ["pasta"], "pasta-2"],
    ["taken with a gap", "pasta", ["pasta", "pasta-2", "pasta-4"], "pasta-3"],
    ["compared ignoring case", "pasta", ["PASTA"], "pasta-2"],
    ["other slugs do not matter", "pasta", ["soups", "pasta-2"], "pasta"],
  ] as const)("%s", (_name, base, taken, expected) => {
    expect(uniqueSlug(base, taken)).toBe(expected);
  });
  it("ends with the fallback suffix past the bound", () => {
    const taken = ["x", ...Array.from({ length: MAX_SLUG_SUFFIX }, (_, i) => `x-${i + 2}`)];
    expect(uniqueSlug("x", taken, 777)).toBe("x-777");
  });
});
