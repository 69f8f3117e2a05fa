// PinResource get: one pin as the close-up reads it.
import { z } from "zod";
import { ApiError, ErrorCode, notFound } from "../../src/server/errors.ts";
import { pinIdSchema } from "../../src/pins/pin.ts";
import { getPin } from "../../src/pins/pins.server.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";

export const pinResource: ResourceDefinition = {
  get: defineHandler({
    options: z.strictObject({
      id: pinIdSchema,
      field_set_key: z.enum(["detailed", "grid", "unauth_react_closeup"]).optional(),
    }),
    async handle(c, options) {
      const lookup = await getPin(c.env.DB, options.id);
      if (lookup.status === "missing") throw notFound("api.pinNotFound");
      if (lookup.status === "deleted") throw new ApiError(410, ErrorCode.Gone, { message: "api.pinNotFound" });
      return lookup.pin;
    },
  }),
};
