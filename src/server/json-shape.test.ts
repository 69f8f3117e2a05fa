import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, jsonShapeProblem } from "./json-shape.ts";

const nested = (levels: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
};

describe("jsonShapeProblem", () => {
  it.each([
    ["a scalar", "1"],
    ["an ordinary object", '{"options":{"id":"1","constructor":"x","prototype":[1,2]}}'],
    ["a key that only looks like one", '{"__proto__x":1,"_proto_":2}'],
  ])("passes %s", (_name, text) => {
    expect(jsonShapeProblem(JSON.parse(text))).toBeNull();
  });

  it.each([
    ["at the root", '{"__proto__":{"admin":true}}', ["__proto__"]],
    ["in a nested object", '{"options":{"a":{"__proto__":1}}}', ["options", "a", "__proto__"]],
    ["in an array's object", '{"events":[{},{"aux":{"__proto__":null}}]}', ["events", "1", "aux", "__proto__"]],
  ])("names a __proto__ key %s", (_name, text, path) => {
    expect(jsonShapeProblem(JSON.parse(text))).toEqual({ path, reason: "validation.unknownKey" });
  });

  it(`allows ${MAX_JSON_DEPTH} levels and refuses one more, naming where`, () => {
    expect(jsonShapeProblem(nested(MAX_JSON_DEPTH))).toBeNull();
    expect(jsonShapeProblem(nested(MAX_JSON_DEPTH + 1))).toEqual({ path: Array(MAX_JSON_DEPTH).fill("a"), reason: "validation.tooDeep" });
  });

  it("walks a value nested far beyond the stack's reach", () => {
    const text = "[".repeat(200_000) + "]".repeat(200_000);
    expect(jsonShapeProblem(JSON.parse(text))?.reason).toBe("validation.tooDeep");
  });
});
