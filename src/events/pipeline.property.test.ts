// Property: whatever the network and the queue do (duplicated deliveries, lost answers,
// injected 503s, reordering, a consumer batch failing and being redelivered), every event the
// logger buffered is stored exactly once. The real pieces run: the client logger, the server's
// validation (validateEvents), the consumer's SQL against a real SQLite with every migration.
import fc from "fast-check";
import { readdirSync, readFileSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { EVENT_TYPE, EventLogger, LOGGER, VIEW_TYPE } from "./logger.client.ts";
import { consumeEvents } from "./consumer.server.ts";
import { eventKey } from "./ingest.server.ts";
import type { QueuedEvent } from "./event.ts";
import { validateEvents } from "./ingest.server.ts";

const MIGRATIONS = fileURLToPath(new URL("../server/migrations/", import.meta.url));

function migratedDatabase(): DatabaseSync {
  const db = new DatabaseSync(":memory:");
  for (const file of readdirSync(MIGRATIONS).filter((name) => name.endsWith(".sql")).sort()) db.exec(readFileSync(MIGRATIONS + file, "utf8"));
  return db;
}

/** Just enough of D1 for the consumer: prepare/bind and an all-or-nothing batch. */
function d1Over(db: DatabaseSync, failNextBatch: () => boolean): D1Database {
  const prepare = (sql: string) => {
    const statement = { sql, args: [] as unknown[], bind: (...args: unknown[]) => ({ ...statement, args }) };
    return statement;
  };
  const batch = async (statements: { sql: string; args: unknown[] }[]) => {
    if (failNextBatch()) throw new Error("D1 unavailable (injected)");
    db.exec("BEGIN");
    try {
      for (const statement of statements) db.prepare(statement.sql).run(...(statement.args as never[]));
      db.exec("COMMIT");
    } catch (error) {
      db.exec("ROLLBACK");
      throw error;
    }
    return [];
  };
  return { prepare, batch } as unknown as D1Database;
}

interface QueueMessage {
  id: string;
  body: QueuedEvent;
}

function messageBatch(messages: QueueMessage[], onRetry: () => void): MessageBatch<unknown> {
  return {
    queue: "pinloom-events",
    messages: messages.map((message) => ({ ...message, timestamp: new Date(0), attempts: 1, ack() {}, retry: onRetry })),
    ackAll() {},
    retryAll: onRetry,
  } as unknown as MessageBatch<unknown>;
}

type Outcome = "ok" | "503" | "answerLost" | "offline" | "duplicated";
const outcome = fc.constantFrom<Outcome>("ok", "ok", "503", "answerLost", "offline", "duplicated");

const plan = fc.record({
  events: fc.array(fc.record({ type: fc.constantFrom(EVENT_TYPE.CLICK, EVENT_TYPE.VIEW, EVENT_TYPE.IMPRESSION), view: fc.constantFrom(VIEW_TYPE.HOME, VIEW_TYPE.PIN), gapMs: fc.nat(3_000), hideAfter: fc.boolean() }), { minLength: 1, maxLength: 60 }),
  outcomes: fc.array(outcome, { minLength: 1, maxLength: 40 }),
  consumerBatch: fc.integer({ min: 1, max: 100 }),
  redeliver: fc.array(fc.boolean(), { minLength: 1, maxLength: 20 }),
  failConsumer: fc.array(fc.boolean(), { minLength: 1, maxLength: 10 }),
  shuffleSeed: fc.integer(),
});

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(1_763_820_000_000);
});
afterEach(() => vi.useRealTimers());

describe("the event pipeline under faults", () => {
  it("stores every logged event exactly once", async () => {
    await fc.assert(
      fc.asyncProperty(plan, async (p) => {
        const db = migratedDatabase();
        const queue: QueueMessage[] = [];
        let messageIds = 0;
        const tries = new Map<string, number>();
        let outcomeIndex = 0;
        // The simulated server: what ApiCResource create does, with the network's faults around it.
        const server = (body: string): number | null => {
          const { options } = JSON.parse(body) as { options: { events: unknown[]; report_time: string } };
          const events = validateEvents(options.events);
          const key = events[0]!.clientUUID;
          const attempt = (tries.get(key) ?? 0) + 1;
          tries.set(key, attempt);
          // Within the logger's 5 retries a batch gets through: the spec's bound on loss.
          const fault = attempt > LOGGER.maxRetries ? "ok" : p.outcomes[outcomeIndex++ % p.outcomes.length]!;
          if (fault === "503" || fault === "offline") return fault === "503" ? 503 : null;
          const copies = fault === "duplicated" ? 2 : 1;
          for (let copy = 0; copy < copies; copy++) {
            for (const event of events) queue.push({ id: `m${++messageIds}`, body: { event, userId: null, requestId: "req", receivedAt: 1, reportTime: options.report_time } });
          }
          return fault === "answerLost" ? null : 200;
        };
        const logger = new EventLogger({ transport: { send: (body) => Promise.resolve(server(body)) }, isDesktop: true });
        const logged: string[] = [];
        for (const event of p.events) {
          logged.push(logger.log({ event_type: event.type, view_type: event.view }).clientUUID);
          await vi.advanceTimersByTimeAsync(event.gapMs);
          if (event.hideAfter) logger.flushOnHide();
        }
        logger.flushOnHide();
        await vi.advanceTimersByTimeAsync(120_000);

        // The consumer drains the queue in shuffled batches; a failed batch and random
        // redeliveries go back on the queue (at-least-once delivery).
        let failIndex = 0;
        let redeliverIndex = 0;
        const database = d1Over(db, () => p.failConsumer[failIndex++ % p.failConsumer.length]! && failIndex < 50);
        let random = p.shuffleSeed;
        const next = () => ((random = (random * 1_103_515_245 + 12_345) & 0x7fffffff), random);
        let rounds = 0;
        while (queue.length > 0 && rounds++ < 10_000) {
          const index = next() % queue.length;
          const take = queue.splice(index, Math.min(p.consumerBatch, queue.length - index));
          let retried = false;
          try {
            await consumeEvents(messageBatch(take, () => (retried = true)), database);
          } catch {
            retried = true;
          }
          if (retried) queue.push(...take);
          else if (p.redeliver[redeliverIndex++ % p.redeliver.length] && redeliverIndex < 30) queue.push(...take.slice(0, 3));
        }
        expect(queue).toHaveLength(0);
        const rows = db.prepare("SELECT client_id FROM events ORDER BY client_id").all() as { client_id: string }[];
        // Queued without a key, each is stored under the anonymous sender's key of its id.
        const keys = await Promise.all(logged.map((id) => eventKey("unknown", id)));
        expect(rows.map((row) => row.client_id)).toEqual(keys.sort());
        db.close();
      }),
      { numRuns: 150 },
    );
  }, 60_000);
});
