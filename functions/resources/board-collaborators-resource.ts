// BoardCollaboratorsResource get: a board's collaborator records, for its owner and collaborators.
import { z } from "zod";
import { listCollaborators } from "~/social/collaborators.server.ts";
import { idSchema } from "~/social/guard.server.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";

export const boardCollaboratorsResource: ResourceDefinition = {
  get: defineHandler({
    options: z.strictObject({ board_id: idSchema }),
    handle: (c, options) => listCollaborators(c.env.DB, c.var.ctx, options.board_id),
  }),
};
