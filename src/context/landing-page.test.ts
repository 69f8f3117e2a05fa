import { describe, expect, it } from "vitest";
import { landingPageType } from "./landing-page.ts";

describe("landing-page types (spec 000 §2)", () => {
  it.each([
    ["/", null, "home"],
    ["/homefeed/", null, "home"],
    ["/pin/123/", null, "closeup"],
    ["/pin/123/sent/", null, "closeup"],
    ["/search/pins/", null, "search"],
    ["/search/boards/", null, "search"],
    ["/today/article/a-slow-weekend/42/", null, "today"],
    ["/ideas/", null, "ideas"],
    ["/ideas/home-decor/123/", null, "ideas"],
    ["/topics/baking/", null, "topic"],
    ["/ava/", null, "profile"],
    ["/ava/", "ava", "profile"],
    ["/ava/spring-bakes/", null, "board"],
    ["/ava/spring-bakes/", "sam", "board"],
    ["/ava/spring-bakes/", "ava", "own_board"],
    ["/Ava/spring-bakes/", "ava", "own_board"],
    ["/ava/spring-bakes/cakes/", null, "section"],
    ["/ava/spring-bakes/cakes/", "ava", "own_section"],
  ])("%s (viewer %s) is %s", (path, viewer, type) => {
    expect(landingPageType(path, viewer)).toBe(type);
  });

  it.each(["/settings/privacy/", "/resource/PinResource/get/", "/v3/users/me/", "/pin/abc/", "/a/b/c/d/"])("%s is no landing page", (path) => {
    expect(landingPageType(path)).toBeNull();
  });
});
