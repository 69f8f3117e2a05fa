import { describe, expect, it } from "vitest";
import { buildOptions, MAX_OPTIONS, nextActive } from "./combobox.ts";

describe("buildOptions", () => {
  it("lists recent, then queries not already recent, then boards and people", () => {
    const options = buildOptions(
      ["Cake pops"],
      [
        { type: "user", id: "3", username: "ann", fullName: "Ann", imageUrl: null, url: "/ann/" },
        { type: "query", query: "cake pops" },
        { type: "query", query: "cake stand" },
        { type: "board", id: "9", name: "Cakes", url: "/ann/cakes/", owner: { username: "ann" } },
      ],
    );
    expect(options.map((option) => option.kind)).toEqual(["recent", "query", "board", "user"]);
    expect(options[1]).toMatchObject({ query: "cake stand" });
  });
  it("drops suggestions whose URL is not a same-origin path", () => {
    const options = buildOptions([], [
      { type: "board", id: "1", name: "x", url: "https://evil.example/", owner: { username: "a" } },
      { type: "user", id: "2", username: "b", fullName: "B", imageUrl: null, url: "//evil.example/" },
    ]);
    expect(options).toEqual([]);
  });
  it("is bounded", () => {
    const items = Array.from({ length: 30 }, (_, i) => ({ type: "query" as const, query: `q${i}` }));
    expect(buildOptions(["a", "b"], items)).toHaveLength(MAX_OPTIONS);
  });
});

describe("nextActive", () => {
  it.each([
    [-1, 3, 1, 0],
    [-1, 3, -1, 2],
    [0, 3, 1, 1],
    [2, 3, 1, 0],
    [0, 3, -1, 2],
    [0, 0, 1, -1],
  ] as const)("from %i of %i by %i → %i", (current, count, step, expected) => expect(nextActive(current, count, step)).toBe(expected));
});
