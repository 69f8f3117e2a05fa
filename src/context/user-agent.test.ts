import { describe, expect, it } from "vitest";
import { parseUserAgent } from "./user-agent.ts";

const UA = {
  iphone: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
  ipad: "Mozilla/5.0 (iPad; CPU OS 16_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.2 Mobile/15E148 Safari/604.1",
  androidPhone: "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
  androidTablet: "Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
  windows: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.51",
  mac: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.3 Safari/605.1.15",
  firefoxLinux: "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0",
};

describe("parseUserAgent", () => {
  it.each([
    ["iphone", "ios", [17, 4, 1], true, false, "Safari"],
    ["ipad", "ios", [16, 2, 0], false, true, "Safari"],
    ["androidPhone", "android", [14, 0, 0], true, false, "Chrome"],
    ["androidTablet", "android", [13, 0, 0], false, true, "Chrome"],
    ["windows", "windows", [10, 0, 0], false, false, "Edge"],
    ["mac", "macos", [10, 15, 7], false, false, "Safari"],
    ["firefoxLinux", "linux", [0, 0, 0], false, false, "Firefox"],
  ] as const)("%s: %s %j, mobile %s, tablet %s, %s", (name, platform, version, isMobile, isTablet, browser) => {
    const facts = parseUserAgent(UA[name]);
    expect(facts.platform).toBe(platform);
    expect(facts.platformVersion).toEqual(version);
    expect(facts.isMobile).toBe(isMobile);
    expect(facts.isTablet).toBe(isTablet);
    expect(facts.browserName).toBe(browser);
  });

  it("defaults the platform version to 0,0,0", () => {
    expect(parseUserAgent("").platformVersion).toEqual([0, 0, 0]);
    expect(parseUserAgent(undefined).platformVersion).toEqual([0, 0, 0]);
    expect(parseUserAgent("Mozilla/5.0 (iPhone; CPU like Mac OS X)").platformVersion).toEqual([0, 0, 0]);
  });

  it("always gives exactly three whole numbers", () => {
    const facts = parseUserAgent("Mozilla/5.0 (Windows NT 6.1.7601.24544.99; Win64)");
    expect(facts.platformVersion).toEqual([6, 1, 7601]);
  });

  it("only offers the native app on phones and tablets, never to bots", () => {
    expect(parseUserAgent(UA.iphone).canUseNativeApp).toBe(true);
    expect(parseUserAgent(UA.windows).canUseNativeApp).toBe(false);
    expect(parseUserAgent(UA.iphone, true).canUseNativeApp).toBe(false);
    expect(parseUserAgent(UA.iphone, true).browserType).toBe("bot");
  });

  it("bounds what it keeps of a huge header", () => {
    expect(parseUserAgent("x".repeat(10_000)).raw).toHaveLength(512);
  });
});
