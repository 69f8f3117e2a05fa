// Pin tags (spec 001 §3 "Pin tag", "Tagged object"; §4 transitions): dots placed on an item's
// image that point at other pins, products included (a product is a pin of kind product). Pure
// functions shared by the builder's islands, the draft rules (drafts.ts) and publishing.
//
// The draft keeps every tag in one list, `pinTags`; an item names its own by id in `pinTagIds`.
// A tag removed from its item leaves that list unless something was stored for it: a saved or
// edited tag stays, marked deleted, so editing a published pin knows to delete it.

export const PIN_TAG_STATUSES = ["created", "saved", "edited", "deleted"] as const;
export type PinTagStatus = (typeof PIN_TAG_STATUSES)[number];

export const TAGGED_OBJECT_TYPES = ["pin", "product"] as const;
type TaggedObjectType = (typeof TAGGED_OBJECT_TYPES)[number];

/** Limits we chose (docs/decisions.md): 10 tags an item, 5 pins a tag. */
export const PIN_TAG_LIMITS = { perItem: 10, objectsPerTag: 5 } as const;

/** "Not placed": spec 001 §3's default for each coordinate. */
export const UNPLACED = -1;

/**
 * What a tag points at: a pin, by its id, with what the builder showed when it was picked (its
 * title and image) so a reopened draft can show it again. Publishing stores only the id; the
 * close-up reads the pin itself, as the viewer may see it.
 */
export interface TaggedObject {
  /** The tagged pin's id. */
  id: string;
  type: TaggedObjectType;
  title: string;
  /** The pin's grid image, a path on this site, or null. */
  media: string | null;
}

export interface PinTag {
  id: string;
  /** Stable across saves: the key the published pin stores the tag under. */
  pinTagKey: string;
  /** Where the tag leads besides its pins' close-ups; null for none. */
  link: string | null;
  status: PinTagStatus;
  taggedObjectIds: string[];
  /** The pins the ids name, for the builder to show (one per id, in the same order). */
  taggedObjects: TaggedObject[];
  /** Fractions of the image's width and height from its top-left corner, 0..1; UNPLACED until placed. */
  x: number;
  y: number;
}

/** The part of an item the tag rules read and write. */
export interface TagItem {
  id: string;
  pinTagIds: string[];
  selectedPinTagId: string | null;
}

/** The part of a draft the tag rules read and write. */
export interface TagDraft<I extends TagItem = TagItem> {
  items: I[];
  pinTags: PinTag[];
}

// --- One tag ----------------------------------------------------------------------------------

/** A coordinate as stored: a fraction 0..1, or UNPLACED. */
export function isCoordinate(value: number): boolean {
  return value === UNPLACED || (Number.isFinite(value) && value >= 0 && value <= 1);
}

const clampUnit = (value: number) => Math.min(1, Math.max(0, value));

/** A new tag: created, with no pins and no link, at x and y when given (each clamped to the image), else not placed. */
export function createTag(id: string, at: { x: number; y: number } | null = null): PinTag {
  return {
    id,
    pinTagKey: id,
    link: null,
    status: "created",
    taggedObjectIds: [],
    taggedObjects: [],
    x: at ? clampUnit(at.x) : UNPLACED,
    y: at ? clampUnit(at.y) : UNPLACED,
  };
}

/**
 * A change to a tag (spec 001 §4): a saved tag that changes becomes edited; created and edited
 * ones keep their status; a deleted tag is gone and takes no change. No change, no new status.
 */
function changed(tag: PinTag, next: PinTag): PinTag {
  if (tag.status === "deleted") return tag;
  const same = next.x === tag.x && next.y === tag.y && next.link === tag.link && next.taggedObjectIds.join(",") === tag.taggedObjectIds.join(",");
  if (same) return tag;
  return { ...next, status: tag.status === "saved" ? "edited" : tag.status };
}

