import { describe, expect, it } from "vitest";
import { attributedCampaign, conversionResults } from "./attribution.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const AT = Date.UTC(2026, 10, 20, 12, 0, 0);

describe("attributing a conversion to a campaign", () => {
  it("counts a click 6 days before and not one 8 days before", () => {
    expect(attributedCampaign(AT, [{ kind: "click", campaignId: 1, at: AT - 6 * DAY }])).toBe(1);
    expect(attributedCampaign(AT, [{ kind: "click", campaignId: 1, at: AT - 8 * DAY }])).toBeNull();
  });

  it("counts a view 23 hours before and not one 25 hours before", () => {
    expect(attributedCampaign(AT, [{ kind: "view", campaignId: 2, at: AT - 23 * HOUR }])).toBe(2);
    expect(attributedCampaign(AT, [{ kind: "view", campaignId: 2, at: AT - 25 * HOUR }])).toBeNull();
  });

  it("gives a click precedence over a later view", () => {
    expect(
      attributedCampaign(AT, [
        { kind: "click", campaignId: 1, at: AT - 5 * DAY },
        { kind: "view", campaignId: 2, at: AT - 1 * HOUR },
      ]),
    ).toBe(1);
  });

  it("gives the latest touch of a kind, and ignores touches after the conversion", () => {
    expect(
      attributedCampaign(AT, [
        { kind: "click", campaignId: 1, at: AT - 3 * DAY },
        { kind: "click", campaignId: 3, at: AT - 2 * DAY },
        { kind: "click", campaignId: 4, at: AT + 1 * HOUR },
      ]),
    ).toBe(3);
    expect(attributedCampaign(AT, [])).toBeNull();
  });
});

describe("conversion results", () => {
  it("sum conversions and value per campaign per day beside spend, with return on ad spend", () => {
    const results = conversionResults(
      ["2026-11-19", "2026-11-20"],
      [{ id: 1 }, { id: 2 }],
      [
        { day: "2026-11-20", campaignId: 1, spendMicro: 2_000_000 },
        { day: "2026-11-19", campaignId: 2, spendMicro: 500_000 },
      ],
      [
        { conversionId: 10, eventTime: AT, valueMicro: 5_000_000, currency: "USD", touches: [{ kind: "click", campaignId: 1, at: AT - DAY }] },
        { conversionId: 11, eventTime: AT, valueMicro: 3_000_000, currency: null, touches: [{ kind: "view", campaignId: 1, at: AT - HOUR }] },
        // Another currency: counted as a conversion, its value not added.
        { conversionId: 12, eventTime: AT, valueMicro: 9_000_000, currency: "EUR", touches: [{ kind: "click", campaignId: 1, at: AT - HOUR }] },
        // Too old a click: not attributed.
        { conversionId: 13, eventTime: AT, valueMicro: 1_000_000, currency: "USD", touches: [{ kind: "click", campaignId: 2, at: AT - 8 * DAY }] },
      ],
      "USD",
    );
    expect(results.totals).toEqual({ conversions: 3, valueMicro: 8_000_000, spendMicro: 2_500_000, roas: 3.2 });
    expect(results.campaigns[0]).toEqual({
      campaignId: "1",
      totals: { conversions: 3, valueMicro: 8_000_000, spendMicro: 2_000_000, roas: 4 },
      days: [
        { day: "2026-11-19", conversions: 0, valueMicro: 0, spendMicro: 0, roas: null },
        { day: "2026-11-20", conversions: 3, valueMicro: 8_000_000, spendMicro: 2_000_000, roas: 4 },
      ],
    });
    expect(results.campaigns[1]!.totals).toEqual({ conversions: 0, valueMicro: 0, spendMicro: 500_000, roas: 0 });
    // The account's days: campaign 2's spend alone on the 19th, campaign 1's on the 20th.
    expect(results.days).toEqual([
      { day: "2026-11-19", conversions: 0, valueMicro: 0, spendMicro: 500_000, roas: 0 },
      { day: "2026-11-20", conversions: 3, valueMicro: 8_000_000, spendMicro: 2_000_000, roas: 4 },
    ]);
  });
});
