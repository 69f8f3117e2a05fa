import { describe, expect, it } from "vitest";
import { mayServeAds } from "./audience.ts";

const person = { viewerType: "UNAUTH" as const, isBot: false, noClientScript: false };
const noChoiceHere = { required: false, choices: null };
const noChoiceInFrance = { required: true, choices: null };
const marketing = (allowed: boolean) => ({ personalization: true, analytics: true, marketing: allowed });

describe("who may be shown promoted pins", () => {
  it("serves a signed-out person and a signed-in one where no consent is asked first", () => {
    expect(mayServeAds({ ...person, consent: noChoiceHere })).toBe(true);
    expect(mayServeAds({ ...person, viewerType: "AUTH", consent: noChoiceHere })).toBe(true);
  });

  it("waits for a choice where consent is asked, and obeys it", () => {
    expect(mayServeAds({ ...person, consent: noChoiceInFrance })).toBe(false);
    expect(mayServeAds({ ...person, consent: { required: true, choices: marketing(true) } })).toBe(true);
    expect(mayServeAds({ ...person, consent: { required: true, choices: marketing(false) } })).toBe(false);
    expect(mayServeAds({ ...person, consent: { required: false, choices: marketing(false) } })).toBe(false);
  });

  it("never serves a crawler, a page without script or a limited login", () => {
    expect(mayServeAds({ ...person, isBot: true, consent: noChoiceHere })).toBe(false);
    expect(mayServeAds({ ...person, noClientScript: true, consent: noChoiceHere })).toBe(false);
    expect(mayServeAds({ ...person, viewerType: "LIMITED_LOGIN", consent: noChoiceHere })).toBe(false);
  });
});
