// Whether a viewer may reach one pin, without reading the pin: what a link that only leads to
// the close-up (the repost deep link) needs. The pinExists rule (the close-up's, deleted or
// not): a deleted pin is "deleted" only to those who could see it, and missing to everyone else.
import { factColumns, holdsFor, visibleSql, type Aliases } from "~/visibility/visibility.server.ts";

const ALIASES: Aliases = { pin: "p", board: "b", pinner: "pu" };

type PinReach = "found" | "deleted" | "missing";

export async function pinReach(db: D1Database, pinId: string, viewerId: number | null): Promise<PinReach> {
  const row = await db
    .prepare(
      `SELECT p.is_deleted AS deleted, ${factColumns("pinExists", ALIASES, "?2")}
       FROM pins p LEFT JOIN boards b ON b.id = p.board_id JOIN users pu ON pu.id = p.pinner_id
       WHERE p.id = ?1 AND ${visibleSql("pinExists", ALIASES, "?2")}`,
    )
    .bind(pinId, viewerId)
    .first<Record<string, unknown> & { deleted: number }>();
  if (!row || !holdsFor("pinExists", row, viewerId)) return "missing";
  return row.deleted === 1 ? "deleted" : "found";
}
