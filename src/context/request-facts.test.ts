import { describe, expect, it } from "vitest";
import { appTypeDetailedOf, countryFromHostName, isInternalAddress, isPrefetchRequest, pageHandlerId, unauthIdOf } from "./request-facts.ts";

describe("countryFromHostName", () => {
  const hosts = "pinloom.com, pinloom.fr, pinloom.co.uk, pinloom.de";
  it("names the country of a listed country domain", () => {
    expect(countryFromHostName("pinloom.fr", hosts)).toBe("FR");
    expect(countryFromHostName("PINLOOM.DE", hosts)).toBe("DE");
    expect(countryFromHostName("pinloom.co.uk", hosts)).toBe("GB");
  });
  it("names none for the main domain, an unlisted host or no list", () => {
    expect(countryFromHostName("pinloom.com", hosts)).toBeNull();
    expect(countryFromHostName("pinloom.es", hosts)).toBeNull();
    expect(countryFromHostName("pinloom.fr", undefined)).toBeNull();
    expect(countryFromHostName("localhost", "localhost")).toBeNull();
  });
});

describe("isPrefetch", () => {
  it("reads Sec-Purpose, Purpose and X-Moz", () => {
    expect(isPrefetchRequest(new Headers({ "sec-purpose": "prefetch" }))).toBe(true);
    expect(isPrefetchRequest(new Headers({ "sec-purpose": "prefetch;prerender" }))).toBe(true);
    expect(isPrefetchRequest(new Headers({ purpose: "prefetch" }))).toBe(true);
    expect(isPrefetchRequest(new Headers({ "x-moz": "prefetch" }))).toBe(true);
    expect(isPrefetchRequest(new Headers())).toBe(false);
    expect(isPrefetchRequest(new Headers({ "sec-purpose": "prefetching-not" }))).toBe(false);
  });
});

describe("isInternalIP", () => {
  it("is true for private, loopback and link-local addresses", () => {
    for (const ip of ["10.0.0.1", "127.0.0.1", "172.16.5.4", "172.31.255.255", "192.168.1.20", "169.254.1.1", "::1", "fd12:3456::1", "fe80::1", "::ffff:10.1.2.3"]) {
      expect(isInternalAddress(ip), ip).toBe(true);
    }
  });
  it("is false for public addresses and none", () => {
    for (const ip of ["8.8.8.8", "172.32.0.1", "192.169.0.1", "203.0.113.5", "2001:db8::1", "", null]) expect(isInternalAddress(ip), String(ip)).toBe(false);
  });
});

describe("appTypeDetailed", () => {
  it("is the device class's web client, or bot", () => {
    expect(appTypeDetailedOf({ browserType: "desktop" })).toBe("desktop_web");
    expect(appTypeDetailedOf({ browserType: "mobile" })).toBe("mobile_web");
    expect(appTypeDetailedOf({ browserType: "tablet" })).toBe("tablet_web");
    expect(appTypeDetailedOf({ browserType: "bot" })).toBe("bot");
  });
});

describe("unauthId", () => {
  it("is 16 hex digits, the same for the same cookie and different for another", () => {
    const id = unauthIdOf("a".repeat(64));
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(unauthIdOf("a".repeat(64))).toBe(id);
    expect(unauthIdOf("b".repeat(64))).not.toBe(id);
    expect(id).not.toContain("aaaa");
  });
  it("is null without a cookie", () => {
    expect(unauthIdOf(null)).toBeNull();
    expect(unauthIdOf("")).toBeNull();
  });
});

describe("initialHandlerId", () => {
  it.each([
    ["/", "/"],
    ["/today/", "/today"],
    ["/today/best/cozy/1/", "/today/[segment]/[slug]/[id]"],
    ["/pin/123/", "/pin/[id]"],
    ["/pin/123/repin/", "/pin/[id]/repin"],
    ["/pin/123/sent/", "/pin/[id]/sent"],
    ["/demo/", "/[username]"],
    ["/demo/weeknight-dinners/", "/[username]/[board]"],
    ["/demo/weeknight-dinners/pasta/", "/[username]/[board]/[section]"],
    ["/search/pins/", "/search/[scope]"],
    ["/settings/privacy/", "/settings/privacy"],
    ["/settings/messages/requests/", "/settings/messages/[section]"],
    ["/pin-builder/story/", "/pin-builder/story"],
    // Static segments win, then parameters: a third segment that is no page of /pin/ is a section's.
    ["/pin/1/2/", "/[username]/[board]/[section]"],
  ])("%s is handled by %s", (path, handler) => {
    expect(pageHandlerId(path)).toBe(handler);
  });
  it("is null for a path no page handles", () => {
    expect(pageHandlerId("/a/b/c/d/")).toBeNull();
    expect(pageHandlerId("/settings/a/b/c/")).toBeNull();
  });
});
