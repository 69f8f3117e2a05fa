import { describe, expect, it } from "vitest";
import { LOCALES } from "~/context/locales.ts";
import { headLinks, headMeta, ogLocale, pageDescription, robotsContent, truncateDescription } from "./head.ts";

const ORIGIN = "https://pinloom.example";

describe("canonical and hreflang", () => {
  const ADVERTISED = ["ar_SA", "en_US", "fr"] as const;

  it("English has one URL: its canonical, its en-US alternate and x-default are the page itself", () => {
    const links = headLinks(ORIGIN, "/pin/1/", "en_US", ADVERTISED);
    expect(links[0]).toEqual({ rel: "canonical", href: "https://pinloom.example/pin/1/" });
    expect(links.find((link) => link.hreflang === "en-US")?.href).toBe("https://pinloom.example/pin/1/");
    expect(links.find((link) => link.hreflang === "x-default")?.href).toBe("https://pinloom.example/pin/1/");
  });

  it("lists an alternate for each advertised locale and x-default, and no other", () => {
    const alternates = headLinks(ORIGIN, "/pin/1/", "en_US", ADVERTISED).filter((link) => link.rel === "alternate");
    expect(alternates).toEqual([
      { rel: "alternate", hreflang: "ar-SA", href: "https://pinloom.example/pin/1/?locale=ar_SA" },
      { rel: "alternate", hreflang: "en-US", href: "https://pinloom.example/pin/1/" },
      { rel: "alternate", hreflang: "fr", href: "https://pinloom.example/pin/1/?locale=fr" },
      { rel: "alternate", hreflang: "x-default", href: "https://pinloom.example/pin/1/" },
    ]);
  });

  it("a page in another locale is canonical to its own locale's URL", () => {
    expect(headLinks(ORIGIN, "/pin/1/", "fr", ADVERTISED)[0]).toEqual({ rel: "canonical", href: "https://pinloom.example/pin/1/?locale=fr" });
    expect(headLinks(ORIGIN, "/pin/1/", "ar_SA", ADVERTISED)[0]).toEqual({ rel: "canonical", href: "https://pinloom.example/pin/1/?locale=ar_SA" });
  });

  it("adds the locale after a query the page's path already carries", () => {
    const links = headLinks(ORIGIN, "/search/pins/?q=a b", "fr", ADVERTISED);
    expect(links[0]).toEqual({ rel: "canonical", href: "https://pinloom.example/search/pins/?q=a+b&locale=fr" });
    expect(links.find((link) => link.hreflang === "ar-SA")?.href).toBe("https://pinloom.example/search/pins/?q=a+b&locale=ar_SA");
    expect(links.find((link) => link.hreflang === "x-default")?.href).toBe("https://pinloom.example/search/pins/?q=a%20b");
  });
});

describe("og:locale", () => {
  it.each([
    ["en_US", "en_US"],
    ["fr", "fr_FR"],
    ["ar_SA", "ar_SA"],
    ["ja", "ja_JP"],
    ["de", "de_DE"],
    ["it", "it_IT"],
    ["nl", "nl_NL"],
    ["tr", "tr_TR"],
    ["es_419", "es_LA"],
    ["he_IL", "he_IL"],
    ["zh_TW", "zh_TW"],
  ] as const)("%s → %s", (locale, expected) => expect(ogLocale(locale)).toBe(expected));

  it("every locale's value is language_TERRITORY: two or three lowercase letters, two capitals", () => {
    for (const locale of LOCALES) expect(ogLocale(locale), locale).toMatch(/^[a-z]{2,3}_[A-Z]{2}$/);
  });

  it("names the other advertised locales as og:locale:alternate", () => {
    const meta = headMeta({ title: "Home", description: "Ideas", canonicalPath: "/" }, "https://pinloom.example/", "fr", ["ar_SA", "en_US", "fr"]);
    expect(meta.filter((tag) => tag.property === "og:locale:alternate").map((tag) => tag.content)).toEqual(["ar_SA", "en_US"]);
  });
});

