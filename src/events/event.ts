// The event record of spec 000 §3, as it travels on the EVENTS queue.
import { z } from "zod";

const smallJson = z.record(z.string(), z.unknown()).nullish();

/** Nanoseconds since the epoch, as a decimal string or number; kept as text (beyond 2^53). */
export const nanosecondsSchema = z.union([z.string().regex(/^\d{1,20}$/), z.number().int().nonnegative()]).transform(String);

export const eventRecordSchema = z.strictObject({
  /** The client's id for this one event: a retried or duplicated batch is stored once. */
  clientUUID: z.string().min(8).max(64).regex(/^[A-Za-z0-9_-]+$/),
  event_type: z.number().int().nonnegative().max(1_000_000),
  view_type: z.number().int().nonnegative().max(1_000_000).nullish(),
  view_parameter: z.number().int().nonnegative().max(1_000_000).nullish(),
  view_data: smallJson,
  component: z.number().int().nonnegative().max(1_000_000).nullish(),
  object_id_str: z.string().max(64).nullish(),
  aux_data: smallJson,
  event_data: smallJson,
  time: nanosecondsSchema,
  appState: z.enum(["active", "background"]).nullish(),
});
export type EventRecord = z.infer<typeof eventRecordSchema>;

export const queuedEventSchema = z.object({
  event: eventRecordSchema,
  /** The stored id: hex SHA-256 of sender and clientUUID (ingest.server.ts eventKey); absent on older messages. */
  clientKey: z.string().regex(/^[0-9a-f]{64}$/).nullish(),
  userId: z.number().int().nullable(),
  requestId: z.string().max(64),
  receivedAt: z.number().int(),
  /** The batch's report_time (nanoseconds); absent on messages queued before it existed. */
  reportTime: z.string().regex(/^\d{1,20}$/).nullish(),
});
export type QueuedEvent = z.input<typeof queuedEventSchema>;

const decimalId = z.string().regex(/^\d{1,20}$/);

/**
 * A promoted pin's view or click on its way to be counted: sent by the attribution ping once it
 * proved the event genuine (src/attribution/ping.server.ts), counted by the consumer once per
 * advertiser and event id (src/ads/counting.server.ts).
 */
export const queuedAdEventSchema = z.strictObject({
  kind: z.literal("ad"),
  type: z.enum(["view", "click"]),
  sourceEventId: decimalId,
  advertiserId: decimalId,
  campaignId: decimalId,
  pinId: decimalId,
  /** Whose view it is, once a day: `u{id}` signed in, the browser's visitor key signed out (attribution/visitor.ts). */
  viewerKey: z.string().regex(/^(u\d{1,20}|d[0-9a-f]{32}|a[0-9a-fA-F.:/]{1,50})$/),
  /** When the ping arrived (epoch ms): the UTC day it counts on, however late it is consumed. */
  receivedAt: z.number().int().nonnegative(),
});
export type QueuedAdEvent = z.infer<typeof queuedAdEventSchema>;
