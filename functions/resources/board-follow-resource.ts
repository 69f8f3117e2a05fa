// BoardFollowResource create / delete: follow or unfollow a board (policy action follow_board).
import { z } from "zod";
import { setBoardFollow } from "~/social/follows.server.ts";
import { idSchema } from "~/social/guard.server.ts";
import { afterWrite } from "~/server/after-write.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";

const options = z.strictObject({ board_id: idSchema });

export const boardFollowResource: ResourceDefinition = {
  create: defineHandler({ options, handle: async (c, o) => afterWrite(c, await setBoardFollow(c.env.DB, c.var.ctx, o.board_id, true)) }),
  delete: defineHandler({ options, handle: async (c, o) => afterWrite(c, await setBoardFollow(c.env.DB, c.var.ctx, o.board_id, false)) }),
};
