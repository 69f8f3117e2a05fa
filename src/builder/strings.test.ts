import { beforeAll, describe, expect, it } from "vitest";
import { getT, loadLocale } from "~/i18n/i18n.ts";
import { fill } from "~/saves/strings.ts";
import { builderStrings } from "./strings.ts";

// Locales other than English load on first need, as in the Worker.
beforeAll(() => Promise.all((["fr", "ar_SA"] as const).map(loadLocale)));

describe("builderStrings: the island's words", () => {
  it("keeps placeholders for the island to fill", () => {
    const strings = builderStrings(getT("en_US", "builder"));
    expect(strings.ui.progressLabel).toBe("Uploading {{name}}");
    expect(fill(strings.ui.progressLabel, { name: "soup.jpg" })).toBe("Uploading soup.jpg");
    expect(strings.validation["builder:validation.titleTooLong"]).toBe("Titles can be up to {{maximum}} characters");
  });

  it.each(["fr", "ar_SA"] as const)("has every word translated in %s", (locale) => {
    const english = builderStrings(getT("en_US", "builder"));
    const other = builderStrings(getT(locale, "builder"));
    expect(Object.keys(other.ui)).toEqual(Object.keys(english.ui));
    for (const [key, text] of Object.entries(other.ui)) {
      expect(text, key).not.toBe("");
      // Placeholders survive translation.
      expect(text.match(/\{\{\w+\}\}/g)?.sort() ?? [], key).toEqual(english.ui[key as keyof typeof english.ui].match(/\{\{\w+\}\}/g)?.sort() ?? []);
    }
    expect(other.ui.publish).not.toBe(english.ui.publish);
  });
});
