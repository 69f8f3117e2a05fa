import { describe, expect, it } from "vitest";
import { canNamePage, routedPagePath } from "./page-path.ts";

describe("canNamePage", () => {
  it.each(["/", "/pin/101/", "/search/pins/", "/caf%C3%A9/", "/%E2%9C%93/", "/a%20b/", "/404", "/5000/", "/ana/500/"])("reads %s", (path) => {
    expect(canNamePage(path)).toBe(true);
  });

  it.each([
    ["an invalid byte", "/%FF/"],
    ["an escape inside a page path", "/pin/%FF/"],
    ["a truncated UTF-8 sequence", "/%E0%A4%A/"],
    ["a lone percent sign", "/pin/%/"],
    ["an encoded surrogate", "/%ED%A0%80/"],
    ["a character encoded eleven times over", "/pin/%" + "25".repeat(10) + "41/"],
    ["the error page's own route", "/500"],
    ["the error page's route with a slash", "/500/"],
    ["the error page's route encoded", "/%35%30%30"],
    ["the error page's route behind repeated slashes", "//500"],
  ])("refuses %s", (_name, path) => {
    expect(canNamePage(path)).toBe(false);
  });
});

describe("routedPagePath", () => {
  it("decodes as many rounds as Astro does, and no more", () => {
    expect(routedPagePath("/%2541/")).toBe("/A/");
    expect(routedPagePath("/%" + "25".repeat(9) + "41/")).toBe("/A/");
    expect(routedPagePath("/%" + "25".repeat(10) + "41/")).toBeNull();
  });

  it("keeps what decoded once a later round fails", () => {
    expect(routedPagePath("/%25FF/")).toBe("/%FF/");
  });
});
