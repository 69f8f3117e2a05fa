// Who a statement is about: a known viewer id, or the user of the session a statement reads
// (src/accounts/session.server.ts readSessionWith reads a page's first values inside the
// session's own statement, so both cost one round trip).

/**
 * Who a statement is about, as SQL and its values from parameter ?2 on (?1 is the statement's
 * own subject): a known id, or a column of the session row the statement reads (no values:
 * there ?2 and ?3 belong to the session, see SessionCompanion).
 */
export interface ViewerRef {
  sql: string;
  binds: readonly unknown[];
}

export const viewerById = (viewerId: number | null): ViewerRef => ({ sql: "?2", binds: [viewerId] });
