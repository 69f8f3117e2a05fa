// A feed page with its promoted pins: the eligible ads (one query, delivery.server.ts, started
// beside the feed's own read so it adds no round trip), the ones that fit this feed and pace
// (placement.ts), placed among the organic pins, each cell carrying what its label, its "why am
// I seeing this" and its attribution pings need.
import type { GridPin } from "~/pins/pins.server.ts";
import type { RequestContext } from "~/context/request-context.ts";
import { consentState } from "~/consent/consent.ts";
import { linkAttributionToken } from "~/attribution/token.server.ts";
import { eligibleAds, type EligibleAds } from "./delivery.server.ts";
import { mayServeAds } from "./audience.ts";
import { chooseAds, interleavePromoted, promotedSlots, type FeedContext } from "./placement.ts";
import type { FeedPin, PromotedMark } from "./mark.ts";

/** The feed asking; a home feed's followed interests come with the eligible ads. */
type FeedRequest = { kind: "home" } | { kind: "search"; query: string } | { kind: "related"; category: string | null; interestIds: number[] };

type AttributionEnv = { ATTRIBUTION_SECRET?: string | undefined; ENVIRONMENT?: string | undefined };

/** The request's eligible ads, read now (in parallel with the feed), or null when this viewer gets none. */
export function startEligibleAds(db: D1Database, ctx: RequestContext, now: number): Promise<EligibleAds> | null {
  const user = ctx.session?.user ?? null;
  if (user === null) return null;
  const audience = { viewerType: ctx.viewerType, isBot: ctx.isBot, noClientScript: ctx.noClientScript, consent: consentState(ctx.country, user, null) };
  if (!mayServeAds(audience)) return null;
  // Promoted pins never cost a person their feed: a failed read leaves the page organic.
  return eligibleAds(db, user.id, now).catch((error: unknown) => {
    console.error(JSON.stringify({ event: "eligible_ads_failed", message: error instanceof Error ? error.message : String(error) }));
    return { ads: [], followedInterests: [] };
  });
}

/** The organic pins with promoted ones placed among them (the organic page unchanged when none fits). */
export async function withPromotedPins(
  eligible: Promise<EligibleAds> | null,
  request: { ctx: RequestContext; now: number; feed: FeedRequest; organic: readonly GridPin[]; env: AttributionEnv },
): Promise<FeedPin[]> {
  if (eligible === null) return [...request.organic];
  const { ads, followedInterests } = await eligible;
  const slots = promotedSlots(request.organic.length);
  if (ads.length === 0 || slots === 0) return [...request.organic];
  const where = { locale: request.ctx.locale, country: request.ctx.country };
  const feed: FeedContext = request.feed.kind === "home" ? { ...where, kind: "home", followedInterests } : { ...where, ...request.feed };
  const organicPinIds = new Set(request.organic.map((pin) => Number(pin.id)));
  const chosen = chooseAds(
    ads.map((ad) => ad.candidate),
    feed,
    { now: request.now, shownAdIds: new Set(), organicPinIds, slots },
  );
  const byAd = new Map(ads.map((ad) => [ad.candidate.adId, ad]));
  const promoted = await Promise.all(
    chosen.map(async ({ candidate, reasons }): Promise<FeedPin> => {
      const ad = byAd.get(candidate.adId)!;
      const adAccountId = String(candidate.adAccountId);
      const mark: PromotedMark = {
        advertiserName: ad.advertiserName,
        adAccountId,
        campaignId: String(candidate.campaignId),
        destinationUrl: ad.destinationUrl,
        token: await linkAttributionToken(request.env, candidate.pinId, adAccountId, request.now),
        reasons,
        ...(ad.leadFormCta ? { leadForm: { adId: String(candidate.adId), callToAction: ad.leadFormCta } } : {}),
      };
      return { ...ad.pin, promoted: mark };
    }),
  );
  return interleavePromoted(request.organic, promoted).map((cell) => ("organic" in cell ? cell.organic : cell.promoted));
}
