import { describe, expect, it } from "vitest";
import { recordVisit, viewedImages, visitedPages } from "./trail.client.ts";

function memoryStorage() {
  const items = new Map<string, string>();
  return { getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, value), items };
}
const sig = (n: number) => n.toString(16).padStart(32, "0");

describe("the session's trail in storage", () => {
  it("keeps the 11 most recently viewed images across page loads", () => {
    const storage = memoryStorage();
    for (let n = 1; n <= 14; n++) recordVisit(`/pin/${n}/`, sig(n), false, storage);
    expect(viewedImages(storage)).toEqual([14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4].map(sig));
  });

  it("records pages only while signed out, at most 10 pin pages among 20", () => {
    const storage = memoryStorage();
    recordVisit("/today/", null, true, storage);
    recordVisit("/settings/privacy/", null, true, storage);
    recordVisit("/demo/", null, false, storage);
    for (let n = 1; n <= 12; n++) recordVisit(`/pin/${n}/`, null, true, storage);
    const pages = visitedPages(storage);
    expect(pages.filter((page) => page.startsWith("/pin/"))).toHaveLength(10);
    expect(pages[0]).toBe("/pin/12/");
    expect(pages.at(-1)).toBe("/today/");
    expect(pages).not.toContain("/demo/");
  });

  it("reads a damaged or foreign value as an empty list, and survives refusing storage", () => {
    const storage = memoryStorage();
    storage.setItem("pinloom_viewed_images", "{not json");
    storage.setItem("pinloom_visited_pages", JSON.stringify(["https://evil.example/", 7, "/demo/"]));
    expect(viewedImages(storage)).toEqual([]);
    expect(visitedPages(storage)).toEqual(["/demo/"]);
    const refusing = { getItem: () => null, setItem: () => { throw new Error("QuotaExceededError"); } };
    expect(() => recordVisit("/today/", sig(1), true, refusing)).not.toThrow();
    expect(viewedImages(null)).toEqual([]);
  });
});
