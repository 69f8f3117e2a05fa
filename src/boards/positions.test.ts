import { describe, expect, it } from "vitest";
import { between, firstPosition, frontPosition, MAX_LEADING_STORIES, positionAfter, type FeedHead } from "./positions.ts";

const pin = (position: number): FeedHead => ({ position, isStory: false });
const story = (position: number): FeedHead => ({ position, isStory: true });

/** Where the new item lands among the head: its index after sorting by position. */
function landing(head: FeedHead[]): number {
  const position = frontPosition(head);
  return head.filter((item) => item.position < position).length;
}

describe("frontPosition: a new save goes first, after at most 2 leading story items (spec 001 §9)", () => {
  it("is the spec's constant", () => {
    expect(MAX_LEADING_STORIES).toBe(2);
  });
  it.each<[string, FeedHead[], number]>([
    ["an empty feed", [], 0],
    ["a feed of pins", [pin(1), pin(2), pin(3)], 0],
    ["one leading story", [story(1), pin(2), pin(3)], 1],
    ["two leading stories", [story(1), story(2), pin(3)], 2],
    ["three leading stories: still after two", [story(1), story(2), story(3)], 2],
    ["a story after a pin does not count", [pin(1), story(2), story(3)], 0],
    ["a single story", [story(5)], 1],
    ["two stories and nothing else", [story(1), story(2)], 2],
    ["negative positions", [story(-7), pin(-6.5)], 1],
  ])("%s → index %i", (_name, head, index) => {
    expect(landing(head)).toBe(index);
  });
  it("goes strictly before the first pin", () => {
    expect(frontPosition([pin(4)])).toBe(3);
  });
  it("falls back to the story's own position when its neighbours are too close to split", () => {
    expect(frontPosition([story(1), pin(1)])).toBe(1);
  });
});

describe("between and positionAfter", () => {
  it.each<[number, number | null, number | null]>([
    [1, 2, 1.5],
    [1, null, 2],
    [-3, -1, -2],
    [1, 1, null],
    [1, 1 + 1e-7, null],
  ])("between(%d, %s) = %s", (before, after, expected) => {
    expect(between(before, after)).toBe(expected);
  });
  it.each<[number | null, number | null, number | null, number | null]>([
    [null, null, 5, 4],
    [null, null, null, 0],
    [2, 3, 1, 2.5],
    [7, null, 1, 8],
    [2, 2, 1, null],
  ])("after %s (next %s, first %s) → %s", (anchor, next, first, expected) => {
    expect(positionAfter(anchor, next, first)).toBe(expected);
  });
  it("firstPosition", () => {
    expect(firstPosition(null)).toBe(0);
    expect(firstPosition(-2)).toBe(-3);
  });
});
