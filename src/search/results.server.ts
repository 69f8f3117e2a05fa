// A page's results from the ids the engine ranked or the answer cache remembered: the rows a
// result shows, read by id, in the ranked order, leaving out a row gone since.
import { listedPinCountSql } from "~/boards/boards.server.ts";
import { GRID_CELL_COLUMNS, GRID_IMAGE_JOINS, gridPin, type GridCellRow } from "~/pins/pins.server.ts";
import { visibleSql } from "~/visibility/visibility.server.ts";
import type { CachedAnswer } from "./answer-cache.server.ts";
import type { FacetRow } from "./filters.ts";
import { facetStatement } from "./filters.server.ts";
import { boardItem, type BoardRow } from "./items.ts";
import { PIN_VISIBILITY_JOINS, Params, boardVisibleSql, pinVisibleSql, rememberedMatchingSql } from "./matching.server.ts";
import type { PinFilterPlan } from "./plan.ts";
import type { SearchItem } from "./types.ts";

type ResultRef = { type: "pin" | "board"; id: number };

/**
 * Boards by id with what a result shows: counts and cover only over pins the viewer may see.
 * With `visibleMatching` (a match expression) it also leaves out a board the viewer may not
 * see (the board page's rule, its owner's profile included, as board search requires) or whose text no
 * longer matches: the answer cache's re-read of remembered ids.
 */
function boardRowsStatement(db: D1Database, ids: readonly number[], viewer: number | null, visibleMatching: string | null = null): D1PreparedStatement {
  const visible =
    visibleMatching === null
      ? ""
      : `AND EXISTS (SELECT 1 FROM users vo WHERE vo.id = b.owner_id AND ${boardVisibleSql("vo", "?2")})
         AND b.id IN (SELECT rowid FROM search_boards WHERE search_boards MATCH ?3)`;
  return db
    .prepare(
      `WITH picked AS (
         SELECT b.id, b.name, b.slug, b.owner_id, b.cover_pin_id,
                ${listedPinCountSql("?2", "cbp.board_id = b.id")} AS visible_pin_count,
                (SELECT cp.id FROM board_pins cbp JOIN pins cp ON cp.id = cbp.pin_id LEFT JOIN boards cpb ON cpb.id = cp.board_id
                 JOIN users cpu ON cpu.id = cp.pinner_id
                 WHERE cbp.board_id = b.id AND ${visibleSql("gridPin", { pin: "cp", board: "cpb", pinner: "cpu" }, "?2")}
                 ORDER BY (cp.id IS b.cover_pin_id) DESC, cbp.position, cbp.pin_id LIMIT 1) AS cover_id
         FROM boards b WHERE b.id IN (SELECT value FROM json_each(?1)) ${visible})
       SELECT c.id, c.name, c.slug, c.visible_pin_count, u.username, u.full_name,
              i.url AS cover_url, i.width AS cover_width, i.height AS cover_height
       FROM picked c JOIN users u ON u.id = c.owner_id
       LEFT JOIN pin_images i ON i.pin_id = c.cover_id AND i.size = '236x'`,
    )
    .bind(JSON.stringify(ids), viewer, ...(visibleMatching === null ? [] : [visibleMatching]));
}

/**
 * Pins by id with what a grid cell shows, only those a signed-out viewer may see now
 * (pinVisibleSql with a null viewer) and whose text still matches: the answer cache's re-read
 * of remembered ids. The match is read once over the ids' rowid range (a bloom-filtered set,
 * 0.2–0.4 ms at 100,000 pins; a MATCH per id would be ~60 µs each).
 */
function visiblePinRowsStatement(db: D1Database, ids: readonly number[], match: string): D1PreparedStatement {
  const params = new Params();
  return db
    .prepare(
      `SELECT ${GRID_CELL_COLUMNS} FROM pins p
       ${PIN_VISIBILITY_JOINS}
       ${GRID_IMAGE_JOINS}
       WHERE ${rememberedMatchingSql("p.id", ids, "search_pins", match, params)} AND ${pinVisibleSql(null)}`,
    )
    .bind(...params.values);
}

/**
 * A remembered answer's page (answer-cache.server.ts): its rows re-read in one statement that
 * applies visibility and the match again (with buyable_pins' page-1 facets, never remembered,
 * beside it), in the remembered order; a row no longer visible or matching is left out.
 */
export async function rereadAnswer(db: D1Database, answer: CachedAnswer, plan: PinFilterPlan, wantFacets: boolean): Promise<{ results: SearchItem[]; facets: FacetRow | null }> {
  const statements: D1PreparedStatement[] = [];
  if (answer.ids.length > 0) statements.push(answer.kind === "pin" ? visiblePinRowsStatement(db, answer.ids, plan.match) : boardRowsStatement(db, answer.ids, null, plan.match));
  if (wantFacets) statements.push(facetStatement(db, plan));
  if (statements.length === 0) return { results: [], facets: null };
  const answers = await db.batch(statements);
  const rowResult = answer.ids.length > 0 ? answers[0] : undefined;
  const facetResult = wantFacets ? answers.at(-1) : undefined;
  const rows = rowResult?.results ?? [];
  const results = itemsInOrder(
    answer.ids.map((id) => ({ type: answer.kind, id })),
    answer.kind === "pin" ? (rows as GridCellRow[]) : [],
    answer.kind === "board" ? (rows as BoardRow[]) : [],
  );
  return { results, facets: wantFacets ? ((facetResult?.results?.[0] ?? null) as FacetRow | null) : null };
}

/** Pins and boards by id, in the order given; a row gone since the ranking is left out. */
export async function hydrate(db: D1Database, refs: readonly ResultRef[], viewer: number | null): Promise<SearchItem[]> {
  if (refs.length === 0) return [];
  const pinIds = refs.filter((ref) => ref.type === "pin").map((ref) => ref.id);
  const boardIds = refs.filter((ref) => ref.type === "board").map((ref) => ref.id);
  const [pinResult, boardResult] = await db.batch([
    db.prepare(`SELECT ${GRID_CELL_COLUMNS} FROM pins p ${GRID_IMAGE_JOINS} WHERE p.id IN (SELECT value FROM json_each(?1))`).bind(JSON.stringify(pinIds)),
    boardRowsStatement(db, boardIds, viewer),
  ]);
  return itemsInOrder(refs, (pinResult?.results ?? []) as GridCellRow[], (boardResult?.results ?? []) as BoardRow[]);
}

/** Result items for `refs` in their order, from the rows read for them; a ref without a row is left out. */
function itemsInOrder(refs: readonly ResultRef[], pinRows: readonly GridCellRow[], boardRows: readonly BoardRow[]): SearchItem[] {
  const pins = new Map(pinRows.map((row) => [row.id, row]));
  const boards = new Map(boardRows.map((row) => [row.id, row]));
  const items: SearchItem[] = [];
  for (const ref of refs) {
    if (ref.type === "pin") {
      const row = pins.get(ref.id);
      if (row) items.push({ type: "pin", ...gridPin(row) });
    } else {
      const row = boards.get(ref.id);
      if (row) items.push(boardItem(row));
    }
  }
  return items;
}
