// The event record of spec 000 §3, as it travels on the EVENTS queue.
import { z } from "zod";

const smallJson = z.record(z.string(), z.unknown()).nullish();

export const eventRecordSchema = z.object({
  clientUUID: z.string().min(8).max(64).regex(/^[A-Za-z0-9_-]+$/),
  event_type: z.number().int().nonnegative(),
  view_type: z.number().int().nonnegative().nullish(),
  view_parameter: z.number().int().nonnegative().nullish(),
  view_data: smallJson,
  component: z.number().int().nonnegative().nullish(),
  object_id_str: z.string().max(64).nullish(),
  aux_data: smallJson,
  event_data: smallJson,
  /** Nanoseconds since the epoch, as a decimal string or number. */
  time: z.union([z.string().regex(/^\d{1,20}$/), z.number().int().nonnegative()]).transform(String),
  appState: z.enum(["active", "background"]).nullish(),
});
export type EventRecord = z.infer<typeof eventRecordSchema>;

export const queuedEventSchema = z.object({
  event: eventRecordSchema,
  userId: z.number().int().nullable(),
  requestId: z.string().max(64),
  receivedAt: z.number().int(),
});
export type QueuedEvent = z.infer<typeof queuedEventSchema>;
