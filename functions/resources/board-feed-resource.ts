// BoardFeedResource get: one page of a board's pins in board order (spec 001 "board feed").
// The board's visibility is checked on every page: a secret board answers 404 to anyone but
// its owner and collaborators, whatever bookmark they hold. update: moves one pin right after
// another (after_pin_id null: first), for the board's people (reorder_pins).
import { z } from "zod";
import { BOARD_PAGE_SIZE, listBoardPins } from "~/boards/boards.server.ts";
import { requireBoardAction } from "~/boards/access.server.ts";
import { idOption } from "~/boards/options.ts";
import { reorderPin } from "~/boards/pin-order.server.ts";
import { boardPageFacts, boardPath } from "~/boards/write.server.ts";
import { purgePages } from "~/server/after-write.ts";
import { notFound } from "~/domain/errors.ts";
import { viewerIdOf } from "~/users/user.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";
import { bookmarkKeyset, feedAnswer, keysetBookmark, pageSize } from "./paging.ts";

export const boardFeedResource: ResourceDefinition = {
  get: defineHandler({
    options: z.strictObject({
      board_id: z.string().regex(/^\d{1,19}$/, "board ids are digits").transform(Number).pipe(z.number().int().max(Number.MAX_SAFE_INTEGER)),
      bookmark: keysetBookmark.optional(),
      page_size: pageSize.optional(),
    }),
    async handle(c, options) {
      const page = await listBoardPins(c.env.DB, options.board_id, bookmarkKeyset(options.bookmark), options.page_size ?? BOARD_PAGE_SIZE, viewerIdOf(c.var.ctx));
      if (!page) throw notFound();
      return feedAnswer(page);
    },
  }),
  update: defineHandler({
    options: z.strictObject({ board_id: idOption, pin_id: idOption, after_pin_id: idOption.nullable() }),
    async handle(c, options) {
      const { board } = await requireBoardAction(c.env.DB, c.var.ctx, options.board_id, "reorder_pins");
      await reorderPin(c.env.DB, board.id, options.pin_id, options.after_pin_id);
      const facts = await boardPageFacts(c.env.DB, board.id);
      if (facts) purgePages(c, [boardPath(facts.username, facts.slug)]);
      return { board_id: String(board.id), pin_id: String(options.pin_id), after_pin_id: options.after_pin_id === null ? null : String(options.after_pin_id) };
    },
  }),
};
