import { describe, expect, it } from "vitest";
import { chooseAds, interleavePromoted, pacedBudgetMicro, promotedSlots, reasonsFor, reservedSlots, searchMatch, utcDay, withinPace, type AdCandidate, type FeedContext } from "./placement.ts";

const NOON = Date.UTC(2026, 10, 27, 12, 0, 0);
const HALF_PAST_MIDNIGHT = Date.UTC(2026, 10, 27, 0, 30, 0);
const SIX_PM = Date.UTC(2026, 10, 27, 18, 0, 0);

const decor = { id: 11, key: "home_decor", name: "Home decor" };
const cooking = { id: 12, key: "cooking", name: "Cooking" };

function ad(overrides: Partial<AdCandidate>): AdCandidate {
  return {
    adId: 1,
    campaignId: 100,
    adAccountId: 900,
    pinId: 5001,
    goal: "CONSIDERATION",
    dailyBudgetMicro: 24_000_000,
    spentTodayMicro: 0,
    targeting: { auto: true, interests: [], locales: [] },
    pinText: "Green velvet sofas for small rooms",
    category: "home",
    pinInterests: [],
    keywords: [],
    ...overrides,
  };
}

const home = (followed = [decor]): FeedContext => ({ kind: "home", locale: "en_US", country: "US", followedInterests: followed });
const searchFor = (query: string): FeedContext => ({ kind: "search", locale: "en_US", country: "US", query });

describe("budget pacing", () => {
  it("allows the budget's share of the day gone: half at noon, three quarters at 18:00", () => {
    expect(pacedBudgetMicro(24_000_000, NOON)).toBe(12_000_000);
    expect(pacedBudgetMicro(24_000_000, SIX_PM)).toBe(18_000_000);
  });

  it("allows one hour's share from midnight, so a campaign can start the day", () => {
    expect(pacedBudgetMicro(24_000_000, HALF_PAST_MIDNIGHT)).toBe(1_000_000);
  });

  it("serves a campaign under its paced budget, never one at or over it", () => {
    expect(withinPace(11_999_999, 24_000_000, NOON)).toBe(true);
    expect(withinPace(12_000_000, 24_000_000, NOON)).toBe(false);
    expect(withinPace(12_000_001, 24_000_000, NOON)).toBe(false);
  });

  it("names the UTC day", () => {
    expect(utcDay(NOON)).toBe("2026-11-27");
    expect(utcDay(Date.UTC(2026, 11, 31, 23, 59, 59))).toBe("2026-12-31");
  });
});

describe("spacing", () => {
  it("puts one promoted pin after every six organic ones, never two in a row", () => {
    const organic = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13];
    const cells = interleavePromoted(organic, ["a", "b", "c"]).map((cell) => ("organic" in cell ? cell.organic : cell.promoted));
    expect(cells).toEqual([1, 2, 3, 4, 5, 6, "a", 7, 8, 9, 10, 11, 12, "b", 13]);
  });

  it("leaves a page shorter than six organic pins organic", () => {
    expect(interleavePromoted([1, 2, 3, 4, 5], ["a"]).map((cell) => ("organic" in cell ? cell.organic : cell.promoted))).toEqual([1, 2, 3, 4, 5]);
  });

  it("has four slots in a page of 25 and none in a page of 5", () => {
    expect(promotedSlots(25)).toBe(4);
    expect(promotedSlots(5)).toBe(0);
  });

  it("keeps three of a 25-cell page for ads, which its 22 organic pins then hold: the page stays 25 cells", () => {
    expect(reservedSlots(25)).toBe(3);
    expect(promotedSlots(22)).toBe(3);
    const organic = Array.from({ length: 22 }, (_, index) => index + 1);
    expect(interleavePromoted(organic, ["a", "b", "c"])).toHaveLength(25);
    expect(reservedSlots(6)).toBe(0);
  });
});

describe("search relevance", () => {
  it("matches when every query word starts a word of the pin", () => {
    expect(searchMatch(ad({}), "velvet sofa")).toBe(true);
    expect(searchMatch(ad({}), "Velvet SOFAS")).toBe(true);
    expect(searchMatch(ad({}), "velvet chair")).toBe(false);
    expect(searchMatch(ad({}), "   ")).toBe(false);
  });

  it("matches the ad group's keywords by their match type", () => {
    const lamp = ad({ pinText: "A lamp", keywords: [{ text: "mid century", matchType: "BROAD" }, { text: "reading light", matchType: "PHRASE" }, { text: "desk lamp", matchType: "EXACT" }] });
    expect(searchMatch(lamp, "century mid style")).toBe(true);
    expect(searchMatch(lamp, "cosy reading light ideas")).toBe(true);
    expect(searchMatch(lamp, "light reading")).toBe(false);
    expect(searchMatch(lamp, "desk lamp")).toBe(true);
    expect(searchMatch(lamp, "desk")).toBe(false);
  });

  it("refuses a search a negative keyword names, whatever else matches", () => {
    expect(searchMatch(ad({ keywords: [{ text: "cheap", matchType: "NEGATIVE_PHRASE" }] }), "cheap velvet sofa")).toBe(false);
    expect(searchMatch(ad({ keywords: [{ text: "velvet sofa", matchType: "NEGATIVE_EXACT" }] }), "velvet sofa")).toBe(false);
    expect(searchMatch(ad({ keywords: [{ text: "velvet sofa", matchType: "NEGATIVE_EXACT" }] }), "green velvet sofa")).toBe(true);
  });
});

