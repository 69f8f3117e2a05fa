// ApiCResource create (spec 000 §7: "events list and report_time; async, no error shown"):
// a batch of event records, validated one by one, bounded, throttled per session or address,
// and enqueued to EVENTS. The consumer (consumer.server.ts) writes them with insert-or-ignore
// on each event's key, a hash of its sender and its clientUUID: a batch the sender retries, or
// the queue delivers twice, is stored once, and nobody can pre-empt another sender's ids.
import type { Context } from "hono";
import { z } from "zod";
import { hashToken } from "../accounts/tokens.ts";
import { DEVICE_COOKIE } from "../accounts/session.server.ts";
import { cookieValue } from "../context/cookies.ts";
import { clientIp, throttleSubject } from "../server/client-ip.ts";
import type { AppEnv } from "../server/context.ts";
import { ApiError, ErrorCode, badRequest, zodProblems, type FieldProblem } from "../server/errors.ts";
import { enforce, type RateRule } from "../server/rate-limit.server.ts";
import { orUnavailable } from "../server/unavailable.ts";
import { eventRecordSchema, nanosecondsSchema, type EventRecord, type QueuedEvent } from "./event.ts";

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
export const EVENTS_RATE_RULE: RateRule = { name: "events:subject", limit: 600, windowMs: 10 * 60_000 };

export const apiCOptionsSchema = z.strictObject({
  events: z.array(z.unknown()),
  report_time: nanosecondsSchema,
});
export type ApiCOptions = z.output<typeof apiCOptionsSchema>;

const MAX_PROBLEMS = 20;

/** Each record checked on its own, so a bad one is named `events[i].field`; all or nothing. */
export function validateEvents(raw: readonly unknown[]): EventRecord[] {
  if (raw.length > EVENT_BATCH_LIMITS.maxEvents) {
    throw new ApiError(413, ErrorCode.PayloadTooLarge, {
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

/** The throttle's subject: the signed-in session, else the address (an IPv6 address by its /64). */
export function rateSubject(c: Context<AppEnv>): string {
  const session = c.var.ctx.session;
  return session ? `s:${session.id}` : `ip:${throttleSubject(clientIp(c.req.raw))}`;
}

/**
 * Who sent an event, for its de-dup key: the signed-in user, else the browser's device cookie,
 * else the address (/64). Stable across a sender's retries, different between senders.
 */
export function senderOf(c: Context<AppEnv>): string {
  const userId = c.var.ctx.session?.user.id;
  if (userId !== undefined) return `u:${userId}`;
  const device = cookieValue(c.req.header("cookie") ?? null, DEVICE_COOKIE);
  if (device) return `d:${device}`;
  return `ip:${throttleSubject(clientIp(c.req.raw))}`;
}

/** An event's stored id: hex SHA-256 of `sender:clientUUID`, so one sender's ids never block another's. */
export async function eventKey(sender: string, clientUUID: string): Promise<string> {
  return hashToken(`${sender}:${clientUUID}`);
}

export async function ingestEvents(c: Context<AppEnv>, options: ApiCOptions, now = Date.now()): Promise<{ accepted: number }> {
  const events = validateEvents(options.events);
  await enforce(c.env.DB, EVENTS_RATE_RULE, rateSubject(c), now);
  if (events.length === 0) return { accepted: 0 };
  const { ctx } = c.var;
  const userId = ctx.session?.user.id ?? null;
  const sender = senderOf(c);
  const keys = await Promise.all(events.map((event) => eventKey(sender, event.clientUUID)));
  const messages = events.map((event, index) => {
    const body: QueuedEvent = { event, clientKey: keys[index]!, userId, requestId: ctx.requestId.slice(0, 64), receivedAt: now, reportTime: options.report_time };
    return { body, contentType: "json" as const };
  });
  // A queue that will not take the batch is a 503: the logger keeps the batch and sends it
  // again (spec 000 §8), and the events' keys store each once when it gets through.
  await orUnavailable(() => c.env.EVENTS.sendBatch(messages));
  return { accepted: events.length };
}
