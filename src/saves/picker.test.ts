import { describe, expect, it } from "vitest";
import { BOARD_NAME_MAX, boardNameProblem, boundFilter, matchesFilter, moveActive, nextBoardName, pickerRows, type NavigationKey, type PickerData } from "./picker.ts";

const board = (id: string, name: string) => ({ id, name, privacy: "public" as const, url: `/demo/${id}/` });
const data: PickerData = {
  recent: [board("3", "Family recipes we share"), board("2", "Weeknight dinners")],
  boards: [board("1", "Surprise party for Maya"), board("2", "Weeknight dinners"), board("3", "Family recipes we share"), board("4", "Holiday gift list")],
  sections: { "2": [{ id: "50003", title: "Pasta" }, { id: "50004", title: "Soups" }], "1": [{ id: "50001", title: "Decorations" }] },
  saved: [{ boardId: "4", sectionId: null, title: "Holiday gift list", type: "board", url: "/demo/4/", localPinId: "7" }, { boardId: "2", sectionId: "50004", title: "Weeknight dinners", type: "board", url: "/demo/2/", localPinId: "7" }],
};
const keys = (filter: string, expanded: string[] = []) => pickerRows(data, filter, new Set(expanded)).map((row) => row.key);

describe("picker rows", () => {
  it("lists recent boards first, then every other board once", () => {
    expect(keys("")).toEqual(["recent-3", "recent-2", "all-1", "all-4"]);
  });

  it.each<[string, string[]]>([
    ["dinner", ["recent-2"]],
    ["  WEEKNIGHT ", ["recent-2"]],
    ["surprise", ["all-1"]],
    ["i", ["recent-3", "recent-2", "all-1", "all-4"]],
    ["zzz", []],
    ["", ["recent-3", "recent-2", "all-1", "all-4"]],
  ])("the filter %j keeps %j (case-insensitive, trimmed)", (filter, expected) => {
    expect(keys(filter)).toEqual(expected);
  });

  it("ignores accents when filtering", () => {
    expect(matchesFilter("Crème brûlée", "creme brulee")).toBe(true);
    expect(matchesFilter("Crème brûlée", "tarte")).toBe(false);
  });

  it("an expanded board is followed by its sections; a board without sections never expands", () => {
    expect(keys("", ["2", "4"])).toEqual(["recent-3", "recent-2", "section-50003", "section-50004", "all-1", "all-4"]);
    const rows = pickerRows(data, "", new Set(["2"]));
    expect(rows[1]).toMatchObject({ kind: "board", sectionCount: 2, expanded: true });
    expect(rows.find((row) => row.key === "all-4")).toMatchObject({ sectionCount: 0, expanded: false });
  });

  it("marks where the pin is already saved: the board itself, or the section", () => {
    const rows = pickerRows(data, "", new Set(["2"]));
    const saved = Object.fromEntries(rows.map((row) => [row.key, row.saved]));
    expect(saved).toEqual({ "recent-3": false, "recent-2": false, "section-50003": false, "section-50004": true, "all-1": false, "all-4": true });
  });

  it("bounds the filter to 50 characters", () => {
    expect([...boundFilter("x".repeat(80))]).toHaveLength(50);
    expect(boundFilter("short")).toBe("short");
  });
});

describe("keyboard movement through the list", () => {
  it.each<[number, NavigationKey, number, number]>([
    [-1, "ArrowDown", 5, 0],
    [-1, "ArrowUp", 5, 4],
    [0, "ArrowDown", 5, 1],
    [4, "ArrowDown", 5, 4],
    [0, "ArrowUp", 5, 0],
    [3, "Home", 5, 0],
    [1, "End", 5, 4],
    [2, "ArrowDown", 0, -1],
  ])("from %i, %s in %i rows goes to %i", (active, key, count, expected) => {
    expect(moveActive(active, key, count)).toBe(expected);
  });
});

describe("create board title (spec 000 §9: at most 50 characters)", () => {
  it("the limit is 50", () => expect(BOARD_NAME_MAX).toBe(50));

  it.each<[string, number, number, boolean]>([
    ["49 characters", 49, 49, false],
    ["50 characters", 50, 50, false],
    ["the 51st character", 51, 50, true],
    ["a 60-character paste", 60, 50, true],
  ])("%s: kept %i, refused %s", (_name, typed, kept, refused) => {
    const result = nextBoardName("b".repeat(typed));
    expect([...result.value]).toHaveLength(kept);
    expect(result.refused).toBe(refused);
  });

  it("counts characters, not UTF-16 units: 50 emoji fit", () => {
    expect(nextBoardName("🎉".repeat(50)).refused).toBe(false);
    expect(nextBoardName("🎉".repeat(51)).value).toBe("🎉".repeat(50));
  });

  it.each<[string, string, ReturnType<typeof boardNameProblem>]>([
    ["empty", "", "empty"],
    ["spaces only", "   ", "empty"],
    ["a name", "Places to go", null],
    ["50 after trimming", `  ${"a".repeat(50)}  `, null],
    ["51", "a".repeat(51), "tooLong"],
  ])("%s → %s", (_name, value, problem) => {
    expect(boardNameProblem(value)).toBe(problem);
  });
});
