import { describe, expect, it } from "vitest";
import { LOCALES } from "~/context/locales.ts";
import { canonicalUrl, headLinks, headMeta, robotsContent, truncateDescription } from "./head.ts";

const ORIGIN = "https://pinloom.example";

describe("canonical and hreflang", () => {
  it("the canonical URL is the page itself, with ?locale= only when the URL asked for one", () => {
    expect(canonicalUrl(ORIGIN, "/pin/1/", null)).toBe("https://pinloom.example/pin/1/");
    expect(canonicalUrl(ORIGIN, "/pin/1/", "fr")).toBe("https://pinloom.example/pin/1/?locale=fr");
  });

  it("lists an alternate for each of the 45 locales and an x-default", () => {
    const links = headLinks(ORIGIN, "/pin/1/", null);
    const alternates = links.filter((link) => link.rel === "alternate");
    expect(alternates).toHaveLength(46);
    expect(new Set(alternates.map((link) => link.hreflang)).size).toBe(46);
    expect(alternates.find((link) => link.hreflang === "ar-SA")?.href).toBe("https://pinloom.example/pin/1/?locale=ar_SA");
    expect(alternates.find((link) => link.hreflang === "es-419")?.href).toBe("https://pinloom.example/pin/1/?locale=es_419");
    expect(alternates.find((link) => link.hreflang === "x-default")?.href).toBe("https://pinloom.example/pin/1/");
    expect(LOCALES.every((locale) => alternates.some((link) => link.href.endsWith(`locale=${locale}`)))).toBe(true);
  });

  it("adds the locale after a query the page's path already carries", () => {
    const links = headLinks(ORIGIN, "/search/pins/?q=a b", "fr");
    expect(links[0]).toEqual({ rel: "canonical", href: "https://pinloom.example/search/pins/?q=a+b&locale=fr" });
    expect(links.find((link) => link.hreflang === "es-419")?.href).toBe("https://pinloom.example/search/pins/?q=a+b&locale=es_419");
    expect(links.find((link) => link.hreflang === "x-default")?.href).toBe("https://pinloom.example/search/pins/?q=a%20b");
  });

  it("names the canonical in the locale the URL asked for", () => {
    expect(headLinks(ORIGIN, "/pin/1/", "es_419")[0]).toEqual({ rel: "canonical", href: "https://pinloom.example/pin/1/?locale=es_419" });
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
