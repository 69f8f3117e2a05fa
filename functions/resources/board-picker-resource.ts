// BoardPickerResource get: what the save island's board picker shows (recent boards, the
// boards the viewer may save to, filtered by name, their sections, and where the pin is
// already saved by the viewer). Signed-in, full login only; the pin, when given, must be one
// the viewer may see.
import { z } from "zod";
import { requireWriteAllowed } from "~/accounts/guards.server.ts";
import { idOption, MAX_PAGE_SIZE, pageSizeOption } from "~/boards/options.ts";
import { requirePin } from "~/boards/write.server.ts";
import { pickerData } from "~/saves/picker.server.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";

export const boardPickerResource: ResourceDefinition = {
  get: defineHandler({
    options: z.strictObject({
      pin_id: idOption.optional(),
      filter: z.string().max(50).optional(),
      page_size: pageSizeOption.optional(),
    }),
    async handle(c, options) {
      const session = requireWriteAllowed(c.var.ctx);
      const db = c.env.DB;
      if (options.pin_id !== undefined) await requirePin(db, options.pin_id, session.user.id);
      const filter = options.filter?.trim() || null;
      return pickerData(db, session.user.id, session.user.username, options.pin_id ?? null, filter, options.page_size ?? MAX_PAGE_SIZE);
    },
  }),
};
