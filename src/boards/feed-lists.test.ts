import { describe, expect, it } from "vitest";
import { END_MARKER, emptyList, type ResourceList } from "~/feeds/feed.ts";
import {
  MAX_LEADING_STORIES,
  addSaved,
  addToFront,
  archiveBoard,
  canReorder,
  copyPins,
  editPinPlace,
  feedKey,
  listFetchFailed,
  listFetchStarted,
  listFetchSucceeded,
  moveAll,
  movePins,
  neighbourAfter,
  removeEverywhere,
  reorder,
  replaceItem,
  unarchiveBoard,
  type FeedItem,
  type FeedKey,
  type FeedLists,
} from "./feed-lists.ts";

const pin = (id: string, story = false): FeedItem => (story ? { id, type: "pin", story } : { id, type: "pin" });
const board = (id: string): FeedItem => ({ id, type: "board" });
const section = (id: string): FeedItem => ({ id, type: "section" });
const list = (items: FeedItem[]): ResourceList<FeedItem> => ({ ...emptyList<FeedItem>(), items, loaded: true, bookmark: END_MARKER, ended: true });
const ids = (lists: FeedLists, key: FeedKey) => lists[key]?.items.map((item) => item.id);

const BOARD_A = feedKey("boardfeed", "10002");
const BOARD_B = feedKey("boardfeed", "10003");
const SECTION_PASTA = feedKey("boardsectionpins", "50003");
const SECTION_SOUPS = feedKey("boardsectionpins", "50004");
const SECTIONS = feedKey("boardsections", "10002");
const PROFILE_BOARDS = feedKey("profileboards", "1");
const ARCHIVED = feedKey("archivedboards", "1");
const BOARDLESS = feedKey("boardlesspins", "1");
const PROFILE_PINS = feedKey("profilepins", "1");

describe("deleting removes from every feed", () => {
  const world: FeedLists = {
    [BOARD_A]: list([pin("100001"), pin("100002")]),
    [SECTION_PASTA]: list([pin("100001")]),
    [PROFILE_PINS]: list([pin("100001"), pin("100009")]),
    [SECTIONS]: list([section("50003"), section("50004")]),
    [PROFILE_BOARDS]: list([board("10002"), board("10003")]),
  };

  it("a pin leaves the board, its section and the profile", () => {
    const next = removeEverywhere(world, "pin", ["100001"]);
    expect(ids(next, BOARD_A)).toEqual(["100002"]);
    expect(ids(next, SECTION_PASTA)).toEqual([]);
    expect(ids(next, PROFILE_PINS)).toEqual(["100009"]);
  });

  it("a board leaves the profile boards, and its own lists go", () => {
    const next = removeEverywhere(world, "board", ["10002"]);
    expect(ids(next, PROFILE_BOARDS)).toEqual(["10003"]);
    expect(next[BOARD_A]).toBeUndefined();
    expect(next[SECTIONS]).toBeUndefined();
    expect(ids(next, PROFILE_PINS)).toEqual(["100001", "100009"]);
  });

  it("a section leaves the section list, and its pin list goes", () => {
    const next = removeEverywhere(world, "section", ["50003"]);
    expect(ids(next, SECTIONS)).toEqual(["50004"]);
    expect(next[SECTION_PASTA]).toBeUndefined();
    expect(ids(next, BOARD_A)).toEqual(["100001", "100002"]);
  });

  it("only the given type is removed (a pin and a board may share an id)", () => {
    const mixed: FeedLists = { [PROFILE_BOARDS]: list([board("7")]), [PROFILE_PINS]: list([pin("7")]) };
    expect(ids(removeEverywhere(mixed, "pin", ["7"]), PROFILE_BOARDS)).toEqual(["7"]);
  });
});

describe("archiving moves boards between profile boards and archived boards", () => {
  const world: FeedLists = { [PROFILE_BOARDS]: list([board("10002"), board("10003")]), [ARCHIVED]: list([board("10009")]) };

  it("archive: off the profile boards, to the front of archived", () => {
    const next = archiveBoard(world, "1", board("10003"));
    expect(ids(next, PROFILE_BOARDS)).toEqual(["10002"]);
    expect(ids(next, ARCHIVED)).toEqual(["10003", "10009"]);
  });

  it("unarchive: off archived, to the front of the profile boards", () => {
    const next = unarchiveBoard(world, "1", board("10009"));
    expect(ids(next, ARCHIVED)).toEqual([]);
    expect(ids(next, PROFILE_BOARDS)).toEqual(["10009", "10002", "10003"]);
  });

  it("archive then unarchive restores membership", () => {
    const next = unarchiveBoard(archiveBoard(world, "1", board("10002")), "1", board("10002"));
    expect(ids(next, PROFILE_BOARDS)?.sort()).toEqual(["10002", "10003"]);
    expect(ids(next, ARCHIVED)).toEqual(["10009"]);
  });
});

