import { describe, expect, it } from "vitest";
import { COUNTRIES, countryList, localeList, localeName, parseCountry } from "./regional.ts";

describe("countries", () => {
  it("are the 249 ISO codes, each once", () => {
    expect(COUNTRIES).toHaveLength(249);
    expect(new Set(COUNTRIES).size).toBe(249);
  });

  it.each([
    ["fr", "FR"], [" be ", "BE"], ["US", "US"], ["XX", null], ["FRA", null], [42, null],
  ])("parses %j as %j", (input, expected) => {
    expect(parseCountry(input)).toBe(expected);
  });

  it("are named in the reader's language and sorted in it", () => {
    expect(countryList("en_US")).toContainEqual({ key: "DE", name: "Germany" });
    expect(countryList("fr")).toContainEqual({ key: "DE", name: "Allemagne" });
    const names = countryList("en_US").map((entry) => entry.name);
    expect(names.indexOf("Afghanistan")).toBe(0);
    expect(names.indexOf("Zimbabwe")).toBe(names.length - 1);
  });
});

describe("locales", () => {
  it("are named in their own language", () => {
    expect(localeName("fr")).toBe("français");
    expect(localeName("de")).toBe("Deutsch");
    expect(localeName("ja")).toBe("日本語");
  });

  it("list all 45 in the spec's order by default", () => {
    const list = localeList();
    expect(list).toHaveLength(45);
    expect(list[0]).toEqual({ key: "af_ZA", name: "Afrikaans (Suid-Afrika)" });
  });
});
