import { describe, expect, it } from "vitest";
import { advertiserLink, BUSINESS_HUB_PATH, navigationOn } from "./navigation.ts";

const ORIGIN = "https://pinloom.example";

describe("the advertiser-area prefix", () => {
  it("prefixes relative links on our host when an advertiser id is given", () => {
    expect(advertiserLink("/business/hub/12/ad-accounts/?page=2#top", "549755813888", ORIGIN)).toBe("/advertiser/549755813888/business/hub/12/ad-accounts/?page=2#top");
    expect(advertiserLink("https://pinloom.example/business/hub/", "7", ORIGIN)).toBe("/advertiser/7/business/hub/");
  });

  it("leaves links alone without an advertiser, on other hosts, or already inside the area", () => {
    expect(advertiserLink("/business/hub/", null, ORIGIN)).toBe("/business/hub/");
    expect(advertiserLink("https://elsewhere.example/x", "7", ORIGIN)).toBe("https://elsewhere.example/x");
    expect(advertiserLink("/advertiser/7/business/hub/", "7", ORIGIN)).toBe("/advertiser/7/business/hub/");
    expect(advertiserLink("/business/hub/", "not-an-id", ORIGIN)).toBe("/business/hub/");
  });

  it("links the hub with show_vmp=true", () => {
    expect(new URL(BUSINESS_HUB_PATH, ORIGIN).searchParams.get("show_vmp")).toBe("true");
  });

  it("turns the shortcuts on only in the experiment's on group", () => {
    expect([navigationOn("on"), navigationOn("off"), navigationOn(undefined)]).toEqual([true, false, false]);
  });
});
