// A pin's own fields changed by its pinner (PinResource update): title, description (its HTML
// escaped once, here) and link (with its domain). The statement repeats the pinner and
// "not deleted", so an edit never lands on someone else's pin or a deleted one.
import { escapeHtml } from "~/html/sanitize.server.ts";

interface PinEdit {
  title?: string | undefined;
  description?: string | undefined;
  /** "" takes the link off. */
  link?: string | undefined;
}

export function pinEditStatement(db: D1Database, pinId: number, pinnerId: number, edit: PinEdit, now = Date.now()): D1PreparedStatement {
  let domain: string | null | undefined;
  if (edit.link !== undefined) domain = edit.link === "" ? null : new URL(edit.link).hostname.toLowerCase();
  return db
    .prepare(
      `UPDATE pins SET title = coalesce(?3, title), description = coalesce(?4, description), description_html = coalesce(?5, description_html),
                       link = CASE WHEN ?6 = 1 THEN ?7 ELSE link END, domain = CASE WHEN ?6 = 1 THEN ?8 ELSE domain END, updated_at = ?9
       WHERE id = ?1 AND pinner_id = ?2 AND is_deleted = 0`,
    )
    .bind(
      pinId,
      pinnerId,
      edit.title?.trim() ?? null,
      edit.description ?? null,
      edit.description === undefined ? null : escapeHtml(edit.description),
      edit.link === undefined ? 0 : 1,
      edit.link === "" ? null : (edit.link ?? null),
      domain ?? null,
      now,
    );
}

/** The edit on its own (no move goes with it); `also` joins its batch (a client request's claim). */
export async function editPin(db: D1Database, pinId: number, pinnerId: number, edit: PinEdit, also: readonly D1PreparedStatement[] = []): Promise<void> {
  await db.batch([...also, pinEditStatement(db, pinId, pinnerId, edit)]);
}
