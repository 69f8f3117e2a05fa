import { describe, expect, it } from "vitest";
import { experienceWriteOptions, eligibleByPlacement, hidesFooter, isEligible, parsePlacedId, type Definition, type Experience, type State, type ViewerFacts } from "./experiences.ts";

const person: ViewerFacts = {
  isBot: false,
  signedIn: true,
  personalWithoutBusiness: true,
  ownsBusiness: false,
  merchantWelcomeShows: false,
  consentAsked: false,
  hideFooterGroup: false,
};

const definition = (overrides: Partial<Definition>): Definition => ({
  experienceId: 500501,
  placementId: 1000071,
  type: 2,
  displayData: { anchor: "home_top" },
  metadata: {},
  triggerable: [],
  rule: "personal_account",
  needsTrigger: false,
  priority: 0,
  ...overrides,
});

const state = (overrides: Partial<State>): State => ({ triggeredAt: null, viewedAt: null, completedAt: null, completedWithoutHomefeed: false, dismissedAt: null, ...overrides });

describe("placed experience ids", () => {
  it("reads placement:experience with the colon plain or percent-encoded", () => {
    expect(parsePlacedId("1000069:500417")).toEqual({ placementId: 1000069, experienceId: 500417 });
    expect(parsePlacedId("1000069%3A500417")).toEqual({ placementId: 1000069, experienceId: 500417 });
    expect(parsePlacedId("1000069%3a500417")).toEqual({ placementId: 1000069, experienceId: 500417 });
  });

  it("refuses anything that is not two positive ids", () => {
    for (const bad of ["", "1000069", "1000069:", ":500417", "1000069-500417", "0:500417", "1000069:0", "01:2", "1:2:3", "a:b", "1000069%3A", "1000069 :500417", "1234567890123:1"]) {
      expect(parsePlacedId(bad), bad).toBeNull();
    }
  });

  it("names placed_experience_id in a write's validation problem", () => {
    const parsed = experienceWriteOptions.safeParse({ placed_experience_id: "1000069-500417" });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(["placed_experience_id"]);
    expect(parsed.error?.issues[0]?.message).toBe("shell:experiences.errors.malformed");
  });
});

describe("eligibility", () => {
  it("never answers a bot, whatever the rule says", () => {
    expect(isEligible(definition({}), undefined, { ...person, isBot: true })).toBe(false);
    expect(isEligible(definition({ rule: "consent_required" }), undefined, { ...person, isBot: true, consentAsked: true })).toBe(false);
  });

  it("keeps a viewed experience and ends a completed or dismissed one", () => {
    expect(isEligible(definition({}), state({ viewedAt: 1 }), person)).toBe(true);
    expect(isEligible(definition({}), state({ completedAt: 1 }), person)).toBe(false);
    expect(isEligible(definition({}), state({ completedAt: 1, completedWithoutHomefeed: true }), person)).toBe(false);
    expect(isEligible(definition({}), state({ dismissedAt: 1 }), person)).toBe(false);
  });

  it("waits for a trigger when the experience needs one", () => {
    const hub = definition({ experienceId: 500502, placementId: 1000072, rule: "business_owner", needsTrigger: true });
    const owner = { ...person, personalWithoutBusiness: false, ownsBusiness: true };
    expect(isEligible(hub, undefined, owner)).toBe(false);
    expect(isEligible(hub, state({ triggeredAt: 5 }), owner)).toBe(true);
    expect(isEligible(hub, state({ triggeredAt: 5 }), person)).toBe(false);
  });

  it("lets the merchant welcome and consent banners decide on their own records, not a past dismissal", () => {
    const welcome = definition({ experienceId: 500503, placementId: 1000073, rule: "merchant_welcome" });
    expect(isEligible(welcome, state({ dismissedAt: 1 }), { ...person, merchantWelcomeShows: true })).toBe(true);
    expect(isEligible(welcome, undefined, { ...person, merchantWelcomeShows: false })).toBe(false);
    const consent = definition({ experienceId: 500504, placementId: 1000074, rule: "consent_required" });
    expect(isEligible(consent, state({ completedAt: 1 }), { ...person, signedIn: false, consentAsked: true })).toBe(true);
    expect(isEligible(consent, undefined, { ...person, consentAsked: false })).toBe(false);
  });

  it("answers the first by priority per placement, or all of them for the multi-experience platform", () => {
    const low = definition({ experienceId: 7, priority: 0 });
    const high = definition({ experienceId: 9, priority: 5 });
    const other = definition({ experienceId: 8, placementId: 3, rule: "footer_experiment", displayData: { anchor: "footer", hide_footer: true } });
    const states = new Map<number, State>([[7, state({ viewedAt: 1 })]]);
    const facts = { ...person, hideFooterGroup: true };
    const single = eligibleByPlacement([low, high, other], states, facts, false);
    expect(Object.keys(single).sort()).toEqual(["1000071", "3"]);
    expect(single["1000071"]!.map((entry) => entry.placed_experience_id)).toEqual(["1000071:9"]);
    const multi = eligibleByPlacement([low, high, other], states, facts, true);
    expect(multi["1000071"]!.map((entry) => [entry.experience_id, entry.status])).toEqual([
      [9, null],
      [7, "viewed"],
    ]);
    expect(multi["3"]![0]!.display_data).toEqual({ anchor: "footer", hide_footer: true });
  });
});

describe("the footer check", () => {
  const footer: Experience = {
    experience_id: 500417,
    placement_id: 1000069,
    placed_experience_id: "1000069:500417",
    type: 0,
    status: null,
    display_data: { anchor: "footer", hide_footer: true },
    metadata: {},
    triggerable_placed_exps: [],
  };

  it("hides the footer only for experience 500417 in placement 1000069 with hide_footer display data", () => {
    expect(hidesFooter(footer)).toBe(true);
    expect(hidesFooter(undefined)).toBe(false);
    expect(hidesFooter({ ...footer, display_data: { anchor: "footer" } })).toBe(false);
    expect(hidesFooter({ ...footer, display_data: { anchor: "footer", hide_footer: "yes" } })).toBe(false);
    expect(hidesFooter({ ...footer, experience_id: 500501 })).toBe(false);
    expect(hidesFooter({ ...footer, placement_id: 1000071 })).toBe(false);
  });
});
