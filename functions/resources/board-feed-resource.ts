// BoardFeedResource get: one page of a board's pins in board order (spec 001 "board feed").
// The board's visibility is checked on every page: a secret board answers 404 to anyone but
// its owner and collaborators, whatever bookmark they hold.
import { z } from "zod";
import { BOARD_PAGE_SIZE, listBoardPins } from "../../src/boards/boards.server.ts";
import { notFound } from "../../src/server/errors.ts";
import { viewerIdOf } from "../../src/users/user.ts";
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
};
