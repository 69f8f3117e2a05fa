// VisualLiveSearchResource: a pin's interests as search links, for a pin the viewer may see.
import { visiblePin } from "./matching.server.ts";
import { searchUrl } from "./options.ts";
import type { SearchViewer } from "./plan.ts";
import type { VisualAnnotations } from "./types.ts";

/** The pin's interests as search links; null when the viewer may not see the pin. */
export async function visualAnnotations(db: D1Database, pinId: string, viewer: SearchViewer): Promise<VisualAnnotations | null> {
  const pin = await visiblePin(db, pinId, viewer.id);
  if (!pin) return null;
  const rows = await db
    .prepare("SELECT i.name FROM pin_interests pi JOIN interests i ON i.id = pi.interest_id WHERE pi.pin_id = ?1 ORDER BY i.name LIMIT 20")
    .bind(pin.id)
    .all<{ name: string }>();
  return { annotations: rows.results.map((row) => ({ term: row.name, url: searchUrl("pins", row.name, { rs: "guide" }) })) };
}
