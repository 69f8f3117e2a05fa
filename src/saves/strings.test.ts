import { beforeAll, describe, expect, it } from "vitest";
import { getT, loadLocale } from "~/i18n/i18n.ts";
import { fill, saveStrings } from "./strings.ts";

// Locales other than English load on first need, as in the Worker.
beforeAll(() => Promise.all((["fr", "ar_SA", "de"] as const).map(loadLocale)));

describe("save strings", () => {
  it.each(["en_US", "fr", "ar_SA"] as const)("%s has every string, with placeholders kept for the island to fill", (locale) => {
    const strings = saveStrings(getT(locale));
    for (const [key, value] of Object.entries(strings)) {
      expect(value, key).not.toBe("");
      expect(value, key).not.toMatch(/^save:/);
    }
    expect(strings.savedTo).toContain("{{board}}");
    expect(strings.savedToSection).toContain("{{section}}");
    expect(strings.counter).toContain("{{length}}");
    expect(fill(strings.savedTo, { board: "Weeknight dinners" })).toContain("Weeknight dinners");
  });

  it("reads each locale's own save strings", () => {
    expect(saveStrings(getT("de")).save).toBe("Merken");
  });

  it("fill leaves unknown placeholders as written", () => {
    expect(fill("{{a}} and {{b}}", { a: 1 })).toBe("1 and {{b}}");
  });
});
