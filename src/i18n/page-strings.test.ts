import { beforeAll, afterEach, describe, expect, it } from "vitest";
import { AUTH_STRINGS_ID } from "~/accounts/auth-strings.ts";
import { getT, loadLocale } from "./i18n.ts";
import { commentStrings } from "~/comments/strings.ts";
import { saveStrings } from "~/saves/strings.ts";
import { searchBoxStrings } from "~/search/search-box-strings.ts";
import { PAGE_STRINGS_ID, pageStrings, resetPageStrings } from "./page-strings.ts";
import { pageStringsJson, serverPageStrings } from "./page-strings.server.ts";

// Locales other than English load on first need, as in the Worker.
beforeAll(() => Promise.all((["fr", "ar_SA", "de"] as const).map(loadLocale)));

/** A document holding the given blocks, as much of one as the reader uses. */
function page(blocks: Record<string, string>): Pick<Document, "getElementById"> {
  return { getElementById: (id: string) => (id in blocks ? ({ textContent: blocks[id] } as HTMLElement) : null) };
}

afterEach(() => resetPageStrings());

describe("page strings", () => {
  it("gives an island on the server its locale's own table", () => {
    expect(pageStrings("save", "fr", undefined)).toBe(saveStrings(getT("fr")));
    expect(pageStrings("comments", "en_US", undefined)).toBe(commentStrings(getT("en_US")));
    expect(serverPageStrings("search", "de")).toBe(searchBoxStrings(getT("de")));
  });

  it("falls back to the default locale for a locale the server does not know", () => {
    expect(serverPageStrings("save", "xx_XX")).toBe(saveStrings(getT("en_US")));
  });

  it("writes each table once, in a fixed order, as the browser then reads it", () => {
    const json = pageStringsJson(new Set(["search", "save", "comments"]), "fr")!;
    expect(Object.keys(JSON.parse(json) as object)).toEqual(["comments", "save", "search"]);
    expect(pageStringsJson(new Set(["save", "search", "comments"]), "fr")).toBe(json);
    const doc = page({ [PAGE_STRINGS_ID]: json });
    // The browser's copy equals the server's table, so hydration renders the server's words.
    expect(pageStrings("save", "fr", doc)).toEqual(saveStrings(getT("fr")));
    expect(pageStrings("search", "fr", doc)).toEqual(searchBoxStrings(getT("fr")));
  });

  it("needs no block for a page without the tables' islands, and leaves auth to its own block", () => {
    expect(pageStringsJson(new Set(), "en_US")).toBeNull();
    expect(pageStringsJson(new Set(["auth"]), "en_US")).toBeNull();
  });

  it("escapes the block so no string can close its script element", () => {
    expect(pageStringsJson(new Set(["comments", "save", "search"]), "ar_SA")).not.toMatch(/<|>/);
  });

  it("names the missing table when the page does not carry it", () => {
    const doc = page({ [PAGE_STRINGS_ID]: JSON.stringify({ search: searchBoxStrings(getT("en_US")) }) });
    expect(() => pageStrings("comments", "en_US", doc)).toThrow(/no "comments" table/);
  });

  it("reads a damaged block as no block", () => {
    expect(() => pageStrings("save", "en_US", page({ [PAGE_STRINGS_ID]: "{not json" }))).toThrow(/no "save" table/);
  });

  it("reads auth's table from the log-in islands' own block", () => {
    const auth = { header: { menu: "Menu" } };
    expect(pageStrings("auth", "en_US", page({ [AUTH_STRINGS_ID]: JSON.stringify(auth) }))).toEqual(auth);
  });
});
