import { describe, expect, it } from "vitest";
import {
  allows,
  asksConsent,
  browserConsent,
  consentRequired,
  consentState,
  formatConsentCookie,
  isAnalyticsEvent,
  keepsAdId,
  parseConsentCookie,
  type ConsentState,
} from "./consent.ts";

const account = (p: number, a: number, m: number, at: number | null) => ({ allow_personalization_cookies: p, allow_analytic_cookies: a, allow_marketing_cookies: m, cookie_consent_at: at });

describe("consent countries", () => {
  it.each([
    ["FR", true], ["de", true], ["IS", true], ["NO", true], ["GB", true], ["CH", true], ["BR", true],
    ["US", false], ["JP", false], ["IN", false], ["", false],
  ])("%s asks first: %s", (country, expected) => {
    expect(consentRequired(country)).toBe(expected);
  });
});

describe("the consent cookie", () => {
  it("writes and reads the three choices", () => {
    expect(formatConsentCookie({ personalization: true, analytics: false, marketing: true })).toBe("p1a0m1");
    expect(parseConsentCookie("p0a1m0")).toEqual({ personalization: false, analytics: true, marketing: false });
  });

  it.each([null, "", "p1a1", "p2a0m0", "p1a0m1x", "yes"])("reads %j as no choice", (value) => {
    expect(parseConsentCookie(value)).toBeNull();
  });
});

describe("what a state allows", () => {
  const cases: Array<[string, ConsentState, boolean, boolean, boolean]> = [
    // [name, state, analytics allowed, ad id kept, banner asks]
    ["consent country, no choice", { required: true, choices: null }, false, false, true],
    ["elsewhere, no choice", { required: false, choices: null }, true, true, false],
    ["consent country, all allowed", { required: true, choices: { personalization: true, analytics: true, marketing: true } }, true, true, false],
    ["consent country, analytics only", { required: true, choices: { personalization: false, analytics: true, marketing: false } }, true, false, false],
    ["elsewhere, all rejected", { required: false, choices: { personalization: false, analytics: false, marketing: false } }, false, true, false],
  ];
  it.each(cases)("%s", (_name, state, analytics, adId, asks) => {
    expect(allows(state, "analytics")).toBe(analytics);
    expect(keepsAdId(state)).toBe(adId);
    expect(asksConsent(state)).toBe(asks);
  });
});

describe("whose choice counts", () => {
  it("a signed-in account's, once it chose; the cookie otherwise", () => {
    expect(consentState("FR", account(1, 1, 0, 5), "p0a0m0").choices).toEqual({ personalization: true, analytics: true, marketing: false });
    expect(consentState("FR", account(1, 1, 1, null), "p1a1m1").choices).toBeNull();
    expect(consentState("FR", null, "p1a0m0").choices).toEqual({ personalization: true, analytics: false, marketing: false });
  });

  it("a browser's ad identifier is kept only where it may stay", () => {
    expect(browserConsent("pinloom_consent=p1a1m0; pinloom_epik=abc", "FR").adId).toBe("abc");
    expect(browserConsent("pinloom_consent=p0a1m0; pinloom_epik=abc", "FR").adId).toBeNull();
    expect(browserConsent("pinloom_epik=abc", "US").adId).toBe("abc");
    expect(browserConsent("pinloom_epik=<script>", "US").adId).toBeNull();
  });
});

describe("which events need analytics consent", () => {
  it.each([
    [13, true], [14, true], [1, true], [9101, true],
    [9001, false], [9002, false], [9003, false], [9004, false], [9102, false],
  ])("event %i: %s", (eventType, expected) => {
    expect(isAnalyticsEvent(eventType)).toBe(expected);
  });
});
