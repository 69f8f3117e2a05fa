// What account calls answer with: the viewer's row and the viewer a new session answers
// (the envelope itself is the edge functions', src/server/answer.ts).
import { daysToExpiration } from "./session.server.ts";
import { toLimitedViewer, toViewer, viewerColumns, viewerTypeOf, type ViewerUserRow } from "./viewer.ts";

export async function userRow(db: D1Database, userId: number): Promise<ViewerUserRow | null> {
  return db.prepare(`SELECT ${viewerColumns("u")} FROM users u WHERE u.id = ?1`).bind(userId).first<ViewerUserRow>();
}

/** What a new session answers: the viewer (spec §3; the limited-login viewer for LIMITED_LOGIN). */
export function sessionPayload(row: ViewerUserRow, expiresAt: number) {
  const viewerType = viewerTypeOf(row);
  return {
    user: viewerType === "LIMITED_LOGIN" ? toLimitedViewer(row) : toViewer(row),
    viewer_type: viewerType,
    days_to_expiration: daysToExpiration(expiresAt),
  };
}
