// RelatedPinsFeedResource get: one page of the close-up's related feed
// (CloseupRelatedModulesFeedQuery, spec 000 §3, §9: page size 12, cursor endCursor and
// hasNextPage), for clients that call the resource rather than persisted GraphQL. `bookmark`
// is the spec's endCursor under the resource cache's name; the answer carries both.
import { z } from "zod";
import { decodeTimeCursor } from "~/feeds/cursor.ts";
import { END_MARKER } from "~/feeds/feed.ts";
import { pinIdSchema } from "~/pins/pin.ts";
import { listRelatedPins } from "~/pins/pins.server.ts";
import { notFound } from "~/domain/errors.ts";
import { viewerIdOf } from "~/users/user.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";

export const relatedPinsFeedResource: ResourceDefinition = {
  get: defineHandler({
    options: z.strictObject({
      pin_id: pinIdSchema,
      bookmark: z.string().refine((value) => decodeTimeCursor(value) !== null, "not a bookmark this feed wrote").optional(),
    }),
    async handle(c, options) {
      const cursor = options.bookmark === undefined ? null : decodeTimeCursor(options.bookmark);
      const page = await listRelatedPins(c.env.DB, options.pin_id, cursor, viewerIdOf(c.var.ctx));
      if (!page) throw notFound("api.pinNotFound");
      return { results: page.pins, bookmark: page.endCursor ?? END_MARKER, endCursor: page.endCursor, hasNextPage: page.hasNextPage };
    },
  }),
};
