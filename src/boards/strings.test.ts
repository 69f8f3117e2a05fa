import { beforeAll, describe, expect, it } from "vitest";
import { getT, loadLocale } from "~/i18n/i18n.ts";
import { counted, fill } from "./strings.ts";
import { organizeStrings, PLURAL_KEYS, STRING_KEYS } from "./strings.server.ts";

// Locales other than English load on first need, as in the Worker.
beforeAll(() => Promise.all((["fr", "ar_SA", "de"] as const).map(loadLocale)));

describe("organize strings for islands", () => {
  it("keeps placeholders for the island to fill", () => {
    const strings = organizeStrings(getT("en_US"), "en-US");
    expect(strings.text["sections.moveUp"]).toBe("Move “{{title}}” up");
    expect(fill(strings.text["sections.moveUp"], { title: "Pasta" })).toBe("Move “Pasta” up");
    expect(STRING_KEYS.length).toBeGreaterThan(50);
    expect(PLURAL_KEYS).toContain("select.count");
  });

  it.each([
    ["en_US", "en-US", 1, "1 pin selected"],
    ["en_US", "en-US", 3, "3 pins selected"],
    ["fr", "fr", 1, "1 épingle sélectionnée"],
    ["fr", "fr", 2, "2 épingles sélectionnées"],
    ["ar_SA", "ar-SA", 2, "دبوسان محددان"],
    ["ar_SA", "ar-SA", 1, "دبوس واحد محدد"],
    ["de", "de", 4, "4 Pins ausgewählt"],
  ] as const)("%s plural for %i", (locale, lang, count, expected) => {
    expect(counted(organizeStrings(getT(locale), lang), "select.count", count)).toBe(expected);
  });

  it("Arabic few uses Arabic digits from the locale", () => {
    const strings = organizeStrings(getT("ar_SA"), "ar-SA");
    expect(counted(strings, "select.count", 3)).toBe(`${(3).toLocaleString("ar-SA")} دبابيس محددة`);
  });
});
