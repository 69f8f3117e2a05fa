import { beforeAll, describe, expect, it } from "vitest";
import { getT, loadLocale } from "~/i18n/i18n.ts";
import { commentStrings, COMMENT_STRING_KEYS, fill } from "./strings.ts";

// Locales other than English load on first need, as in the Worker.
beforeAll(() => Promise.all((["fr", "ar_SA", "de"] as const).map(loadLocale)));

describe("comments-ui strings", () => {
  it.each(["en_US", "fr", "ar_SA"] as const)("%s has every string, with placeholders kept for the island to fill", (locale) => {
    const strings = commentStrings(getT(locale));
    expect(Object.keys(strings)).toHaveLength(COMMENT_STRING_KEYS.length);
    for (const [key, value] of Object.entries(strings)) {
      expect(value, key).not.toBe("");
      expect(value, key).not.toMatch(/^comments-ui:/);
      expect(value, key).not.toBe(key);
    }
    expect(strings.likes).toContain("{{count}}");
    expect(strings.replyLabel).toContain("{{name}}");
    expect(strings.counter).toContain("{{length}}");
    expect(fill(strings.textTooLong, { max: 500 })).toContain("500");
  });

  it("French and Arabic are translated, not English copies", () => {
    const en = commentStrings(getT("en_US"));
    for (const locale of ["fr", "ar_SA"] as const) expect(commentStrings(getT(locale)).composerLabel).not.toBe(en.composerLabel);
  });

  it("reads each locale's own words", () => {
    expect(commentStrings(getT("de")).post).toBe("Posten");
  });
});
