// What the hub shows about one conversion tag (spec 002 "Conversion and tag screens": test
// events, tag health, conversion health). Every read goes through getTag first, which is the
// tag.read gate and answers 404 for a tag of another business. Each list is bounded.
import { getTag } from "~/business/tags.server.ts";
import { healthDays, type ConversionHealthRow, type TagHealth, type TestEvent } from "./tag-health.ts";

const MAX_TEST_EVENTS = 20;
const MAX_ERROR_REASONS = 20;

type TestRow = { id: number; event_name: string; event_id: string; received_at: number; value_micro: number | null; currency: string | null; order_quantity: number | null; click_id: string | null };

const testEventOf = (row: TestRow): TestEvent => ({
  id: String(row.id),
  eventName: row.event_name,
  eventId: row.event_id,
  receivedAt: row.received_at,
  valueMicro: row.value_micro,
  currency: row.currency,
  orderQuantity: row.order_quantity,
  clickId: row.click_id,
});

/** The tag's newest test events, newer than `afterId` when given (what a poll has not seen). */
export async function tagTestEvents(db: D1Database, userId: number, businessId: number, tagId: number, afterId: number): Promise<TestEvent[]> {
  await getTag(db, userId, businessId, tagId);
  const rows = await db
    .prepare(
      `SELECT id, event_name, event_id, received_at, value_micro, currency, order_quantity, click_id FROM conversion_events
       WHERE tag_id = ?1 AND is_test = 1 AND id > ?2 ORDER BY id DESC LIMIT ${MAX_TEST_EVENTS}`,
    )
    .bind(tagId, afterId)
    .all<TestRow>();
  return rows.results.map(testEventOf);
}

/** Tag health and conversion health over the last HEALTH_DAYS UTC days, today included. */
export async function tagHealth(db: D1Database, userId: number, businessId: number, tagId: number, now = Date.now()): Promise<TagHealth> {
  const tag = await getTag(db, userId, businessId, tagId);
  const days = healthDays(now);
  const since = Date.parse(`${days[0]}T00:00:00Z`);
  const [events, errors, conversions, tests] = await db.batch([
    db
      .prepare(`SELECT strftime('%Y-%m-%d', received_at / 1000, 'unixepoch') AS day, COUNT(*) AS n FROM conversion_events WHERE tag_id = ?1 AND received_at >= ?2 GROUP BY day`)
      .bind(tagId, since),
    db
      .prepare(
        `SELECT field, reason, MAX(reason_values) AS reason_values, COUNT(*) AS n, MAX(received_at) AS last_at FROM conversion_tag_errors
         WHERE tag_id = ?1 AND received_at >= ?2 GROUP BY field, reason ORDER BY n DESC, field, reason LIMIT ${MAX_ERROR_REASONS}`,
      )
      .bind(tagId, since),
    db
      .prepare(
        `SELECT strftime('%Y-%m-%d', event_time / 1000, 'unixepoch') AS day, event_name, COUNT(*) AS n,
           SUM(user_id IS NOT NULL) AS matched, SUM(click_id IS NOT NULL) AS clicked
         FROM conversion_events WHERE tag_id = ?1 AND is_test = 0 AND event_time >= ?2 GROUP BY day, event_name`,
      )
      .bind(tagId, since),
    db
      .prepare(
        `SELECT id, event_name, event_id, received_at, value_micro, currency, order_quantity, click_id FROM conversion_events
         WHERE tag_id = ?1 AND is_test = 1 ORDER BY id DESC LIMIT ${MAX_TEST_EVENTS}`,
      )
      .bind(tagId),
  ]);
  const perDay = new Map(((events?.results ?? []) as Array<{ day: string; n: number }>).map((row) => [row.day, row.n]));
  return {
    tag: { id: tag.id, name: tag.name, adAccountId: tag.ad_account_id, lastFired: tag.last_fired_event },
    days,
    eventsPerDay: days.map((day) => ({ day, count: perDay.get(day) ?? 0 })),
    errors: ((errors?.results ?? []) as Array<{ field: string; reason: string; reason_values: string | null; n: number; last_at: number }>).map((row) => ({
      field: row.field,
      reason: row.reason,
      values: row.reason_values === null ? {} : (JSON.parse(row.reason_values) as Record<string, string | number>),
      count: row.n,
      lastAt: row.last_at,
    })),
    conversions: ((conversions?.results ?? []) as unknown as ConversionHealthRow[]).map((row) => ({ day: row.day, event_name: row.event_name, n: row.n, matched: row.matched, clicked: row.clicked })),
    testEvents: ((tests?.results ?? []) as TestRow[]).map(testEventOf),
  };
}
