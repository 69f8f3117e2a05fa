import { describe, expect, it } from "vitest";
import { isSitePath, trailBehavior, withViewedImage, withVisitedPage } from "./trail.ts";

const sig = (n: number) => `${n}`.padStart(32, "0");

describe("recently viewed images (spec 001 §9: the new one plus 10)", () => {
  it("keeps at most 11, the newest first", () => {
    let list: string[] = [];
    for (let n = 1; n <= 15; n++) list = withViewedImage(list, sig(n));
    expect(list).toHaveLength(11);
    expect(list).toEqual([15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5].map(sig));
  });

  it("moves an image viewed again to the front without keeping it twice", () => {
    const list = withViewedImage([sig(3), sig(2), sig(1)], sig(1));
    expect(list).toEqual([sig(1), sig(3), sig(2)]);
  });

  it("ignores what is not an image signature", () => {
    expect(withViewedImage([sig(1)], "<script>")).toEqual([sig(1)]);
    expect(withViewedImage([sig(1)], "")).toEqual([sig(1)]);
  });

  it("sends the images with a sign-up under viewed_images, and nothing when there are none", () => {
    expect(trailBehavior([sig(1)])).toEqual({ viewed_images: [sig(1)] });
    expect(trailBehavior([])).toBeUndefined();
  });
});

describe("visited pages (spec 000 §9: 20 pages, 10 of them pin pages)", () => {
  it("keeps at most 20 pages, the newest first, a page visited again moved to the front", () => {
    let list: string[] = [];
    for (let n = 1; n <= 25; n++) list = withVisitedPage(list, `/user${n}/`);
    expect(list).toHaveLength(20);
    expect(list[0]).toBe("/user25/");
    expect(list.at(-1)).toBe("/user6/");
    expect(withVisitedPage(["/a/", "/b/"], "/b/")).toEqual(["/b/", "/a/"]);
  });

  it("keeps at most 10 pin pages among them, dropping the oldest", () => {
    let list: string[] = ["/demo/"];
    for (let n = 1; n <= 12; n++) list = withVisitedPage(list, `/pin/${n}/`);
    expect(list).toEqual(["/pin/12/", "/pin/11/", "/pin/10/", "/pin/9/", "/pin/8/", "/pin/7/", "/pin/6/", "/pin/5/", "/pin/4/", "/pin/3/", "/demo/"]);
  });

  it("keeps landing pages only, and only their paths", () => {
    expect(withVisitedPage([], "/login/")).toEqual([]);
    expect(withVisitedPage([], "/settings/privacy/")).toEqual([]);
    expect(withVisitedPage([], "/signup/")).toEqual([]);
    expect(withVisitedPage([], "/pin-builder/")).toEqual([]);
    expect(withVisitedPage([], "/today/")).toEqual(["/today/"]);
    expect(withVisitedPage([], "/search/pins/?q=secret")).toEqual([]);
    expect(withVisitedPage([], "/demo/weeknight-dinners/pasta/")).toEqual(["/demo/weeknight-dinners/pasta/"]);
  });

  it("counts a path on this site only", () => {
    expect(isSitePath("/pin/1/")).toBe(true);
    for (const path of ["https://evil.example/", "//evil.example/", "/a\\b", "pin/1/", "/a b", "/pin/1/?next=x"]) expect(isSitePath(path), path).toBe(false);
  });
});
