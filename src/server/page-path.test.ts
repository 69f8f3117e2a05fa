import { describe, expect, it } from "vitest";
import { isDecodablePath } from "./page-path.ts";

describe("isDecodablePath", () => {
  it.each(["/", "/pin/101/", "/search/pins/", "/caf%C3%A9/", "/%E2%9C%93/", "/a%20b/", "/%2541/", "/%" + "25".repeat(9) + "41/"])("reads %s", (path) => {
    expect(isDecodablePath(path)).toBe(true);
  });

  it.each([
    ["an invalid byte", "/%FF/"],
    ["an escape inside a page path", "/pin/%FF/"],
    ["a truncated UTF-8 sequence", "/%E0%A4%A/"],
    ["a lone percent sign", "/pin/%/"],
    ["an encoded surrogate", "/%ED%A0%80/"],
    ["a character encoded eleven times over", "/pin/%" + "25".repeat(10) + "41/"],
  ])("refuses %s", (_name, path) => {
    expect(isDecodablePath(path)).toBe(false);
  });
});
