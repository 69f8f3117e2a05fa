// UserPinsResource get: one page of a profile's pins (spec 001 "profile pins feed"): the pins
// they created (feed "created", the default) or saved to their boards (feed "saved"). Pins on
// boards the viewer may not see are never listed; a hidden profile answers 404 on every page.
import { z } from "zod";
import { usernameSchema, viewerIdOf } from "~/users/user.ts";
import { PROFILE_PIN_FEEDS, PROFILE_PINS_PAGE_SIZE, listProfilePins } from "~/users/users.server.ts";
import { notFound } from "~/domain/errors.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";
import { bookmarkKeyset, feedAnswer, keysetBookmark, pageSize } from "./paging.ts";

export const userPinsResource: ResourceDefinition = {
  get: defineHandler({
    options: z.strictObject({
      username: usernameSchema,
      feed: z.enum(PROFILE_PIN_FEEDS).optional(),
      bookmark: keysetBookmark.optional(),
      page_size: pageSize.optional(),
    }),
    async handle(c, options) {
      const page = await listProfilePins(
        c.env.DB,
        options.feed ?? "created",
        options.username,
        bookmarkKeyset(options.bookmark),
        options.page_size ?? PROFILE_PINS_PAGE_SIZE,
        viewerIdOf(c.var.ctx),
      );
      if (!page) throw notFound();
      return feedAnswer(page);
    },
  }),
};
