import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { consumeEvents } from "../../src/events/consumer.server.ts";
import { runHousekeeping } from "../../src/server/housekeeping.server.ts";

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
    expect(results.map((row) => row.client_id)).toEqual(["evt-00000001", "evt-00000002", "evt-00000003"]);
  });

  it("keeps nanosecond times beyond 2^53 exactly", async () => {
    await consumeEvents(batchOf([queued("evt-time-0001")]), env.DB);
    const row = await env.DB.prepare("SELECT time_ns FROM events WHERE client_id = 'evt-time-0001'").first<{ time_ns: string }>();
    expect(row?.time_ns).toBe("1763820000000000000");
  });

  it("drops malformed messages and still acknowledges the batch", async () => {
    const batch = batchOf([{ nonsense: true }, queued("bad id with spaces"), queued("evt-good-0001")]);
    await consumeEvents(batch, env.DB);
    expect(batch.acked).toBe(true);
    const count = await env.DB.prepare("SELECT count(*) AS n FROM events WHERE client_id = 'evt-good-0001'").first<{ n: number }>();
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
