import { describe, expect, it } from "vitest";
import {
  cellImageAlt,
  END_MARKER,
  canPage,
  emptyList,
  fetchFailed,
  fetchStarted,
  fetchSucceeded,
  navigate,
  scrollOnNavigation,
  restoreGroupOf,
  shouldRestoreHomeFeed,
  showPinGridFooter,
} from "./feed.ts";

describe("resource lists", () => {
  it("a fetch sets the fetching flag and clears the last error", () => {
    const failed = fetchFailed(fetchStarted(emptyList<number>()), 404).list;
    expect(failed.error).toEqual({ status: 404 });
    const again = fetchStarted(failed);
    expect(again.fetching).toBe(true);
    expect(again.error).toBeNull();
  });

  it("paging appends, refresh replaces", () => {
    const first = fetchSucceeded(fetchStarted(emptyList<number>()), { items: [1, 2], bookmark: "b1" }, true);
    const second = fetchSucceeded(fetchStarted(first), { items: [3], bookmark: "b2" }, false);
    expect(second.items).toEqual([1, 2, 3]);
    const refreshed = fetchSucceeded(fetchStarted(second), { items: [9], bookmark: "b9" }, true);
    expect(refreshed.items).toEqual([9]);
    expect(refreshed.fetching).toBe(false);
  });

  it("is at its end when the bookmark is the end marker", () => {
    const list = fetchSucceeded(emptyList<number>(), { items: [1], bookmark: END_MARKER }, true);
    expect(list.ended).toBe(true);
    expect(canPage(list)).toBe(false);
    expect(canPage(fetchSucceeded(emptyList<number>(), { items: [1], bookmark: "more" }, true))).toBe(true);
  });

  it.each([
    [null, true],
    [500, true],
    [503, true],
    [404, false],
    [429, false],
  ])("first load failing with %s refetches: %s", (status, refetch) => {
    expect(fetchFailed(fetchStarted(emptyList()), status).refetch).toBe(refetch);
  });

  it("refetches only once, and never after the first load", () => {
    const once = fetchFailed(fetchStarted(emptyList()), 500);
    expect(fetchFailed(fetchStarted(once.list), 500).refetch).toBe(false);
    const loaded = fetchSucceeded(emptyList<number>(), { items: [1], bookmark: "b" }, true);
    expect(fetchFailed(fetchStarted(loaded), 500).refetch).toBe(false);
  });

  it("does not page while fetching or after an error", () => {
    const loaded = fetchSucceeded(emptyList<number>(), { items: [1], bookmark: "b" }, true);
    expect(canPage(fetchStarted(loaded))).toBe(false);
    expect(canPage(fetchFailed(fetchStarted(loaded), 404).list)).toBe(false);
  });
});

describe("home feed restore window (spec 000 §9)", () => {
  const now = 1_000_000;
  it.each([
    [now - 59_999, "default", true],
    [now - 60_000, "default", false],
    [now - 149_999, "extended", true],
    [now - 150_000, "extended", false],
    [now - 90_000, "extended", true],
    [now - 90_000, "default", false],
    [null, "default", false],
    [now + 5, "default", false],
  ] as const)("last visit %s in group %s → %s", (last, group, restore) => {
    expect(shouldRestoreHomeFeed(last, now, group)).toBe(restore);
  });

  it.each([
    [{ web_home_feed_restore: "extended" }, "extended"],
    [{ web_home_feed_restore: "default" }, "default"],
    [{ web_home_feed_restore: "something new" }, "default"],
    [{ web_home_feed_restore: 1 }, "default"],
    [{}, "default"],
  ] as const)("experiments %j keep the feed for the %s window", (experiments, group) => {
    expect(restoreGroupOf(experiments)).toBe(group);
  });
});

describe("navigation", () => {
  it.each([
    ["pop", "restore"],
    ["push", "top"],
    ["replace", "top"],
  ] as const)("%s → %s", (kind, scroll) => expect(scrollOnNavigation(kind)).toBe(scroll));

  it("tracks previous, current and forward entries; a pop goes forward when the next entry matches", () => {
    let history = { previous: [] as string[], current: "/" as string | null, forward: [] as string[] };
    history = navigate(history, "push", "/pin/1/");
    history = navigate(history, "push", "/pin/2/");
    expect(history).toEqual({ previous: ["/", "/pin/1/"], current: "/pin/2/", forward: [] });
    history = navigate(history, "pop", "/pin/1/");
    expect(history).toEqual({ previous: ["/"], current: "/pin/1/", forward: ["/pin/2/"] });
    history = navigate(history, "pop", "/pin/2/");
    expect(history).toEqual({ previous: ["/", "/pin/1/"], current: "/pin/2/", forward: [] });
    history = navigate(history, "replace", "/pin/3/");
    expect(history).toEqual({ previous: ["/", "/pin/1/"], current: "/pin/3/", forward: [] });
  });
});

describe("pin-grid footer (spec 000 §4)", () => {
  it.each([
    [false, false, true],
    [false, true, true],
    [true, false, true],
    [true, true, false],
  ])("signed in %s, in the experiment %s → shown %s", (signedIn, experiment, shown) => {
    expect(showPinGridFooter(signedIn, experiment)).toBe(shown);
  });
});

describe("a grid cell's picture", () => {
  it("keeps alt text that says more than the title beside it", () => {
    expect(cellImageAlt("A bowl of orzo with burrata on a blue plate", "Creamy tomato orzo")).toBe("A bowl of orzo with burrata on a blue plate");
  });

  it("says nothing when it would only repeat the title, or has nothing of its own", () => {
    expect(cellImageAlt("Creamy tomato orzo", "Creamy tomato orzo")).toBe("");
    expect(cellImageAlt(" Creamy tomato orzo ", "Creamy tomato orzo")).toBe("");
    expect(cellImageAlt(null, "Creamy tomato orzo")).toBe("");
  });

  it("keeps its alt text on a pin with no title", () => {
    expect(cellImageAlt("Balloons over a table", null)).toBe("Balloons over a table");
  });
});

