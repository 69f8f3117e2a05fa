// FindPinImagesResource get (spec 001 §7: items; source pin_create): the images of a web page a
// signed-in person names, for making a pin from it, with the page's title, description and link.
import { z } from "zod";
import { findPinImages } from "~/builder/find-images.server.ts";
import { PIN_LINK_MAX } from "~/pins/pin.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";

export const findPinImagesResource: ResourceDefinition = {
  get: defineHandler({
    options: z.strictObject({
      url: z.string().min(1).max(PIN_LINK_MAX),
      source: z.enum(["pin_create"]).default("pin_create"),
    }),
    async handle(c, options) {
      return findPinImages({ db: c.env.DB, cache: c.env.CACHE }, c.var.ctx, options.url);
    },
  }),
};
