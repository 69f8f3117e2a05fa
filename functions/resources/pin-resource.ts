// PinResource: get one pin as the close-up reads it; create one by publishing a draft of the
// pin builder (now, or at its scheduled time); update its title, description or link
// (its pinner only) and/or move it to another board or section (remove_pin on the source and
// save_pin on the target, per the board policy; within one board, save_pin); delete it (its
// pinner only: it leaves every feed and its page answers 410).
import { z } from "zod";
import { requireWriteAllowed } from "~/accounts/guards.server.ts";
import { requireBoardAction } from "~/boards/access.server.ts";
import { forbidden } from "~/domain/errors.ts";
import { idOption } from "~/boards/options.ts";
import { findSection } from "~/boards/sections.server.ts";
import { boardPages, pinPath, profilePaths, requirePin, visiblePin } from "~/boards/write.server.ts";
import { purgePages } from "~/server/after-write.ts";
import { editPin, pinEditStatement } from "~/pins/edit.server.ts";
import { PIN_DESCRIPTION_MAX, PIN_LINK_MAX, PIN_TITLE_MAX, pinIdSchema } from "~/pins/pin.ts";
import { getPin } from "~/pins/pins.server.ts";
import { publishDraft } from "~/builder/publish.server.ts";
import { assertOnBoard, deletePin, findSave, movePins } from "~/saves/saves.server.ts";
import { ApiError, ErrorCode } from "~/server/errors.ts";
import { badRequest, notFound } from "~/domain/errors.ts";
import { claimOf } from "~/server/client-request.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";

const linkOption = z
  .string()
  .max(PIN_LINK_MAX)
  .refine((value) => {
    if (value === "") return true;
    try {
      const url = new URL(value);
      return url.protocol === "https:" || url.protocol === "http:";
    } catch {
      return false;
    }
  }, "boards:validation.link");

export const pinResource: ResourceDefinition = {
  get: defineHandler({
    options: z.strictObject({
      id: pinIdSchema,
      field_set_key: z.enum(["detailed", "grid", "unauth_react_closeup"]).optional(),
    }),
    async handle(c, options) {
      const lookup = await getPin(c.env.DB, options.id);
      if (lookup.status === "missing") throw notFound("api.pinNotFound");
      if (lookup.status === "deleted") throw new ApiError(410, ErrorCode.Gone, { message: "api.pinNotFound" });
      return lookup.pin;
    },
  }),
  create: defineHandler({
    options: z.strictObject({ draft_id: idOption }),
    appliesOnce: true,
    async handle(c, options) {
      const session = requireWriteAllowed(c.var.ctx);
      if (c.env.PIN_CREATION_DISABLED === "true") throw forbidden("builder:api.creationDisabled");
      const { answer, stale } = await publishDraft(c.env.DB, session.user.id, options.draft_id, claimOf(c));
      if (answer.status === "succeeded") purgePages(c, ["/", ...stale, ...profilePaths(session.user.username)]);
      return answer;
    },
  }),
  update: defineHandler({
    options: z.strictObject({
      id: idOption,
      title: z.string().max(PIN_TITLE_MAX).optional(),
      description: z.string().max(PIN_DESCRIPTION_MAX).optional(),
      link: linkOption.optional(),
      board_id: idOption.optional(),
      section_id: idOption.nullable().optional(),
      /** Which save to move when the pin is on several boards; its own board by default. */
      from_board_id: idOption.optional(),
    }),
    appliesOnce: true,
    async handle(c, options) {
      const db = c.env.DB;
      const moving = options.board_id !== undefined || options.section_id !== undefined;
      const editing = options.title !== undefined || options.description !== undefined || options.link !== undefined;
      if (!moving && !editing) throw badRequest([{ field: "options", reason: "boards:validation.nothingToChange" }]);
      if (options.from_board_id !== undefined) await requireBoardAction(c.env.DB, c.var.ctx, options.from_board_id, options.board_id === undefined || options.board_id === options.from_board_id ? "save_pin" : "remove_pin");
      const session = requireWriteAllowed(c.var.ctx);
      const viewerId = session.user.id;
      const pin = await requirePin(db, options.id, viewerId);
      if (editing && pin.pinner_id !== viewerId) throw forbidden("boards:api.pinnerOnly");

      const edit = { title: options.title, description: options.description, link: options.link };
      if (!moving) {
        await editPin(db, pin.id, viewerId, edit, claimOf(c));
        purgePages(c, [pinPath(pin.id)]);
        return { pin_id: String(pin.id), board_id: pin.board_id === null ? null : String(pin.board_id), section_id: pin.section_id === null ? null : String(pin.section_id) };
      }

      const sourceId = options.from_board_id ?? pin.board_id;
      if (sourceId === null) throw badRequest([{ field: "from_board_id", reason: "boards:validation.sourceRequired" }]);
      const targetId = options.board_id ?? sourceId;
      if (options.from_board_id === undefined) await requireBoardAction(c.env.DB, c.var.ctx, sourceId, targetId === sourceId ? "save_pin" : "remove_pin");
      if (targetId !== sourceId) await requireBoardAction(c.env.DB, c.var.ctx, targetId, "save_pin");
      await assertOnBoard(db, sourceId, { all: false, ids: [pin.id] }).catch(() => {
        throw badRequest([{ field: "id", reason: "boards:validation.notOnBoard" }]);
      });
      let sectionId: number | null;
      if (options.section_id !== undefined) sectionId = options.section_id;
      else if (targetId === sourceId) {
        sectionId = (await findSave(db, sourceId, pin.id))?.section_id ?? null;
      } else sectionId = null;
      if (sectionId !== null) {
        const section = await findSection(db, sectionId);
        if (!section || section.board_id !== targetId) throw notFound("boards:api.sectionNotFound");
      }
      // The change's batch: the client request's claim, the edited fields, then the move.
      const before = [...claimOf(c), ...(editing ? [pinEditStatement(db, pin.id, viewerId, edit)] : [])];
      await movePins(db, viewerId, sourceId, { all: false, ids: [pin.id] }, { boardId: targetId, sectionId, before });
      purgePages(c, [pinPath(pin.id), ...(await boardPages(db, [sourceId, targetId]))]);
      return { pin_id: String(pin.id), board_id: String(targetId), section_id: sectionId === null ? null : String(sectionId) };
    },
  }),
  delete: defineHandler({
    options: z.strictObject({ id: idOption }),
    async handle(c, options) {
      const session = requireWriteAllowed(c.var.ctx);
      const db = c.env.DB;
      const pin = await visiblePin(db, options.id, session.user.id);
      if (!pin) throw notFound("api.pinNotFound");
      if (pin.pinner_id !== session.user.id) throw forbidden("boards:api.pinnerOnly");
      if (pin.is_deleted === 1) throw new ApiError(410, ErrorCode.Gone, { message: "api.pinNotFound" });
      const boardIds = await deletePin(db, pin.id, pin.pinner_id);
      purgePages(c, ["/", pinPath(pin.id), ...profilePaths(pin.pinner_username), ...(await boardPages(db, boardIds))]);
      return { pin_id: String(pin.id) };
    },
  }),
};
