import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_LANDING, isSafeNext, safeNext, withNext } from "./safe-next.ts";

// Thousands of generated cases: bounded by their count, given time enough on a loaded machine.
const PROPERTY_TIMEOUT_MS = 60_000;

describe("safeNext keeps only paths on this site", () => {
  it.each([
    ["/", "/"],
    ["/pin/100001/", "/pin/100001/"],
    ["/search/pins/?q=tart&rs=typed", "/search/pins/?q=tart&rs=typed"],
    ["/today/trending/cr%C3%A8me/3/", "/today/trending/cr%C3%A8me/3/"],
    ["/settings/account-settings#email", "/settings/account-settings#email"],
  ])("keeps %s", (input, expected) => {
    expect(safeNext(input)).toBe(expected);
  });

  it.each([
    "//evil.example",
    "//evil.example/path",
    "https://evil.example",
    "http://evil.example/",
    "javascript:alert(1)",
    "/\\evil.example",
    "\\\\evil.example",
    "/%2Fevil.example",
    "%2F%2Fevil.example",
    "/%5Cevil.example",
    "/%252Fevil.example",
    "%252F%252Fevil.example",
    "/\tevil.example".replace("\t", "\t/"),
    "/%09/evil.example",
    "/%0a/evil.example",
    "https:/evil.example",
    "evil.example",
    "",
    "/%E0%A4%A", // malformed escape
    "/" + "a".repeat(3000),
  ])("refuses %j and answers the default landing URL", (input) => {
    expect(isSafeNext(input)).toBe(false);
    expect(safeNext(input)).toBe(DEFAULT_LANDING);
  });

  it("refuses anything that is not a string", () => {
    for (const value of [null, undefined, 1, ["/"], { path: "/" }]) expect(safeNext(value)).toBe("/");
  });

  it("never answers a URL that resolves off this site, whatever the input", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.webUrl(), fc.webPath(), fc.string().map((s) => `/${s}`), fc.string().map((s) => `//${s}`)), (input) => {
        const base = "https://pinloom.example";
        expect(new URL(safeNext(input), base).origin).toBe(base);
      }),
      { numRuns: 2000 },
    );
  }, PROPERTY_TIMEOUT_MS);
});

describe("withNext", () => {
  it("keeps slashes readable, encodes the rest, and leaves home out", () => {
    expect(withNext("/login/", "/pin/1/?a=b&c=d")).toBe("/login/?next=/pin/1/%3Fa%3Db%26c%3Dd");
    expect(withNext("/login/", "/")).toBe("/login/");
    expect(new URL(withNext("/login/", "/pin/1/?a=b&c=d"), "https://x.example").searchParams.get("next")).toBe("/pin/1/?a=b&c=d");
  });
});
