// "I tried this" (spec 001 §3 "Did-it data", §4): one did-it per person per pin, counted in
// pins.did_it_images_count; likes and helpful marks on a did-it counted on its row. Each
// toggle is one batch whose count moves only when the row it guards appears or goes, so the
// counts stay exact and never fall below 0.
import type { Viewer } from "~/accounts/guards.server.ts";
import { isDomainError, notFound } from "~/domain/errors.ts";
import { written, type Written } from "~/domain/written.ts";
import type { DidItData } from "./did-it.ts";
import { requirePinReaction } from "./guard.server.ts";

export interface PinDidItAnswer {
  pin_id: string;
  done_by_me: boolean;
  images_count: number;
  /** The viewer's did-it id while done (for like and helpful calls), else null. */
  did_it_id: string | null;
}

const MY_DID_IT = "SELECT 1 FROM did_its WHERE pin_id = ?1 AND user_id = ?2";

export async function setDidIt(db: D1Database, viewer: Viewer, pinId: number, done: boolean): Promise<Written<PinDidItAnswer>> {
  const { viewerId } = await requirePinReaction(db, viewer, pinId);
  const statements = done
    ? [
        db.prepare(`UPDATE pins SET did_it_images_count = did_it_images_count + 1 WHERE id = ?1 AND NOT EXISTS (${MY_DID_IT})`).bind(pinId, viewerId),
        db.prepare("INSERT OR IGNORE INTO did_its (pin_id, user_id, created_at) VALUES (?1, ?2, ?3)").bind(pinId, viewerId, Date.now()),
      ]
    : [
        db.prepare(`UPDATE pins SET did_it_images_count = MAX(did_it_images_count - 1, 0) WHERE id = ?1 AND EXISTS (${MY_DID_IT})`).bind(pinId, viewerId),
        db.prepare("DELETE FROM did_its WHERE pin_id = ?1 AND user_id = ?2").bind(pinId, viewerId),
      ];
  const results = await db.batch([
    ...statements,
    db.prepare("SELECT p.did_it_images_count, (SELECT id FROM did_its WHERE pin_id = ?1 AND user_id = ?2) AS did_it_id FROM pins p WHERE p.id = ?1").bind(pinId, viewerId),
  ]);
  const row = results.at(-1)?.results?.[0] as { did_it_images_count: number; did_it_id: number | null } | undefined;
  const answer = { pin_id: String(pinId), done_by_me: done, images_count: row?.did_it_images_count ?? 0, did_it_id: row?.did_it_id === null || row?.did_it_id === undefined ? null : String(row.did_it_id) };
  return written(answer, [`/pin/${pinId}/`]);
}

export type DidItMark = "like" | "helpful";

const DATA_SQL = `SELECT d.id, d.comment_count, d.like_count, d.helpful_count,
         EXISTS (SELECT 1 FROM did_it_marks m WHERE m.did_it_id = d.id AND m.user_id = ?2 AND m.kind = 'like') AS liked_by_me,
         EXISTS (SELECT 1 FROM did_it_marks m WHERE m.did_it_id = d.id AND m.user_id = ?2 AND m.kind = 'helpful') AS marked_helpful_by_me
  FROM did_its d WHERE d.id = ?1`;

interface DataRow {
  id: number;
  comment_count: number;
  like_count: number;
  helpful_count: number;
  liked_by_me: number;
  marked_helpful_by_me: number;
}

function toData(row: DataRow): DidItData {
  return {
    id: String(row.id),
    comment_count: row.comment_count,
    like_count: row.like_count,
    liked_by_me: row.liked_by_me === 1,
    helpful_count: row.helpful_count,
    marked_helpful_by_me: row.marked_helpful_by_me === 1,
  };
}

/** Likes or marks a did-it helpful (on = true) or takes it back; the did-it's pin must be visible. */
export async function setDidItMark(db: D1Database, viewer: Viewer, didItId: number, kind: DidItMark, on: boolean): Promise<DidItData> {
  const didIt = await db.prepare("SELECT pin_id FROM did_its WHERE id = ?1").bind(didItId).first<{ pin_id: number }>();
  if (!didIt) throw notFound("social:api.didItNotFound");
  // A did-it on a pin the viewer cannot see does not exist for them either.
  const { viewerId } = await requirePinReaction(db, viewer, didIt.pin_id).catch((error: unknown) => {
    throw isDomainError(error, "not_found") ? notFound("social:api.didItNotFound") : error;
  });
  const column = kind === "like" ? "like_count" : "helpful_count";
  const mark = "SELECT 1 FROM did_it_marks WHERE did_it_id = ?1 AND user_id = ?2 AND kind = ?3";
  const statements = on
    ? [
        db.prepare(`UPDATE did_its SET ${column} = ${column} + 1 WHERE id = ?1 AND NOT EXISTS (${mark})`).bind(didItId, viewerId, kind),
        db.prepare("INSERT OR IGNORE INTO did_it_marks (did_it_id, user_id, kind, created_at) VALUES (?1, ?2, ?3, ?4)").bind(didItId, viewerId, kind, Date.now()),
      ]
    : [
        db.prepare(`UPDATE did_its SET ${column} = MAX(${column} - 1, 0) WHERE id = ?1 AND EXISTS (${mark})`).bind(didItId, viewerId, kind),
        db.prepare("DELETE FROM did_it_marks WHERE did_it_id = ?1 AND user_id = ?2 AND kind = ?3").bind(didItId, viewerId, kind),
      ];
  const results = await db.batch([...statements, db.prepare(DATA_SQL).bind(didItId, viewerId)]);
  const row = results.at(-1)?.results?.[0] as DataRow | undefined;
  if (!row) throw notFound("social:api.didItNotFound");
  return toData(row);
}
