// Board blocking actions (spec 001 §3 "Board blocking action"; GET /v3/boards/{id}/): work on
// a board, or one section of it (section_id; -1 = the whole board), that other bulk changes
// must wait for. A row lives in board_blocking_actions while its work runs (finished_at NULL).
// Bulk actions refuse with 409 while one runs on a board they touch. The bulk actions of this
// API are each one D1 batch and finish inside their request, so they record none themselves:
// the table is where a long job that spans requests (an import, a large copy done in steps)
// announces itself, and where the client learns to wait.

export interface BlockingAction {
  id: string;
  created_timestamp: number;
  progress: number;
  section_id: number;
}

/** The unfinished blocking actions of a board, oldest first (bounded). */
export async function listBlockingActions(db: D1Database, boardId: number): Promise<BlockingAction[]> {
  const { results } = await db
    .prepare("SELECT id, created_at, progress, section_id FROM board_blocking_actions WHERE board_id = ?1 AND finished_at IS NULL ORDER BY created_at, id LIMIT 50")
    .bind(boardId)
    .all<{ id: number; created_at: number; progress: number; section_id: number }>();
  return results.map((row) => ({ id: String(row.id), created_timestamp: row.created_at, progress: row.progress, section_id: row.section_id }));
}

export async function hasRunningBlockingAction(db: D1Database, boardIds: readonly number[]): Promise<boolean> {
  const row = await db
    .prepare("SELECT 1 AS running FROM board_blocking_actions WHERE board_id IN (SELECT value FROM json_each(?1)) AND finished_at IS NULL LIMIT 1")
    .bind(JSON.stringify([...new Set(boardIds)]))
    .first();
  return row !== null;
}
