// Who a statement is about, for reads that run in someone else's batch: a known viewer id, or
// the user of the session the same batch reads (src/accounts/session.server.ts readSessionWith),
// so a page's first reads and its session cost one round trip.

/**
 * Who a statement is about, as SQL and its values from parameter ?2 on (?1 is the statement's
 * own subject): a known id, or the user of a session being read in the same batch.
 */
export interface ViewerRef {
  sql: string;
  binds: readonly unknown[];
}

export const viewerById = (viewerId: number | null): ViewerRef => ({ sql: "?2", binds: [viewerId] });

/** The live session's user (NULL when it is revoked, expired or unknown), by the session's id. */
export const viewerBySession = (sessionId: string, now: number): ViewerRef => ({
  sql: "(SELECT sv.user_id FROM sessions sv WHERE sv.id = ?2 AND sv.revoked_at IS NULL AND sv.expires_at > ?3)",
  binds: [sessionId, now],
});

