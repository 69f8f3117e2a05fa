import { describe, expect, it } from "vitest";
import { LOCALES, isRtl, negotiateLocale, parseLocale, toLanguageTag } from "./locales.ts";

describe("parseLocale", () => {
  it.each([
    ["en_US", "en_US"],
    ["en-US", "en_US"],
    ["en-us", "en_US"],
    ["EN_us", "en_US"],
    ["pt-BR", "pt_BR"],
    ["es-419", "es_419"],
    ["es_419", "es_419"],
    ["zh-TW", "zh_TW"],
    ["fr", "fr"],
    ["fr-CA", "fr"],
    ["de-AT", "de"],
    ["en", "en_US"],
    ["es", "es_ES"],
    ["pt", "pt_BR"],
    ["zh", "zh_CN"],
    ["ar", "ar_SA"],
    [" he-IL ", "he_IL"],
  ])("reads %s as %s", (input, expected) => {
    expect(parseLocale(input)).toBe(expected);
  });

  it.each(["", "xx", "klingon", "en_US_extra", "../../etc", "e", "12-34", null, undefined])("rejects %s", (input) => {
    expect(parseLocale(input)).toBeNull();
  });

  it("accepts all 45 locales in both forms", () => {
    expect(LOCALES).toHaveLength(45);
    for (const locale of LOCALES) {
      expect(parseLocale(locale)).toBe(locale);
      expect(parseLocale(locale.replace("_", "-"))).toBe(locale);
    }
  });
});

describe("negotiateLocale", () => {
  it("follows q weights, then order", () => {
    expect(negotiateLocale("de;q=0.5, fr-FR;q=0.9, en;q=0.8")).toBe("fr");
    expect(negotiateLocale("ja, ko")).toBe("ja");
  });
  it("skips what it does not know", () => {
    expect(negotiateLocale("xx-YY, tlh, ar-EG;q=0.3")).toBe("ar_SA");
  });
  it("ignores zero weights and wildcards", () => {
    expect(negotiateLocale("fr;q=0, *;q=0.5")).toBeNull();
  });
  it("returns null for nothing", () => {
    expect(negotiateLocale("")).toBeNull();
    expect(negotiateLocale(null)).toBeNull();
  });
});

describe("direction and tags", () => {
  it("marks Arabic and Hebrew right to left, and nothing else", () => {
    expect(LOCALES.filter(isRtl)).toEqual(["ar_SA", "he_IL"]);
  });
  it("writes BCP 47 tags", () => {
    expect(toLanguageTag("ar_SA")).toBe("ar-SA");
    expect(toLanguageTag("es_419")).toBe("es-419");
    expect(toLanguageTag("fr")).toBe("fr");
  });
});
