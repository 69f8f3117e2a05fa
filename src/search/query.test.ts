import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { MAX_OFFSET, decodeBookmark, editDistance, encodeBookmark, fingerprint, matchExpression, tokensOf } from "./query.ts";
import { blendedScore } from "./ranking.ts";
import { isSensitiveQuery } from "./sensitive.ts";

describe("tokensOf and matchExpression", () => {
  it.each<[string, string[], string | null]>([
    ["Red  Shoes", ["red", "shoes"], '"red" AND "shoes"'],
    ['say "hi" OR NOT x*', ["say", "hi", "or", "not", "x"], '"say" AND "hi" AND "or" AND "not" AND "x"'],
    ["crème-brûlée", ["crème", "brûlée"], '"crème" AND "brûlée"'],
    ["!!!", [], null],
    ["مرحبا بكم", ["مرحبا", "بكم"], '"مرحبا" AND "بكم"'],
  ])("%j", (text, tokens, expression) => {
    expect(tokensOf(text)).toEqual(tokens);
    expect(matchExpression(tokensOf(text))).toBe(expression);
  });

  it("marks the last token as a prefix and scopes to a column", () => {
    expect(matchExpression(["red", "sh"], { prefixLast: true, column: "title" })).toBe('title : ("red" AND "sh"*)');
  });

  it("never lets a token break out of its quotes", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (text) => {
        const expression = matchExpression(tokensOf(text));
        if (expression === null) return;
        // Every token is one quoted string: stripping them leaves only the AND joins.
        expect(expression.replace(/"(?:[^"]|"")*"/g, "").replace(/ AND /g, "")).toBe("");
      }),
    );
  });
});

describe("editDistance", () => {
  it.each([
    ["marigols", "marigold", 1],
    ["pasta", "pasta", 0],
    ["pasta", "psata", 2],
    ["kitten", "sitting", 3],
    ["a", "abcd", 3],
  ])("%s → %s", (a, b, expected) => {
    expect(Math.min(editDistance(a, b, 2), 3)).toBe(Math.min(expected, 3));
  });
});

describe("bookmarks", () => {
  it("round-trip and refuse anything else", () => {
    const bookmark = { key: fingerprint("query"), offset: 25, anchor: 1_763_000_000_000 };
    expect(decodeBookmark(encodeBookmark(bookmark))).toEqual(bookmark);
    for (const bad of ["", "abc", "!!", encodeBookmark({ ...bookmark, offset: MAX_OFFSET + 1 }), btoa("s1.zz.1.1")]) expect(decodeBookmark(bad)).toBeNull();
  });

  it("fingerprints differ for different searches", () => {
    expect(fingerprint("a")).not.toBe(fingerprint("b"));
    expect(fingerprint("a")).toMatch(/^[0-9a-f]{8}$/);
  });
});

describe("blendedScore", () => {
  it("prefers relevance, then saves, then recency", () => {
    expect(blendedScore(-10, 0, 0)).toBeGreaterThan(blendedScore(-4, 0, 0));
    expect(blendedScore(-4, 100, 0)).toBeGreaterThan(blendedScore(-4, 0, 0));
    expect(blendedScore(-4, 0, 0)).toBeGreaterThan(blendedScore(-4, 0, 90 * 86_400_000));
    // 1,000 saves do not lift a description-only match over a title match.
    expect(blendedScore(-10, 0, 0)).toBeGreaterThan(blendedScore(-4, 1000, 0));
  });

  it("doubles a pin whose title holds every query word, ahead of a better-saved partial title match", () => {
    expect(blendedScore(-4, 0, 0, true)).toBeCloseTo(2 * blendedScore(-4, 0, 0), 10);
    // harissa chicken: both words in the title with 1 save beat chicken-in-title + harissa-in-description with 4.
    expect(blendedScore(-8, 1, 0, true)).toBeGreaterThan(blendedScore(-10, 4, 0, false));
  });
});

describe("isSensitiveQuery", () => {
  it.each([
    ["I want to die", true],
    ["self-harm help", true],
    ["Suicidal thoughts", true],
    ["suicide squad poster", true],
    ["die cut stickers", false],
    ["selfie harmony", false],
    ["pasta", false],
  ])("%s → %s", (query, expected) => {
    expect(isSensitiveQuery(query)).toBe(expected);
  });
});
