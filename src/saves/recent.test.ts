import { describe, expect, it } from "vitest";
import type { BoardRef } from "./saves.ts";
import { RECENT_BOARDS_MAX, forgetRecent, nextProfilePinsStale, rememberRecent, type StaleEvent } from "./recent.ts";

const board = (id: number) => ({ id: String(id), name: `Board ${id}`, privacy: "public" as const, url: `/u/b${id}/` });
const ids = (list: { id: string }[]) => list.map((item) => item.id);

describe("recent boards (spec 001 §3 User.recent_boards)", () => {
  it.each<[string, number[], number, string[]]>([
    ["the first save starts the list", [], 1, ["1"]],
    ["the newest goes first", [1, 2], 3, ["3", "1", "2"]],
    ["a board saved to again moves up, not repeated", [1, 2, 3], 3, ["3", "1", "2"]],
    ["the list keeps at most 5: the oldest falls off", [1, 2, 3, 4, 5], 6, ["6", "1", "2", "3", "4"]],
    ["moving up inside a full list drops nothing", [1, 2, 3, 4, 5], 5, ["5", "1", "2", "3", "4"]],
  ])("%s", (_name, before, saved, after) => {
    expect(ids(rememberRecent(before.map(board), board(saved)))).toEqual(after);
  });

  it("the bound is 5, the picker's recent list size", () => {
    expect(RECENT_BOARDS_MAX).toBe(5);
    let list: BoardRef[] = [];
    for (let id = 1; id <= 20; id++) list = rememberRecent(list, board(id));
    expect(ids(list)).toEqual(["20", "19", "18", "17", "16"]);
  });

  it("a board that is gone leaves the list", () => {
    expect(ids(forgetRecent([1, 2, 3].map(board), "2"))).toEqual(["1", "3"]);
  });
});

describe("profile pins stale (spec 001 §4 Session)", () => {
  it.each<[StaleEvent, boolean, boolean]>([
    ["deleteBoard", false, true],
    ["deleteSection", false, true],
    ["deletePin", false, true],
    ["createBoard", false, true],
    ["createPin", false, true],
    ["createRepin", false, true],
    ["createRepin", true, true],
    ["refresh", true, false],
    ["refresh", false, false],
  ])("%s when stale=%s leaves it %s", (event, before, after) => {
    expect(nextProfilePinsStale(before, event)).toBe(after);
  });
});
