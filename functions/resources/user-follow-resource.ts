// UserFollowResource create / delete: follow or unfollow a person (spec 001 §4).
import { z } from "zod";
import { setUserFollow } from "~/social/follows.server.ts";
import { idSchema } from "~/social/guard.server.ts";
import { afterWrite } from "~/server/after-write.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";

const options = z.strictObject({ user_id: idSchema });

export const userFollowResource: ResourceDefinition = {
  create: defineHandler({ options, handle: async (c, o) => afterWrite(c, await setUserFollow(c.env.DB, c.var.ctx, o.user_id, true)) }),
  delete: defineHandler({ options, handle: async (c, o) => afterWrite(c, await setUserFollow(c.env.DB, c.var.ctx, o.user_id, false)) }),
};
