import { describe, expect, it } from "vitest";
import type { PinDetail } from "~/pins/pins.server.ts";
import { boardStructuredData, homeStructuredData, isoDuration, isoMinutes, pinStructuredData, profileStructuredData } from "./structured-data.ts";

const CANONICAL = "https://pinloom.example/pin/7/";

function pin(overrides: Partial<PinDetail> = {}): PinDetail {
  return {
    id: "7",
    kind: "image",
    title: "Lemon tart",
    gridTitle: "",
    description: "Bright and sharp",
    descriptionHtml: "",
    altText: "A lemon tart",
    dominantColor: "#aabbcc",
    domain: "bakeandbloom.example",
    link: "https://bakeandbloom.example/tart",
    createdAt: "2026-09-01T10:00:00.000Z",
    images: { "736x": { url: "/media/pins/7/736x.jpg", width: 736, height: 1104, dominantColor: "#aabbcc" } },
    videos: [],
    pinner: { id: "1", username: "ava", fullName: "Ava Thompson", imageMediumUrl: null, isVerifiedMerchant: false, followerCount: 3 },
    board: { id: "10", name: "Spring bakes", slug: "spring-bakes", url: "/ava/spring-bakes/" },
    richMetadata: null,
    storyPinData: null,
    carouselData: null,
    mediaAttribution: null,
    seoTitle: null,
    seoDescription: null,
    seoNoindexReason: null,
    imageSignature: "0123456789abcdef0123456789abcdef",
    isHidden: false,
    isUnsafe: false,
    isDeleted: false,
    isPromoted: false,
    isOosProduct: false,
    commentsDisabled: false,
    commentCount: 4,
    didItCount: 0,
    saveCount: 9,
    reactionCounts: [{ reactionType: 1, reactionCount: 5 }, { reactionType: 2, reactionCount: 2 }],
    domainOfficialUser: null,
    closeupAttribution: null,
    comments: [],
    related: { pins: [], endCursor: null, hasNextPage: false },
    tags: [],
    ...overrides,
  };
}

const types = (blocks: Array<Record<string, unknown>>) => blocks.map((block) => block["@type"]);

describe("JSON-LD by kind", () => {
  it("an image pin is a SocialMediaPosting with a breadcrumb", () => {
    const blocks = pinStructuredData(pin(), CANONICAL);
    expect(types(blocks)).toEqual(["SocialMediaPosting", "BreadcrumbList"]);
    expect(blocks[0]).toMatchObject({
      "@context": "https://schema.org",
      headline: "Lemon tart",
      image: "https://pinloom.example/media/pins/7/736x.jpg",
      url: CANONICAL,
      datePublished: "2026-09-01T10:00:00.000Z",
      author: { "@type": "Person", name: "Ava Thompson", url: "https://pinloom.example/ava/" },
    });
    expect(blocks[0]!.interactionStatistic).toEqual([
      { "@type": "InteractionCounter", interactionType: "https://schema.org/CommentAction", userInteractionCount: 4 },
      { "@type": "InteractionCounter", interactionType: "https://schema.org/LikeAction", userInteractionCount: 7 },
    ]);
  });

  it("a video pin is a VideoObject with ISO duration, thumbnail and content URL", () => {
    const video = { format: "V_720P", url: "/media/pins/7/video.mp4", mimeType: "video/mp4", width: 360, height: 640, durationMs: 4000, thumbnail: "/media/pins/7/orig.jpg", captionsUrls: {} };
    const [block] = pinStructuredData(pin({ kind: "video", videos: [video] }), CANONICAL);
    expect(block).toMatchObject({
      "@type": "VideoObject",
      name: "Lemon tart",
      duration: "PT4S",
      uploadDate: "2026-09-01T10:00:00.000Z",
      thumbnailUrl: "https://pinloom.example/media/pins/7/orig.jpg",
      contentUrl: "https://pinloom.example/media/pins/7/video.mp4",
    });
  });

  it("a recipe has ingredients, ISO times, yield and rating", () => {
    const [block] = pinStructuredData(
      pin({
        kind: "recipe",
        richMetadata: {
          recipe: {
            name: "Lemon tart",
            ingredients: [{ category: "Crust", items: [{ amount: "200 g", name: "flour" }, { amount: null, name: "salt" }] }],
            prepTimeMinutes: 20,
            cookTimeMinutes: 35,
            totalTimeMinutes: 75,
            servingsSummary: "8 slices",
            diets: ["vegetarian"],
          },
          aggregateRating: { ratingValue: 4.6, bestRating: 5, reviewCount: 12, ratingCount: 40 },
        },
      }),
      CANONICAL,
    );
    expect(block).toMatchObject({
      "@type": "Recipe",
      recipeIngredient: ["200 g flour", "salt"],
      prepTime: "PT20M",
      cookTime: "PT35M",
      totalTime: "PT1H15M",
      recipeYield: "8 slices",
      keywords: "vegetarian",
      aggregateRating: { "@type": "AggregateRating", ratingValue: 4.6, bestRating: 5, ratingCount: 40, reviewCount: 12 },
    });
  });

  it("an article has its publication date and publisher", () => {
    const [block] = pinStructuredData(pin({ kind: "article", richMetadata: { article: { datePublished: "2026-08-02", author: "Rui", name: null } } }), CANONICAL);
    expect(block).toMatchObject({ "@type": "Article", datePublished: "2026-08-02", author: { name: "Rui" }, publisher: { name: "bakeandbloom.example" } });
  });

  it.each([
    [{ price: 48, currency: "USD", inStock: true }, { "@type": "Offer", price: 48, priceCurrency: "USD", availability: "https://schema.org/InStock" }],
    [{ price: 20, minPrice: 20, maxPrice: 35, currency: "EUR", inStock: false }, { "@type": "AggregateOffer", lowPrice: 20, highPrice: 35, priceCurrency: "EUR", availability: "https://schema.org/OutOfStock" }],
  ])("a product has a Product with %j → %j", (offerSummary, offers) => {
    const [block] = pinStructuredData(pin({ kind: "product", richMetadata: { products: [{ id: "p1", name: "Overshirt", brand: "Marlow & Main", offerSummary }] } }), CANONICAL);
    expect(block).toMatchObject({ "@type": "Product", name: "Overshirt", brand: { "@type": "Brand", name: "Marlow & Main" }, offers });
  });

  it("the breadcrumb goes home → pinner → board → pin, and skips a board it may not show", () => {
    const crumbs = (blocks: Array<Record<string, unknown>>) =>
      (blocks.at(-1)!.itemListElement as Array<{ name: string; position: number }>).map((item) => `${item.position}:${item.name}`);
    expect(crumbs(pinStructuredData(pin(), CANONICAL))).toEqual(["1:Pinloom", "2:Ava Thompson", "3:Spring bakes", "4:Lemon tart"]);
    expect(crumbs(pinStructuredData(pin({ board: null }), CANONICAL))).toEqual(["1:Pinloom", "2:Ava Thompson", "3:Lemon tart"]);
  });
});

