// The statement that reads, in a close-up's own batch, which of a story pin's sticker targets
// its reader may be shown (story-stickers.ts applies the answer). A mentioned person is shown
// while their account exists, the `profile` rule lets the reader see them, and no block stands
// between them and the story's author either way; a product pin while the `pin` rule lets the
// reader open it and it is still a product.
import { visibleSql } from "~/visibility/visibility.server.ts";
import type { StickerPerson, StickerTargets } from "./story-stickers.ts";

/** The block objects of story pin ?1 whose type is `type` (a story holds at most 20 pages of 10 blocks). */
const blocksOf = (type: string, field: string) =>
  `SELECT CAST(json_extract(sb.value, '$.${field}') AS INTEGER) FROM pins sp, json_each(sp.story_pin_data, '$.pages') sg, json_each(sg.value, '$.blocks') sb
   WHERE sp.id = ?1 AND sp.kind = 'story' AND sp.story_pin_data IS NOT NULL AND lower(json_extract(sb.value, '$.type')) = '${type}'`;

/** Bound on the rows: every block of a story at its limits (story-draft.ts STORY_LIMITS). */
const MAX_TARGETS = 200;

const STICKERS_SQL = `SELECT 'user' AS target, u.id, u.username, u.full_name FROM users u
    WHERE u.id IN (${blocksOf("mention_sticker", "user_id")})
      AND ${visibleSql("profile", { user: "u" }, "?2")}
      AND NOT EXISTS (SELECT 1 FROM pins ap JOIN blocks k ON (k.blocker_id = u.id AND k.blocked_id = ap.pinner_id) OR (k.blocker_id = ap.pinner_id AND k.blocked_id = u.id) WHERE ap.id = ?1)
  UNION ALL
  SELECT 'pin' AS target, tp.id, NULL, NULL FROM pins tp JOIN users tpu ON tpu.id = tp.pinner_id LEFT JOIN boards tb ON tb.id = tp.board_id
    WHERE tp.id IN (${blocksOf("product_sticker", "pin_id")}) AND tp.kind = 'product'
      AND ${visibleSql("pin", { pin: "tp", board: "tb", pinner: "tpu" }, "?2")}
  LIMIT ${MAX_TARGETS}`;

/** The statement for the close-up's batch: ?1 the pin, ?2 the reader (NULL signed out). Reads nothing for a pin that is not a story. */
export function storyStickersStatement(db: D1Database, pinId: string, viewerId: number | null): D1PreparedStatement {
  return db.prepare(STICKERS_SQL).bind(pinId, viewerId);
}

interface StickerRow {
  target: "user" | "pin";
  id: number;
  username: string | null;
  full_name: string | null;
}

/** The statement's rows as the targets the reader may be shown. */
export function stickerTargetsOf(rows: readonly unknown[]): StickerTargets {
  const people = new Map<string, StickerPerson>();
  const pins = new Set<string>();
  for (const row of rows as readonly StickerRow[]) {
    if (row.target === "user" && row.username !== null) people.set(String(row.id), { id: String(row.id), username: row.username, full_name: row.full_name ?? "" });
    else if (row.target === "pin") pins.add(String(row.id));
  }
  return { people, pins };
}
