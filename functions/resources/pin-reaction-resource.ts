// PinReactionResource create / delete: react to a pin (one reaction per person, types 1..20) or take it back.
import { z } from "zod";
import { idSchema } from "~/social/guard.server.ts";
import { REACTION_TYPES } from "~/social/reactions.ts";
import { react, unreact } from "~/social/reactions.server.ts";
import { afterWrite } from "~/server/after-write.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";

export const pinReactionResource: ResourceDefinition = {
  create: defineHandler({
    options: z.strictObject({ pin_id: idSchema, reaction_type: z.number().int().min(REACTION_TYPES.min).max(REACTION_TYPES.max) }),
    handle: async (c, o) => afterWrite(c, await react(c.env.DB, c.var.ctx, o.pin_id, o.reaction_type)),
  }),
  delete: defineHandler({
    options: z.strictObject({ pin_id: idSchema }),
    handle: async (c, o) => afterWrite(c, await unreact(c.env.DB, c.var.ctx, o.pin_id)),
  }),
};
