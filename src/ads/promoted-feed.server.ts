// A feed page with its promoted pins: the eligible ads (delivery.server.ts: the inventory held
// in this isolate, the viewer's blocks and follows read beside the feed's own read so they add
// no round trip), the ones that fit this feed and pace (placement.ts), placed among the organic
// pins, each cell carrying what its label, its "why am I seeing this" and its attribution pings
// need. Server-rendered pages place them in their HTML; the paged JSON answers (the feeds' "load
// more") and the promoted cells a shared render asks for afterwards carry the same mark as
// fields (promotedItem).
import type { GridPin } from "~/pins/pins.server.ts";
import type { RequestContext } from "~/context/request-context.ts";
import type { ConsentState } from "~/consent/consent.ts";
import { linkAttributionToken } from "~/attribution/token.server.ts";
import { BoundedLru } from "~/server/bounded-lru.ts";
import { adInventory, eligibleAds, inventoryTtlMs, viewerAdStatement, viewerAds, type EligibleAds } from "./delivery.server.ts";
import { mayServeAds } from "./audience.ts";
import { chooseAds, interleavePromoted, promotedSlots, type FeedContext } from "./placement.ts";
import { promotedTexts, type FeedPin, type PromotedMark, type PromotedTexts } from "./mark.ts";

/** The feed asking; a home feed's followed interests come with the eligible ads. */
export type FeedRequest = { kind: "home" } | { kind: "search"; query: string } | { kind: "related"; category: string | null; interestIds: number[]; pinId: string };

type AdsEnv = { ATTRIBUTION_SECRET?: string | undefined; ENVIRONMENT?: string | undefined; PROMOTED_PLACEMENT?: string | undefined; AD_INVENTORY_TTL_MS?: string | undefined };

/** The request header the bench sets to measure a feed with placement off beside it on. */
export const PLACEMENT_HEADER = "x-pinloom-placement";

/**
 * Whether this request places promoted pins: the deploy's PROMOTED_PLACEMENT switch (on unless
 * "off"); "per-request" lets the PLACEMENT_HEADER turn it off for one request, which only the
 * bench's own worker is started with, so no visitor can strip the ads from a page.
 */
function placementOn(env: AdsEnv, headers: Headers): boolean {
  const setting = env.PROMOTED_PLACEMENT ?? "on";
  if (setting === "off") return false;
  return setting !== "per-request" || headers.get(PLACEMENT_HEADER) !== "off";
}

/** The deploy's and the request's part of an audience: the placement switch and the inventory's lifetime. */
export function adSettings(env: AdsEnv, headers: Headers): Pick<AdAudience, "placement" | "inventoryTtlMs"> {
  return { placement: placementOn(env, headers), inventoryTtlMs: inventoryTtlMs(env) };
}

/** The facts that decide whether this request gets promoted pins at all. */
export interface AdAudience {
  consent: ConsentState;
  placement: boolean;
  /** How long this isolate may answer the inventory from memory (inventoryTtlMs). */
  inventoryTtlMs: number;
}

const served = (ctx: RequestContext, audience: AdAudience) =>
  audience.placement && mayServeAds({ viewerType: ctx.viewerType, isBot: ctx.isBot, noClientScript: ctx.noClientScript, consent: audience.consent });

const logFailure = (error: unknown) => console.error(JSON.stringify({ event: "eligible_ads_failed", message: error instanceof Error ? error.message : String(error) }));

/**
 * A signed-in home's ads with the viewer's part read in the feed's own D1 batch (a second round
 * trip beside it would cost the page more than placing the ads does): the inventory first (this
 * isolate's copy, else its one read), then `statement` for the feed's batch and `eligible` with
 * what it answered. Null when this viewer gets none.
 */
export async function homeAdsBeside(db: D1Database, ctx: RequestContext, now: number, audience: AdAudience): Promise<{ statement: D1PreparedStatement | null; eligible: (row: unknown) => Promise<EligibleAds> } | null> {
  const user = ctx.viewerType === "AUTH" ? (ctx.session?.user ?? null) : null;
  if (user === null || !served(ctx, audience)) return null;
  try {
    const ads = await adInventory(db, now, audience.inventoryTtlMs);
    const statement = viewerAdStatement(db, { id: user.id, wantsInterests: true }, ads);
    return { statement, eligible: (row) => Promise.resolve(statement === null ? { ads, followedInterests: [] } : viewerAds(ads, row)) };
  } catch (error) {
    // Promoted pins never cost a person their feed: a failed read leaves the page organic.
    logFailure(error);
    return null;
  }
}

