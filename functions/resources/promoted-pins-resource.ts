// PromotedPinsResource get: the promoted cells of one feed page whose render holds none itself
// (a signed-out home or search, shared through the page cache; the close-up's "more like this",
// shared by the people who see it), which the page's script places after every sixth organic
// cell. Same rule as a server-placed page (src/ads/): the feed's relevance, pacing, one ad per
// campaign, never a pin the page holds or (related) the close-up's own pin, never an ad the page
// already shows; nothing for crawlers, limited logins or anyone whose marketing consent says no.
// Also the audience and feed items the paged feed resources place promoted pins with.
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "~/server/context.ts";
import { pinIdSchema } from "~/pins/pin.ts";
import type { GridPin } from "~/pins/pins.server.ts";
import { relatedFeedOf } from "~/ads/delivery.server.ts";
import { adSettings, feedItem, promotedCells, startEligibleAds, withPromotedPins, type AdAudience, type FeedItem, type FeedRequest } from "~/ads/promoted-feed.server.ts";
import { requestConsent } from "../consent.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";

/** A page's promoted slots are a few (one in six of a page of at most 50): this bounds a request. */
const MAX_SLOTS = 8;
/** The ads a page already shows, sent back so a later page never repeats one: bounded. */
const MAX_SHOWN = 50;

export const shownAdIdsOption = z.array(z.string().regex(/^\d{1,19}$/, "ad ids are digits")).max(MAX_SHOWN);

/** The request's translations as feedItem reads them. */
const translate = (c: Context<AppEnv>) => (key: string, values?: Record<string, unknown>) => c.var.t(key, values ?? {});

/** Whether this request may get promoted pins: its consent (account or cookie, a forced country only adding the requirement) and the deploy's switch. */
export function adAudienceOf(c: Context<AppEnv>): AdAudience {
  return { consent: requestConsent(c), ...adSettings(c.env, c.req.raw.headers) };
}

/**
 * A JSON feed page with its promoted cells placed as a server-rendered page places them:
 * `eligible` started beside the page's own read, every item marked (`isPromoted`, and a
 * promoted one's mark with its texts in the reader's language).
 */
export async function feedPageItems<Pin extends GridPin>(
  c: Context<AppEnv>,
  eligible: ReturnType<typeof startEligibleAds>,
  page: { feed: FeedRequest; organic: readonly Pin[]; shownAdIds?: readonly string[] | undefined; asPin: (pin: GridPin) => Pin },
): Promise<Array<FeedItem<Pin>>> {
  const cells = await withPromotedPins(eligible, { ctx: c.var.ctx, now: Date.now(), feed: page.feed, organic: page.organic, env: c.env, shownAdIds: new Set((page.shownAdIds ?? []).map(Number)) });
  return cells.map((cell) => feedItem(cell.promoted ? { ...page.asPin(cell), promoted: cell.promoted } : (cell as Pin), translate(c), c.var.ctx.language));
}

export const promotedPinsResource: ResourceDefinition = {
  get: defineHandler({
    options: z.strictObject({
      feed: z.enum(["home", "search", "related"]),
      /** The search's words (feed "search"). */
      query: z.string().trim().min(1).max(200).optional(),
      /** The close-up's pin (feed "related"). */
      pin_id: pinIdSchema.optional(),
      slots: z.number().int().min(1).max(MAX_SLOTS),
      /** The pins the page holds and the ads it shows: never placed again. */
      pin_ids: z.array(pinIdSchema).max(MAX_SHOWN).optional(),
      shown_ad_ids: shownAdIdsOption.optional(),
    }).superRefine((options, issues) => {
      if (options.feed === "search" && options.query === undefined) issues.addIssue({ code: "custom", path: ["query"], message: "is required for a search feed" });
      if (options.feed === "related" && options.pin_id === undefined) issues.addIssue({ code: "custom", path: ["pin_id"], message: "is required for a related feed" });
    }),
    async handle(c, options) {
      const ctx = c.var.ctx;
      const now = Date.now();
      let feed: FeedRequest;
      if (options.feed === "related") {
        const pinId = options.pin_id!;
        const related = await relatedFeedOf(c.env.DB, pinId);
        if (related === null) return { results: [] };
        feed = { kind: "related", pinId, ...related };
      } else feed = options.feed === "search" ? { kind: "search", query: options.query! } : { kind: "home" };
      const eligible = startEligibleAds(c.env.DB, ctx, now, adAudienceOf(c), feed.kind);
      // The page's own pins, as far as placement reads them (their ids).
      const organic = (options.pin_ids ?? []).map((id) => ({ id }) as GridPin);
      const cells = await promotedCells(eligible, { ctx, now, feed, organic, env: c.env, slots: options.slots, shownAdIds: new Set((options.shown_ad_ids ?? []).map(Number)) });
      return { results: cells.map((cell) => feedItem(cell, translate(c), ctx.language)) };
    },
  }),
};
