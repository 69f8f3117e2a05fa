// Spec 001 §4 "Reactions, follows and did-it": per-type counts, floor 0, zero removes the type,
// reaction_by_me the type on increment and 0 on decrement.
import { describe, expect, it } from "vitest";
import { adjustCount, countOf, reactionReducer, type ReactionEvent, type ReactionState } from "./reactions.ts";

const state = (counts: Array<[number, number]>, byMe: number): ReactionState => ({
  reaction_counts: counts.map(([reaction_type, count]) => ({ reaction_type, count })),
  reaction_by_me: byMe,
});

describe("reactionReducer", () => {
  it.each<[string, ReactionState, ReactionEvent, ReactionState]>([
    ["a first like adds type 1 with count 1 and sets reaction_by_me 1", state([], 0), { type: "react", reaction_type: 1 }, state([[1, 1]], 1)],
    ["a like on a liked type adds 1", state([[1, 4]], 0), { type: "react", reaction_type: 1 }, state([[1, 5]], 1)],
    ["taking a like back subtracts 1 and sets reaction_by_me 0", state([[1, 5]], 1), { type: "unreact" }, state([[1, 4]], 0)],
    ["taking back the last of a type removes the type", state([[1, 1], [5, 2]], 1), { type: "unreact" }, state([[5, 2]], 0)],
    ["changing type moves one count from the old type to the new", state([[1, 3], [5, 2]], 5), { type: "react", reaction_type: 1 }, state([[1, 4], [5, 1]], 1)],
    ["changing type from a count of 1 removes the old type", state([[5, 1]], 5), { type: "react", reaction_type: 1 }, state([[1, 1]], 1)],
    ["reacting again with the same type changes nothing", state([[1, 3]], 1), { type: "react", reaction_type: 1 }, state([[1, 3]], 1)],
    ["unreacting with no reaction changes nothing", state([[1, 3]], 0), { type: "unreact" }, state([[1, 3]], 0)],
    ["the floor is 0: a stale count of 0 never goes negative", state([], 1), { type: "unreact" }, state([], 0)],
  ])("%s", (_, before, event, after) => {
    expect(reactionReducer(before, event)).toEqual(after);
  });
});

describe("adjustCount", () => {
  it.each<[Array<[number, number]>, number, number, Array<[number, number]>]>([
    [[], 3, 1, [[3, 1]]],
    [[[3, 1]], 3, -1, []],
    [[[3, 1]], 3, -5, []],
    [[[2, 1], [7, 2]], 5, 1, [[2, 1], [5, 1], [7, 2]]],
  ])("%j type %i by %i", (counts, type, delta, expected) => {
    const toCounts = (rows: Array<[number, number]>) => rows.map(([reaction_type, count]) => ({ reaction_type, count }));
    expect(adjustCount(toCounts(counts), type, delta)).toEqual(toCounts(expected));
  });

  it("countOf reads 0 for a missing type", () => {
    expect(countOf(state([[1, 2]], 0), 4)).toBe(0);
    expect(countOf(state([[1, 2]], 0), 1)).toBe(2);
  });
});