/** The tag at a new place on the image, each coordinate clamped to 0..1. */
export function moveTag(tag: PinTag, x: number, y: number): PinTag {
  if (!Number.isFinite(x) || !Number.isFinite(y)) return tag;
  return changed(tag, { ...tag, x: clampUnit(x), y: clampUnit(y) });
}

/** The tag pointing at these pins instead: each at most once, at most PIN_TAG_LIMITS.objectsPerTag. */
export function setTaggedObjects(tag: PinTag, objects: readonly TaggedObject[]): PinTag {
  const unique: TaggedObject[] = [];
  for (const object of objects) if (!unique.some((each) => each.id === object.id)) unique.push(object);
  const kept = unique.slice(0, PIN_TAG_LIMITS.objectsPerTag);
  return changed(tag, { ...tag, taggedObjectIds: kept.map((object) => object.id), taggedObjects: kept });
}

/** The tag leading to another link (an empty one clears it). */
export function setTagLink(tag: PinTag, link: string | null): PinTag {
  return changed(tag, { ...tag, link: link === "" ? null : link });
}

/** Removing a tag: a created one stays created (nothing was stored for it); any other is marked deleted. */
export function removedTag(tag: PinTag): PinTag {
  return tag.status === "created" ? tag : { ...tag, status: "deleted" };
}

/** After its pin is stored: live tags are saved, deleted ones are gone. */
export function savedTags(tags: readonly PinTag[]): PinTag[] {
  return tags.filter((tag) => tag.status !== "deleted").map((tag) => ({ ...tag, status: "saved" }));
}

// --- Tags on a draft's items ------------------------------------------------------------------

/** An item's live tags, in its order. */
export function tagsOfItem(draft: TagDraft, item: TagItem): PinTag[] {
  const byId = new Map(draft.pinTags.map((tag) => [tag.id, tag]));
  return item.pinTagIds.flatMap((id) => {
    const tag = byId.get(id);
    return tag && tag.status !== "deleted" ? [tag] : [];
  });
}

/** Adds a tag to the item at `index` and selects it. An item already holding PIN_TAG_LIMITS.perItem tags, or a tag id in use, leaves the draft as it is. */
export function addTag<D extends TagDraft>(draft: D, index: number, tag: PinTag): D {
  const item = draft.items[index];
  if (!item || item.pinTagIds.length >= PIN_TAG_LIMITS.perItem || draft.pinTags.some((each) => each.id === tag.id)) return draft;
  const items = draft.items.map((each, at) => (at === index ? { ...each, pinTagIds: [...each.pinTagIds, tag.id], selectedPinTagId: tag.id } : each));
  return { ...draft, items, pinTags: [...draft.pinTags, tag] };
}

/** The draft with one tag changed by `change` (moveTag, setTaggedObjects, setTagLink). */
export function updateTag<D extends TagDraft>(draft: D, tagId: string, change: (tag: PinTag) => PinTag): D {
  if (!draft.pinTags.some((tag) => tag.id === tagId)) return draft;
  return { ...draft, pinTags: draft.pinTags.map((tag) => (tag.id === tagId ? change(tag) : tag)) };
}

/** Selects one of an item's tags, or none. */
export function selectTag<D extends TagDraft>(draft: D, index: number, tagId: string | null): D {
  const item = draft.items[index];
  if (!item || (tagId !== null && !item.pinTagIds.includes(tagId))) return draft;
  const items = draft.items.map((each, at) => (at === index ? { ...each, selectedPinTagId: tagId } : each));
  return { ...draft, items };
}

/**
 * Removes a tag from its item (and the selection when it was selected). By removedTag's rule a
 * created tag is dropped from the list with its status unchanged; any other stays, deleted.
 */
