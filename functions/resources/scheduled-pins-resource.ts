// ScheduledPinsResource: the viewer's scheduled pins, soonest first (spec 001 §3 "Scheduled
// pin": id, title, scheduled_ts); move one to another time, or cancel it. A scheduled pin is
// its owner's alone: anyone else's id answers 404, exactly as a missing one.
import { z } from "zod";
import { requireFullViewer, requireWriteAllowed } from "~/accounts/guards.server.ts";
import { idOption } from "~/boards/options.ts";
import { cancelScheduledPin, listScheduledPins, rescheduleScheduledPin } from "~/builder/publish.server.ts";
import { notFound } from "~/domain/errors.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";

const scheduledPinNotFound = () => notFound("builder:api.scheduledPinNotFound");

export const scheduledPinsResource: ResourceDefinition = {
  get: defineHandler({
    options: z.strictObject({}),
    async handle(c) {
      return listScheduledPins(c.env.DB, requireFullViewer(c.var.ctx).user.id);
    },
  }),
  update: defineHandler({
    options: z.strictObject({ id: idOption, scheduled_date: z.string().max(10), scheduled_time: z.string().max(5), time_zone: z.string().max(64) }),
    async handle(c, options) {
      const userId = requireWriteAllowed(c.var.ctx).user.id;
      const moved = await rescheduleScheduledPin(c.env.DB, userId, options.id, { scheduledDate: options.scheduled_date, scheduledTime: options.scheduled_time, timeZone: options.time_zone });
      if (!moved) throw scheduledPinNotFound();
      return moved;
    },
  }),
  delete: defineHandler({
    options: z.strictObject({ id: idOption }),
    async handle(c, options) {
      const userId = requireWriteAllowed(c.var.ctx).user.id;
      if (!(await cancelScheduledPin(c.env.DB, userId, options.id))) throw scheduledPinNotFound();
      return { id: String(options.id) };
    },
  }),
};
