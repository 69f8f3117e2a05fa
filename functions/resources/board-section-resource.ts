// BoardSectionResource: create a section (front of the list), rename it, delete it (its pins
// stay on the board, sectionless). The section's board is looked up first, then
// requireBoardAction decides; an unknown section is a 404.
import { z } from "zod";
import type { Context } from "hono";
import { requireBoardAction } from "~/boards/access.server.ts";
import { loadSection } from "~/boards/board-json.server.ts";
import { idOption, sectionTitleOption } from "~/boards/options.ts";
import type { BoardAction } from "~/boards/policy.ts";
import { createSection, deleteSection, findSection, renameSection } from "~/boards/sections.server.ts";
import { boardPageFacts, boardPath, sectionPath } from "~/boards/write.server.ts";
import { purgePages } from "~/server/after-write.ts";
import type { AppEnv } from "~/server/context.ts";
import { isDomainError } from "~/domain/errors.ts";
import { notFound } from "~/domain/errors.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";

/**
 * The section and the viewer's standing on its board for `action`. An unknown section and a
 * section of a board hidden from the viewer answer the same 404, so a section id never tells
 * whether a secret board exists.
 */
export async function requireSectionAction(c: Context<AppEnv>, sectionId: number, action: BoardAction) {
  const section = await findSection(c.env.DB, sectionId);
  if (!section) throw notFound("boards:api.sectionNotFound");
  try {
    const access = await requireBoardAction(c.env.DB, c.var.ctx, section.board_id, action);
    return { ...access, section };
  } catch (error) {
    if (isDomainError(error, "not_found")) throw notFound("boards:api.sectionNotFound");
    throw error;
  }
}

async function sectionAnswer(db: D1Database, boardId: number, sectionId: number, viewerId: number | null) {
  const section = await loadSection(db, boardId, sectionId, viewerId);
  if (!section) throw notFound("boards:api.sectionNotFound");
  return section;
}

/** The board page lists its sections: purge it after a change, with the changed section's own page. */
async function purgeBoard(c: Context<AppEnv>, boardId: number, sectionSlug: string | null = null): Promise<void> {
  const facts = await boardPageFacts(c.env.DB, boardId);
  if (facts) purgePages(c, [boardPath(facts.username, facts.slug), ...(sectionSlug === null ? [] : [sectionPath(facts.username, facts.slug, sectionSlug)])]);
}

export const boardSectionResource: ResourceDefinition = {
  create: defineHandler({
    options: z.strictObject({ board_id: idOption, title: sectionTitleOption }),
    async handle(c, options) {
      const { board, viewerId } = await requireBoardAction(c.env.DB, c.var.ctx, options.board_id, "create_section");
      const sectionId = await createSection(c.env.DB, board.id, options.title);
      await purgeBoard(c, board.id);
      return sectionAnswer(c.env.DB, board.id, sectionId, viewerId);
    },
  }),
  update: defineHandler({
    options: z.strictObject({ section_id: idOption, title: sectionTitleOption }),
    async handle(c, options) {
      const { section, viewerId } = await requireSectionAction(c, options.section_id, "rename_section");
      await renameSection(c.env.DB, section, options.title);
      await purgeBoard(c, section.board_id, section.slug);
      return sectionAnswer(c.env.DB, section.board_id, section.id, viewerId);
    },
  }),
  delete: defineHandler({
    options: z.strictObject({ section_id: idOption }),
    async handle(c, options) {
      const { section } = await requireSectionAction(c, options.section_id, "delete_section");
      await deleteSection(c.env.DB, section);
      await purgeBoard(c, section.board_id, section.slug);
      return { section_id: String(section.id), board_id: String(section.board_id) };
    },
  }),
};
