// RelatedPinsFeedResource get: one page of the close-up's related feed
// (CloseupRelatedModulesFeedQuery, spec 000 §3, §9: page size 12, cursor endCursor and
// hasNextPage), for clients that call the resource rather than persisted GraphQL. `bookmark`
// is the spec's endCursor under the resource cache's name; the answer carries both. Its pages
// place promoted pins by the related feed's rule (src/ads/: a shared interest or the same
// category, never the close-up's own pin), marked `isPromoted`.
import { z } from "zod";
import { decodeTimeCursor } from "~/feeds/cursor.ts";
import { END_MARKER } from "~/feeds/feed.ts";
import { pinIdSchema } from "~/pins/pin.ts";
import { listRelatedPins } from "~/pins/pins.server.ts";
import { notFound } from "~/domain/errors.ts";
import { viewerIdOf } from "~/users/user.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";
import { relatedFeedOf } from "~/ads/delivery.server.ts";
import { startEligibleAds } from "~/ads/promoted-feed.server.ts";
import { adAudienceOf, feedPageItems, shownAdIdsOption } from "./promoted-pins-resource.ts";

export const relatedPinsFeedResource: ResourceDefinition = {
  get: defineHandler({
    options: z.strictObject({
      pin_id: pinIdSchema,
      bookmark: z.string().refine((value) => decodeTimeCursor(value) !== null, "not a bookmark this feed wrote").optional(),
      shown_ad_ids: shownAdIdsOption.optional(),
    }),
    async handle(c, options) {
      const cursor = options.bookmark === undefined ? null : decodeTimeCursor(options.bookmark);
      const eligible = startEligibleAds(c.env.DB, c.var.ctx, Date.now(), adAudienceOf(c), "related");
      const [page, related] = await Promise.all([listRelatedPins(c.env.DB, options.pin_id, cursor, viewerIdOf(c.var.ctx)), eligible ? relatedFeedOf(c.env.DB, options.pin_id) : null]);
      if (!page) throw notFound("api.pinNotFound");
      const feed = { kind: "related" as const, pinId: options.pin_id, category: related?.category ?? null, interestIds: related?.interestIds ?? [] };
      const results = await feedPageItems(c, related ? eligible : null, { feed, organic: page.pins, shownAdIds: options.shown_ad_ids, asPin: (pin) => pin });
      return { results, bookmark: page.endCursor ?? END_MARKER, endCursor: page.endCursor, hasNextPage: page.hasNextPage };
    },
  }),
};
