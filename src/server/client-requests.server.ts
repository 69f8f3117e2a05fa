// Storage of client request ids (migration 0016): the claim a write puts in its own batch, the
// first answer kept for replays, and their retention. Plain values in, plain rows out.

/** How long an id is remembered: far past any retry, short enough to stay small. */
export const CLIENT_REQUEST_RETENTION_MS = 24 * 60 * 60 * 1000;
const MAX_ROWS_PER_RUN = 5000;

export interface ClientRequestKey {
  scope: string;
  clientId: string;
  /** Method and path: an id reused for another call is refused, not replayed. */
  call: string;
}

export interface ClientRequestRow {
  call: string;
  answer: string | null;
  created_at: number;
}

export function findClientRequest(db: D1Database, key: ClientRequestKey): Promise<ClientRequestRow | null> {
  return db.prepare("SELECT call, answer, created_at FROM client_requests WHERE scope = ?1 AND client_id = ?2").bind(key.scope, key.clientId).first<ClientRequestRow>();
}

/**
 * The claim, for the batch that makes the change: a plain INSERT, so a second try racing the
 * first fails its whole batch on the key instead of applying twice.
 */
export function claimStatement(db: D1Database, key: ClientRequestKey, now: number): D1PreparedStatement {
  return db.prepare("INSERT INTO client_requests (scope, client_id, call, created_at) VALUES (?1, ?2, ?3, ?4)").bind(key.scope, key.clientId, key.call, now);
}

/** True when a batch failed on the claim: the same id's other try got there first. */
export function isClaimConflict(error: unknown): boolean {
  const text = error instanceof Error ? `${error.message} ${String(error.cause ?? "")}` : String(error);
  return /UNIQUE constraint failed: client_requests\./i.test(text);
}

/**
 * Keeps the first answer. A write that needed no change (a save already there) left no claim:
 * its answer is kept all the same, so its replays answer alike. An answer once written stays.
 */
export async function storeAnswer(db: D1Database, key: ClientRequestKey, answer: string, now: number): Promise<void> {
  await db
    .prepare(
      `INSERT INTO client_requests (scope, client_id, call, answer, created_at) VALUES (?1, ?2, ?3, ?4, ?5)
       ON CONFLICT (scope, client_id) DO UPDATE SET answer = excluded.answer WHERE client_requests.answer IS NULL AND client_requests.call = excluded.call`,
    )
    .bind(key.scope, key.clientId, key.call, answer, now)
    .run();
}

/** Drops a claim that has no answer: its try was refused, so a retry is judged afresh. */
export async function forgetClaim(db: D1Database, key: ClientRequestKey): Promise<void> {
  await db.prepare("DELETE FROM client_requests WHERE scope = ?1 AND client_id = ?2 AND answer IS NULL").bind(key.scope, key.clientId).run();
}

/** Housekeeping: ids older than the retention go, at most MAX_ROWS_PER_RUN a run. */
export function purgeClientRequests(db: D1Database, now: number): D1PreparedStatement {
  return db
    .prepare("DELETE FROM client_requests WHERE (scope, client_id) IN (SELECT scope, client_id FROM client_requests WHERE created_at < ?1 LIMIT ?2)")
    .bind(now - CLIENT_REQUEST_RETENTION_MS, MAX_ROWS_PER_RUN);
}
