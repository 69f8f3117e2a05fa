// What a promoted cell carries into the grid: who paid for it, why it was shown (spec 000 §3
// adTargetingAttribution; spec 001 show_ad_reasons), and what its attribution pings name.
import type { GridPin } from "~/pins/pins.server.ts";
import type { AdReason } from "./placement.ts";
import type { CallToAction } from "~/leads/lead-form.ts";

export interface PromotedMark {
  /** The ad: a feed's later pages are asked never to show it again. */
  adId: string;
  advertiserName: string;
  /** The advertiser of the pings (spec 002 §2 /advertiser/{advertiserId}): the ad account. */
  adAccountId: string;
  campaignId: string;
  destinationUrl: string;
  /** The signed token the pings echo; null while attribution is off. */
  token: string | null;
  reasons: AdReason[];
  /** The ad's lead form (src/leads/), when it carries one. */
  leadForm?: { adId: string; callToAction: CallToAction } | undefined;
}

/** A grid cell: an organic pin, or a promoted one with its mark. */
export type FeedPin = GridPin & { promoted?: PromotedMark };

/** The reason's i18n key and values (business:ads.reason.*). */
function reasonText(reason: AdReason): { key: string; values: Record<string, string> } {
  switch (reason.kind) {
    case "INTEREST":
      return { key: "business:ads.reason.interest", values: { name: reason.name } };
    case "SEARCH_TERM":
      return { key: "business:ads.reason.searchTerm", values: { term: reason.term } };
    case "LOCATION":
      return { key: "business:ads.reason.location", values: { place: reason.place } };
    case "AUTO_TARGETING":
      return { key: "business:ads.reason.auto", values: {} };
  }
}

type Translate = (key: string, values?: Record<string, unknown>) => string;

/** A location reason names the country in the reader's language (an unknown code as it is). */
function regionName(language: string, code: string): string {
  try {
    return new Intl.DisplayNames(language, { type: "region" }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** What a promoted cell says: "Promoted by …", the disclosure's title and introduction, each reason, in the reader's language. */
export interface PromotedTexts {
  promotedBy: string;
  whyTitle: string;
  whyIntro: string;
  reasons: string[];
}

/** The same texts for the server's grid and the JSON pages the script renders from. */
export function promotedTexts(mark: PromotedMark, t: Translate, language: string): PromotedTexts {
  return {
    promotedBy: t("business:ads.promotedBy", { advertiser: mark.advertiserName }),
    whyTitle: t("business:ads.whyTitle"),
    whyIntro: t("business:ads.whyIntro", { advertiser: mark.advertiserName }),
    reasons: mark.reasons.map((reason) => {
      const text = reasonText(reason.kind === "LOCATION" ? { ...reason, place: regionName(language, reason.place) } : reason);
      return t(text.key, text.values);
    }),
  };
}

/** The promoted link's data attributes its attribution pings read (src/attribution/pings.client.ts). */
export function attributionData(pinId: string, mark: PromotedMark): Record<string, string> {
  if (mark.token === null) return {};
  return {
    "data-attribution-advertiser": mark.adAccountId,
    "data-attribution-campaign": mark.campaignId,
    "data-attribution-pin": pinId,
    "data-attribution-token": mark.token,
    "data-attribution-destination": mark.destinationUrl,
  };
}
