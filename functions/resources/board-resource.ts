// BoardResource: get, create, update (edit, privacy, cover, layout, archive and
// unarchive), delete. Every call but create asks requireBoardAction first; create needs a
// full, write-allowed login. Answers the API's Board JSON; writes purge the signed-out pages
// they changed.
import { z } from "zod";
import { requireWriteAllowed } from "~/accounts/guards.server.ts";
import { requireBoardAction } from "~/boards/access.server.ts";
import { loadBoard } from "~/boards/board-json.server.ts";
import { createBoard, deleteBoard, updateBoard } from "~/boards/boards-write.server.ts";
import { boardNameOption, descriptionOption, idOption, layoutOption, privacyOption } from "~/boards/options.ts";
import { boardPageFacts, boardPath, bornHerePages, pinPath, profilePaths, sectionPaths } from "~/boards/write.server.ts";
import { purgePages } from "~/server/after-write.ts";
import { badRequest, notFound } from "~/domain/errors.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";

/** The board's answer for the viewer; a board that vanished meanwhile is a 404. */
export async function boardAnswer(db: D1Database, boardId: number, viewerId: number | null) {
  const board = await loadBoard(db, boardId, viewerId);
  if (!board) throw notFound("api.boardNotFound");
  return board;
}

export const boardResource: ResourceDefinition = {
  get: defineHandler({
    options: z.strictObject({ board_id: idOption }),
    async handle(c, options) {
      const { viewerId } = await requireBoardAction(c.env.DB, c.var.ctx, options.board_id, "view_public");
      return boardAnswer(c.env.DB, options.board_id, viewerId);
    },
  }),
  create: defineHandler({
    options: z.strictObject({
      name: boardNameOption,
      description: descriptionOption.optional(),
      privacy: privacyOption.optional(),
      layout: layoutOption.optional(),
      category: z.string().max(50).optional(),
    }),
    async handle(c, options) {
      const session = requireWriteAllowed(c.var.ctx);
      const db = c.env.DB;
      const boardId = await createBoard(db, session.user.id, {
        name: options.name,
        description: options.description ?? "",
        privacy: options.privacy ?? "public",
        layout: options.layout ?? "default",
        category: options.category ?? null,
      });
      purgePages(c, profilePaths(session.user.username));
      return boardAnswer(db, boardId, session.user.id);
    },
  }),
  update: defineHandler({
    options: z.strictObject({
      board_id: idOption,
      name: boardNameOption.optional(),
      description: descriptionOption.optional(),
      privacy: privacyOption.optional(),
      layout: layoutOption.optional(),
      cover_pin_id: idOption.nullable().optional(),
      archived: z.boolean().optional(),
    }),
    async handle(c, options) {
      const { board_id: boardId, archived, ...edits } = options;
      const edited = Object.values(edits).some((value) => value !== undefined);
      if (!edited && archived === undefined) throw badRequest([{ field: "options", reason: "boards:validation.nothingToChange" }]);
      // Archiving is its own action in the policy; an edit is edit_board. Both when both are asked.
      const { board, viewerId } = await requireBoardAction(c.env.DB, c.var.ctx, boardId, edited ? "edit_board" : "archive_board");
      if (edited && archived !== undefined) await requireBoardAction(c.env.DB, c.var.ctx, boardId, "archive_board");
      const db = c.env.DB;
      const facts = await boardPageFacts(db, boardId);
      const result = await updateBoard(db, board, { ...edits, archived });
      if (facts) {
        // Its sections' pages follow the board: its privacy, archiving and address are theirs.
        const paths = [boardPath(facts.username, result.oldSlug), boardPath(facts.username, result.newSlug), ...profilePaths(facts.username), ...sectionPaths(facts, result.oldSlug)];
        if (result.visibilityChanged) paths.push("/", ...(await bornHerePages(db, boardId)));
        purgePages(c, paths);
      }
      return boardAnswer(db, boardId, viewerId);
    },
  }),
  delete: defineHandler({
    options: z.strictObject({ board_id: idOption }),
    async handle(c, options) {
      const { board } = await requireBoardAction(c.env.DB, c.var.ctx, options.board_id, "delete_board");
      const db = c.env.DB;
      const facts = await boardPageFacts(db, board.id);
      const { pinIds } = await deleteBoard(db, board);
      if (facts) purgePages(c, [boardPath(facts.username, facts.slug), ...sectionPaths(facts, facts.slug), ...profilePaths(facts.username), "/", ...pinIds.map(pinPath)]);
      return { board_id: String(board.id) };
    },
  }),
};
