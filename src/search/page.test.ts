import { describe, expect, it } from "vitest";
import { parseScope, readSearchRequest, redirectTarget, searchStructuredData, searchVariant } from "./page.ts";

const at = (path: string) => new URL(path, "https://pinloom.test");
const read = (path: string) => {
  const url = at(path);
  return readSearchRequest(parseScope(url.pathname.split("/")[2])!, url);
};

describe("parseScope", () => {
  it.each([
    ["pins", "pins"],
    ["my_content", "my_content"],
    ["pinz", null],
    [undefined, null],
    ["__proto__", null],
  ])("%s → %s", (value, expected) => expect(parseScope(value)).toBe(expected));
});

describe("readSearchRequest", () => {
  it("normalizes the query and canonicalizes without options", () => {
    const request = read("/search/pins/?q=%20Cake%20%20pops%20&filters=kind:recipe");
    expect(request.query).toBe("Cake pops");
    expect(request.canonicalPath).toBe("/search/pins/?q=Cake+pops");
    expect(request.tidyPath).toBe("/search/pins/?q=Cake+pops&filters=kind%3Arecipe");
    expect(request.options).toMatchObject({ query: "Cake pops", scope: "pins", filters: "kind:recipe" });
  });
  it("reads a GET form's repeated checkboxes and empty prices", () => {
    const request = read("/search/buyable_pins/?q=lamp&filters=kind:product&filters=created:30d&price_min=&price_max=40&domains=Shop.example&domains=b.example");
    expect(request.options).toMatchObject({ filters: "kind:product,created:30d", price_max: 40, domains: ["shop.example", "b.example"] });
    expect(request.options).not.toHaveProperty("price_min");
    expect(request.tidyPath).toBe("/search/buyable_pins/?q=lamp&filters=kind%3Aproduct%2Ccreated%3A30d&domains=shop.example%2Cb.example&price_max=40");
  });
  it("drops options the engine refuses and keeps the rest", () => {
    const request = read("/search/pins/?q=cake&filters=evil&rs=typed&price_min=9&price_max=3&user=bad%20name");
    expect(request.options).toMatchObject({ rs: "typed" });
    expect(request.options).not.toHaveProperty("filters");
    expect(request.options).not.toHaveProperty("price_max");
    expect(request.options).not.toHaveProperty("user");
    expect(request.tidyPath).toBe("/search/pins/?q=cake&rs=typed&price_min=9");
  });
  it("keeps the bookmark, locale and tracking parameters; drops unknown ones", () => {
    const request = read("/search/pins/?q=cake&bookmark=abc_1&locale=fr&junk=1&utm_source=x");
    expect(request.tidyPath).toBe("/search/pins/?q=cake&bookmark=abc_1&locale=fr&utm_source=x");
    expect(request.options?.bookmark).toBe("abc_1");
  });
  it("an empty query is the landing", () => {
    expect(read("/search/boards/?q=%20%20")).toMatchObject({ query: "", options: null, tidyPath: "/search/boards/", canonicalPath: "/search/boards/" });
    expect(read("/search/pins/").tidyPath).toBe("/search/pins/");
  });
  it("a tidy URL reads back to itself (no redirect loop)", () => {
    for (const path of [
      "/search/pins/?q=%20Cake%20%20pops%20&filters=kind:recipe&rs=tab",
      "/search/buyable_pins/?q=l%C3%A1mpara&domains=a.example&domains=b.example&price_min=1.5&bookmark=x",
      "/search/users/?q=%D9%83%D8%B9%D9%83&locale=ar_SA",
      "/search/pins/?q=a~b*c'd",
      "/search/videos/?q=%20",
    ]) {
      const first = read(path);
      const second = read(first.tidyPath);
      expect(second.tidyPath).toBe(first.tidyPath);
      expect(redirectTarget(at(first.tidyPath), second)).toBeNull();
    }
  });
  it("redirects only to a same-origin search path", () => {
    const url = at("/search/pins/?q=%20cake");
    const target = redirectTarget(url, readSearchRequest("pins", url));
    expect(target).toBe("/search/pins/?q=cake");
    expect(new URL(target!, "https://pinloom.test").origin).toBe("https://pinloom.test");
    const hostile = at("/search/pins/?q=//evil.example/%2F..");
    expect(redirectTarget(hostile, readSearchRequest("pins", hostile))?.startsWith("/search/pins/?q=")).toBe(true);
  });
});

describe("searchVariant", () => {
  it.each([
    [true, "desktop", "signed-in-desktop"],
    [true, "mobile", "mobile-or-signed-out"],
    [true, "tablet", "mobile-or-signed-out"],
    [false, "desktop", "mobile-or-signed-out"],
  ])("signed in %s on %s → %s", (isAuthenticated, browserType, expected) => expect(searchVariant({ isAuthenticated, userAgent: { browserType } })).toBe(expected));
});

describe("searchStructuredData", () => {
  it("lists the results with absolute URLs and positions", () => {
    const [block] = searchStructuredData("https://pinloom.test/search/pins/?q=cake", "cake", [
      { url: "/pin/1/", name: "One", image: "/img/1.jpg" },
      { url: "/pin/2/", name: "Two" },
    ]);
    expect(block).toMatchObject({
      "@type": "SearchResultsPage",
      mainEntity: {
        "@type": "ItemList",
        numberOfItems: 2,
        itemListElement: [
          { position: 1, url: "https://pinloom.test/pin/1/", name: "One", image: "https://pinloom.test/img/1.jpg" },
          { position: 2, url: "https://pinloom.test/pin/2/", name: "Two" },
        ],
      },
    });
  });
});