/** The request's eligible ads, read now (in parallel with the feed), or null when this viewer gets none. */
export function startEligibleAds(db: D1Database, ctx: RequestContext, now: number, audience: AdAudience, feed: FeedRequest["kind"]): Promise<EligibleAds> | null {
  if (!served(ctx, audience)) return null;
  const user = ctx.viewerType === "AUTH" ? (ctx.session?.user ?? null) : null;
  // Promoted pins never cost a person their feed: a failed read leaves the page organic.
  return eligibleAds(db, user === null ? null : { id: user.id, wantsInterests: feed === "home" }, now, audience.inventoryTtlMs).catch((error: unknown) => {
    logFailure(error);
    return { ads: [], followedInterests: [] };
  });
}

/** Tokens are the same for a pin and advertiser within a ten-minute bucket: signed once per isolate and bucket. */
const tokens = new BoundedLru<Promise<string | null>>({ maxEntries: 256, maxBytes: 256, ttlMs: 60_000 });

function tokenFor(env: AdsEnv, pinId: number, adAccountId: string, now: number): Promise<string | null> {
  const key = `${pinId}:${adAccountId}:${Math.floor(now / 600_000)}`;
  const held = tokens.get(key, now);
  if (held) return held;
  const token = linkAttributionToken(env, pinId, adAccountId, now);
  tokens.set(key, token, 1, now);
  return token;
}

interface PlacementRequest {
  ctx: RequestContext;
  now: number;
  feed: FeedRequest;
  organic: readonly GridPin[];
  env: AdsEnv;
  /** Ads this feed session already showed (a later page): never shown again. */
  shownAdIds?: ReadonlySet<number>;
  /** Promoted slots wanted, when not the page's own share (a shared render asking afterwards). */
  slots?: number;
}

/** The promoted cells that fit this page, best first, at most its slots (none when the viewer gets none). */
export async function promotedCells(eligible: Promise<EligibleAds> | null, request: PlacementRequest): Promise<FeedPin[]> {
  if (eligible === null) return [];
  const slots = request.slots ?? promotedSlots(request.organic.length);
  if (slots === 0) return [];
  const { ads, followedInterests } = await eligible;
  if (ads.length === 0) return [];
  const where = { locale: request.ctx.locale, country: request.ctx.country };
  const feed: FeedContext =
    request.feed.kind === "home"
      ? { ...where, kind: "home", followedInterests }
      : request.feed.kind === "search"
        ? { ...where, ...request.feed }
        : { ...where, kind: "related", category: request.feed.category, interestIds: request.feed.interestIds };
  const organicPinIds = new Set(request.organic.map((pin) => Number(pin.id)));
  // The close-up's own pin is never its "more like this".
  if (request.feed.kind === "related") organicPinIds.add(Number(request.feed.pinId));
  const chosen = chooseAds(
    ads.map((ad) => ad.candidate),
    feed,
    { now: request.now, shownAdIds: request.shownAdIds ?? new Set(), organicPinIds, slots },
  );
  const byAd = new Map(ads.map((ad) => [ad.candidate.adId, ad]));
  return Promise.all(
    chosen.map(async ({ candidate, reasons }): Promise<FeedPin> => {
      const ad = byAd.get(candidate.adId)!;
      const adAccountId = String(candidate.adAccountId);
      const mark: PromotedMark = {
        adId: String(candidate.adId),
        advertiserName: ad.advertiserName,
        adAccountId,
        campaignId: String(candidate.campaignId),
        destinationUrl: ad.destinationUrl,
        token: await tokenFor(request.env, candidate.pinId, adAccountId, request.now),
        reasons,
        ...(ad.leadFormCta ? { leadForm: { adId: String(candidate.adId), callToAction: ad.leadFormCta } } : {}),
      };
      return { ...ad.pin, promoted: mark };
    }),
  );
}

/** The organic pins with promoted ones placed among them (the organic page unchanged when none fits). */
export async function withPromotedPins(eligible: Promise<EligibleAds> | null, request: PlacementRequest): Promise<FeedPin[]> {
  const promoted = await promotedCells(eligible, request);
  if (promoted.length === 0) return [...request.organic];
  return interleavePromoted(request.organic, promoted).map((cell) => ("organic" in cell ? cell.organic : cell.promoted));
}

type Translate = (key: string, values?: Record<string, unknown>) => string;

/** A cell as the JSON feed pages answer it: `isPromoted`, and for a promoted one its mark with the texts its cell shows. */
export type FeedItem<Pin extends GridPin = GridPin> = Pin & { isPromoted: boolean; promoter?: { name: string }; promoted?: PromotedMark & { text: PromotedTexts } };

/** One feed cell for a JSON answer: organic ones say `isPromoted: false`, promoted ones carry their mark and its texts. */
export function feedItem<Pin extends GridPin>(pin: Pin & { promoted?: PromotedMark }, t: Translate, language: string): FeedItem<Pin> {
  const { promoted, ...rest } = pin;
  if (!promoted) return { ...(rest as Pin), isPromoted: false };
  return { ...(rest as Pin), isPromoted: true, promoter: { name: promoted.advertiserName }, promoted: { ...promoted, text: promotedTexts(promoted, t, language) } };
}
