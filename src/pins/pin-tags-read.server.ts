// A pin's tags as its close-up shows them (migration 0023): one joined statement in the close-up's
// batch reads every tag with its tagged pin, and the visibility rule drops the tagged pins this
// viewer may not see, so a tag whose pins are all hidden from them is not shown at all.
import { isAllowedLink, type PinKind } from "~/pins/pin.ts";
import { visibleSql } from "~/visibility/visibility.server.ts";

/** A pin a tag points at, as a tag's card and the "Shop the look" list show it. */
export interface TaggedPinSummary {
  id: string;
  kind: PinKind;
  title: string;
  dominantColor: string;
  image: { url: string; width: number; height: number } | null;
  /** A product's price, for a signed-in viewer only (prices are signed-in data, spec 000 §6). */
  price: { value: number; currency: string } | null;
}

/** One tag: its place on its item's image (fractions 0..1) and the pins it points at that the viewer may see. */
export interface PinTagDot {
  key: string;
  itemIndex: number;
  x: number;
  y: number;
  /** The tag's own link when it passes the link rule today, else null. */
  link: string | null;
  pins: TaggedPinSummary[];
}

/** Tags a pin can hold: 20 items of 10 tags of 5 pins. */
const MAX_TAG_ROWS = 1000;

/** pinTagsStatement's text (?1 the pin, ?2 the viewer): the same for every read, so written once. */
const PIN_TAGS_SQL = `SELECT t.tag_key, t.item_index, t.x, t.y, t.link,
              tp.id, tp.kind, tp.title, tp.grid_title, tp.dominant_color, tp.price_value, tp.price_currency,
              ti.url, ti.width, ti.height
       FROM pin_tags t
       JOIN pins tp ON tp.id = t.tagged_pin_id
       JOIN users tpu ON tpu.id = tp.pinner_id
       LEFT JOIN boards tb ON tb.id = tp.board_id
       LEFT JOIN pin_images ti ON ti.pin_id = tp.id AND ti.size = '236x'
       WHERE t.pin_id = ?1 AND ${visibleSql("gridPin", { pin: "tp", board: "tb", pinner: "tpu" }, "?2")}
       ORDER BY t.item_index, t.position, t.tag_key, tp.id
       LIMIT ${MAX_TAG_ROWS}`;

/**
 * The statement for the close-up's batch. Binds ?1 the pin and ?2 the viewer (NULL signed out),
 * as the close-up's own statement does. Tagged pins are read under the grid rule: a hidden pin
 * shows on its own page only.
 */
export function pinTagsStatement(db: D1Database, pinId: string, viewerId: number | null): D1PreparedStatement {
  return db.prepare(PIN_TAGS_SQL).bind(pinId, viewerId);
}

interface TagRow {
  tag_key: string;
  item_index: number;
  x: number;
  y: number;
  link: string | null;
  id: number;
  kind: PinKind;
  title: string;
  grid_title: string;
  dominant_color: string;
  price_value: number | null;
  price_currency: string | null;
  url: string | null;
  width: number | null;
  height: number | null;
}

/** The statement's rows as tags, in their order; each tag's pins in theirs. */
export function pinTagDots(rows: readonly unknown[], viewerId: number | null, blockedHosts: ReadonlySet<string>): PinTagDot[] {
  const tags = new Map<string, PinTagDot>();
  for (const row of rows as readonly TagRow[]) {
    const id = `${row.item_index}:${row.tag_key}`;
    let tag = tags.get(id);
    if (!tag) {
      const link = row.link !== null && isAllowedLink(row.link, blockedHosts) ? row.link : null;
      tag = { key: row.tag_key, itemIndex: row.item_index, x: row.x, y: row.y, link, pins: [] };
      tags.set(id, tag);
    }
    tag.pins.push({
      id: String(row.id),
      kind: row.kind,
      title: row.grid_title || row.title,
      dominantColor: row.dominant_color,
      image: row.url !== null && row.width !== null && row.height !== null ? { url: row.url, width: row.width, height: row.height } : null,
      price: viewerId !== null && row.kind === "product" && row.price_value !== null ? { value: row.price_value, currency: row.price_currency ?? "USD" } : null,
    });
  }
  return [...tags.values()];
}