describe("moving pins", () => {
  const world: FeedLists = {
    [BOARD_A]: list([pin("1"), pin("2"), pin("3"), pin("4")]),
    [BOARD_B]: list([pin("8"), pin("9")]),
  };

  it.each([
    { name: "one pin", moved: ["3"], source: ["1", "2", "4"], target: ["3", "8", "9"] },
    { name: "two pins keep their order", moved: ["2", "4"], source: ["1", "3"], target: ["2", "4", "8", "9"] },
    { name: "every pin", moved: ["1", "2", "3", "4"], source: [], target: ["1", "2", "3", "4", "8", "9"] },
  ])("$name: removed from the source, at the front of the target", ({ moved, source, target }) => {
    const next = movePins(world, BOARD_A, BOARD_B, moved.map((id) => pin(id)));
    expect(ids(next, BOARD_A)).toEqual(source);
    expect(ids(next, BOARD_B)).toEqual(target);
  });

  it("moving into a section of the same board", () => {
    const next = movePins({ [BOARD_A]: list([pin("1")]), [SECTION_PASTA]: list([pin("5")]) }, SECTION_SOUPS, SECTION_PASTA, [pin("1")]);
    expect(ids(next, SECTION_PASTA)).toEqual(["1", "5"]);
  });

  it("a pin already in the target is not listed twice", () => {
    const next = movePins({ [BOARD_A]: list([pin("1")]), [BOARD_B]: list([pin("9"), pin("1")]) }, BOARD_A, BOARD_B, [pin("1")]);
    expect(ids(next, BOARD_B)).toEqual(["1", "9"]);
  });

  it("move-all leaves only the excluded pins and clears the target", () => {
    const next = moveAll(world, BOARD_A, BOARD_B, ["2", "4"]);
    expect(ids(next, BOARD_A)).toEqual(["2", "4"]);
    expect(next[BOARD_B]).toEqual(emptyList());
  });

  it("move-all with no exclusions empties the source", () => {
    expect(ids(moveAll(world, BOARD_A, BOARD_B, []), BOARD_A)).toEqual([]);
  });

  it("copying leaves the source and fronts the target", () => {
    const next = copyPins(world, BOARD_B, [pin("1"), pin("2")]);
    expect(ids(next, BOARD_A)).toEqual(["1", "2", "3", "4"]);
    expect(ids(next, BOARD_B)).toEqual(["1", "2", "8", "9"]);
  });
});

describe("editing a pin moves it when its board or section changed", () => {
  const world: FeedLists = {
    [BOARD_A]: list([pin("1"), pin("2")]),
    [BOARD_B]: list([pin("9")]),
    [SECTION_PASTA]: list([pin("1")]),
    [SECTION_SOUPS]: list([pin("5")]),
  };

  it.each([
    {
      name: "to another board",
      from: { boardId: "10002", sectionId: "50003" },
      to: { boardId: "10003", sectionId: null },
      expected: { [BOARD_A]: ["2"], [BOARD_B]: ["1", "9"], [SECTION_PASTA]: [], [SECTION_SOUPS]: ["5"] },
    },
    {
      name: "to another section of the same board",
      from: { boardId: "10002", sectionId: "50003" },
      to: { boardId: "10002", sectionId: "50004" },
      expected: { [BOARD_A]: ["1", "2"], [BOARD_B]: ["9"], [SECTION_PASTA]: [], [SECTION_SOUPS]: ["1", "5"] },
    },
    {
      name: "out of its section",
      from: { boardId: "10002", sectionId: "50003" },
      to: { boardId: "10002", sectionId: null },
      expected: { [BOARD_A]: ["1", "2"], [BOARD_B]: ["9"], [SECTION_PASTA]: [], [SECTION_SOUPS]: ["5"] },
    },
    {
      name: "title only (same place)",
      from: { boardId: "10002", sectionId: "50003" },
      to: { boardId: "10002", sectionId: "50003" },
      expected: { [BOARD_A]: ["1", "2"], [BOARD_B]: ["9"], [SECTION_PASTA]: ["1"], [SECTION_SOUPS]: ["5"] },
    },
  ])("$name", ({ from, to, expected }) => {
    const next = editPinPlace(world, pin("1"), from, to);
    for (const [key, want] of Object.entries(expected)) expect(ids(next, key as FeedKey)).toEqual(want);
  });
});

