// BoardBulkResource update (spec 000 §9 bulk actions): bulkMove, bulkCopy, bulkCreateSection
// and bulkDelete over a board's pins, chosen by id (at most 250) or as "all but these" (at
// most 250 excluded). Each is one D1 batch: all or nothing. Refused with 409 while a blocking
// action runs on the board (GET /v3/boards/{id}/).
import { z } from "zod";
import type { Context } from "hono";
import { requireBoardAction } from "~/boards/access.server.ts";
import { loadSection } from "~/boards/board-json.server.ts";
import { hasRunningBlockingAction } from "~/boards/blocking.server.ts";
import { idListOption, idOption, sectionTitleOption } from "~/boards/options.ts";
import { findSection, prepareSection, sectionIdBySlug } from "~/boards/sections.server.ts";
import { boardPageFacts, boardPath, pinPath, profilePaths } from "~/boards/write.server.ts";
import { purgePages } from "~/server/after-write.ts";
import { assertOnBoard, copyPins, movePins, removePins, type Selection } from "~/saves/saves.server.ts";
import type { AppEnv } from "~/server/context.ts";
import { ApiError, ErrorCode } from "~/server/errors.ts";
import { badRequest, notFound } from "~/domain/errors.ts";
import { claimOf } from "~/server/client-request.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";

const BULK_ACTIONS = ["bulkMove", "bulkCopy", "bulkCreateSection", "bulkDelete"] as const;

const options = z
  .strictObject({
    board_id: idOption,
    action: z.enum(BULK_ACTIONS),
    pin_ids: idListOption.optional(),
    all: z.boolean().optional(),
    excluded_pin_ids: idListOption.optional(),
    target_board_id: idOption.optional(),
    target_section_id: idOption.optional(),
    section_title: sectionTitleOption.optional(),
  })
  .superRefine((value, issues) => {
    if (value.all === true && value.pin_ids !== undefined) issues.addIssue({ code: "custom", path: ["pin_ids"], message: "pin_ids or all, not both" });
    if (value.all !== true && (value.pin_ids === undefined || value.pin_ids.length === 0)) issues.addIssue({ code: "too_small", origin: "array", minimum: 1, inclusive: true, path: ["pin_ids"], message: "pin_ids or all" });
    if (value.all !== true && value.excluded_pin_ids !== undefined) issues.addIssue({ code: "custom", path: ["excluded_pin_ids"], message: "only with all" });
  });

/** Purges the boards' pages and their owners' profiles, the home feed, and the named pins' pages (bounded by the 250-id limit). */
async function purgeBoards(c: Context<AppEnv>, boardIds: number[], pinIds: readonly number[] = []): Promise<void> {
  const paths: string[] = ["/", ...pinIds.map(pinPath)];
  for (const boardId of new Set(boardIds)) {
    const facts = await boardPageFacts(c.env.DB, boardId);
    if (facts) paths.push(boardPath(facts.username, facts.slug), ...profilePaths(facts.username));
  }
  purgePages(c, paths);
}

export const boardBulkResource: ResourceDefinition = {
  update: defineHandler({
    options,
    appliesOnce: true,
    async handle(c, options) {
      const db = c.env.DB;
      const action = options.action;
      const sourceAction = action === "bulkCopy" ? "view_public" : action === "bulkCreateSection" ? "create_section" : "remove_pin";
      const { board, viewerId } = await requireBoardAction(c.env.DB, c.var.ctx, options.board_id, sourceAction);
      const selection: Selection = options.all === true ? { all: true, ids: options.excluded_pin_ids ?? [] } : { all: false, ids: options.pin_ids ?? [] };

      let targetId = board.id;
      if (action === "bulkMove" || action === "bulkCopy") {
        if (options.target_board_id === undefined) throw badRequest([{ field: "target_board_id", reason: "boards:validation.targetRequired" }]);
        targetId = options.target_board_id;
        await requireBoardAction(c.env.DB, c.var.ctx, targetId, "save_pin");
      }
      if (await hasRunningBlockingAction(db, [board.id, targetId])) throw new ApiError(409, ErrorCode.Conflict, { message: "boards:api.blockingActionRunning" });
      let sectionId: number | null = null;
      if (options.target_section_id !== undefined && (action === "bulkMove" || action === "bulkCopy")) {
        const section = await findSection(db, options.target_section_id);
        if (!section || section.board_id !== targetId) throw notFound("boards:api.sectionNotFound");
        sectionId = section.id;
      }
      if (action !== "bulkCopy") await assertOnBoard(db, board.id, selection);

      if (action === "bulkCopy") {
        const copied = await copyPins(db, viewerId!, board.id, selection, { boardId: targetId, sectionId, before: claimOf(c) });
        await purgeBoards(c, [targetId]);
        return { copied };
      }
      if (action === "bulkDelete") {
        const deleted = await removePins(db, board.id, selection, claimOf(c));
        await purgeBoards(c, [board.id]);
        return { deleted };
      }
      if (action === "bulkCreateSection") {
        if (options.section_title === undefined) throw badRequest([{ field: "section_title", reason: "validation.required" }]);
        const newSection = await prepareSection(db, board.id, options.section_title);
        const moved = await movePins(db, viewerId!, board.id, selection, { boardId: board.id, sectionId: null, newSection, before: claimOf(c) });
        const createdId = await sectionIdBySlug(db, board.id, newSection.slug);
        await purgeBoards(c, [board.id]);
        const section = createdId === null ? null : await loadSection(db, board.id, createdId, viewerId);
        return { moved, section };
      }
      const moved = await movePins(db, viewerId!, board.id, selection, { boardId: targetId, sectionId, before: claimOf(c) });
      // A moved pin may change home board (and so its page's board link and who sees it).
      await purgeBoards(c, [board.id, targetId], selection.all ? [] : selection.ids);
      return { moved };
    },
  }),
};
