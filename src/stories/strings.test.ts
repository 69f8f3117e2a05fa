import { beforeAll, describe, expect, it } from "vitest";
import { getT, loadLocale } from "~/i18n/i18n.ts";
import { storyEditorStrings } from "./strings.ts";

// Locales other than English load on first need, as in the Worker.
beforeAll(() => Promise.all((["fr", "ar_SA"] as const).map(loadLocale)));

const placeholders = (text: string) => text.match(/\{\{\w+\}\}/g)?.sort() ?? [];

describe("storyEditorStrings: the story editor's words", () => {
  it("keeps placeholders for the island to fill and carries the story problems' messages", () => {
    const strings = storyEditorStrings(getT("en_US", "builder"));
    expect(strings.ui.pageButton).toBe("Page {{number}}");
    expect(strings.blockTypes.product_sticker).toBe("Product sticker");
    expect(strings.validation["builder:story.textTooLong"]).toBe("Keep this text to {{maximum}} characters");
    expect(strings.validation["builder:validation.titleTooLong"]).toBe("Titles can be up to {{maximum}} characters");
  });

  it.each(["fr", "ar_SA"] as const)("has every word translated in %s", (locale) => {
    const english = storyEditorStrings(getT("en_US", "builder"));
    const other = storyEditorStrings(getT(locale, "builder"));
    for (const table of ["ui", "blockTypes"] as const) {
      const englishTable: Record<string, string> = english[table];
      const otherTable: Record<string, string> = other[table];
      expect(Object.keys(otherTable)).toEqual(Object.keys(englishTable));
      for (const [key, text] of Object.entries(otherTable)) {
        expect(text, key).not.toBe("");
        expect(text, key).not.toBe(`storyEditor.${key}`);
        expect(placeholders(text), key).toEqual(placeholders(englishTable[key]!));
      }
    }
    expect(other.ui.addPage).not.toBe(english.ui.addPage);
    expect(other.blockTypes.heading).not.toBe(english.blockTypes.heading);
  });
});
