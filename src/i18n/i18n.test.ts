import { beforeAll, describe, expect, it } from "vitest";
import type { TFunction } from "i18next";
import { getT, loadLocale, loadResources, rememberPlainKeys } from "./i18n.ts";
import { completeLocales } from "./completeness.ts";

describe("loadResources", () => {
  it("refuses a malformed file", () => {
    expect(() => loadResources({ "/locales/fr/common.json": { default: { a: 1 } } })).toThrow(/Invalid locale file/);
    expect(() => loadResources({ "/locales/xx_XX/common.json": { default: {} } })).toThrow(/Unknown locale/);
  });
});

describe("getT", () => {
  beforeAll(() => Promise.all((["fr", "ar_SA", "en_AU"] as const).map(loadLocale)));

  it("translates into each locale", () => {
    expect(getT("fr")("home.heading")).toBe("Des idées pour vous");
    expect(getT("ar_SA")("home.heading")).toBe("أفكار لك");
  });

  it("reads a regional variant's own words, then its parent's, then English", () => {
    // en_AU has no word of its own for an organisation manager: it reads en_GB's; the home
    // heading is the same in all three, so it comes from en_US.
    expect(getT("en_AU", "business")("hierarchy.inviteManager")).toBe("Invite an organisation manager");
    expect(getT("en_US", "business")("hierarchy.inviteManager")).toBe("Invite an organization manager");
    expect(getT("en_AU")("home.heading")).toBe("Ideas for you");
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

describe("completeLocales", () => {
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

  it("counts a regional variant's parents' strings as its own, once it holds strings of its own", () => {
    const resources = {
      "en-US": { common: { colour: "Color", title: "Title" } },
      "en-GB": { common: { colour: "Colour" } },
      "en-AU": {},
      "es-419": { common: { colour: "Color", title: "Título" } },
      "es-MX": { common: { title: "Título" } },
      "es-AR": {},
      "es-US": { common: { colour: "Color" } },
    };
    expect(completeLocales(resources)).toEqual(["en_GB", "en_US", "es_419", "es_MX", "es_US"]);
  });
});
