import { describe, expect, it } from "vitest";
import { adSettings, feedItem, PLACEMENT_HEADER } from "./promoted-feed.server.ts";
import type { PromotedMark } from "./mark.ts";
import type { GridPin } from "~/pins/pins.server.ts";

const pin: GridPin = { id: "150", kind: "image", title: "Green armchair", altText: null, dominantColor: "#123456", image: { url: "/media/pins/150/236x.jpg", width: 236, height: 300 }, image2x: null };
const mark: PromotedMark = {
  adId: "720",
  advertiserName: "Brand Co",
  adAccountId: "600",
  campaignId: "700",
  destinationUrl: "https://brand.example/armchair",
  token: "1.ab",
  reasons: [{ kind: "LOCATION", place: "FR" }, { kind: "AUTO_TARGETING" }],
};
/** Writes the key and its values out, so the test reads what was asked for. */
const t = (key: string, values: Record<string, unknown> = {}) => `${key}${Object.keys(values).length ? ` ${JSON.stringify(values)}` : ""}`;

describe("the promotion settings of a deploy and a request", () => {
  const off = new Headers({ [PLACEMENT_HEADER]: "off" });
  it("places promoted pins unless the deploy turns them off; the header counts only where the deploy lets it", () => {
    expect(adSettings({}, new Headers())).toEqual({ placement: true, inventoryTtlMs: 10_000 });
    expect(adSettings({ PROMOTED_PLACEMENT: "off" }, new Headers()).placement).toBe(false);
    expect(adSettings({}, off).placement).toBe(true);
    expect(adSettings({ PROMOTED_PLACEMENT: "per-request" }, off).placement).toBe(false);
    expect(adSettings({ PROMOTED_PLACEMENT: "per-request" }, new Headers()).placement).toBe(true);
  });

  it("reads the inventory's lifetime, at most a minute, a bad value as the default", () => {
    expect(adSettings({ AD_INVENTORY_TTL_MS: "0" }, new Headers()).inventoryTtlMs).toBe(0);
    expect(adSettings({ AD_INVENTORY_TTL_MS: "2500" }, new Headers()).inventoryTtlMs).toBe(2500);
    expect(adSettings({ AD_INVENTORY_TTL_MS: "3600000" }, new Headers()).inventoryTtlMs).toBe(60_000);
    expect(adSettings({ AD_INVENTORY_TTL_MS: "soon" }, new Headers()).inventoryTtlMs).toBe(10_000);
  });
});

describe("a feed cell in a JSON page", () => {
  it("says an organic pin is not promoted and adds nothing else", () => {
    expect(feedItem(pin, t, "en")).toEqual({ ...pin, isPromoted: false });
  });

  it("carries a promoted pin's mark, its advertiser and its texts, a place named in the reader's language", () => {
    expect(feedItem({ ...pin, promoted: mark }, t, "en")).toEqual({
      ...pin,
      isPromoted: true,
      promoter: { name: "Brand Co" },
      promoted: {
        ...mark,
        text: {
          promotedBy: 'business:ads.promotedBy {"advertiser":"Brand Co"}',
          whyTitle: "business:ads.whyTitle",
          whyIntro: 'business:ads.whyIntro {"advertiser":"Brand Co"}',
          reasons: ['business:ads.reason.location {"place":"France"}', "business:ads.reason.auto"],
        },
      },
    });
  });
});
