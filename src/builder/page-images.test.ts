import { describe, expect, it } from "vitest";
import { absoluteUrl, canonicalUrl, decodeEntities, foundImages, largestSrcsetCandidate, pageText, pixelSize, type ImageCandidate, type PageRead } from "./page-images.ts";

const PAGE = new URL("https://shop.example/recipes/noodles/index.html");
const read = (candidates: ImageCandidate[], extra: Partial<PageRead> = {}): PageRead => ({ baseHref: null, title: "", description: "", canonical: null, candidates, ...extra });
const image = (src: string, more: Partial<ImageCandidate> = {}): ImageCandidate => ({ src, width: null, height: null, alt: "", ...more });

describe("decodeEntities", () => {
  it.each([
    ["a.jpg?w=1&amp;h=2", "a.jpg?w=1&h=2"],
    ["Fish &amp; chips", "Fish & chips"],
    ["&lt;b&gt; &quot;q&quot; &apos;a&apos; &#39;n&#39; &#x41;", `<b> "q" 'a' 'n' A`],
    ["caf&#233;", "café"],
    ["an unknown &zzzz; stays", "an unknown &zzzz; stays"],
    ["&copy; 2026 &mdash; caf&eacute;", "© 2026 — café"],
    ["&#0; and &#xD800;", "\ufffd and \ufffd"],
    ["no entities", "no entities"],
  ])("decodes %s", (input, expected) => {
    expect(decodeEntities(input)).toBe(expected);
  });
});

describe("pixelSize", () => {
  it.each([
    ["640", 640],
    [" 640px ", 640],
    ["640.5", 640],
    ["100%", null],
    ["auto", null],
    ["0", null],
    ["", null],
    [null, null],
  ])("reads %s as %s", (input, expected) => {
    expect(pixelSize(input)).toBe(expected);
  });
});

describe("largestSrcsetCandidate", () => {
  it.each([
    ["small.jpg 320w, large.jpg 1280w, medium.jpg 640w", { src: "large.jpg", width: 1280 }],
    ["a.jpg, b.jpg 2x, c.jpg 1.5x", { src: "b.jpg", width: null }],
    ["x.jpg 3x, y.jpg 200w", { src: "y.jpg", width: 200 }],
    ["/img/a,b.jpg 100w, /img/c.jpg 50w", { src: "/img/a,b.jpg", width: 100 }],
    ["only.jpg", { src: "only.jpg", width: null }],
  ])("picks from %s", (srcset, expected) => {
    expect(largestSrcsetCandidate(srcset)).toEqual(expected);
  });

  it("answers nothing for an empty srcset", () => {
    expect(largestSrcsetCandidate("  ")).toBeNull();
  });
});

describe("absoluteUrl", () => {
  it.each([
    ["photo.jpg", "https://shop.example/recipes/noodles/photo.jpg"],
    ["../bowl.png", "https://shop.example/recipes/bowl.png"],
    ["/img/hero.webp", "https://shop.example/img/hero.webp"],
    ["//cdn.example/a.jpg", "https://cdn.example/a.jpg"],
    ["http://other.example/b.gif#frame", "http://other.example/b.gif"],
    ["a.jpg?w=1&amp;h=2", "https://shop.example/recipes/noodles/a.jpg?w=1&h=2"],
  ])("resolves %s", (reference, expected) => {
    expect(absoluteUrl(reference, PAGE)?.href).toBe(expected);
  });

  it.each(["data:image/png;base64,iVBORw0KGgo=", " DATA:image/gif;base64,R0lG", "javascript:alert(1)", "ftp://files.example/a.jpg", "", "http://[bad/"])("drops %s", (reference) => {
    expect(absoluteUrl(reference, PAGE)).toBeNull();
  });
});

describe("foundImages", () => {
  it("keeps page order, resolves against the page, and drops data URIs, tiny images and private addresses", () => {
    const images = foundImages(
      read([
        image("https://cdn.example/og.jpg", { width: 1200, height: 630 }),
        image("data:image/png;base64,AAAA"),
        image("pixel.gif", { width: 1, height: 1 }),
        image("icon.png", { width: 99, height: 400 }),
        image("just-enough.png", { width: 100, height: 100, alt: "  A   bowl\nof noodles " }),
        image("http://127.0.0.1/secret.jpg"),
        image("http://printer.local/scan.jpg"),
        image("no-size.jpg"),
      ]),
      PAGE,
    );
    expect(images).toEqual([
      { src: "https://cdn.example/og.jpg", width: 1200, height: 630, alt: "" },
      { src: "https://shop.example/recipes/noodles/just-enough.png", width: 100, height: 100, alt: "A bowl of noodles" },
      { src: "https://shop.example/recipes/noodles/no-size.jpg", width: null, height: null, alt: "" },
    ]);
  });

  it("keeps one of each image, the first, lent the size and alt a repeat declares", () => {
    const images = foundImages(read([image("/a.jpg"), image("https://shop.example/a.jpg#zoom", { width: 800, height: 600, alt: "Bowl" }), image("a.jpg")]), PAGE);
    expect(images).toEqual([
      { src: "https://shop.example/a.jpg", width: 800, height: 600, alt: "Bowl" },
      { src: "https://shop.example/recipes/noodles/a.jpg", width: null, height: null, alt: "" },
    ]);
  });

  it("resolves against the page's <base href>, and ignores a base that is not a web address", () => {
    expect(foundImages(read([image("a.jpg")], { baseHref: "https://static.example/assets/" }), PAGE)[0]!.src).toBe("https://static.example/assets/a.jpg");
    expect(foundImages(read([image("a.jpg")], { baseHref: "javascript:void(0)" }), PAGE)[0]!.src).toBe("https://shop.example/recipes/noodles/a.jpg");
  });
});

describe("pageText and canonicalUrl", () => {
  it("cuts the title and description to a pin's own limits, white space folded", () => {
    const text = pageText(read([], { title: ` Noodles &amp;\n ${"t".repeat(200)}`, description: "d".repeat(600) }));
    expect(text.title).toBe(`Noodles & ${"t".repeat(90)}`);
    expect(text.title.length).toBe(100);
    expect(text.description.length).toBe(500);
  });

  it.each([
    ["a relative canonical", "/recipes/noodles/", "https://shop.example/recipes/noodles/"],
    ["an absolute canonical", "https://www.shop.example/noodles", "https://www.shop.example/noodles"],
    ["none", null, null],
    ["a private address", "http://localhost/noodles", null],
    ["another scheme", "mailto:chef@shop.example", null],
  ])("reads %s", (_name, canonical, expected) => {
    expect(canonicalUrl(read([], { canonical }), PAGE)?.href ?? null).toBe(expected);
  });
});
