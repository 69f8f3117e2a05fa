// UserFollowResource create / delete: follow or unfollow a person (spec 001 §4).
import { z } from "zod";
import { setUserFollow } from "../../src/social/follows.server.ts";
import { idSchema } from "../../src/social/guard.server.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";

const options = z.strictObject({ user_id: idSchema });

export const userFollowResource: ResourceDefinition = {
  create: defineHandler({ options, handle: (c, o) => setUserFollow(c, o.user_id, true) }),
  delete: defineHandler({ options, handle: (c, o) => setUserFollow(c, o.user_id, false) }),
};
