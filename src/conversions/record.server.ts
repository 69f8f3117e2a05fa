// Storing a conversion event once. The tag and the conversions API report the same purchase
// under the same event id; the table keeps one row per ad account, event name and event id, so
// whichever arrives second is ignored (INSERT OR IGNORE) and nothing is counted twice. The
// person is matched by the hashed e-mail address, looked up inside the same statement.
import { sha256Hex } from "~/runtime/sha256.ts";
import { normalizedEmail, type ConversionEvent } from "./conversion.ts";

export type ConversionSource = "TAG" | "API" | "UPLOAD";

export interface ConversionRecord {
  adAccountId: number;
  tagId: number | null;
  source: ConversionSource;
  event: ConversionEvent;
  receivedAt: number;
}

const INSERT_SQL = `
  INSERT OR IGNORE INTO conversion_events
    (ad_account_id, tag_id, source, event_name, event_id, event_time, received_at, is_test, value_micro, currency, order_quantity, click_id, user_id)
  VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12,
    (SELECT user_id FROM email_match WHERE email_sha256 = ?13))`;

/**
 * The statement that stores one event, for the caller's batch. Its `meta.changes` is 1 when the
 * event was new and 0 when the same event had already arrived.
 */
export function conversionStatement(db: D1Database, record: ConversionRecord): D1PreparedStatement {
  const { event } = record;
  return db
    .prepare(INSERT_SQL)
    .bind(
      record.adAccountId,
      record.tagId,
      record.source,
      event.eventName,
      event.eventId,
      event.eventTime,
      record.receivedAt,
      event.isTest ? 1 : 0,
      event.valueMicro,
      event.currency,
      event.orderQuantity,
      event.clickId,
      event.emailSha256,
    );
}

/** The matching hash of an address (what the advertiser's server sends as a hashed e-mail). */
export const emailSha256 = (email: string) => sha256Hex(normalizedEmail(email));

/**
 * The statements that keep a person's matching hash current, for the batch that creates the
 * account or changes its address: the old hash goes, the new one is written.
 */
export function emailMatchStatements(db: D1Database, userId: number, hash: string): D1PreparedStatement[] {
  return [
    db.prepare("DELETE FROM email_match WHERE user_id = ?1 OR email_sha256 = ?2").bind(userId, hash),
    db.prepare("INSERT INTO email_match (email_sha256, user_id) VALUES (?1, ?2)").bind(hash, userId),
  ];
}
