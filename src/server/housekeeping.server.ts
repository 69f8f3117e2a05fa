// The cron trigger's work: drop sessions that can no longer be used. Bounded per run so a
// large backlog drains over several runs instead of one long statement.
export const SESSION_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
const MAX_ROWS_PER_RUN = 5000;

export async function runHousekeeping(db: D1Database, now = Date.now()): Promise<number> {
  const result = await db
    .prepare(
      `DELETE FROM sessions WHERE id IN (
         SELECT id FROM sessions WHERE expires_at < ?1 OR (revoked_at IS NOT NULL AND revoked_at < ?2) LIMIT ?3)`,
    )
    .bind(now, now - SESSION_RETENTION_MS, MAX_ROWS_PER_RUN)
    .run();
  return result.meta.changes;
}
