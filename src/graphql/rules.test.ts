import { parse, validate } from "graphql";
import { describe, expect, it } from "vitest";
import { executionRules, MAX_DEPTH, maxDepthRule } from "./rules.ts";
import { schema } from "./schema.server.ts";

const errorsOf = (text: string, development: boolean) => validate(schema, parse(text), executionRules(development)).map((error) => error.message);

describe("execution rules", () => {
  const introspection = ["{ __schema { types { name } } }", '{ __type(name: "Pin") { name } }', "query Q { pin(id: \"1\") { __typename id } __schema { queryType { name } } }"];
  it.each(introspection)("introspection %s is refused outside development", (text) => {
    expect(errorsOf(text, false).some((message) => message.includes("introspection"))).toBe(true);
  });
  it.each(introspection)("introspection %s is allowed in development", (text) => {
    expect(errorsOf(text, true)).toEqual([]);
  });
  it("__typename alone is not introspection", () => {
    expect(errorsOf('{ pin(id: "1") { __typename } }', false)).toEqual([]);
  });

  it(`refuses selections deeper than ${MAX_DEPTH}, through fragments too`, () => {
    const deep = "{ a { b { c { d { e { f { g } } } } } } }";
    const rule = maxDepthRule(MAX_DEPTH);
    // The depth rule alone: fields need not exist for it to count them.
    expect(validate(schema, parse(deep), [rule]).map((error) => error.message)).toEqual([`Operation is 7 fields deep; at most ${MAX_DEPTH} are allowed`]);
    const viaFragment = "query Q { a { ...F } } fragment F on X { b { c { d { e { f { g } } } } } }";
    expect(validate(schema, parse(viaFragment), [rule])).toHaveLength(1);
    expect(validate(schema, parse("{ a { b { c { d { e { f } } } } } }"), [rule])).toEqual([]);
  });
});
