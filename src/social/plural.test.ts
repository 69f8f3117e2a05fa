import { describe, expect, it } from "vitest";
import { formatCount, type PluralForms } from "./plural.ts";

describe("formatCount", () => {
  const english: PluralForms = { one: "# reaction", other: "# reactions" };
  const arabic: PluralForms = { zero: "لا تفاعلات", one: "تفاعل واحد", two: "تفاعلان", few: "# تفاعلات", many: "# تفاعلًا", other: "# تفاعل" };
  it.each<[PluralForms, string, number, string]>([
    [english, "en-US", 1, "1 reaction"],
    [english, "en-US", 0, "0 reactions"],
    [english, "en-US", 1200, "1,200 reactions"],
    [arabic, "ar-SA", 0, "لا تفاعلات"],
    [arabic, "ar-SA", 2, "تفاعلان"],
    [arabic, "ar-SA", 3, "٣ تفاعلات"],
  ])("%j in %s for %i", (forms, language, count, text) => {
    expect(formatCount(forms, language, count)).toBe(text);
  });
});
