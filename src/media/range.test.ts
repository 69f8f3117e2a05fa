import { describe, expect, it } from "vitest";
import { parseRange } from "./range.ts";

describe("parseRange on a 1000-byte object", () => {
  it.each([
    ["bytes=0-99", { offset: 0, length: 100 }],
    ["bytes=100-", { offset: 100, length: 900 }],
    ["bytes=-100", { offset: 900, length: 100 }],
    ["bytes=-5000", { offset: 0, length: 1000 }],
    ["bytes=990-5000", { offset: 990, length: 10 }],
    ["bytes=999-999", { offset: 999, length: 1 }],
    ["BYTES=0-0", { offset: 0, length: 1 }],
    ["bytes=0-9, 20-29", { offset: 0, length: 10 }],
  ])("%s → %j", (header, expected) => {
    expect(parseRange(header, 1000)).toEqual(expected);
  });

  it.each(["bytes=1000-", "bytes=5000-6000", "bytes=-0"])("%s is unsatisfiable", (header) => {
    expect(parseRange(header, 1000)).toBe("unsatisfiable");
  });

  it.each(["bytes = 0-0", "items=0-9", "bytes=", "bytes=-", "bytes=9-0", "bytes=abc", "bytes=0-9999999999999999"])("%s is ignored", (header) => {
    expect(parseRange(header, 1000)).toBeNull();
  });

  it("nothing is satisfiable in an empty object", () => {
    expect(parseRange("bytes=0-", 0)).toBe("unsatisfiable");
    expect(parseRange("bytes=-10", 0)).toBe("unsatisfiable");
  });
});
