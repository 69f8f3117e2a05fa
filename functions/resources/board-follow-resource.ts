// BoardFollowResource create / delete: follow or unfollow a board (policy action follow_board).
import { z } from "zod";
import { setBoardFollow } from "../../src/social/follows.server.ts";
import { idSchema } from "../../src/social/guard.server.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";

const options = z.strictObject({ board_id: idSchema });

export const boardFollowResource: ResourceDefinition = {
  create: defineHandler({ options, handle: (c, o) => setBoardFollow(c, o.board_id, true) }),
  delete: defineHandler({ options, handle: (c, o) => setBoardFollow(c, o.board_id, false) }),
};