describe("why an ad fits", () => {
  it("home: an interest the viewer follows, in the pin or in the targeting", () => {
    expect(reasonsFor(ad({ pinInterests: [decor], targeting: { auto: false, interests: [], locales: [] } }), home())).toEqual([{ kind: "INTEREST", name: "Home decor" }]);
    expect(reasonsFor(ad({ targeting: { auto: false, interests: ["home_decor"], locales: [] } }), home())).toEqual([{ kind: "INTEREST", name: "Home decor" }]);
  });

  it("home: auto-targeting when no interest matches; nothing without it", () => {
    expect(reasonsFor(ad({ pinInterests: [cooking] }), home())).toEqual([{ kind: "AUTO_TARGETING" }]);
    expect(reasonsFor(ad({ pinInterests: [cooking], targeting: { auto: false, interests: ["cooking"], locales: [] } }), home())).toBeNull();
  });

  it("search: the term, or nothing", () => {
    expect(reasonsFor(ad({}), searchFor(" velvet sofa "))).toEqual([{ kind: "SEARCH_TERM", term: "velvet sofa" }]);
    expect(reasonsFor(ad({}), searchFor("pasta"))).toBeNull();
  });

  it("related: a shared interest, else the same category", () => {
    expect(reasonsFor(ad({ pinInterests: [decor, cooking] }), { kind: "related", locale: "en_US", country: "US", category: "food", interestIds: [12] })).toEqual([{ kind: "INTEREST", name: "Cooking" }]);
    expect(reasonsFor(ad({ category: "home" }), { kind: "related", locale: "en_US", country: "US", category: "home", interestIds: [] })).toEqual([{ kind: "INTEREST", name: "home" }]);
    expect(reasonsFor(ad({ category: "home" }), { kind: "related", locale: "en_US", country: "US", category: "food", interestIds: [99] })).toBeNull();
  });

  it("location: when targeted, the viewer's locale or country must be named, and says so", () => {
    const french = ad({ targeting: { auto: true, interests: [], locales: ["FR", "fr"] } });
    expect(reasonsFor(french, home())).toBeNull();
    expect(reasonsFor(french, { kind: "home", locale: "fr", country: "BE", followedInterests: [] })).toEqual([{ kind: "AUTO_TARGETING" }, { kind: "LOCATION", place: "BE" }]);
    expect(reasonsFor(french, { kind: "home", locale: "en_US", country: "FR", followedInterests: [] })).toEqual([{ kind: "AUTO_TARGETING" }, { kind: "LOCATION", place: "FR" }]);
  });
});

describe("choosing a page's ads", () => {
  const options = { now: NOON, shownAdIds: new Set<number>(), organicPinIds: new Set<number>(), slots: 4 };

  it("leaves out ads already shown, pins already on the page, campaigns over pace and ads that do not fit", () => {
    const candidates = [
      ad({ adId: 1, campaignId: 101, pinId: 5001 }),
      ad({ adId: 2, campaignId: 102, pinId: 5002 }),
      ad({ adId: 3, campaignId: 103, pinId: 5003, spentTodayMicro: 12_000_000 }),
      ad({ adId: 4, campaignId: 104, pinId: 5004, targeting: { auto: false, interests: [], locales: [] } }),
      ad({ adId: 5, campaignId: 105, pinId: 5005 }),
    ];
    const chosen = chooseAds(candidates, home([]), { ...options, shownAdIds: new Set([1]), organicPinIds: new Set([5002]) });
    expect(chosen.map((entry) => entry.candidate.adId)).toEqual([5]);
  });

  it("shows one ad per campaign and one ad per pin on a page", () => {
    const candidates = [ad({ adId: 1, campaignId: 101, pinId: 5001 }), ad({ adId: 2, campaignId: 101, pinId: 5002 }), ad({ adId: 3, campaignId: 102, pinId: 5001 }), ad({ adId: 4, campaignId: 103, pinId: 5004 })];
    expect(chooseAds(candidates, home([]), options).map((entry) => entry.candidate.adId)).toEqual([1, 4]);
  });

  it("ranks an interest above auto-targeting, then the most budget left to pace, then the oldest ad; at most the slots", () => {
    const candidates = [
      ad({ adId: 1, campaignId: 101, pinId: 5001, spentTodayMicro: 6_000_000 }),
      ad({ adId: 2, campaignId: 102, pinId: 5002, spentTodayMicro: 1_000_000 }),
      ad({ adId: 3, campaignId: 103, pinId: 5003, pinInterests: [decor], spentTodayMicro: 11_000_000 }),
      ad({ adId: 4, campaignId: 104, pinId: 5004, spentTodayMicro: 1_000_000 }),
    ];
    expect(chooseAds(candidates, home(), { ...options, slots: 3 }).map((entry) => entry.candidate.adId)).toEqual([3, 2, 4]);
  });
});
