import { describe, expect, it } from "vitest";
import { EMPTY_SLUG, articleParagraphs, articlePath, articleSegment, articleSlug, articleStructuredData, parseArticleId } from "./article.ts";

describe("articleSlug: lowercase, strip punctuation and symbols, whitespace to hyphens, URL-encode", () => {
  it.each([
    ["Simple Title", "simple-title"],
    ["  Leading and trailing  ", "leading-and-trailing"],
    ["Many   spaces\tand\nlines", "many-spaces-and-lines"],
    ["What's new? Everything!", "whats-new-everything"],
    // Hyphens are punctuation (Pd): stripped, not kept.
    ["Well-being, 2026 edition", "wellbeing-2026-edition"],
    ["- dashes - around -", "dashes-around"],
    ["Price: $20 + tax = 100% fun", "price-20-tax-100-fun"],
    ["a/b\\c?d#e&f", "abcdef"],
    ["Under_score & tilde~", "underscore-tilde"],
    ["«Guillemets» and “quotes”", "guillemets-and-quotes"],
    // French accents stay letters, then are percent-encoded as UTF-8.
    ["Crème Brûlée à la Française", "cr%C3%A8me-br%C3%BBl%C3%A9e-%C3%A0-la-fran%C3%A7aise"],
    ["L'été en Provence", "l%C3%A9t%C3%A9-en-provence"],
    // Arabic letters kept; the Arabic question mark and comma are punctuation.
    ["أفكار، للمطبخ؟", `${encodeURIComponent("أفكار")}-${encodeURIComponent("للمطبخ")}`],
    // Emoji are symbols (So): gone; the spaces around them collapse into one hyphen.
    ["Summer 🌞 picnic 🧺 ideas", "summer-picnic-ideas"],
    ["🎉🎉", EMPTY_SLUG],
    ["!!!", EMPTY_SLUG],
    ["", EMPTY_SLUG],
    ["ÉCOLE", "%C3%A9cole"],
    ["日本の 秋", `${encodeURIComponent("日本の")}-${encodeURIComponent("秋")}`],
    ["Lone \uD800 surrogate", "lone-surrogate"],
  ])("%j → %s", (title, slug) => {
    expect(articleSlug(title)).toBe(slug);
  });
});

describe("articleSegment: shop for shopping items, trending for 0 or 2, best for 1, else article", () => {
  it.each([
    [{ isShopping: true, contentType: 0 }, "shop"],
    [{ isShopping: true, contentType: 1 }, "shop"],
    [{ isShopping: true, contentType: 7 }, "shop"],
    [{ isShopping: false, contentType: 0 }, "trending"],
    [{ isShopping: false, contentType: 2 }, "trending"],
    [{ isShopping: false, contentType: 1 }, "best"],
    [{ isShopping: false, contentType: 3 }, "article"],
    [{ isShopping: false, contentType: -1 }, "article"],
    [{ isShopping: false, contentType: 99 }, "article"],
  ] as const)("%j → %s", (input, segment) => {
    expect(articleSegment(input)).toBe(segment);
  });
});

describe("articlePath", () => {
  it.each([
    [{ id: 1, title: "Cozy Autumn Reads", isShopping: false, contentType: 1 }, "/today/best/cozy-autumn-reads/1/"],
    [{ id: 42, title: "Gifts under $50!", isShopping: true, contentType: 1 }, "/today/shop/gifts-under-50/42/"],
    [{ id: "7", title: "Café culture", isShopping: false, contentType: 2 }, "/today/trending/caf%C3%A9-culture/7/"],
    [{ id: 9, title: "🎃", isShopping: false, contentType: 5 }, `/today/article/${EMPTY_SLUG}/9/`],
  ])("%j → %s", (article, path) => {
    expect(articlePath(article)).toBe(path);
  });
});

describe("parseArticleId", () => {
  it.each([
    ["1", 1],
    ["900001", 900001],
    ["0", null],
    ["012", null],
    ["12a", null],
    ["abc", null],
    ["-3", null],
    ["1.5", null],
    ["99999999999999999", null],
    ["", null],
    [undefined, null],
  ])("%j → %j", (text, id) => {
    expect(parseArticleId(text)).toBe(id);
  });
});

describe("articleParagraphs", () => {
  it("splits on blank lines and drops empty paragraphs", () => {
    expect(articleParagraphs("One\nstill one\n\nTwo\r\n\r\nThree\n \n\n\n")).toEqual(["One\nstill one", "Two", "Three"]);
    expect(articleParagraphs(null)).toEqual([]);
    expect(articleParagraphs("   ")).toEqual([]);
  });
});

describe("articleStructuredData", () => {
  const canonical = "https://pinloom.example/today/best/cozy-reads/1/";
  it("gives an Article with absolute URLs and a BreadcrumbList", () => {
    const [article, crumbs] = articleStructuredData(
      {
        title: "Cozy reads",
        subtitle: "For rainy days",
        publishedAt: "2026-10-01T00:00:00.000Z",
        updatedAt: "2026-10-02T00:00:00.000Z",
        author: { name: "Ava Thompson", url: "/demo/" },
        image: "/media/pins/1/736x.jpg",
      },
      canonical,
    );
    expect(article).toMatchObject({
      "@type": "Article",
      headline: "Cozy reads",
      description: "For rainy days",
      datePublished: "2026-10-01T00:00:00.000Z",
      dateModified: "2026-10-02T00:00:00.000Z",
      image: "https://pinloom.example/media/pins/1/736x.jpg",
      author: { "@type": "Person", name: "Ava Thompson", url: "https://pinloom.example/demo/" },
      publisher: { "@type": "Organization", name: "Pinloom" },
      mainEntityOfPage: canonical,
    });
    expect(crumbs).toMatchObject({ "@type": "BreadcrumbList" });
    expect((crumbs!.itemListElement as Array<{ item: string }>).at(-1)!.item).toBe(canonical);
  });

  it("leaves out what is missing and credits Pinloom when there is no author", () => {
    const [article] = articleStructuredData(
      { title: "x", subtitle: null, publishedAt: "2026-10-01T00:00:00.000Z", updatedAt: "2026-10-01T00:00:00.000Z", author: null, image: null },
      canonical,
    );
    expect(article).not.toHaveProperty("image");
    expect(article).not.toHaveProperty("description");
    expect(article!.author).toMatchObject({ "@type": "Organization", name: "Pinloom" });
  });
});
