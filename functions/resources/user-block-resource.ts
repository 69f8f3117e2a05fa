// UserBlockResource create / delete: block (clearing follows both ways) or unblock a person.
import { z } from "zod";
import { setUserBlock } from "~/social/follows.server.ts";
import { idSchema } from "~/social/guard.server.ts";
import { afterWrite } from "~/server/after-write.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";

const options = z.strictObject({ user_id: idSchema });

export const userBlockResource: ResourceDefinition = {
  create: defineHandler({ options, handle: async (c, o) => afterWrite(c, await setUserBlock(c.env.DB, c.var.ctx, o.user_id, true)) }),
  delete: defineHandler({ options, handle: async (c, o) => afterWrite(c, await setUserBlock(c.env.DB, c.var.ctx, o.user_id, false)) }),
};
