// DidItResource create / delete: "I tried this" on a pin, or taking it back.
import { z } from "zod";
import { setDidIt } from "~/social/did-it.server.ts";
import { idSchema } from "~/social/guard.server.ts";
import { afterWrite } from "~/server/after-write.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";

const options = z.strictObject({ pin_id: idSchema });

export const didItResource: ResourceDefinition = {
  create: defineHandler({ options, handle: async (c, o) => afterWrite(c, await setDidIt(c.env.DB, c.var.ctx, o.pin_id, true)) }),
  delete: defineHandler({ options, handle: async (c, o) => afterWrite(c, await setDidIt(c.env.DB, c.var.ctx, o.pin_id, false)) }),
};
