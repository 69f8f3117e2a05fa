// A condition a multi-step write read before its batch, checked again inside the batch: when it
// no longer holds, the guard's INSERT breaks the write_guards table's CHECK and D1 rolls the
// whole batch back, so nothing of the write is applied (migration 0021).

/**
 * A batch statement that fails the batch unless `condition` (an SQL expression over `binds`,
 * numbered from ?2) holds when it runs.
 */
export function writeGuard(db: D1Database, reason: string, condition: string, ...binds: unknown[]): D1PreparedStatement {
  return db.prepare(`INSERT INTO write_guards (reason) SELECT ?1 WHERE NOT (${condition})`).bind(reason, ...binds);
}

/** True when a batch failed on a writeGuard: the write was refused whole, and the caller says why. */
export function isWriteRefused(error: unknown): boolean {
  return error instanceof Error && /write_refused/.test(error.message);
}
