// InterestFollowResource create / delete: follow a topic (spec 000 §7: create with interest_id
// and an interest list, delete; events 601 and 602).
import { z } from "zod";
import { idSchema } from "~/social/guard.server.ts";
import { setInterestFollow } from "~/social/interests.server.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";

/** The list the follow came from, e.g. "favorited" (kept with the 601 event). */
const interestList = z.string().regex(/^[a-z_]{1,50}$/, "interest lists are lowercase words");

export const interestFollowResource: ResourceDefinition = {
  create: defineHandler({
    options: z.strictObject({ interest_id: idSchema, interest_list: interestList.optional() }),
    handle: (c, o) => setInterestFollow(c.env.DB, c.var.ctx, c.var.ctx.requestId, o.interest_id, true, o.interest_list ?? null),
  }),
  delete: defineHandler({
    options: z.strictObject({ interest_id: idSchema }),
    handle: (c, o) => setInterestFollow(c.env.DB, c.var.ctx, c.var.ctx.requestId, o.interest_id, false, null),
  }),
};
