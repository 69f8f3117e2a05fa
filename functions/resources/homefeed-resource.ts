// HomefeedResource get: one page of the home feed, paged by bookmark (spec 000 §4). The same
// pins and order as the server-rendered home page; the bookmark is the opaque keyset cursor,
// or END_MARKER when there is nothing more.
import { z } from "zod";
import { END_MARKER } from "~/feeds/feed.ts";
import { decodeTimeCursor } from "~/feeds/cursor.ts";
import { HOME_FEED_PAGE_SIZE, listHomePinsPage } from "~/pins/pins.server.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";

export const homefeedResource: ResourceDefinition = {
  get: defineHandler({
    options: z.strictObject({
      bookmark: z.string().refine((value) => decodeTimeCursor(value) !== null).optional(),
      page_size: z.number().int().min(1).max(50).optional(),
    }),
    async handle(c, options) {
      const cursor = options.bookmark === undefined ? null : decodeTimeCursor(options.bookmark);
      const page = await listHomePinsPage(c.env.DB, cursor, options.page_size ?? HOME_FEED_PAGE_SIZE);
      return { results: page.pins, bookmark: page.nextCursor ?? END_MARKER };
    },
  }),
};
