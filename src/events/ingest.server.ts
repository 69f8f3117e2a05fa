// ApiCResource create (spec 000 §7: "events list and report_time; async, no error shown"):
// a batch of event records, validated one by one, bounded, throttled per session or address,
// and enqueued to EVENTS. The consumer (consumer.server.ts) writes them with insert-or-ignore
// on each event's key, a hash of its sender and its clientUUID: a batch the sender retries, or
// the queue delivers twice, is stored once, and nobody can pre-empt another sender's ids.
import { z } from "zod";
import { hashToken } from "~/accounts/tokens.ts";
import { DomainError, badRequest, storageUnavailable, zodProblems, type FieldProblem } from "~/domain/errors.ts";
import { enforce, type RateRule } from "~/server/rate-limit.server.ts";
import { isAnalyticsEvent } from "~/consent/consent.ts";
import { eventRecordSchema, nanosecondsSchema, type EventRecord, type QueuedAdEvent, type QueuedEvent } from "./event.ts";

export const EVENT_BATCH_LIMITS = {
  /** Events per request: the queue's own sendBatch ceiling, and far above a 10 s buffer. */
  maxEvents: 100,
  /** Request body bytes: a keepalive fetch (the page-hide flush) may carry no more. */
  maxBodyBytes: 64 * 1024,
} as const;

/**
 * One tab flushes at most every 300 ms while views stream in, and usually every 10 s: 600
 * batches in 10 minutes is a busy reader with several tabs, not a flood.
 */
const EVENTS_RATE_RULE: RateRule = { name: "events:subject", limit: 600, windowMs: 10 * 60_000 };

export const apiCOptionsSchema = z.strictObject({
  events: z.array(z.unknown()),
  report_time: nanosecondsSchema,
});
export type ApiCOptions = z.output<typeof apiCOptionsSchema>;

const MAX_PROBLEMS = 20;

/** Each record checked on its own, so a bad one is named `events[i].field`; all or nothing. */
export function validateEvents(raw: readonly unknown[]): EventRecord[] {
  if (raw.length > EVENT_BATCH_LIMITS.maxEvents) {
    throw new DomainError("too_large", {
      message: "events:api.tooManyEvents",
      values: { limit: EVENT_BATCH_LIMITS.maxEvents },
    });
  }
  const events: EventRecord[] = [];
  const problems: FieldProblem[] = [];
  raw.forEach((input, index) => {
    const parsed = eventRecordSchema.safeParse(input);
    if (parsed.success) events.push(parsed.data);
    else if (problems.length < MAX_PROBLEMS) problems.push(...zodProblems(parsed.error, `events[${index}]`, input));
  });
  if (problems.length > 0) throw badRequest(problems.slice(0, MAX_PROBLEMS));
  return events;
}

/** Who sent a batch, as its request shows them. */
export interface EventSender {
  session: { id: string; userId: number } | null;
  /** The browser's device cookie, when it sent one. */
  device: string | null;
  /** The address (an IPv6 address by its /64). */
  address: string;
  requestId: string;
  /** Whether analytics may be stored for this sender (src/consent/consent.ts allows). */
  analytics: boolean;
}

/** The throttle's subject: the signed-in session, else the address. */
function rateSubject(sender: EventSender): string {
  return sender.session ? `s:${sender.session.id}` : `ip:${sender.address}`;
}

/**
 * Who sent an event, for its de-dup key: the signed-in user, else the browser's device cookie,
 * else the address (/64). Stable across a sender's retries, different between senders.
 */
function senderOf(sender: EventSender): string {
  if (sender.session) return `u:${sender.session.userId}`;
  if (sender.device) return `d:${sender.device}`;
  return `ip:${sender.address}`;
}

/** An event's stored id: hex SHA-256 of `sender:clientUUID`, so one sender's ids never block another's. */
export async function eventKey(sender: string, clientUUID: string): Promise<string> {
  return hashToken(`${sender}:${clientUUID}`);
}

export async function ingestEvents(db: D1Database, queue: Queue, sender: EventSender, options: ApiCOptions, now = Date.now()): Promise<{ accepted: number }> {
  const valid = validateEvents(options.events);
  await enforce(db, EVENTS_RATE_RULE, rateSubject(sender), now);
  // Without analytics consent only the essential events are kept: the batch is still accepted
  // (the logger must not resend it), and what consent does not allow is never queued.
  const events = sender.analytics ? valid : valid.filter((event) => !isAnalyticsEvent(event.event_type));
  if (events.length === 0) return { accepted: 0 };
  const userId = sender.session?.userId ?? null;
  const from = senderOf(sender);
  const keys = await Promise.all(events.map((event) => eventKey(from, event.clientUUID)));
  const messages = events.map((event, index) => {
    const body: QueuedEvent = { event, clientKey: keys[index]!, userId, requestId: sender.requestId.slice(0, 64), receivedAt: now, reportTime: options.report_time };
    return { body, contentType: "json" as const };
  });
  // A queue that will not take the batch is a 503: the logger keeps the batch and sends it
  // again (spec 000 §8), and the events' keys store each once when it gets through.
  try {
    await queue.sendBatch(messages);
  } catch (error) {
    throw storageUnavailable(error);
  }
  return { accepted: events.length };
}

/**
 * Queues one proven view or click of a promoted pin for counting. A queue that will not take it
 * is a 503, as for a batch of events: sent again, the event is still counted once (its id).
 */
export async function enqueueAdEvent(queue: Queue, event: QueuedAdEvent): Promise<void> {
  try {
    await queue.send(event, { contentType: "json" });
  } catch (error) {
    throw storageUnavailable(error);
  }
}
