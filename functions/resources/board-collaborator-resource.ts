// BoardCollaboratorResource: invite, request to join, approve, deny, accept, remove or leave
// (src/social/collaborators.server.ts).
import { z } from "zod";
import { badRequest } from "~/domain/errors.ts";
import { MAX_INVITES_PER_CALL, inviteCollaborators, removeCollaborator, requestToJoin, updateCollaborator } from "~/social/collaborators.server.ts";
import { idSchema } from "~/social/guard.server.ts";
import { afterWrite } from "~/server/after-write.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";

export const boardCollaboratorResource: ResourceDefinition = {
  create: defineHandler({
    options: z.strictObject({
      board_id: idSchema,
      user_ids: z.array(idSchema).min(1).max(MAX_INVITES_PER_CALL).optional(),
      request: z.literal(true).optional(),
    }),
    async handle(c, options) {
      // Exactly one of the two: invite people, or ask to join.
      if ((options.user_ids === undefined) === (options.request === undefined)) {
        throw badRequest([{ field: "user_ids", reason: "social:validation.inviteOrRequest" }]);
      }
      if (options.request) return requestToJoin(c.env.DB, c.var.ctx, options.board_id);
      return inviteCollaborators(c.env.DB, c.var.ctx, options.board_id, options.user_ids!);
    },
  }),
  update: defineHandler({
    options: z.strictObject({ board_id: idSchema, user_id: idSchema, action: z.enum(["approve", "deny", "accept"]) }),
    handle: async (c, options) => afterWrite(c, await updateCollaborator(c.env.DB, c.var.ctx, options.board_id, options.user_id, options.action)),
  }),
  delete: defineHandler({
    options: z.strictObject({ board_id: idSchema, user_id: idSchema }),
    handle: async (c, options) => afterWrite(c, await removeCollaborator(c.env.DB, c.var.ctx, options.board_id, options.user_id)),
  }),
};
