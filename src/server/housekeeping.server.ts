// The cron trigger's work: drop sessions that can no longer be used (an expired one on a
// device stays for the re-login window, so that device's switcher can ask for its password),
// one-time tokens past their expiry, throttle windows long closed, expired invites (an expired
// and a missing invite answer the same 404, so nothing changes for anyone when the row goes)
// client request ids past their day, and promoted pins' event claims past any redelivery.
// Bounded per run so a large backlog drains over several
// runs instead of one long statement.
import { RELOGIN_WINDOW_MS } from "~/accounts/session.server.ts";
import { pruneAdEventReceipts } from "~/ads/counting.server.ts";
import { purgeClientRequests } from "./client-requests.server.ts";

const SESSION_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
/** Spent or expired one-time tokens and closed throttle windows are kept this long (audits). */
const AUTH_ROW_RETENTION_MS = 24 * 60 * 60 * 1000;
const MAX_ROWS_PER_RUN = 5000;

/** Rows deleted: sessions, auth tokens, rate-limit windows, invites, client request ids and ad event claims, summed. */
export async function runHousekeeping(db: D1Database, now = Date.now()): Promise<number> {
  const results = await db.batch([
    db
      .prepare(
        `DELETE FROM sessions WHERE id IN (
           SELECT id FROM sessions WHERE (expires_at < ?1 AND (device_id IS NULL OR expires_at < ?4)) OR (revoked_at IS NOT NULL AND revoked_at < ?2) LIMIT ?3)`,
      )
      .bind(now, now - SESSION_RETENTION_MS, MAX_ROWS_PER_RUN, now - RELOGIN_WINDOW_MS),
    db
      .prepare("DELETE FROM auth_tokens WHERE id IN (SELECT id FROM auth_tokens WHERE expires_at < ?1 LIMIT ?2)")
      .bind(now - AUTH_ROW_RETENTION_MS, MAX_ROWS_PER_RUN),
    db
      .prepare("DELETE FROM rate_limits WHERE key IN (SELECT key FROM rate_limits WHERE window_start < ?1 LIMIT ?2)")
      .bind(now - AUTH_ROW_RETENTION_MS, MAX_ROWS_PER_RUN),
    db
      .prepare("DELETE FROM invites WHERE id IN (SELECT id FROM invites WHERE expires_at < ?1 LIMIT ?2)")
      .bind(now - AUTH_ROW_RETENTION_MS, MAX_ROWS_PER_RUN),
    purgeClientRequests(db, now),
    pruneAdEventReceipts(db, now, MAX_ROWS_PER_RUN),
  ]);
  return results.reduce((total, result) => total + result.meta.changes, 0);
}
