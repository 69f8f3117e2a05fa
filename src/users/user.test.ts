import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { getT, loadLocale } from "~/i18n/i18n.ts";
import { displayName, usernameSchema } from "./user.ts";

// Locales other than English load on first need, as in the Worker.
beforeAll(() => Promise.all((["fr", "ar_SA", "de"] as const).map(loadLocale)));

describe("usernameSchema", () => {
  it.each(["demo", "lou_limited", "marta_kutch90", "Sam", "a"])("accepts %s", (name) => {
    expect(usernameSchema.safeParse(name).success).toBe(true);
  });
  it.each(["", "a b", "x".repeat(31), "pin.page", "robots.txt", "émile", "a/b", "404%"])("refuses %j", (name) => {
    expect(usernameSchema.safeParse(name).success).toBe(false);
  });
});

describe("displayName", () => {
  it("is the full name, else the username", () => {
    expect(displayName({ full_name: "Ava Thompson", username: "demo" })).toBe("Ava Thompson");
    expect(displayName({ full_name: "  ", username: "demo" })).toBe("demo");
  });
});

// The profile namespace (locales/<locale>/profile.json): complete in English, French and
// Arabic, each plural with every form its language needs.
describe("profile namespace", () => {
  const root = join(import.meta.dirname, "../../locales");
  type Tree = { [key: string]: string | Tree };
  const read = (locale: string): Tree => JSON.parse(readFileSync(join(root, locale, "profile.json"), "utf8")) as Tree;
  const keys = (tree: Tree, prefix = ""): string[] =>
    Object.entries(tree).flatMap(([key, value]) => (typeof value === "string" ? [prefix + key] : keys(value, `${prefix}${key}.`)));
  const PLURAL = /_(zero|one|two|few|many|other)$/;
  const base = (key: string) => key.replace(PLURAL, "");
  const bases = (tree: Tree) => [...new Set(keys(tree).map(base))].sort();
  const lookup = (tree: Tree, key: string) => key.split(".").reduce<Tree | string>((node, part) => (node as Tree)[part]!, tree) as string;
  const variables = (text: string) => [...new Set([...text.matchAll(/\{\{(\w+)(?:,[^}]*)?\}\}/g)].map((m) => m[1]!))].sort();
  const english = read("en_US");
  const plurals = [...new Set(keys(english).filter((key) => PLURAL.test(key)).map(base))];

  it.each(["fr", "ar_SA"])("%s has every English key and no other", (locale) => {
    expect(bases(read(locale))).toEqual(bases(english));
  });

  it.each([
    ["en_US", ["one", "other"]],
    ["fr", ["one", "many", "other"]],
    ["ar_SA", ["zero", "one", "two", "few", "many", "other"]],
  ])("%s has the plural forms %j for every count", (locale, forms) => {
    const present = new Set(keys(read(locale)));
    for (const key of plurals) for (const form of forms) expect(present, `${locale} ${key}_${form}`).toContain(`${key}_${form}`);
  });

  it.each(["fr", "ar_SA"])("%s keeps every interpolation variable (a plural form may spell its count out)", (locale) => {
    const translated = read(locale);
    for (const key of keys(translated)) {
      const wanted = variables(lookup(english, PLURAL.test(key) ? `${base(key)}_other` : key));
      const actual = variables(lookup(translated, key));
      if (PLURAL.test(key)) expect(actual.filter((v) => !wanted.includes(v)), `${locale} ${key}`).toEqual([]);
      else expect(actual, `${locale} ${key}`).toEqual(wanted);
    }
  });

  it("counts in German too, with German digit grouping", () => {
    expect(getT("de")("profile:pinCount", { count: 2 })).toBe("2 Pins");
    expect(getT("de")("profile:pinCount", { count: 1234 })).toBe("1.234 Pins");
  });

  it("formats counts with the locale's plural rules and digits", () => {
    expect(getT("en_US")("profile:pinCount", { count: 1 })).toBe("1 pin");
    expect(getT("en_US")("profile:profile.followers", { count: 1234 })).toBe("1,234 followers");
    expect(getT("fr")("profile:pinCount", { count: 0 })).toBe("0 épingle");
    expect(getT("fr")("profile:profile.boardCount", { count: 3 })).toBe("3 tableaux");
    expect(getT("ar_SA")("profile:pinCount", { count: 2 })).toBe("دبوسان");
    expect(getT("ar_SA")("profile:pinCount", { count: 0 })).toBe("لا دبابيس");
  });
});
