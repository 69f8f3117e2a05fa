import { describe, expect, it } from "vitest";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { LOCALES } from "~/context/locales.ts";
import type { TFunction } from "i18next";
import { SERVED_LOCALES, getT, loadResources, rememberPlainKeys } from "./i18n.ts";
import { completeLocales } from "./completeness.ts";

const root = join(import.meta.dirname, "../../locales");
type Tree = { [key: string]: string | Tree };
const read = (locale: string): Tree => JSON.parse(readFileSync(join(root, locale, "common.json"), "utf8")) as Tree;
/** Plural forms differ by language (Arabic has six): compare keys with the suffix folded. */
const PLURAL = /_(zero|one|two|few|many|other)$/;
const base = (key: string) => key.replace(PLURAL, "");
function keys(tree: Tree, prefix = ""): string[] {
  return Object.entries(tree).flatMap(([key, value]) => (typeof value === "string" ? [prefix + key] : keys(value, `${prefix}${key}.`)));
}

describe("locale files", () => {
  it("exist for exactly the 45 locales", () => {
    expect(readdirSync(root).sort()).toEqual([...LOCALES].sort());
  });

  it.each(["fr", "ar_SA"])("%s is complete: every English key, nothing else", (locale) => {
    const unique = (list: string[]) => [...new Set(list.map(base))].sort();
    expect(unique(keys(read(locale)))).toEqual(unique(keys(read("en_US"))));
    // Every plural has its "other" form, the one every language falls back to.
    for (const key of keys(read(locale)).filter((k) => PLURAL.test(k))) expect(keys(read(locale))).toContain(`${base(key)}_other`);
  });

  it("no locale has a key English lacks", () => {
    const english = new Set(keys(read("en_US")).map(base));
    for (const locale of LOCALES) expect(keys(read(locale)).filter((key) => !english.has(base(key)))).toEqual([]);
  });

  it("keeps interpolation variables in translations (a plural form may spell its count out)", () => {
    const variables = (text: string) => [...new Set([...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]!))].sort();
    const get = (tree: Tree, key: string) => key.split(".").reduce<Tree | string>((node, part) => (node as Tree)[part]!, tree) as string;
    const english = read("en_US");
    for (const locale of ["fr", "ar_SA"]) {
      const translated = read(locale);
      for (const key of keys(translated)) {
        const englishKey = keys(english).find((k) => k === key) ?? `${base(key)}_other`;
        const wanted = variables(get(english, englishKey));
        const actual = variables(get(translated, key));
        if (PLURAL.test(key)) expect(actual.filter((v) => !wanted.includes(v)), `${locale} ${key}`).toEqual([]);
        else expect(actual, `${locale} ${key}`).toEqual(wanted);
      }
    }
  });

  it("refuses a malformed file", () => {
    expect(() => loadResources({ "/locales/fr/common.json": { default: { a: 1 } } })).toThrow(/Invalid locale file/);
    expect(() => loadResources({ "/locales/xx_XX/common.json": { default: {} } })).toThrow(/Unknown locale/);
  });
});

describe("getT", () => {
  it("translates, and falls back to English where a locale has no text yet", () => {
    expect(getT("fr")("home.heading")).toBe("Des idées pour vous");
    expect(getT("ar_SA")("home.heading")).toBe("أفكار لك");
    expect(getT("de")("home.heading")).toBe("Ideas for you");
  });

  it("keeps the spec's default message word for word", () => {
    expect(getT("en_US")("api.default")).toBe("Sorry! Something went wrong on our end!");
    expect(getT("en_US")("status.loading")).toBe("Loading...");
  });

  it("fixed translators do not disturb each other", () => {
    const french = getT("fr");
    const arabic = getT("ar_SA");
    const english = getT("en_US");
    expect([french("site.home"), arabic("site.home"), english("site.home"), french("site.home")]).toEqual(["Accueil", "الرئيسية", "Home", "Accueil"]);
  });

  it("answers plain keys the same on every call, and interpolates and counts on every call", () => {
    const english = getT("en_US");
    expect([english("site.home"), english("site.home")]).toEqual(["Home", "Home"]);
    expect(english("pin.by", { name: "Ana" })).toBe("Pinned by Ana");
    expect(english("pin.by", { name: "Bo" })).toBe("Pinned by Bo");
    expect(english("pin.stats.saves", { count: 1 })).toBe("Saved 1 time");
    expect(english("pin.stats.saves", { count: 2 })).toBe("Saved 2 times");
    expect(english("auth:header.logIn")).toBe("Log in");
  });
});

describe("rememberPlainKeys", () => {
  it("asks i18next once per plain key, every time when the call has options, and stays bounded", () => {
    const asked: unknown[][] = [];
    const t = ((...args: unknown[]) => {
      asked.push(args);
      return `answer ${asked.length}`;
    }) as unknown as TFunction;
    const remembering = rememberPlainKeys(t);
    expect([remembering("a"), remembering("a")]).toEqual(["answer 1", "answer 1"]);
    expect([remembering("b", { count: 2 }), remembering("b", { count: 2 })]).toEqual(["answer 2", "answer 3"]);
    for (let i = 0; i < 5000; i++) remembering(`key${i}`);
    const before = asked.length;
    remembering("key4999");
    expect(asked.length).toBe(before + 1);
  });
});

describe("served locales", () => {
  it("are the complete ones: today English, French and Arabic", () => {
    expect([...SERVED_LOCALES].sort()).toEqual(["ar_SA", "en_US", "fr"]);
  });

  it("counts a locale complete when it holds every English key, plural forms folded", () => {
    const resources = {
      "en-US": { common: { a: "A", n_one: "one", n_other: "many", nested: { b: "B" } } },
      fr: { common: { a: "A fr", n_one: "un", n_many: "beaucoup", n_other: "plusieurs", nested: { b: "B fr" } } },
      ja: { common: { a: "A ja", n_other: "たくさん", nested: { b: "B ja" } } },
      de: { common: { a: "A de", n_other: "viele" } },
      it: { common: { a: "", n_other: "molti", nested: { b: "B it" } } },
    };
    expect(completeLocales(resources)).toEqual(["en_US", "fr", "ja"]);
  });
});
