// The events pipeline when the queue or D1 fails: no event is lost (the client logger's retry
// or the queue's redelivery brings it in) and none is stored twice.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { Browser } from "./accounts-helpers.ts";
import { Faults, LEAKS } from "./faults.ts";
import { EventLogger, type Transport } from "~/events/logger.client.ts";
import { EVENTS_ENDPOINT } from "~/events/page-events.client.ts";
import { eventKey } from "~/events/ingest.server.ts";
import type { QueuedEvent } from "~/events/event.ts";

const faults = new Faults();
const NOW_NS = "1763820000000000000";

/** The stored rows of these keys, waiting for the queue's consumer (bounded). */
async function stored(keys: string[], expected = keys.length, timeoutMs = 20_000): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  const placeholders = keys.map((_, index) => `?${index + 1}`).join(", ");
  for (;;) {
    const { results } = await env.DB.prepare(`SELECT client_id FROM events WHERE client_id IN (${placeholders}) ORDER BY client_id`)
      .bind(...keys)
      .all<{ client_id: string }>();
    if (results.length >= expected || Date.now() > deadline) return results.map((row) => row.client_id);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A page's logger whose requests reach the Worker through the wrapped bindings; it records each answer's status. */
function pageLogger(browser: Browser): { logger: EventLogger; statuses: number[]; uuids: string[] } {
  const statuses: number[] = [];
  const uuids: string[] = [];
  const transport: Transport = {
    async send(body) {
      const response = await browser.fetch(EVENTS_ENDPOINT, { method: "POST", body, headers: { "content-type": "application/json" } });
      const text = await response.text();
      expect(text).not.toMatch(LEAKS);
      if (response.status !== 200) expect(response.headers.get("retry-after")).toBe("10");
      statuses.push(response.status);
      return response.status;
    },
  };
  let serial = 0;
  const logger = new EventLogger({ transport, isDesktop: true, uuid: () => `fault-${crypto.randomUUID().slice(0, 8)}-${++serial}` });
  const log = logger.log.bind(logger);
  logger.log = (input) => {
    const event = log(input);
    uuids.push(event.clientUUID);
    return event;
  };
  return { logger, statuses, uuids };
}

describe("the queue refusing a batch", () => {
  it("answers 503 with Retry-After, and the logger sends the same batch again until it is stored, once", async () => {
    const browser = new Browser(undefined, faults.fetch);
    const { logger, statuses, uuids } = pageLogger(browser);
    for (const pin of ["11", "12", "13"]) logger.log({ event_type: 14, view_type: 2, object_id_str: pin });
    faults.failQueue({ times: 2 });
    await logger.flush();
    expect(statuses).toEqual([503]);
    expect(logger.retrying).toBe(1);
    // The logger's own schedule: 1 s, then 2 s.
    await expect.poll(() => statuses.length, { timeout: 10_000, interval: 100 }).toBe(3);
    expect(statuses).toEqual([503, 503, 200]);
    expect(logger.retrying).toBe(0);
    const keys = (await Promise.all(uuids.map((uuid) => eventKey(`ip:${browser.ip}`, uuid)))).sort();
    expect(await stored(keys)).toEqual(keys);
    // Redelivered or resent, each is still there once.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await stored(keys)).toEqual(keys);
  }, 40_000);

  it("the API answers the 503 envelope for the logger to retry", async () => {
    const browser = new Browser(undefined, faults.fetch);
    faults.failQueue({ times: 1 });
    const response = await browser.resource("ApiCResource", "create", { events: [{ clientUUID: "fault-api-0001", event_type: 13, time: NOW_NS }], report_time: NOW_NS });
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("10");
    expect(await response.json()).toMatchObject({ resource_response: { status: "failure", code: 20, error: { http_status: 503 } } });
  });
});

describe("the consumer when D1 fails", () => {
  async function messages(count: number, attempts: number) {
    const sender = "ip:203.0.113.200";
    return Promise.all(
      Array.from({ length: count }, async (_, index) => {
        const clientUUID = `fault-consumer-${index}`;
        const body: QueuedEvent = { event: { clientUUID, event_type: 13, view_type: 2, object_id_str: "101", time: NOW_NS, appState: "active" }, clientKey: await eventKey(sender, clientUUID), userId: null, requestId: "req", receivedAt: 1, reportTime: NOW_NS };
        return { id: `message-${index}`, timestamp: new Date(), attempts, body };
      }),
    );
  }

  it("leaves the batch un-acked and asks for it again later each time; the redelivery stores each event once", async () => {
    const first = await messages(3, 1);
    const keys = first.map((message) => message.body.clientKey!).sort();
    faults.failD1({ when: /INSERT OR IGNORE INTO events/ });
    const failed = await faults.deliver(first);
    expect(failed.result.ackAll).toBe(false);
    expect(failed.result.explicitAcks).toEqual([]);
    expect(failed.result.retryBatch.retry).toBe(true);
    expect(failed.retryDelaySeconds).toBe(10);
    const again = await faults.deliver(await messages(3, 2));
    expect(again.result.retryBatch.retry).toBe(true);
    expect(again.retryDelaySeconds).toBe(20);
    faults.heal();
    expect(await stored(keys, 0, 0)).toEqual([]);

    const delivered = await faults.deliver(await messages(3, 3));
    expect(delivered.error).toBeNull();
    expect(delivered.result.ackAll).toBe(true);
    expect(delivered.result.retryBatch.retry).toBe(false);
    expect(await stored(keys, keys.length, 0)).toEqual(keys);

    // Delivered once more (an ack lost on the way): nothing is stored twice.
    expect((await faults.deliver(await messages(3, 1))).result.ackAll).toBe(true);
    const { results } = await env.DB.prepare(`SELECT count(*) AS n FROM events WHERE client_id IN (?1, ?2, ?3)`).bind(...keys).all<{ n: number }>();
    expect(results[0]!.n).toBe(3);
  });
});