describe("reordering is allowed only for board feed, section pins, sections and profile boards", () => {
  it.each([
    [BOARD_A, true],
    [SECTION_PASTA, true],
    [SECTIONS, true],
    [PROFILE_BOARDS, true],
    [ARCHIVED, false],
    [BOARDLESS, false],
    [PROFILE_PINS, false],
  ] as const)("%s reorderable: %s", (key, allowed) => {
    expect(canReorder(key)).toBe(allowed);
    const world: FeedLists = { [key]: list([pin("1"), pin("2"), pin("3")]) };
    expect(ids(reorder(world, key, "3", null), key)).toEqual(allowed ? ["3", "1", "2"] : ["1", "2", "3"]);
  });

  it.each([
    { item: "1", after: "2", expected: ["2", "1", "3"] },
    { item: "1", after: "3", expected: ["2", "3", "1"] },
    { item: "3", after: "1", expected: ["1", "3", "2"] },
    { item: "2", after: null, expected: ["2", "1", "3"] },
    { item: "2", after: "missing", expected: ["1", "2", "3"] },
    { item: "missing", after: null, expected: ["1", "2", "3"] },
  ])("$item after $after", ({ item, after, expected }) => {
    expect(ids(reorder({ [BOARD_A]: list([pin("1"), pin("2"), pin("3")]) }, BOARD_A, item, after), BOARD_A)).toEqual(expected);
  });

  it.each([
    { index: 0, direction: "up", after: undefined },
    { index: 1, direction: "up", after: null },
    { index: 2, direction: "up", after: "a" },
    { index: 3, direction: "down", after: undefined },
    { index: 1, direction: "down", after: "c" },
    { index: 2, direction: "top", after: null },
    { index: 0, direction: "top", after: undefined },
  ] as const)("move $direction from $index is after $after", ({ index, direction, after }) => {
    expect(neighbourAfter(["a", "b", "c", "d"], index, direction)).toBe(after);
  });
});

describe("a new save goes to the front, after at most 2 leading story items", () => {
  it("the spec's limit is 2", () => expect(MAX_LEADING_STORIES).toBe(2));
  it.each([
    { name: "no stories", before: [pin("1"), pin("2")], expected: ["new", "1", "2"] },
    { name: "one story", before: [pin("s1", true), pin("1")], expected: ["s1", "new", "1"] },
    { name: "two stories", before: [pin("s1", true), pin("s2", true), pin("1")], expected: ["s1", "s2", "new", "1"] },
    { name: "three stories: still after 2", before: [pin("s1", true), pin("s2", true), pin("s3", true)], expected: ["s1", "s2", "new", "s3"] },
    { name: "a story after a plain pin does not count", before: [pin("1"), pin("s1", true)], expected: ["new", "1", "s1"] },
    { name: "empty list", before: [], expected: ["new"] },
  ])("$name", ({ before, expected }) => {
    expect(ids(addSaved({ [BOARD_A]: list(before) }, BOARD_A, pin("new")), BOARD_A)).toEqual(expected);
  });

  it.each([SECTION_PASTA, BOARDLESS])("into %s too", (key) => {
    expect(ids(addSaved({ [key]: list([pin("1")]) }, key, pin("new")), key)).toEqual(["new", "1"]);
  });

  it("saving what is already there moves nothing", () => {
    expect(ids(addSaved({ [BOARD_A]: list([pin("1"), pin("2")]) }, BOARD_A, pin("2")), BOARD_A)).toEqual(["1", "2"]);
  });
});

describe("new sections go to the front", () => {
  it("before the existing sections", () => {
    expect(ids(addToFront({ [SECTIONS]: list([section("50003"), section("50004")]) }, SECTIONS, section("50010")), SECTIONS)).toEqual(["50010", "50003", "50004"]);
  });
  it("a renamed section keeps its place", () => {
    const renamed = { ...section("50004"), title: "Stews" } as FeedItem;
    const next = replaceItem({ [SECTIONS]: list([section("50003"), section("50004")]) }, renamed);
    expect(next[SECTIONS]?.items[1]).toBe(renamed);
  });
});

describe("resource lists per key (src/feeds/feed.ts)", () => {
  it("fetching flag, error cleared on a new fetch, replace on refresh, append on paging, end at the marker", () => {
    let lists: FeedLists = listFetchStarted({}, BOARD_A);
    expect(lists[BOARD_A]?.fetching).toBe(true);
    lists = listFetchFailed(lists, BOARD_A, 404);
    expect(lists[BOARD_A]?.error).toEqual({ status: 404 });
    lists = listFetchStarted(lists, BOARD_A);
    expect(lists[BOARD_A]?.error).toBeNull();
    lists = listFetchSucceeded(lists, BOARD_A, { items: [pin("1")], bookmark: "b1" }, true);
    lists = listFetchSucceeded(lists, BOARD_A, { items: [pin("2")], bookmark: "b2" }, false);
    expect(ids(lists, BOARD_A)).toEqual(["1", "2"]);
    expect(lists[BOARD_A]?.ended).toBe(false);
    lists = listFetchSucceeded(lists, BOARD_A, { items: [pin("9")], bookmark: END_MARKER }, true);
    expect(ids(lists, BOARD_A)).toEqual(["9"]);
    expect(lists[BOARD_A]?.ended).toBe(true);
  });

  it("keys are independent", () => {
    const lists = listFetchStarted({ [BOARD_B]: list([pin("9")]) }, BOARD_A);
    expect(lists[BOARD_B]?.fetching).toBe(false);
  });
});
