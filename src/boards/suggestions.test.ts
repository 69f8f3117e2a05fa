import { describe, expect, it } from "vitest";
import { boardTitleSuggestions, categoryTitle, fitTitle, MAX_SUGGESTIONS, MAX_TITLE } from "./suggestions.ts";

describe("categoryTitle", () => {
  it.each([
    ["food_drinks", "Food & drinks"],
    ["diy_crafts", "DIY & crafts"],
    ["travel", "Travel"],
    ["womens_fashion", "Women's & fashion"],
    ["", ""],
  ])("%j → %j", (category, title) => {
    expect(categoryTitle(category)).toBe(title);
  });
});

describe("fitTitle", () => {
  it("keeps short titles and cuts long ones at a word", () => {
    expect(fitTitle("  Lemon   pancakes ")).toBe("Lemon pancakes");
    const long = "The very best lemon ricotta pancakes you will ever make on a Sunday";
    const fitted = fitTitle(long);
    expect(fitted.length).toBeLessThanOrEqual(MAX_TITLE);
    expect(long.startsWith(fitted)).toBe(true);
    expect(fitted.endsWith(" ")).toBe(false);
  });
  it("cuts a single overlong word hard", () => {
    expect(fitTitle("x".repeat(80))).toBe("x".repeat(MAX_TITLE));
  });
});

describe("boardTitleSuggestions", () => {
  it.each<[string, { title: string; category: string | null; boardNames: string[] }, string[]]>([
    ["category, last words, first word, title", { title: "Lemon ricotta pancakes", category: "food_drinks", boardNames: [] }, ["Food & drinks", "Pancakes", "Ricotta pancakes", "Lemon", "Lemon ricotta pancakes"]],
    ["skips the viewer's boards, ignoring case", { title: "Lemon ricotta pancakes", category: "food_drinks", boardNames: ["PANCAKES", "food & drinks"] }, ["Ricotta pancakes", "Lemon", "Lemon ricotta pancakes"]],
    ["drops stop words and numbers", { title: "How to paint a room in 3 days", category: null, boardNames: [] }, ["Days", "Room days", "Paint", "How to paint a room in 3 days"]],
    ["no duplicates", { title: "Travel", category: "travel", boardNames: [] }, ["Travel"]],
    ["nothing to suggest", { title: "", category: null, boardNames: [] }, []],
  ])("%s", (_name, input, expected) => {
    expect(boardTitleSuggestions(input)).toEqual(expected);
  });
  it("never more than five, each at most 50 characters", () => {
    const titles = boardTitleSuggestions({ title: "word ".repeat(40), category: "home_decor", boardNames: [] });
    expect(titles.length).toBeLessThanOrEqual(MAX_SUGGESTIONS);
    for (const title of titles) expect(title.length).toBeLessThanOrEqual(MAX_TITLE);
  });
});
