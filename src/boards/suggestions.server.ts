// What board title suggestions (suggestions.ts) are made from: the pin's own words and the
// names the viewer's boards already have, read in one batch.

/** How many of the viewer's board names the suggestions are compared with. */
const MAX_COMPARED_BOARDS = 500;

export async function suggestionInputs(db: D1Database, pinId: number, ownerId: number): Promise<{ title: string; category: string | null; boardNames: string[] }> {
  const [pinResult, boardResult] = await db.batch([
    db.prepare("SELECT title, grid_title, category FROM pins WHERE id = ?1").bind(pinId),
    db.prepare("SELECT name FROM boards WHERE owner_id = ?1 LIMIT ?2").bind(ownerId, MAX_COMPARED_BOARDS),
  ]);
  const row = (pinResult?.results as Array<{ title: string; grid_title: string; category: string | null }> | undefined)?.[0];
  return {
    title: row?.title || row?.grid_title || "",
    category: row?.category ?? null,
    boardNames: ((boardResult?.results ?? []) as Array<{ name: string }>).map((board) => board.name),
  };
}
