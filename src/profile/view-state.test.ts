import { describe, expect, it } from "vitest";
import { DEFAULT_PROFILE_VIEW, VIEW_STATE_SCRIPT, boardSortFromQuery, parseProfileView, viewClasses } from "./view-state.ts";

describe("parseProfileView", () => {
  it("reads a stored view", () => {
    const view = { boardPinDensity: "compact", boardSortOrder: "alphabetical", profileBoardView: "list", profilePinDensity: "comfy" };
    expect(parseProfileView(JSON.stringify(view))).toEqual(view);
  });
  it.each([null, "", "not json", "null", "[]", "42"])("falls back to the default view for %j", (text) => {
    expect(parseProfileView(text)).toEqual(DEFAULT_PROFILE_VIEW);
  });
  it("replaces each unknown field alone", () => {
    expect(parseProfileView(JSON.stringify({ boardPinDensity: "huge", boardSortOrder: "newest" }))).toEqual({ ...DEFAULT_PROFILE_VIEW, boardSortOrder: "newest" });
  });
});

describe("boardSortFromQuery", () => {
  it.each([
    ["alphabetical", "alphabetical"],
    ["newest", "newest"],
    ["last_saved", "last_saved"],
    [null, "last_saved"],
    ["custom", "last_saved"],
    ["ALPHABETICAL", "last_saved"],
  ] as const)("%j → %s", (value, sort) => {
    expect(boardSortFromQuery(value)).toBe(sort);
  });
});

describe("the inline script sets the same classes as the store", () => {
  function run(stored: string | null): string[] {
    const classes = new Set<string>();
    const fake = {
      localStorage: { getItem: () => stored },
      document: { documentElement: { classList: { add: (...names: string[]) => names.forEach((name) => classes.add(name)) } } },
    };
    new Function("localStorage", "document", VIEW_STATE_SCRIPT)(fake.localStorage, fake.document);
    return [...classes].sort();
  }
  it.each([
    null,
    JSON.stringify({ boardPinDensity: "compact", profilePinDensity: "comfy", profileBoardView: "list" }),
    JSON.stringify({ boardPinDensity: "<script>", profileBoardView: 3 }),
  ])("for %j", (stored) => {
    expect(run(stored)).toEqual(viewClasses(parseProfileView(stored)).sort());
  });
  it("stays small (it is inline on every profile and board page)", () => {
    expect(new TextEncoder().encode(VIEW_STATE_SCRIPT).length).toBeLessThan(600);
  });
});