describe("page descriptions", () => {
  const FALLBACK = "Explore Weeknight dinners, a board by Ava Park on Pinloom.";

  it("keeps content of 50 characters or more as it is", () => {
    const text = "Fast dinners for busy evenings, all under thirty minutes.";
    expect(pageDescription(text, FALLBACK)).toBe(text);
  });

  it("gives empty content the fallback sentence", () => {
    expect(pageDescription("", FALLBACK)).toBe(FALLBACK);
    expect(pageDescription(null, FALLBACK)).toBe(FALLBACK);
    expect(pageDescription("   \n ", FALLBACK)).toBe(FALLBACK);
  });

  it("follows short content with the fallback sentence, ending the content's sentence first", () => {
    expect(pageDescription("Quick pasta", FALLBACK)).toBe("Quick pasta. Explore Weeknight dinners, a board by Ava Park on Pinloom.");
    expect(pageDescription("Quick pasta!", FALLBACK)).toBe("Quick pasta! Explore Weeknight dinners, a board by Ava Park on Pinloom.");
    expect(pageDescription("Quick pasta:", FALLBACK)).toBe("Quick pasta. Explore Weeknight dinners, a board by Ava Park on Pinloom.");
  });

  it("does not repeat content that is the fallback itself", () => {
    expect(pageDescription("Short and same.", "Short and same.")).toBe("Short and same.");
  });

  it("cuts long content on a word at 160 characters", () => {
    const long = "Slow-roasted tomatoes with garlic and thyme, ".repeat(6);
    const description = pageDescription(long, FALLBACK);
    expect(description.length).toBeLessThanOrEqual(160);
    expect(description.length).toBeGreaterThanOrEqual(50);
    expect(description.endsWith("…")).toBe(true);
  });

  it("cuts a short content and long fallback together at 160 characters", () => {
    const description = pageDescription("Tiny", "A sentence that goes on and on about ideas, ".repeat(5));
    expect(description.startsWith("Tiny. A sentence")).toBe(true);
    expect(description.length).toBeLessThanOrEqual(160);
  });
});

describe("robots", () => {
  it.each([
    [null, "index, follow, max-image-preview:large"],
    [undefined, "index, follow, max-image-preview:large"],
    ["unsafe", "noindex, follow"],
    ["hidden", "noindex, follow"],
  ])("reason %s → %s", (reason, content) => {
    expect(robotsContent(reason)).toBe(content);
  });
});

describe("descriptions", () => {
  it("keeps short text and folds whitespace", () => {
    expect(truncateDescription("  A  tart\n with lemons ")).toBe("A tart with lemons");
  });
  it("cuts long text on a word, at most 160 characters", () => {
    const text = "word ".repeat(60);
    const cut = truncateDescription(text);
    expect(cut.length).toBeLessThanOrEqual(160);
    expect(cut.endsWith("word…")).toBe(true);
  });
});

describe("Open Graph and Twitter", () => {
  const head = {
    title: "Lemon tart",
    description: "Bright and sharp",
    canonicalPath: "/pin/1/",
    ogType: "article" as const,
    image: { url: "/media/pins/1/736x.jpg", width: 736, height: 1104, alt: "A lemon tart" },
    seeAlso: "https://bakeandbloom.example/tart",
  };
  const meta = headMeta(head, "https://pinloom.example/pin/1/", "fr");
  const value = (key: string) => meta.find((tag) => tag.property === key || tag.name === key)?.content;

  it.each([
    ["og:type", "article"],
    ["og:title", "Lemon tart"],
    ["og:description", "Bright and sharp"],
    ["og:url", "https://pinloom.example/pin/1/"],
    ["og:site_name", "Pinloom"],
    ["og:image", "https://pinloom.example/media/pins/1/736x.jpg"],
    ["og:image:width", "736"],
    ["og:image:height", "1104"],
    ["og:image:alt", "A lemon tart"],
    ["og:see_also", "https://bakeandbloom.example/tart"],
    ["og:locale", "fr_FR"],
    ["twitter:card", "summary_large_image"],
    ["twitter:image", "https://pinloom.example/media/pins/1/736x.jpg"],
    ["description", "Bright and sharp"],
  ])("%s is %s", (key, expected) => {
    expect(value(key)).toBe(expected);
  });

  it("a page without an image gets a plain summary card and no og:image", () => {
    const plain = headMeta({ title: "Home", description: "Ideas", canonicalPath: "/" }, "https://pinloom.example/", "en_US");
    expect(plain.find((tag) => tag.name === "twitter:card")?.content).toBe("summary");
    expect(plain.some((tag) => tag.property === "og:image")).toBe(false);
    expect(plain.find((tag) => tag.property === "og:locale")?.content).toBe("en_US");
  });
});
