import { beforeAll, describe, expect, it } from "vitest";
import type { TFunction } from "i18next";
import { deepFreeze, perLanguage, perLocale, perLocaleAndKey } from "./memo.ts";
import { getT, loadLocale } from "./i18n.ts";
import { saveStrings } from "~/saves/strings.ts";
import { commentStrings } from "~/comments/strings.ts";
import { authStrings } from "~/accounts/auth-strings.ts";
import { pluralForms, formatCount } from "~/social/plural.ts";

// Locales other than English load on first need, as in the Worker.
beforeAll(() => Promise.all((["fr", "ar_SA"] as const).map(loadLocale)));

const fakeT = (tag: string) => ((key: string) => `${tag}:${key}`) as unknown as TFunction;

describe("per-locale string tables", () => {
  it("builds a table once per fixed t and hands every later caller the same frozen copy", () => {
    let builds = 0;
    const table = perLocale((t: TFunction) => {
      builds++;
      return { nested: { hello: String(t("hello")) } };
    });
    const en = fakeT("en");
    const first = table(en);
    expect(table(en)).toBe(first);
    expect(builds).toBe(1);
    expect(Object.isFrozen(first) && Object.isFrozen(first.nested)).toBe(true);
    expect(() => {
      "use strict";
      (first.nested as { hello: string }).hello = "changed";
    }).toThrow(TypeError);
    expect(table(fakeT("fr")).nested.hello).toBe("fr:hello");
    expect(builds).toBe(2);
  });

  it("keys tables by t and key", () => {
    const table = perLocaleAndKey((t: TFunction, key: string) => ({ text: String(t(key)) }));
    const en = fakeT("en");
    expect(table(en, "a")).toBe(table(en, "a"));
    expect(table(en, "b").text).toBe("en:b");
    expect(table(fakeT("ar"), "a").text).toBe("ar:a");
  });

  it("makes one object per language, and stays bounded for unexpected inputs", () => {
    let made = 0;
    const rules = perLanguage((language) => {
      made++;
      return new Intl.PluralRules(language);
    });
    expect(rules("en-US")).toBe(rules("en-US"));
    for (let i = 0; i < 300; i++) rules(`en-x-t${i}`);
    const before = made;
    rules("en-x-t299"); // beyond the bound: rebuilt, not stored
    expect(made).toBe(before + 1);
  });

  it("deepFreeze leaves primitives alone", () => {
    expect(deepFreeze(3)).toBe(3);
    expect(deepFreeze(null)).toBe(null);
  });
});

describe("the real tables", () => {
  it("getT answers the same function per locale and namespace, so tables are built once", () => {
    expect(getT("fr")).toBe(getT("fr"));
    expect(getT("fr")).not.toBe(getT("ar_SA"));
    expect(getT("fr", "save")).not.toBe(getT("fr"));
    expect(saveStrings(getT("fr"))).toBe(saveStrings(getT("fr")));
    expect(commentStrings(getT("ar_SA"))).toBe(commentStrings(getT("ar_SA")));
    expect(authStrings(getT("en_US"))).toBe(authStrings(getT("en_US")));
  });

  it("keeps each locale's own words", () => {
    expect(saveStrings(getT("fr")).save).not.toBe(saveStrings(getT("en_US")).save);
    expect(commentStrings(getT("en_US")).post).toBe("Post");
  });

  it("plural forms per language and key, counted in the language's own digits", () => {
    const forms = pluralForms(getT("ar_SA"), "social:reaction.count", "ar-SA");
    expect(pluralForms(getT("ar_SA"), "social:reaction.count", "ar-SA")).toBe(forms);
    expect(pluralForms(getT("ar_SA"), "social:didIt.count", "ar-SA")).not.toBe(forms);
    expect(formatCount(forms, "ar-SA", 12)).toContain("١٢");
    expect(formatCount(pluralForms(getT("en_US"), "social:reaction.count", "en-US"), "en-US", 1)).toMatch(/^1 /);
  });
});
