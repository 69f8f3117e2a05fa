// BoardSectionsResource: a board's sections in order (get), and reordering them (update, the
// full list of the board's section ids in the new order).
import { z } from "zod";
import { requireBoardAction } from "~/boards/access.server.ts";
import { loadSections } from "~/boards/board-json.server.ts";
import { idListOption, idOption } from "~/boards/options.ts";
import { reorderSections } from "~/boards/sections.server.ts";
import { boardPageFacts, boardPath } from "~/boards/write.server.ts";
import { purgePages } from "~/server/after-write.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";

export const boardSectionsResource: ResourceDefinition = {
  get: defineHandler({
    options: z.strictObject({ board_id: idOption }),
    async handle(c, options) {
      const { viewerId } = await requireBoardAction(c.env.DB, c.var.ctx, options.board_id, "view_public");
      return { results: await loadSections(c.env.DB, [options.board_id], viewerId) };
    },
  }),
  update: defineHandler({
    options: z.strictObject({ board_id: idOption, section_ids: idListOption }),
    async handle(c, options) {
      const { viewerId } = await requireBoardAction(c.env.DB, c.var.ctx, options.board_id, "reorder_sections");
      await reorderSections(c.env.DB, options.board_id, options.section_ids);
      const facts = await boardPageFacts(c.env.DB, options.board_id);
      if (facts) purgePages(c, [boardPath(facts.username, facts.slug)]);
      return { results: await loadSections(c.env.DB, [options.board_id], viewerId) };
    },
  }),
};
