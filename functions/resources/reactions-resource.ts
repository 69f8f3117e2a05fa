// ReactionsResource get: who reacted to a pin, paged by bookmark.
import { z } from "zod";
import { idSchema } from "~/social/guard.server.ts";
import { REACTIONS_BOOKMARK, listReactions } from "~/social/reactions.server.ts";
import { viewerIdOf } from "~/users/user.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";

export const reactionsResource: ResourceDefinition = {
  get: defineHandler({
    options: z.strictObject({ pin_id: idSchema, bookmark: z.string().regex(REACTIONS_BOOKMARK, "bookmarks come from a previous page").optional() }),
    handle: (c, o) => listReactions(c.env.DB, viewerIdOf(c.var.ctx), o.pin_id, o.bookmark ?? null),
  }),
};
