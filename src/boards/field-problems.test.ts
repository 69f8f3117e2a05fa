import { describe, expect, it } from "vitest";
import { ApiCallError } from "~/api/api.client.ts";
import { fieldProblems, parseFieldProblems } from "./field-problems.ts";

describe("400 field problems", () => {
  it.each([
    ["name: Board names can be up to 50 characters", { name: "Board names can be up to 50 characters" }],
    ["name: too long; description: too long", { name: "too long", description: "too long" }],
    ["", {}],
    [null, {}],
  ] as const)("%j", (detail, expected) => {
    expect(parseFieldProblems(detail)).toEqual(expected);
  });

  it("a 400 without a form field puts the message on the name", () => {
    const error = new ApiCallError(400, { status: "failure", code: 1, message: "Invalid parameters", message_detail: "board_id: bad" });
    expect(fieldProblems(error)).toEqual({ name: "Invalid parameters" });
  });
});
