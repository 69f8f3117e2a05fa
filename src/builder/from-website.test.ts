// The "create from a website" island as it renders in each state, and the words it shows for a
// failed call. The strings come from the locale files, as the builder hands them over.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it } from "vitest";
import { ApiCallError, NetworkError } from "~/api/api.client.ts";
import { getT, loadLocale } from "~/i18n/i18n.ts";
import { FromWebsite, FromWebsiteView, previewSrc, problemText, type FromWebsiteViewProps } from "./FromWebsite.tsx";
import { fromWebsiteStrings } from "./from-website-strings.ts";

// Locales other than English load on first need, as in the Worker.
beforeAll(() => Promise.all((["fr", "ar_SA"] as const).map(loadLocale)));

const strings = fromWebsiteStrings(getT("en_US"));
const PAGE = {
  url: "https://shop.example/noodles",
  title: "Noodles",
  description: "",
  link: "https://shop.example/noodles",
  items: [
    { src: "https://cdn.example/bowl.jpg?w=1&h=2", width: 600, height: 800, alt: "A bowl of noodles" },
    { src: "https://cdn.example/steam.jpg", width: null, height: null, alt: "" },
  ],
};

const noop = () => undefined;
const view = (state: Partial<FromWebsiteViewProps>) =>
  renderToStaticMarkup(
    createElement(FromWebsiteView, {
      strings,
      address: "",
      page: null,
      selected: null,
      busy: null,
      problem: null,
      status: "",
      broken: new Set<number>(),
      onAddress: noop,
      onFind: noop,
      onSelect: noop,
      onImport: noop,
      onBroken: noop,
      ...state,
    }),
  );

describe("FromWebsiteView", () => {
  it("starts with a labelled address field, its hint, and the find button", () => {
    const html = view({});
    expect(html).toMatch(/<section[^>]*aria-labelledby="([^"]+)-heading"/);
    expect(html).toContain(">Create from a website</h2>");
    expect(html).toMatch(/<label for="([^"]+)-url"[^>]*>Website address<\/label>/);
    expect(html).toMatch(/<input id="[^"]+-url"[^>]*type="url"[^>]*aria-invalid="false"[^>]*aria-describedby="[^"]+-hint"/);
    expect(html).toContain(">Enter the address of a page, then choose one of its images</p>");
    expect(html).toMatch(/<button type="submit"[^>]*>Find images<\/button>/);
    expect(html).not.toContain("<fieldset");
  });

  it("says it is finding, with the button disabled", () => {
    const html = view({ busy: "finding", status: strings.finding });
    expect(html).toMatch(/<button type="submit"[^>]*disabled=""[^>]*>Finding images…<\/button>/);
    expect(html).toContain('role="status">Finding images…</p>');
  });

  it("ties a problem with the address to the field", () => {
    const html = view({ problem: { at: "find", text: "This address isn't a web page. Enter the address of a page with images" } });
    expect(html).toMatch(/aria-invalid="true" aria-describedby="([^"]+)-hint \1-problem"/);
    expect(html).toMatch(/<p id="[^"]+-problem"[^>]*role="alert">This address isn&#x27;t a web page/);
  });

  it("shows the found images as a radio group named by their alt text, previewed through the Worker", () => {
    const html = view({ page: PAGE, selected: 1 });
    expect(html).toContain("<legend");
    expect(html).toContain(">Choose an image</legend>");
    expect(html.match(/type="radio"/g)).toHaveLength(2);
    expect(html).toMatch(/<input type="radio"[^>]*checked=""[^>]*value="1"/);
    expect(html).toContain(`src="/v3/media/uploads/from-url/?url=https%3A%2F%2Fcdn.example%2Fbowl.jpg%3Fw%3D1%26h%3D2" alt="A bowl of noodles"`);
    // An image the page gave no alt text is named by its place.
    expect(html).toContain('alt="Image 2"');
    expect(html).toMatch(/<button type="submit"[^>]*>Use this image<\/button>/);
  });

  it("says so when a page has no images", () => {
    const html = view({ page: { ...PAGE, items: [] } });
    expect(html).toContain("No images were found on this page. Try another address.");
    expect(html).not.toContain("<fieldset");
  });

  it("disables the choice while importing, and shows an import problem beside the button", () => {
    const html = view({ page: PAGE, selected: 0, busy: "importing", problem: { at: "import", text: "Something went wrong. Try again." } });
    expect(html.match(/type="radio"[^>]*disabled=""/g)).toHaveLength(2);
    expect(html).toMatch(/disabled="">Adding the image…<\/button><p class="from-website__problem" role="alert">Something went wrong. Try again.<\/p>/);
    expect(html).toContain('aria-invalid="false"');
  });

  it("renders in French and Arabic from the tables it is given", () => {
    const fr = renderToStaticMarkup(createElement(FromWebsite, { onImported: noop, strings: fromWebsiteStrings(getT("fr")) }));
    expect(fr).toContain(">Trouver des images</button>");
    const ar = renderToStaticMarkup(createElement(FromWebsite, { onImported: noop, strings: fromWebsiteStrings(getT("ar_SA")) }));
    expect(ar).toContain(">البحث عن صور</button>");
    // The address itself always reads left to right.
    expect(ar).toMatch(/<input[^>]*dir="ltr"/);
  });
});

describe("previewSrc", () => {
  it("asks the Worker for the image, its address encoded whole", () => {
    expect(previewSrc("https://cdn.example/a b.jpg?x=1&y=2#f")).toBe("/v3/media/uploads/from-url/?url=https%3A%2F%2Fcdn.example%2Fa%20b.jpg%3Fx%3D1%26y%3D2%23f");
  });
});

describe("problemText", () => {
  it.each([
    ["the reason the server gave about the address", new ApiCallError(400, { message: "Invalid parameters", message_detail: "url: This page answered with an error (404)" }), "This page answered with an error (404)"],
    ["the reason about the option", new ApiCallError(400, { message: "Invalid parameters", message_detail: "options.url: must be at most 2048 characters" }), "must be at most 2048 characters"],
    ["the message of a refusal about no field", new ApiCallError(429, { message: "Too many requests. Try again later." }), "Too many requests. Try again later."],
    ["a general failure for a server error", new ApiCallError(500, { message: "Internal error" }), "Something went wrong. Try again."],
    ["offline for a call that never got an answer", new NetworkError(new TypeError("Failed to fetch")), "You're offline. Check your connection and try again."],
    ["a general failure for anything else", new Error("boom"), "Something went wrong. Try again."],
  ])("shows %s", (_name, error, expected) => {
    expect(problemText(error, strings)).toBe(expected);
  });
});
