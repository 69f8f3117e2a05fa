import { describe, expect, it } from "vitest";
import { BOARD_DESCRIPTION_MAX, BOARD_NAME_MAX, boardProblems, charCount, limitInput, sectionTitleProblem } from "./board-form.ts";

const chars = (n: number) => "a".repeat(n);

describe("board title at most 50, description at most 500 (spec 000 §9)", () => {
  it("the limits are the spec's", () => expect([BOARD_NAME_MAX, BOARD_DESCRIPTION_MAX]).toEqual([50, 500]));

  it.each([
    { name: "", description: "", privacy: "public", problems: { name: "required" } },
    { name: "   ", description: "", privacy: "public", problems: { name: "required" } },
    { name: chars(1), description: "", privacy: "public", problems: {} },
    { name: chars(50), description: "", privacy: "secret", problems: {} },
    { name: chars(51), description: "", privacy: "public", problems: { name: "tooLong" } },
    { name: ` ${chars(50)} `, description: "", privacy: "public", problems: {} },
    { name: "Dinners", description: chars(500), privacy: "protected", problems: {} },
    { name: "Dinners", description: chars(501), privacy: "public", problems: { description: "tooLong" } },
    { name: "Dinners", description: "", privacy: "friends", problems: { privacy: "invalid" } },
  ])("$name.length chars, $description.length description, $privacy", ({ name, description, privacy, problems }) => {
    expect(boardProblems({ name, description, privacy })).toEqual(problems);
  });

  it.each([
    { previous: chars(49), next: chars(50), value: chars(50), refused: false },
    { previous: chars(50), next: chars(51), value: chars(50), refused: true },
    { previous: "", next: chars(60), value: "", refused: true },
    { previous: chars(50), next: chars(49), value: chars(49), refused: false },
  ])("typing to $next.length characters keeps $value.length (refused: $refused)", ({ previous, next, value, refused }) => {
    expect(limitInput(previous, next, BOARD_NAME_MAX)).toEqual({ value, refused });
  });

  it("counts characters, not UTF-16 units: 50 emoji fit", () => {
    const emoji = "🎂".repeat(50);
    expect(charCount(emoji)).toBe(50);
    expect(limitInput("", emoji, BOARD_NAME_MAX).refused).toBe(false);
    expect(limitInput(emoji, `${emoji}🎂`, BOARD_NAME_MAX).refused).toBe(true);
  });

  it.each([
    ["Cake", null],
    ["", "required"],
    [chars(50), null],
    [chars(51), "tooLong"],
  ] as const)("section title %j: %s", (title, problem) => {
    expect(sectionTitleProblem(title)).toBe(problem);
  });
});
