// BoardOwnershipTransferResource (spec 001 §4 Board: "An ownership transfer request sets the
// pending collaborator; cancelling clears it"): the owner asks an accepted collaborator to take
// the board over (create) or cancels (delete). Answers the Board.
import { z } from "zod";
import { requireBoardAction } from "~/boards/access.server.ts";
import { setPendingOwner } from "~/boards/boards-write.server.ts";
import { idOption } from "~/boards/options.ts";
import { badRequest } from "~/domain/errors.ts";
import { boardAnswer } from "./board-resource.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";

export const boardOwnershipTransferResource: ResourceDefinition = {
  create: defineHandler({
    options: z.strictObject({ board_id: idOption, user_id: idOption }),
    async handle(c, options) {
      const { board, viewerId } = await requireBoardAction(c.env.DB, c.var.ctx, options.board_id, "transfer_ownership");
      if (!(await setPendingOwner(c.env.DB, board, options.user_id))) throw badRequest([{ field: "user_id", reason: "boards:validation.notCollaborator" }]);
      return boardAnswer(c.env.DB, board.id, viewerId);
    },
  }),
  delete: defineHandler({
    options: z.strictObject({ board_id: idOption }),
    async handle(c, options) {
      const { board, viewerId } = await requireBoardAction(c.env.DB, c.var.ctx, options.board_id, "transfer_ownership");
      await setPendingOwner(c.env.DB, board, null);
      return boardAnswer(c.env.DB, board.id, viewerId);
    },
  }),
};
