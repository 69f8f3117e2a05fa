import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_LANDING, safeRedirectPath } from "./redirect.ts";

// Thousands of generated cases: bounded by their count, given time enough on a loaded machine.
const PROPERTY_TIMEOUT_MS = 60_000;

describe("safeRedirectPath", () => {
  it.each(["/", "/pin/100001/", "/search/pins/?q=cake#top", "/today/trending/cr%C3%A8me/3/", "/a/b/c?next=%2Fhome"])(
    "keeps the same-site path %s",
    (path) => {
      expect(safeRedirectPath(path)).toBe(path);
    },
  );

  it.each([
    ["network path", "//evil.example"],
    ["network path with path", "//evil.example/login"],
    ["absolute URL", "https://evil.example/"],
    ["scheme-relative with backslash", "/\\evil.example"],
    ["backslash first", "\\\\evil.example"],
    ["backslash later", "/a\\b"],
    ["encoded slashes after a slash", "/%2F%2Fevil.example"],
    ["encoded slashes only", "%2F%2Fevil.example"],
    ["encoded backslash", "/%5Cevil.example"],
    ["double-encoded slashes", "/%252F%252Fevil.example"],
    ["tab between slashes", "/\t/evil.example"],
    ["newline between slashes", "/\n/evil.example"],
    ["encoded tab", "/%09/evil.example"],
    ["javascript URL", "javascript:alert(1)"],
    ["data URL", "data:text/html,hi"],
    ["relative path", "pin/1/"],
    ["empty", ""],
    ["malformed escape", "/%E0%A4%A"],
    ["too long", `/${"a".repeat(3000)}`],
  ])("refuses %s", (_name, path) => {
    expect(safeRedirectPath(path)).toBe(DEFAULT_LANDING);
  });

  it("refuses non-strings", () => {
    expect(safeRedirectPath(undefined)).toBe(DEFAULT_LANDING);
    expect(safeRedirectPath(42)).toBe(DEFAULT_LANDING);
  });

  it("never answers a URL that leaves the site, whatever the input", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.webUrl(), fc.webPath(), fc.string().map((s) => `/${s}`), fc.string().map((s) => `//${s}`)), (input) => {
        const answer = safeRedirectPath(input);
        const base = "https://pinloom.test";
        // Read it the way a browser would, raw and fully decoded.
        expect(new URL(answer, base).origin).toBe(base);
        let decoded = answer;
        for (let i = 0; i < 4; i++) {
          try {
            decoded = decodeURIComponent(decoded);
          } catch {
            break;
          }
        }
        expect(new URL(decoded.replace(/[\t\n\r]/g, ""), base).origin).toBe(base);
        expect(answer === DEFAULT_LANDING || answer === input).toBe(true);
      }),
      { numRuns: 2000 },
    );
  }, PROPERTY_TIMEOUT_MS);
});