export function removeTag<D extends TagDraft>(draft: D, tagId: string): D {
  const tag = draft.pinTags.find((each) => each.id === tagId);
  if (!tag) return draft;
  const removed = removedTag(tag);
  const items = draft.items.map((item) =>
    item.pinTagIds.includes(tagId)
      ? { ...item, pinTagIds: item.pinTagIds.filter((id) => id !== tagId), selectedPinTagId: item.selectedPinTagId === tagId ? null : item.selectedPinTagId }
      : item,
  );
  const pinTags = removed.status === "deleted" ? draft.pinTags.map((each) => (each.id === tagId ? removed : each)) : draft.pinTags.filter((each) => each.id !== tagId);
  return { ...draft, items, pinTags };
}

/**
 * The tag list made consistent with the items, after a change that replaced items or their
 * media (which clears an item's tags, spec 001 §4): a tag no item names any more is removed by
 * removeTag's rule, an item naming a deleted or unknown tag lets go of it, and a selection
 * names one of the item's own tags or nothing.
 */
export function reconcileTags<D extends TagDraft>(draft: D): D {
  const byId = new Map(draft.pinTags.map((tag) => [tag.id, tag]));
  const named = new Set<string>();
  const items = draft.items.map((item) => {
    const pinTagIds = item.pinTagIds.filter((id) => {
      const status = byId.get(id)?.status;
      const live = status !== undefined && status !== "deleted" && !named.has(id);
      if (live) named.add(id);
      return live;
    });
    const selectedPinTagId = item.selectedPinTagId !== null && pinTagIds.includes(item.selectedPinTagId) ? item.selectedPinTagId : null;
    const same = pinTagIds.length === item.pinTagIds.length && selectedPinTagId === item.selectedPinTagId;
    return same ? item : { ...item, pinTagIds, selectedPinTagId };
  });
  const pinTags = draft.pinTags.flatMap((tag) => {
    if (named.has(tag.id) || tag.status === "deleted") return [tag];
    const removed = removedTag(tag);
    return removed.status === "deleted" ? [removed] : [];
  });
  return { ...draft, items, pinTags };
}

/** The tags a published pin stores, by item: live, placed, and pointing at a pin. */
export function publishableTags(draft: TagDraft): Array<{ itemIndex: number; tag: PinTag }> {
  return draft.items.flatMap((item, itemIndex) =>
    tagsOfItem(draft, item)
      .filter((tag) => tag.x !== UNPLACED && tag.y !== UNPLACED && tag.taggedObjectIds.length > 0)
      .map((tag) => ({ itemIndex, tag })),
  );
}

// --- Keyboard and pointer placement -------------------------------------------------------------

/** How far an arrow key moves a tag: 1% of the image, 10% with Shift. */
const ARROW_STEP = 0.01;
const ARROW_STEP_LARGE = 0.1;

const ARROWS: Record<string, readonly [number, number]> = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

/**
 * Where an arrow key moves a tag, or null for any other key. The image is never mirrored, so
 * ArrowLeft moves left in right-to-left pages too. An unplaced tag starts from the centre.
 */
export function arrowMove(tag: Pick<PinTag, "x" | "y">, key: string, large: boolean): { x: number; y: number } | null {
  const direction = ARROWS[key];
  if (!direction) return null;
  const step = large ? ARROW_STEP_LARGE : ARROW_STEP;
  const from = tag.x === UNPLACED || tag.y === UNPLACED ? { x: 0.5, y: 0.5 } : tag;
  // Rounded to 4 places: repeated steps add no floating-point dust to the stored value.
  const round = (value: number) => Math.round(clampUnit(value) * 10_000) / 10_000;
  return { x: round(from.x + direction[0] * step), y: round(from.y + direction[1] * step) };
}

/** A pointer position inside the image's box as fractions of it (clamped: a tap on the edge lands on the edge). */
export function pointToFraction(clientX: number, clientY: number, box: { left: number; top: number; width: number; height: number }): { x: number; y: number } | null {
  if (!(box.width > 0) || !(box.height > 0)) return null;
  const round = (value: number) => Math.round(clampUnit(value) * 10_000) / 10_000;
  return { x: round((clientX - box.left) / box.width), y: round((clientY - box.top) / box.height) };
}