describe("ISO 8601 durations", () => {
  it.each([
    [0, null],
    [null, null],
    [5, "PT5M"],
    [60, "PT1H"],
    [95, "PT1H35M"],
  ])("%s minutes → %s", (minutes, iso) => expect(isoMinutes(minutes)).toBe(iso));
  it.each([
    [0, "PT0S"],
    [4000, "PT4S"],
    [90_000, "PT1M30S"],
    [120_000, "PT2M"],
  ])("%s ms → %s", (ms, iso) => expect(isoDuration(ms)).toBe(iso));
});

describe("home, board and profile", () => {
  it("home: WebSite whose SearchAction fills the search page's query, and the Organization", () => {
    const [site, organization] = homeStructuredData("https://pinloom.example", "/search/pins/?q=");
    expect(site).toMatchObject({
      "@type": "WebSite",
      url: "https://pinloom.example/",
      potentialAction: {
        "@type": "SearchAction",
        target: { "@type": "EntryPoint", urlTemplate: "https://pinloom.example/search/pins/?q={search_term_string}" },
        "query-input": "required name=search_term_string",
      },
    });
    expect(organization).toMatchObject({ "@type": "Organization", name: "Pinloom", url: "https://pinloom.example/", logo: "https://pinloom.example/images/pinloom-logo.png" });
  });

  it("board: CollectionPage whose ItemList numbers its pins from 1, each at its close-up", () => {
    const [page, crumbs] = boardStructuredData(
      {
        name: "Weeknight dinners",
        description: "",
        owner: { name: "Ava", url: "/ava/" },
        pins: [
          { id: "7", title: "Orzo", image: "/media/pins/7/236x.jpg" },
          { id: "9", title: "", image: null },
        ],
      },
      "https://pinloom.example/ava/weeknight-dinners/",
    );
    expect(page).toEqual({
      "@context": "https://schema.org",
      "@type": "CollectionPage",
      url: "https://pinloom.example/ava/weeknight-dinners/",
      name: "Weeknight dinners",
      author: { "@type": "Person", name: "Ava", url: "https://pinloom.example/ava/" },
      isPartOf: { "@type": "WebSite", name: "Pinloom", url: "https://pinloom.example/" },
      mainEntity: {
        "@type": "ItemList",
        numberOfItems: 2,
        itemListElement: [
          { "@type": "ListItem", position: 1, url: "https://pinloom.example/pin/7/", name: "Orzo", image: "https://pinloom.example/media/pins/7/236x.jpg" },
          { "@type": "ListItem", position: 2, url: "https://pinloom.example/pin/9/" },
        ],
      },
    });
    expect(crumbs?.["@type"]).toBe("BreadcrumbList");
  });

  it.each([
    [false, "Person"],
    [true, "Organization"],
  ])("profile (business %s): ProfilePage about a %s", (isBusiness, type) => {
    const [page] = profileStructuredData(
      { name: "Bake & Bloom", username: "bakeandbloom", about: "", isBusiness, avatar: "/media/users/3/large.jpg", followerCount: 12 },
      "https://pinloom.example/bakeandbloom/",
    );
    expect(page).toMatchObject({
      "@type": "ProfilePage",
      url: "https://pinloom.example/bakeandbloom/",
      mainEntity: { "@type": type, name: "Bake & Bloom", alternateName: "@bakeandbloom", url: "https://pinloom.example/bakeandbloom/", image: "https://pinloom.example/media/users/3/large.jpg" },
    });
    expect((page!.mainEntity as Record<string, unknown>).description).toBeUndefined();
  });
});
