// The EVENTS queue consumer: delivery is at least once, so every write is insert-or-ignore
// on the event's key (its sender's hash with the client's event id). Malformed messages are acknowledged and dropped (retrying them
// cannot help); a D1 failure retries the whole batch, which the ids make harmless, later each
// time (RETRY_DELAYS), so the queue's retries outlast an outage of D1 instead of spending
// themselves within a minute of it. A promoted pin's view or click (kind "ad") is counted by a
// batch of its own and acknowledged or retried alone (src/ads/counting.server.ts): one event's
// failure never holds back, or repeats, the others.
import { queuedAdEventSchema, queuedEventSchema, type QueuedAdEvent } from "./event.ts";
import { eventKey } from "./ingest.server.ts";
import { RETRY_AFTER_SECONDS } from "~/domain/errors.ts";
import { adEventStatements } from "~/ads/counting.server.ts";

/** A batch's wait before its next delivery: 10 s, doubling with each attempt, at most 15 minutes. */
function retryDelaySeconds(attempts: number): number {
  return Math.min(RETRY_AFTER_SECONDS * 2 ** Math.max(0, attempts - 1), 15 * 60);
}

const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

const isAdMessage = (body: unknown) => typeof body === "object" && body !== null && (body as { kind?: unknown }).kind === "ad";

/** Counts one queued view or click in its own batch; a failure sends that message alone back to the queue. */
async function countAdEvent(message: Message<unknown>, event: QueuedAdEvent, db: D1Database): Promise<void> {
  try {
    await db.batch(adEventStatements(db, event, crypto.randomUUID()));
    message.ack();
  } catch (error) {
    console.error("events: ad event not counted, retrying", error);
    message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
  }
}

export async function consumeEvents(batch: MessageBatch<unknown>, db: D1Database): Promise<void> {
  const statements: D1PreparedStatement[] = [];
  for (const message of batch.messages) {
    if (isAdMessage(message.body)) {
      const ad = queuedAdEventSchema.safeParse(message.body);
      if (ad.success) await countAdEvent(message, ad.data, db);
      else console.warn("events: dropping malformed message", message.id);
      continue;
    }
    const parsed = queuedEventSchema.safeParse(message.body);
    if (!parsed.success) {
      console.warn("events: dropping malformed message", message.id);
      continue;
    }
    const { event, clientKey, userId, requestId, receivedAt, reportTime } = parsed.data;
    // A message queued before keys existed: keyed by its user (or as anonymous) the same way.
    const key = clientKey ?? (await eventKey(userId === null ? "unknown" : `u:${userId}`, event.clientUUID));
    statements.push(
      db
        .prepare(
          `INSERT OR IGNORE INTO events (client_id, event_type, view_type, view_parameter, component, object_id_str,
             view_data, aux_data, event_data, time_ns, app_state, user_id, request_id, received_at, report_time_ns)
           VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)`,
        )
        .bind(
          key,
          event.event_type,
          event.view_type ?? null,
          event.view_parameter ?? null,
          event.component ?? null,
          event.object_id_str ?? null,
          json(event.view_data),
          json(event.aux_data),
          json(event.event_data),
          event.time,
          event.appState ?? null,
          userId,
          requestId,
          receivedAt,
          reportTime ?? null,
        ),
    );
  }
  if (statements.length > 0) {
    try {
      await db.batch(statements);
    } catch (error) {
      // Nothing of the batch was stored (one D1 batch is all or nothing): all of it comes again.
      // An ad event already answered alone keeps that answer (a message's first answer wins).
      console.error("events: batch not stored, retrying", error);
      batch.retryAll({ delaySeconds: retryDelaySeconds(Math.max(...batch.messages.map((message) => message.attempts))) });
      return;
    }
  }
  // As above, the ad events keep their own answers.
  batch.ackAll();
}
