// BoardSectionPinsResource: one section's pins in board order (get, the feed answer), and
// moving one of them after another (update; null = first).
import { z } from "zod";
import { BOARD_PAGE_SIZE } from "~/boards/boards.server.ts";
import { idOption } from "~/boards/options.ts";
import { listSectionPins, reorderPin } from "~/boards/pin-order.server.ts";
import { boardPageFacts, boardPath, sectionPath } from "~/boards/write.server.ts";
import { purgePages } from "~/server/after-write.ts";
import { requireSectionAction } from "./board-section-resource.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";
import { bookmarkKeyset, feedAnswer, keysetBookmark, pageSize } from "./paging.ts";

export const boardSectionPinsResource: ResourceDefinition = {
  get: defineHandler({
    options: z.strictObject({ section_id: idOption, bookmark: keysetBookmark.optional(), page_size: pageSize.optional() }),
    async handle(c, options) {
      const { section, viewerId } = await requireSectionAction(c, options.section_id, "view_public");
      const page = await listSectionPins(c.env.DB, section.board_id, section.id, bookmarkKeyset(options.bookmark), options.page_size ?? BOARD_PAGE_SIZE, viewerId);
      return feedAnswer(page);
    },
  }),
  update: defineHandler({
    options: z.strictObject({ section_id: idOption, pin_id: idOption, after_pin_id: idOption.nullable() }),
    async handle(c, options) {
      const { section } = await requireSectionAction(c, options.section_id, "reorder_pins");
      await reorderPin(c.env.DB, section.board_id, options.pin_id, options.after_pin_id, section.id);
      const facts = await boardPageFacts(c.env.DB, section.board_id);
      if (facts) purgePages(c, [boardPath(facts.username, facts.slug), sectionPath(facts.username, facts.slug, section.slug)]);
      return { section_id: String(section.id), pin_id: String(options.pin_id), after_pin_id: options.after_pin_id === null ? null : String(options.after_pin_id) };
    },
  }),
};
