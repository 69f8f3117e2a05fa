// BoardsFeedResource update: the owner puts one of their boards right after another on their
// profile (after_board_id null: first); the order is kept in boards.position.
// BoardsFeedResource get: one page of a profile's boards (spec 001 "profile boards") in a
// board sort order, each card with its pin count written out. Boards the viewer may not see are never counted or listed; a hidden
// profile answers 404, checked on every page.
import { z } from "zod";
import { BOARD_SORT_ORDERS, DEFAULT_BOARD_SORT } from "~/profile/view-state.ts";
import { requireBoardAction } from "~/boards/access.server.ts";
import { reorderProfileBoard } from "~/boards/boards-write.server.ts";
import { idOption } from "~/boards/options.ts";
import { profilePaths } from "~/boards/write.server.ts";
import { purgePages } from "~/server/after-write.ts";
import { badRequest, notFound } from "~/domain/errors.ts";
import { usernameSchema, viewerIdOf } from "~/users/user.ts";
import { PROFILE_BOARDS_PAGE_SIZE, cursorFitsSort, listProfileBoards } from "~/users/users.server.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";
import { bookmarkKeyset, feedAnswer, keysetBookmark, pageSize } from "./paging.ts";

export const boardsFeedResource: ResourceDefinition = {
  get: defineHandler({
    options: z
      .strictObject({
        username: usernameSchema,
        sort: z.enum(BOARD_SORT_ORDERS).optional(),
        bookmark: keysetBookmark.optional(),
        page_size: pageSize.optional(),
      })
      .refine((options) => {
        const cursor = bookmarkKeyset(options.bookmark);
        return cursor === null || cursorFitsSort(cursor, options.sort ?? DEFAULT_BOARD_SORT);
      }, { path: ["bookmark"], message: "a bookmark of another sort order" }),
    async handle(c, options) {
      const sort = options.sort ?? DEFAULT_BOARD_SORT;
      const page = await listProfileBoards(
        c.env.DB,
        options.username,
        sort,
        bookmarkKeyset(options.bookmark),
        options.page_size ?? PROFILE_BOARDS_PAGE_SIZE,
        viewerIdOf(c.var.ctx),
      );
      if (!page) throw notFound();
      // The card's count as the page writes it, in the request's locale (the script has no i18n).
      return feedAnswer({ ...page, items: page.items.map((board) => ({ ...board, pinCountText: c.var.t("profile:pinCount", { count: board.pinCount }) })) });
    },
  }),
  update: defineHandler({
    options: z.strictObject({ board_id: idOption, after_board_id: idOption.nullable() }),
    async handle(c, options) {
      // Reordering a profile's boards is the owner's edit of their own boards (edit_board: owner only).
      const { board } = await requireBoardAction(c.env.DB, c.var.ctx, options.board_id, "edit_board");
      if (options.after_board_id === board.id) throw badRequest([{ field: "after_board_id", reason: "boards:validation.samePin" }]);
      if (!(await reorderProfileBoard(c.env.DB, board.owner_id, board.id, options.after_board_id))) {
        throw badRequest([{ field: "after_board_id", reason: "boards:validation.otherOwner" }]);
      }
      const session = c.var.ctx.session;
      if (session) purgePages(c, profilePaths(session.user.username));
      return { board_id: String(board.id), after_board_id: options.after_board_id === null ? null : String(options.after_board_id) };
    },
  }),
};
