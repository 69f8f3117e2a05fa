// UserBlockResource create / delete: block (clearing follows both ways) or unblock a person.
import { z } from "zod";
import { setUserBlock } from "../../src/social/follows.server.ts";
import { idSchema } from "../../src/social/guard.server.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";

const options = z.strictObject({ user_id: idSchema });

export const userBlockResource: ResourceDefinition = {
  create: defineHandler({ options, handle: (c, o) => setUserBlock(c, o.user_id, true) }),
  delete: defineHandler({ options, handle: (c, o) => setUserBlock(c, o.user_id, false) }),
};
