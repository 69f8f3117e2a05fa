// BoardsFeedResource get: one page of a profile's boards (spec 001 "profile boards") in a
// board sort order, each card with its pin count written out. Boards the viewer may not see are never counted or listed; a hidden
// profile answers 404, checked on every page.
import { z } from "zod";
import { BOARD_SORT_ORDERS, DEFAULT_BOARD_SORT } from "../../src/profile/view-state.ts";
import { notFound } from "../../src/server/errors.ts";
import { usernameSchema, viewerIdOf } from "../../src/users/user.ts";
import { PROFILE_BOARDS_PAGE_SIZE, cursorFitsSort, listProfileBoards } from "../../src/users/users.server.ts";
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
};
