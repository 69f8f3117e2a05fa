import { describe, expect, it } from "vitest";
import { decodeBookmark } from "./query.ts";
import { emptyResponse, guideTerms, pageResponse, tabsFor, type PageRequest } from "./response.ts";
import type { SearchItem } from "./types.ts";

const users = (count: number): SearchItem[] =>
  Array.from({ length: count }, (_, i) => ({ type: "user", id: String(i), username: `u${i}`, fullName: `U ${i}`, imageUrl: null, followerCount: 0, url: `/u${i}/` }));

const request: PageRequest = { query: "red shoes", scope: "users", viewer: { id: null }, applied: [], key: "0a1b2c3d", offset: 0, limit: 26, anchor: 1_700_000_000_000 };

describe("the response around a page", () => {
  it("offers the personal scopes only to a signed-in viewer", () => {
    expect(tabsFor("boards", { id: null })).toEqual([
      { scope: "pins", selected: false },
      { scope: "buyable_pins", selected: false },
      { scope: "videos", selected: false },
      { scope: "boards", selected: true },
      { scope: "users", selected: false },
      { scope: "idea_pins", selected: false },
    ]);
    expect(tabsFor("my_pins", { id: 4 }).map((tab) => tab.scope)).toEqual(["pins", "buyable_pins", "my_pins", "videos", "boards", "users", "idea_pins", "my_content"]);
  });

  it("nags on a first page of fewer than five results with no more to come", () => {
    expect(pageResponse(request, { more: false, results: users(4), guides: [], productFilters: null, corrected: null }).nag).toEqual({ kind: "few_results" });
    expect(pageResponse(request, { more: false, results: users(5), guides: [], productFilters: null, corrected: null }).nag).toBeNull();
    expect(pageResponse({ ...request, offset: 25 }, { more: false, results: users(1), guides: [], productFilters: null, corrected: null }).nag).toBeNull();
  });

  it("bookmarks the next page after the rows shown, at the search's anchor, and ends with -end-", () => {
    const more = pageResponse({ ...request, offset: 25 }, { more: true, results: users(25), guides: [], productFilters: null, corrected: null });
    expect(decodeBookmark(more.bookmark)).toEqual({ key: "0a1b2c3d", offset: 50, anchor: 1_700_000_000_000 });
    expect(pageResponse(request, { more: false, results: users(3), guides: [], productFilters: null, corrected: null }).bookmark).toBe("-end-");
  });

  it("offers a correction against the request's own spelling", () => {
    const answer = pageResponse({ ...request, query: "Red Shoos" }, { more: false, results: [], guides: [], productFilters: null, corrected: "red shoes" });
    expect(answer.typo).toEqual({ original: "Red Shoos", corrected: "red shoes" });
  });

  it("answers an empty buyable search with empty product filters and the shopping icon", () => {
    const answer = emptyResponse("!!!", "buyable_pins", { id: null }, []);
    expect(answer).toMatchObject({ results: [], bookmark: "-end-", nag: { kind: "few_results" }, modeIcon: "shopping", productFilters: { price: null, domains: [], categories: [] } });
  });
});

describe("guides", () => {
  it("drops the query and the applied guides (ignoring case) and repeats, and keeps eight", () => {
    const rows = ["Pasta", "Dinner", "dinner", "Quick meals", "Sauce", "Herbs", "Wine", "Salad", "Bread", "Cheese", "Olives"].map((term) => ({ term }));
    expect(guideTerms(rows, "pasta", ["Quick  meals"]).map((guide) => guide.term)).toEqual(["Dinner", "Sauce", "Herbs", "Wine", "Salad", "Bread", "Cheese", "Olives"]);
  });
});
