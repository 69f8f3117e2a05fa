import { describe, expect, it } from "vitest";
import { closestTerms, correctedWords } from "./typo.ts";

describe("closest vocabulary terms", () => {
  it("keeps terms within edit distance 2 (the word itself aside), nearest first, ties in vocabulary order", () => {
    const vocabulary = ["psata", "pasta", "pizza", "patas", "plata"].map((term) => ({ term }));
    expect(closestTerms("psata", vocabulary)).toEqual([
      { term: "plata", distance: 1 },
      { term: "pasta", distance: 2 },
      { term: "patas", distance: 2 },
    ]);
  });

  it("looks at five at most", () => {
    const vocabulary = ["bat", "cat", "eat", "fat", "hat", "mat", "rat"].map((term) => ({ term }));
    expect(closestTerms("oat", vocabulary).map((candidate) => candidate.term)).toEqual(["bat", "cat", "eat", "fat", "hat"]);
  });
});

describe("corrected words", () => {
  it("swaps a word for its candidate with the most visible pins", () => {
    const closest = [[{ term: "pasta", distance: 1 }, { term: "pastry", distance: 2 }], []];
    expect(correctedWords(["pastw", "salad"], closest, new Map([["pasta", 5], ["pastry", 9]]), 0)).toEqual(["pastry", "salad"]);
  });

  it("breaks a tie by the nearer candidate, then the alphabetically first", () => {
    const nearer = [[{ term: "pastry", distance: 2 }, { term: "pasta", distance: 1 }]];
    expect(correctedWords(["pastw"], nearer, new Map([["pasta", 7], ["pastry", 7]]), 0)).toEqual(["pasta"]);
    const same = [[{ term: "pesta", distance: 2 }, { term: "pasta", distance: 2 }]];
    expect(correctedWords(["psata"], same, new Map([["pasta", 7], ["pesta", 7]]), 0)).toEqual(["pasta"]);
  });

  it("changes nothing unless a candidate has more visible pins than the query found", () => {
    const closest = [[{ term: "pasta", distance: 1 }]];
    expect(correctedWords(["pastw"], closest, new Map([["pasta", 3]]), 3)).toBeNull();
    expect(correctedWords(["pastw"], closest, new Map(), 0)).toBeNull();
    expect(correctedWords(["pastw"], closest, new Map([["pasta", 4]]), 3)).toEqual(["pasta"]);
  });
});
