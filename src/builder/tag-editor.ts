// The tag editor's pure logic (src/builder/TagEditor.tsx): the tag operations of pin-tags.ts
// applied to one item and the draft's tag list, the labels a person and a screen reader read,
// and the search answer turned into things to tag. No DOM, no network: unit-tested as is.
import type { TFunction } from "i18next";
import { perLocale } from "~/i18n/memo.ts";
import { fill } from "~/saves/strings.ts";
import type { DraftItem } from "./drafts.ts";
import { PIN_TAG_LIMITS, UNPLACED, type PinTag, type TagDraft, type TaggedObject } from "./pin-tags.ts";

/** What the editor hands back: the item with its tag ids and selection, and the draft's whole tag list. */
export interface ItemTagsChange {
  item: DraftItem;
  pinTags: PinTag[];
}

/**
 * One of pin-tags.ts's draft operations (addTag, updateTag, removeTag, selectTag) on this item
 * alone; the draft's other tags pass through untouched.
 */
export function onItem(item: DraftItem, pinTags: readonly PinTag[], operation: (draft: TagDraft<DraftItem>) => TagDraft<DraftItem>): ItemTagsChange {
  const next = operation({ items: [item], pinTags: [...pinTags] });
  return { item: next.items[0] ?? item, pinTags: next.pinTags };
}

/** A fresh tag id: unique across drafts and saves, within the draft schema's 64 characters. */
export function newTagId(): string {
  return `tag-${crypto.randomUUID()}`;
}

const TAG_KEYS = [
  "heading", "hint", "notTaggable", "imageLabel", "add", "full", "tagLabel", "emptyTag", "listLabel", "position", "notPlaced", "moveHint", "remove",
  "searchLabel", "scopeLabel", "scopePins", "scopeProducts", "search", "searching", "noResults", "searchFailed", "resultsLabel", "pick", "tagged",
  "untagObject", "untitled", "product", "linkLabel", "fullObjects",
] as const;
export type TagEditorStrings = Record<(typeof TAG_KEYS)[number], string>;

/** The editor's words from the `builder` namespace's `tags` table; {{name}} placeholders are filled in the browser. */
export const tagEditorStrings = perLocale(
  (t: TFunction): TagEditorStrings => Object.fromEntries(TAG_KEYS.map((key) => [key, String(t(`builder:tags.${key}`, { skipInterpolation: true }))])) as TagEditorStrings,
);

/** A tag's name as its dot, its list entry and screen readers say it: "Tag 2: Brass lamp", or that nothing is tagged yet. */
export function tagLabel(strings: TagEditorStrings, tag: PinTag, index: number): string {
  const names = tag.taggedObjects.map((object) => object.title || strings.untitled);
  if (names.length === 0) return fill(strings.emptyTag, { number: index + 1 });
  return fill(strings.tagLabel, { number: index + 1, name: names.join(", ") });
}

/** Where a tag is, in whole percent from the image's left and top, or that it is not placed yet. */
export function positionText(strings: TagEditorStrings, tag: PinTag): string {
  if (tag.x === UNPLACED || tag.y === UNPLACED) return strings.notPlaced;
  return fill(strings.position, { x: Math.round(tag.x * 100), y: Math.round(tag.y * 100) });
}

/** Whether the item can take another tag, and a tag another pin. */
export const canAddTag = (item: DraftItem) => item.pinTagIds.length < PIN_TAG_LIMITS.perItem;
export const canAddObject = (tag: PinTag) => tag.taggedObjectIds.length < PIN_TAG_LIMITS.objectsPerTag;

/** The search scopes a person picks from: pins, or products only. */
export const SEARCH_SCOPES = { pins: "pins", products: "buyable_pins" } as const;
export type TagSearchScope = keyof typeof SEARCH_SCOPES;
export const SEARCH_PAGE_SIZE = 8;

const SITE_PATH = /^\/(?![/\\])/;

/**
 * BaseSearchResource's results as things to tag: pins only (boards and people are not
 * taggable), at most a page of them, each with what the builder shows (a product is a pin of
 * kind product). An image that is not a path on this site is not kept.
 */
export function taggableResults(data: unknown): TaggedObject[] {
  const results = typeof data === "object" && data !== null ? (data as { results?: unknown }).results : undefined;
  if (!Array.isArray(results)) return [];
  return results
    .flatMap((result): TaggedObject[] => {
      if (typeof result !== "object" || result === null) return [];
      const value = result as { type?: unknown; id?: unknown; kind?: unknown; title?: unknown; image?: { url?: unknown } | null };
      if (value.type !== "pin" || typeof value.id !== "string" || !/^\d{1,18}$/.test(value.id)) return [];
      const url = value.image && typeof value.image.url === "string" ? value.image.url : null;
      return [{ id: value.id, type: value.kind === "product" ? "product" : "pin", title: typeof value.title === "string" ? value.title : "", media: url !== null && SITE_PATH.test(url) ? url : null }];
    })
    .slice(0, SEARCH_PAGE_SIZE);
}
