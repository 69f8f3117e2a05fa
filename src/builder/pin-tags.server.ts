// Pin tags at publishing (migration 0023): the checks a draft's tags must pass and the
// statements that store them, which run inside the publish batch so a pin and its tags are
// written together or not at all.
import type { FieldProblem } from "~/domain/errors.ts";
import { visibleSql } from "~/visibility/visibility.server.ts";
import { blockedHostsAmong } from "./drafts.server.ts";
import { linkHost, linkProblem } from "./drafts.ts";
import { UNPLACED, publishableTags, tagsOfItem, type TagDraft } from "./pin-tags.ts";

/**
 * The tagged pins this viewer may see, of those named: the grid rule, so a pin that is deleted,
 * hidden, or on a board or profile the viewer may not see is never tagged (and the close-up reads
 * tags under the same rule for each of its viewers).
 */
async function visibleAmong(db: D1Database, viewerId: number, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const { results } = await db
    .prepare(
      `SELECT p.id FROM pins p
       JOIN users pu ON pu.id = p.pinner_id
       LEFT JOIN boards b ON b.id = p.board_id
       WHERE p.id IN (SELECT CAST(value AS INTEGER) FROM json_each(?1))
         AND ${visibleSql("gridPin", { pin: "p", board: "b", pinner: "pu" }, "?2")}`,
    )
    .bind(JSON.stringify(ids), viewerId)
    .all<{ id: number }>();
  return new Set(results.map((row) => String(row.id)));
}

/**
 * What stops a draft's tags from publishing, one problem per field: each live tag on an item is
 * placed, points at a pin, points only at pins that exist and that the viewer may see, and its
 * link passes the link rule with the blocked hosts. Deleted tags are not checked (they are
 * only removed).
 */
export async function pinTagProblems(db: D1Database, viewerId: number, draft: TagDraft): Promise<FieldProblem[]> {
  const live = new Set(draft.items.flatMap((item) => tagsOfItem(draft, item)).map((tag) => tag.id));
  const tags = draft.pinTags.map((tag, at) => ({ tag, at })).filter(({ tag }) => live.has(tag.id));
  const ids = [...new Set(tags.flatMap(({ tag }) => tag.taggedObjectIds))];
  const hosts = tags.flatMap(({ tag }) => (tag.link ? [linkHost(tag.link)].filter((host): host is string => host !== null) : []));
  const [visible, blocked] = await Promise.all([visibleAmong(db, viewerId, ids), blockedHostsAmong(db, hosts)]);
  const problems: FieldProblem[] = [];
  for (const { tag, at } of tags) {
    const field = (name: string) => `pinTags.${at}.${name}`;
    if (tag.x === UNPLACED || tag.y === UNPLACED) problems.push({ field: field("x"), reason: "builder:validation.tagPosition" });
    if (tag.taggedObjectIds.length === 0) problems.push({ field: field("taggedObjectIds"), reason: "builder:validation.tagNeedsPin" });
    else if (tag.taggedObjectIds.some((id) => !visible.has(id))) problems.push({ field: field("taggedObjectIds"), reason: "builder:validation.taggedPinUnavailable" });
    const linkReason = tag.link === null ? null : linkProblem(tag.link, blocked);
    if (linkReason) problems.push({ field: field("link"), reason: linkReason });
  }
  return problems;
}

/**
 * The statements that store the draft's tags on pin `pinId`, for the publish batch: any tags
 * the pin had go first (so running them again leaves exactly the draft's tags), then one row
 * per tagged pin of each live, placed tag. A tagged pin deleted since pinTagProblems looked is
 * left out rather than failing the whole publish, and a pin never tags itself.
 */
export function pinTagStatements(db: D1Database, pinId: number, draft: TagDraft, now: number = Date.now()): D1PreparedStatement[] {
  const positions = new Map<number, number>();
  const rows = publishableTags(draft).flatMap(({ itemIndex, tag }) => {
    const position = positions.get(itemIndex) ?? 0;
    positions.set(itemIndex, position + 1);
    return tag.taggedObjectIds.map((taggedPinId) => ({ key: tag.pinTagKey, item: itemIndex, position, x: tag.x, y: tag.y, pin: Number(taggedPinId), link: tag.link }));
  });
  const clear = db.prepare("DELETE FROM pin_tags WHERE pin_id = ?1").bind(pinId);
  if (rows.length === 0) return [clear];
  const insert = db
    .prepare(
      `INSERT INTO pin_tags (pin_id, tag_key, item_index, position, x, y, tagged_pin_id, link, created_at)
       SELECT ?1, json_extract(j.value, '$.key'), json_extract(j.value, '$.item'), json_extract(j.value, '$.position'),
              json_extract(j.value, '$.x'), json_extract(j.value, '$.y'), t.id, json_extract(j.value, '$.link'), ?3
       FROM json_each(?2) j
       JOIN pins t ON t.id = json_extract(j.value, '$.pin') AND t.is_deleted = 0
       WHERE t.id != ?1
       ON CONFLICT DO NOTHING`,
    )
    .bind(pinId, JSON.stringify(rows), now);
  return [clear, insert];
}
