// PinResource: get one pin as the close-up reads it; update its title, description or link
// (its pinner only) and/or move it to another board or section (remove_pin on the source and
// save_pin on the target, per the board policy; within one board, save_pin); delete it (its
// pinner only: it leaves every feed and its page answers 410).
import { z } from "zod";
import { requireWriteAllowed } from "../../src/accounts/guards.server.ts";
import { forbidden, requireBoardAction } from "../../src/boards/access.server.ts";
import { idOption } from "../../src/boards/options.ts";
import { findSection } from "../../src/boards/sections.server.ts";
import { boardPath, pinPath, profilePaths, purgePages, requirePin, visiblePin } from "../../src/boards/write.server.ts";
import { escapeHtml } from "../../src/html/sanitize.server.ts";
import { pinIdSchema } from "../../src/pins/pin.ts";
import { getPin } from "../../src/pins/pins.server.ts";
import { assertOnBoard, deletePin, movePins } from "../../src/saves/saves.server.ts";
import { ApiError, ErrorCode, badRequest, notFound } from "../../src/server/errors.ts";
import { claimOf } from "../../src/server/client-request.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";

/** Pin field bounds: a title as the grid shows it, the description as spec 000 §9, a link as spec 001 §5. */
export const PIN_TITLE_MAX = 100;
export const PIN_DESCRIPTION_MAX = 500;
export const PIN_LINK_MAX = 2048;

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

/** The owner's username and slug of each board, for purging (bounded by the caller's list). */
async function boardPages(db: D1Database, boardIds: readonly number[]): Promise<string[]> {
  if (boardIds.length === 0) return [];
  const { results } = await db
    .prepare("SELECT u.username, b.slug FROM boards b JOIN users u ON u.id = b.owner_id WHERE b.id IN (SELECT value FROM json_each(?1)) LIMIT 100")
    .bind(JSON.stringify(boardIds))
    .all<{ username: string; slug: string }>();
  return results.flatMap((row) => [boardPath(row.username, row.slug), ...profilePaths(row.username)]);
}

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
      if (options.from_board_id !== undefined) await requireBoardAction(c, options.from_board_id, options.board_id === undefined || options.board_id === options.from_board_id ? "save_pin" : "remove_pin");
      const session = requireWriteAllowed(c);
      const viewerId = session.user.id;
      const pin = await requirePin(db, options.id, viewerId);
      if (editing && pin.pinner_id !== viewerId) throw forbidden("boards:api.pinnerOnly");

      // The change's batch: the client request's claim, the edited fields, then the move.
      const before: D1PreparedStatement[] = [...claimOf(c)];
      if (editing) {
        let domain: string | null | undefined;
        if (options.link !== undefined) domain = options.link === "" ? null : new URL(options.link).hostname.toLowerCase();
        before.push(
          db
            .prepare(
              `UPDATE pins SET title = coalesce(?3, title), description = coalesce(?4, description), description_html = coalesce(?5, description_html),
                               link = CASE WHEN ?6 = 1 THEN ?7 ELSE link END, domain = CASE WHEN ?6 = 1 THEN ?8 ELSE domain END, updated_at = ?9
               WHERE id = ?1 AND pinner_id = ?2 AND is_deleted = 0`,
            )
            .bind(
              pin.id,
              viewerId,
              options.title?.trim() ?? null,
              options.description ?? null,
              options.description === undefined ? null : escapeHtml(options.description),
              options.link === undefined ? 0 : 1,
              options.link === "" ? null : (options.link ?? null),
              domain ?? null,
              Date.now(),
            ),
        );
      }
      if (!moving) {
        await db.batch(before);
        purgePages(c, [pinPath(pin.id)]);
        return { pin_id: String(pin.id), board_id: pin.board_id === null ? null : String(pin.board_id), section_id: pin.section_id === null ? null : String(pin.section_id) };
      }

      const sourceId = options.from_board_id ?? pin.board_id;
      if (sourceId === null) throw badRequest([{ field: "from_board_id", reason: "boards:validation.sourceRequired" }]);
      const targetId = options.board_id ?? sourceId;
      if (options.from_board_id === undefined) await requireBoardAction(c, sourceId, targetId === sourceId ? "save_pin" : "remove_pin");
      if (targetId !== sourceId) await requireBoardAction(c, targetId, "save_pin");
      await assertOnBoard(db, sourceId, { all: false, ids: [pin.id] }).catch(() => {
        throw badRequest([{ field: "id", reason: "boards:validation.notOnBoard" }]);
      });
      let sectionId: number | null;
      if (options.section_id !== undefined) sectionId = options.section_id;
      else if (targetId === sourceId) {
        const row = await db.prepare("SELECT section_id FROM board_pins WHERE board_id = ?1 AND pin_id = ?2").bind(sourceId, pin.id).first<{ section_id: number | null }>();
        sectionId = row?.section_id ?? null;
      } else sectionId = null;
      if (sectionId !== null) {
        const section = await findSection(db, sectionId);
        if (!section || section.board_id !== targetId) throw notFound("boards:api.sectionNotFound");
      }
      await movePins(db, viewerId, sourceId, { all: false, ids: [pin.id] }, { boardId: targetId, sectionId, before });
      purgePages(c, [pinPath(pin.id), ...(await boardPages(db, [sourceId, targetId]))]);
      return { pin_id: String(pin.id), board_id: String(targetId), section_id: sectionId === null ? null : String(sectionId) };
    },
  }),
  delete: defineHandler({
    options: z.strictObject({ id: idOption }),
    async handle(c, options) {
      const session = requireWriteAllowed(c);
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
