// RepinResource: save a pin to a board (or section), or quick-save it to the profile when the
// viewer's save_behavior says so (src/saves/save-behavior.ts); delete unsaves. Saving again is
// answered like the first save (idempotent, nothing counted twice).
import { z } from "zod";
import { requireWriteAllowed } from "~/accounts/guards.server.ts";
import { assertBoardAction, requireBoardAction } from "~/boards/access.server.ts";
import { allows } from "~/boards/policy.ts";
import { idOption } from "~/boards/options.ts";
import { boardPageFacts, boardPath, pinPath, profilePaths, usablePin } from "~/boards/write.server.ts";
import { badRequest, forbidden, notFound } from "~/domain/errors.ts";
import { purgePages } from "~/server/after-write.ts";
import { profileSavedInfo } from "~/saves/picker.server.ts";
import { quickSaveTarget } from "~/saves/save-behavior.ts";
import { findSave, loadBoardSave, loadProfileSave, saveToBoard, saveToProfile, unsaveFromBoard, unsaveFromProfile, type SavedInfo } from "~/saves/saves.server.ts";
import { claimOf } from "~/server/client-request.ts";
import { adSaveStatements } from "~/ads/counting.server.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";

export const repinResource: ResourceDefinition = {
  create: defineHandler({
    options: z.strictObject({ pin_id: idOption, board_id: idOption.optional(), section_id: idOption.optional() }),
    appliesOnce: true,
    async handle(c, options) {
      const db = c.env.DB;
      const session = requireWriteAllowed(c.var.ctx);
      const viewerId = session.user.id;
      if (options.board_id === undefined) {
        if (options.section_id !== undefined || quickSaveTarget(session.user.save_behavior) === null) {
          throw badRequest([{ field: "board_id", reason: "boards:validation.boardRequired" }]);
        }
        // The pin and the feed head in one read, then the insert.
        const target = await loadProfileSave(db, viewerId, options.pin_id);
        usablePin(target.pin);
        const now = Date.now();
        // A save of a pin this person was shown as promoted counts for its ad, in the save's batch.
        await saveToProfile(db, viewerId, options.pin_id, target.head, now, [...claimOf(c), ...adSaveStatements(db, viewerId, options.pin_id, now)]);
        return { saved_info: profileSavedInfo(session.user.username, options.pin_id), board: null, pin_id: String(options.pin_id) };
      }
      // One read for the board and the viewer's role, the pin, the section, an earlier save and
      // the feed head; then one write batch. The checks run in the order they always did.
      const target = assertBoardAction(await loadBoardSave(db, viewerId, options.board_id, options.pin_id, options.section_id ?? null), "save_pin");
      const { board } = target;
      usablePin(target.pin);
      if (options.section_id !== undefined && target.sectionBoardId !== board.id) throw notFound("boards:api.sectionNotFound");
      const now = Date.now();
      const saved = await saveToBoard(db, viewerId, options.pin_id, board.id, options.section_id ?? null, target, now, [...claimOf(c), ...adSaveStatements(db, viewerId, options.pin_id, now)]);
      const url = boardPath(target.ownerUsername, board.slug);
      if (saved.created) purgePages(c, [url, ...profilePaths(target.ownerUsername), pinPath(options.pin_id)]);
      const savedInfo: SavedInfo = {
        boardId: String(board.id),
        sectionId: saved.sectionId === null ? null : String(saved.sectionId),
        title: board.name,
        type: "board",
        url,
        localPinId: String(options.pin_id),
      };
      return { saved_info: savedInfo, board: { id: String(board.id), name: board.name, privacy: board.privacy }, pin_id: String(options.pin_id) };
    },
  }),
  delete: defineHandler({
    options: z.strictObject({ pin_id: idOption, board_id: idOption.optional() }),
    async handle(c, options) {
      const db = c.env.DB;
      if (options.board_id === undefined) {
        const session = requireWriteAllowed(c.var.ctx);
        await unsaveFromProfile(db, session.user.id, options.pin_id);
        return { pin_id: String(options.pin_id), board_id: null };
      }
      // A write collaborator may take back their own save (Undo), not anyone else's; the
      // DELETE itself repeats the condition, so a save that changed hands meanwhile stays.
      const { board, role, viewerId } = await requireBoardAction(c.env.DB, c.var.ctx, options.board_id, "unsave_own");
      const onlyOwn = allows(role, "remove_pin") ? null : viewerId;
      if (onlyOwn !== null) {
        const save = await findSave(db, board.id, options.pin_id);
        if (save && save.saved_by !== onlyOwn) throw forbidden();
      }
      const removed = await unsaveFromBoard(db, options.pin_id, board.id, onlyOwn);
      const facts = await boardPageFacts(db, board.id);
      if (facts && removed) purgePages(c, [boardPath(facts.username, facts.slug), ...profilePaths(facts.username), pinPath(options.pin_id)]);
      return { pin_id: String(options.pin_id), board_id: String(board.id) };
    },
  }),
};
