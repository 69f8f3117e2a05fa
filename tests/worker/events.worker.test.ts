import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { consumeEvents } from "~/events/consumer.server.ts";
import { eventKey } from "~/events/ingest.server.ts";
import { runHousekeeping } from "~/server/housekeeping.server.ts";

function batchOf(bodies: unknown[]): MessageBatch<unknown> & { acked: boolean } {
  const batch = {
    queue: "pinloom-events",
    acked: false,
    messages: bodies.map((body, index) => ({
      id: `m${index}`,
      timestamp: new Date(0),
      body,
      attempts: 1,
      ack() {},
      retry() {},
    })),
    ackAll() {
      batch.acked = true;
    },
    retryAll() {},
  };
  return batch as unknown as MessageBatch<unknown> & { acked: boolean };
}

const queued = (clientUUID: string, event_type = 13) => ({
  event: { clientUUID, event_type, time: "1763820000000000000", view_type: 1, appState: "active" },
  userId: null,
  requestId: "req-1",
  receivedAt: 1,
});

describe("the EVENTS consumer", () => {
  it("stores each client event once, however often it is delivered", async () => {
    await consumeEvents(batchOf([queued("evt-00000001"), queued("evt-00000002"), queued("evt-00000001")]), env.DB);
    await consumeEvents(batchOf([queued("evt-00000002"), queued("evt-00000003")]), env.DB);
    const { results } = await env.DB.prepare("SELECT client_id FROM events ORDER BY client_id").all<{ client_id: string }>();
    // Messages without a key (queued before keys existed) are keyed as an anonymous sender's.
    const keys = await Promise.all(["evt-00000001", "evt-00000002", "evt-00000003"].map((id) => eventKey("unknown", id)));
    expect(results.map((row) => row.client_id)).toEqual(keys.sort());
  });

  it("stores the key ingestion computed, once per key", async () => {
    const key = await eventKey("ip:192.0.2.1", "evt-keyed-0001");
    const other = await eventKey("ip:192.0.2.2", "evt-keyed-0001");
    await consumeEvents(batchOf([{ ...queued("evt-keyed-0001"), clientKey: key }, { ...queued("evt-keyed-0001"), clientKey: key }, { ...queued("evt-keyed-0001", 14), clientKey: other }]), env.DB);
    const { results } = await env.DB.prepare("SELECT client_id, event_type FROM events WHERE client_id IN (?1, ?2) ORDER BY event_type").bind(key, other).all();
    expect(results).toEqual([{ client_id: key, event_type: 13 }, { client_id: other, event_type: 14 }]);
  });

  it("keeps nanosecond times beyond 2^53 exactly", async () => {
    await consumeEvents(batchOf([queued("evt-time-0001")]), env.DB);
    const row = await env.DB.prepare("SELECT time_ns FROM events WHERE client_id = ?1").bind(await eventKey("unknown", "evt-time-0001")).first<{ time_ns: string }>();
    expect(row?.time_ns).toBe("1763820000000000000");
  });

  it("drops malformed messages and still acknowledges the batch", async () => {
    const batch = batchOf([{ nonsense: true }, queued("bad id with spaces"), queued("evt-good-0001")]);
    await consumeEvents(batch, env.DB);
    expect(batch.acked).toBe(true);
    const count = await env.DB.prepare("SELECT count(*) AS n FROM events WHERE client_id = ?1").bind(await eventKey("unknown", "evt-good-0001")).first<{ n: number }>();
    expect(count?.n).toBe(1);
  });
});

describe("housekeeping", () => {
  it("drops expired sessions and long-revoked ones, and keeps live ones", async () => {
    const now = 10_000_000_000;
    await env.DB.batch([
      env.DB.prepare("INSERT INTO users (id, username, email, created_at) VALUES (1, 'u', 'u@x.test', 0)"),
      env.DB.prepare("INSERT INTO sessions (id, user_id, created_at, expires_at, last_seen_at) VALUES ('live', 1, 0, ?1, 0)").bind(now + 1),
      env.DB.prepare("INSERT INTO sessions (id, user_id, created_at, expires_at, last_seen_at) VALUES ('expired', 1, 0, ?1, 0)").bind(now - 1),
      env.DB.prepare("INSERT INTO sessions (id, user_id, created_at, expires_at, last_seen_at, revoked_at) VALUES ('revoked-old', 1, 0, ?1, 0, 1)").bind(now + 1),
      env.DB.prepare("INSERT INTO sessions (id, user_id, created_at, expires_at, last_seen_at, revoked_at) VALUES ('revoked-new', 1, 0, ?1, 0, ?2)").bind(now + 1, now - 1),
    ]);
    expect(await runHousekeeping(env.DB, now)).toBe(2);
    const { results } = await env.DB.prepare("SELECT id FROM sessions ORDER BY id").all<{ id: string }>();
    expect(results.map((row) => row.id)).toEqual(["live", "revoked-new"]);
  });

  it("drops promoted pins' event claims once no copy of their event can arrive (14 days), and keeps the rest", async () => {
    const now = 10_000_000_000;
    const day = 86_400_000;
    const claim = (id: string, receivedAt: number) =>
      env.DB.prepare("INSERT INTO ad_event_receipts (advertiser_id, source_event_id, request_key, received_at) VALUES ('9', ?1, 'k', ?2)").bind(id, receivedAt);
    await env.DB.batch([claim("today", now - 1), claim("thirteen-days", now - 13 * day), claim("fifteen-days", now - 15 * day)]);
    await runHousekeeping(env.DB, now);
    const { results } = await env.DB.prepare("SELECT source_event_id FROM ad_event_receipts WHERE advertiser_id = '9' ORDER BY source_event_id").all<{ source_event_id: string }>();
    expect(results.map((row) => row.source_event_id)).toEqual(["thirteen-days", "today"]);
  });

  it("drops invites a day past their expiry, and keeps the rest", async () => {
    const now = 10_000_000_000;
    const day = 86_400_000;
    const insert = (id: string, expiresAt: number) =>
      env.DB.prepare("INSERT INTO invites (id, sender_id, invite_channel, object_type, object_id, created_at, expires_at) VALUES (?1, 1, 1, 'pin', 1, 0, ?2)").bind(id, expiresAt);
    await env.DB.batch([insert("live", now + day), insert("just-expired", now - 1), insert("long-expired", now - 2 * day)]);
    await runHousekeeping(env.DB, now);
    const { results } = await env.DB.prepare("SELECT id FROM invites ORDER BY id").all<{ id: string }>();
    expect(results.map((row) => row.id)).toEqual(["just-expired", "live"]);
  });
});
