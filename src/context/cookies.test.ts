import { describe, expect, it } from "vitest";
import { cookieValue } from "./cookies.ts";

describe("cookieValue", () => {
  it.each([
    ["a=1; pinloom_locale=fr; b=2", "fr"],
    ["pinloom_locale=es%5F419", "es_419"],
    ["pinloom_locale=%E0%A4", "%E0%A4"], // does not decode: returned as sent, never thrown
    ["x_pinloom_locale=de", null],
    ["", null],
  ] as const)("%s → %s", (header, expected) => {
    expect(cookieValue(header, "pinloom_locale")).toBe(expected);
  });
});
