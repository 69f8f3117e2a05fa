// The pin draft the builder edits (spec 001 §3 "Pin draft", §4 transitions, §5 and §9 limits):
// its fields and defaults, the transitions as pure functions, and field validation with one
// problem per field. Shared by the server (which stores drafts and checks every write with
// these same rules) and the builder's islands.
import { z } from "zod";
import type { FieldProblem } from "~/domain/errors.ts";
import { PIN_DESCRIPTION_MAX, PIN_LINK_MAX, PIN_TITLE_MAX, isAllowedLink } from "~/pins/pin.ts";
import { storedStorySchema, type StoryDraft } from "~/stories/story-draft.ts";
import { mediaRefSchema, type MediaRef } from "./media-ref.ts";

import { PIN_TAG_LIMITS, PIN_TAG_STATUSES, TAGGED_OBJECT_TYPES, isCoordinate, reconcileTags, type PinTag } from "./pin-tags.ts";

const DRAFT_TYPES = ["single", "carousel", "story"] as const;
type DraftType = (typeof DRAFT_TYPES)[number];
/** Builder statuses of spec 001 §4 that describe a draft (the rest describe publishing). */
const DRAFT_STATUSES = ["created", "edited", "processing", "creating", "saving", "saved"] as const;
type DraftStatus = (typeof DRAFT_STATUSES)[number];
/** Creating a new pin, or editing one already published. */
const DRAFT_MODES = ["create", "edit"] as const;
/** The builder's three views (spec 001 §2): upload, batch edit of several drafts, the single pin editor. */
const DRAFT_VIEWS = ["upload", "batch-edit", "editor"] as const;
const PUBLISH_OPTIONS = ["publish-immediately", "schedule"] as const;
const PUBLISHING_STATUSES = ["notAttempted", "attempted", "publishing", "succeeded"] as const;

/** Limits: a pin's title, description and link (src/pins/pin.ts); the rest our choice (docs/decisions.md). */
export const DRAFT_LIMITS = {
  title: PIN_TITLE_MAX,
  description: PIN_DESCRIPTION_MAX,
  link: PIN_LINK_MAX,
  altText: 500,
  interestTags: 10,
  pinTagsPerItem: PIN_TAG_LIMITS.perItem,
  canvasJson: 8000,
  /** Items a draft may hold, by type: a carousel 5, a story 20 pages. */
  items: { single: 1, carousel: 5, story: 20 } satisfies Record<DraftType, number>,
} as const;

export interface DraftItem {
  /** Stable within the draft, chosen by the builder, so an autosave can tell an item's new media. */
  id: string;
  media: MediaRef | null;
  /** A carousel slot's own title, description and link; null means the draft's own. */
  title: string | null;
  description: string | null;
  link: string | null;
  canvasJson: string | null;
  pinTagIds: string[];
  selectedPinTagId: string | null;
}

export interface PinDraft {
  type: DraftType;
  status: DraftStatus;
  mode: (typeof DRAFT_MODES)[number];
  view: (typeof DRAFT_VIEWS)[number];
  publishOption: (typeof PUBLISH_OPTIONS)[number];
  /** Set by publishing only: the builder cannot claim a pin was published. */
  publishingStatus: (typeof PUBLISHING_STATUSES)[number];
  /** YYYY-MM-DD and HH:MM in the person's time zone; null until chosen. */
  scheduledDate: string | null;
  scheduledTime: string | null;
  /** That time zone, an IANA name as the person's browser reports it; null until scheduling. */
  timeZone: string | null;
  title: string;
  description: string;
  altText: string;
  websiteLink: string;
  interestTags: Array<{ id: string }>;
  isCommentsAllowed: boolean;
  isShoppingRecAllowed: boolean;
  pinItemShareable: boolean;
  /** The chosen board and section (spec "selectedItem"); decimal ids as the API writes them. */
  boardId: string | null;
  sectionId: string | null;
  items: DraftItem[];
  /** Every tag of every item (pin-tags.ts); an item names its own in pinTagIds. */
  pinTags: PinTag[];
  /** The selected item (spec "pinItemIndex"). */
  pinItemIndex: number;
  /** A story draft's pages (src/stories/story-draft.ts), written by StoryPinDraftsResource only; null for other drafts. */
  story: StoryDraft | null;
  lastEditedTime: number | null;
  lastSavedTime: number | null;
}

/** A draft as first made: spec 001 §3 and §9 defaults. */
export function newDraft(): PinDraft {
  return {
    type: "single",
    status: "created",
    mode: "create",
    view: "upload",
    publishOption: "publish-immediately",
    publishingStatus: "notAttempted",
    scheduledDate: null,
    scheduledTime: null,
    timeZone: null,
    title: "",
    description: "",
    altText: "",
    websiteLink: "",
    interestTags: [],
    isCommentsAllowed: true,
    isShoppingRecAllowed: true,
    pinItemShareable: true,
    boardId: null,
    sectionId: null,
    items: [],
    pinTags: [],
    pinItemIndex: 0,
    story: null,
    lastEditedTime: null,
    lastSavedTime: null,
  };
}

export function newItem(id: string, media: MediaRef | null = null): DraftItem {
  return { id, media, title: null, description: null, link: null, canvasJson: null, pinTagIds: [], selectedPinTagId: null };
}

/** The type a count of items gives: a story stays a story; otherwise two or more make a carousel. */
function typeFor(type: DraftType, itemCount: number): DraftType {
  if (type === "story") return "story";
  return itemCount >= 2 ? "carousel" : "single";
}

function maxItems(type: DraftType): number {
  return type === "story" ? DRAFT_LIMITS.items.story : DRAFT_LIMITS.items.carousel;
}

/** Adds an item and selects it; a second item turns a non-story draft into a carousel. A full draft is returned unchanged. */
export function addItem(draft: PinDraft, item: DraftItem, now: number): PinDraft {
  if (draft.items.length >= maxItems(draft.type)) return draft;
  const items = [...draft.items, item];
  return { ...draft, items, type: typeFor(draft.type, items.length), pinItemIndex: items.length - 1, lastEditedTime: now };
}

/**
 * Removes the item at `index`. Down to one item (or none) a non-story draft is single again.
 * The selection stays on the same item when another was removed, and moves to a neighbour
 * (the next one, or the previous when the last was removed) when the selected one was.
 */
export function removeItem(draft: PinDraft, index: number, now: number): PinDraft {
  if (!Number.isInteger(index) || index < 0 || index >= draft.items.length) return draft;
  const items = draft.items.filter((_, at) => at !== index);
  let selected = draft.pinItemIndex;
  if (index < selected) selected -= 1;
  selected = Math.max(0, Math.min(selected, items.length - 1));
  return { ...draft, items, type: typeFor(draft.type, items.length), pinItemIndex: selected, lastEditedTime: now };
}

/** An item with new media: a clean canvas, no tags and no selected tag (spec 001 §4). */
const withMedia = (item: DraftItem, media: MediaRef | null): DraftItem => ({ ...item, media, canvasJson: null, pinTagIds: [], selectedPinTagId: null });

/** New media on an item resets its canvas, its tags and the selected tag (its tags leave the list by removeTag's rule). */
export function setItemMedia(draft: PinDraft, index: number, media: MediaRef | null, now: number): PinDraft {
  if (!draft.items[index]) return draft;
  const items = draft.items.map((each, at) => (at === index ? withMedia(each, media) : each));
  return reconcileTags({ ...draft, items, lastEditedTime: now });
}

/** Statuses an edit leaves alone: the draft is on its way to storage or to a pin (spec 001 §4 "protected set"). */
const PROTECTED_STATUSES: ReadonlySet<DraftStatus> = new Set(["processing", "creating", "saving"]);

/** Editing marks the draft edited, unless it is in flight (a protected status). */
export function markEdited(draft: PinDraft, now: number): PinDraft {
  return { ...draft, status: PROTECTED_STATUSES.has(draft.status) ? draft.status : "edited", lastEditedTime: now };
}

const sameMedia = (a: MediaRef | null, b: MediaRef | null) =>
  a === b || (a !== null && b !== null && a.type === b.type && a.source === b.source && a.ref === b.ref);

/**
 * A whole list of items sent by an autosave, put on the stored draft by the same rules as the
 * transitions: an item whose media changed starts with a clean canvas and no tags, the type
 * follows the item count, and the selected index stays in range.
 */
function withItems(draft: PinDraft, incoming: DraftItem[]): PinDraft {
  const before = new Map(draft.items.map((item) => [item.id, item]));
  const items = incoming.map((item) => {
    const old = before.get(item.id);
    return old && !sameMedia(old.media, item.media) ? withMedia(item, item.media) : item;
  });
  const pinItemIndex = Math.max(0, Math.min(draft.pinItemIndex, items.length - 1));
  return { ...draft, items, type: typeFor(draft.type, items.length), pinItemIndex };
}

/** The link an item leads to: its own, else the draft's. */
function itemLink(draft: PinDraft, item: DraftItem): string {
  return item.link ?? draft.websiteLink;
}

/**
 * Whether an item can carry pin tags (spec 001 §4): it needs media, media that is not a video
 * still on the device, and no link (a tagged pin leads out through its tags).
 */
export function isTaggable(media: MediaRef | null, link: string): boolean {
  if (media === null) return false;
  if (media.type === "video" && media.source === "local") return false;
  return link === "";
}

/** The hosts whose blocked status decides a link: each link's host, lower-cased, for the server to look up. */
export function linkHost(link: string): string | null {
  try {
    const url = new URL(link);
    return url.protocol === "http:" || url.protocol === "https:" ? url.hostname.toLowerCase().replace(/\.+$/, "") : null;
  } catch {
    return null;
  }
}

/** A host and every parent domain of it ("a.b.example" → a.b.example, b.example, example): a block on any one applies. */
export function hostAndParents(host: string): string[] {
  const labels = host.split(".").filter(Boolean);
  return labels.map((_, at) => labels.slice(at).join(".")).slice(0, 10);
}

/** The one problem with a link, or null: at most 2,048 characters, http or https, not a blocked host (spec 000 §5, 001 §5). */
export function linkProblem(link: string, blockedHosts: ReadonlySet<string>): string | null {
  if (link === "") return null;
  if (link.length > DRAFT_LIMITS.link) return "builder:validation.linkTooLong";
  if (!isAllowedLink(link, new Set())) return "builder:validation.linkScheme";
  if (!isAllowedLink(link, blockedHosts)) return "builder:validation.linkBlocked";
  return null;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

function isCalendarDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** An IANA time zone name this runtime knows (the one the browser reported). */
function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/**
 * Every problem with a draft, at most one per field, in the builder's error slots (field names
 * as the draft's own). `blockedHosts` holds lower-case blocked domains.
 */
export function validateDraft(draft: PinDraft, blockedHosts: ReadonlySet<string>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const tooLong = (field: string, value: string, maximum: number, reason: string) => {
    if (value.length > maximum) problems.push({ field, reason, values: { maximum } });
  };
  const link = (field: string, value: string) => {
    const reason = linkProblem(value, blockedHosts);
    if (reason) problems.push(reason === "builder:validation.linkTooLong" ? { field, reason, values: { maximum: DRAFT_LIMITS.link } } : { field, reason });
  };
  tooLong("title", draft.title, DRAFT_LIMITS.title, "builder:validation.titleTooLong");
  tooLong("description", draft.description, DRAFT_LIMITS.description, "builder:validation.descriptionTooLong");
  tooLong("altText", draft.altText, DRAFT_LIMITS.altText, "builder:validation.altTextTooLong");
  link("websiteLink", draft.websiteLink);
  if (draft.scheduledDate !== null && !isCalendarDate(draft.scheduledDate)) problems.push({ field: "scheduledDate", reason: "builder:validation.scheduledDate" });
  if (draft.scheduledTime !== null && !TIME.test(draft.scheduledTime)) problems.push({ field: "scheduledTime", reason: "builder:validation.scheduledTime" });
  if (draft.timeZone !== null && !isTimeZone(draft.timeZone)) problems.push({ field: "timeZone", reason: "builder:validation.timeZone" });
  if (draft.interestTags.length > DRAFT_LIMITS.interestTags) problems.push({ field: "interestTags", reason: "builder:validation.tooManyTags", values: { maximum: DRAFT_LIMITS.interestTags } });
  if (draft.sectionId !== null && draft.boardId === null) problems.push({ field: "sectionId", reason: "builder:validation.sectionWithoutBoard" });
  const itemLimit = maxItems(draft.type);
  const ids = new Set(draft.items.map((item) => item.id));
  const liveTags = new Set(draft.pinTags.filter((tag) => tag.status !== "deleted").map((tag) => tag.id));
  if (draft.items.length > itemLimit) problems.push({ field: "items", reason: "builder:validation.tooManyItems", values: { maximum: itemLimit } });
  else if (ids.size !== draft.items.length) problems.push({ field: "items", reason: "builder:validation.duplicateItem" });
  draft.items.slice(0, itemLimit).forEach((item, at) => {
    const field = (name: string) => `items.${at}.${name}`;
    if (item.title !== null) tooLong(field("title"), item.title, DRAFT_LIMITS.title, "builder:validation.titleTooLong");
    if (item.description !== null) tooLong(field("description"), item.description, DRAFT_LIMITS.description, "builder:validation.descriptionTooLong");
    if (item.link !== null) link(field("link"), item.link);
    if (item.pinTagIds.length > 0 && !isTaggable(item.media, itemLink(draft, item))) problems.push({ field: field("pinTagIds"), reason: "builder:validation.notTaggable" });
    else if (item.pinTagIds.length > DRAFT_LIMITS.pinTagsPerItem) problems.push({ field: field("pinTagIds"), reason: "builder:validation.tooManyTags", values: { maximum: DRAFT_LIMITS.pinTagsPerItem } });
    else if (item.pinTagIds.some((id) => !liveTags.has(id))) problems.push({ field: field("pinTagIds"), reason: "builder:validation.unknownTag" });
  });
  tagProblems(draft.pinTags, problems, link);
  return problems;
}

/** Each tag's own problems (spec 001 §3 "Pin tag"): its place on the image, its link, its pins named once each. */
function tagProblems(tags: readonly PinTag[], problems: FieldProblem[], link: (field: string, value: string) => void): void {
  if (new Set(tags.map((tag) => tag.id)).size !== tags.length) problems.push({ field: "pinTags", reason: "builder:validation.duplicateTag" });
  tags.forEach((tag, at) => {
    if (tag.status === "deleted") return;
    const field = (name: string) => `pinTags.${at}.${name}`;
    if (!isCoordinate(tag.x)) problems.push({ field: field("x"), reason: "builder:validation.tagPosition" });
    if (!isCoordinate(tag.y)) problems.push({ field: field("y"), reason: "builder:validation.tagPosition" });
    if (tag.link !== null) link(field("link"), tag.link);
    if (new Set(tag.taggedObjectIds).size !== tag.taggedObjectIds.length) problems.push({ field: field("taggedObjectIds"), reason: "builder:validation.duplicateTaggedPin" });
  });
}

// --- The shapes the API accepts and stores -------------------------------------------------

/** Hard caps at the door: generous enough that the field rules above give the message, small enough to bound a body. */
const text = (maximum: number) => z.string().max(maximum * 4);
const decimalId = z.string().regex(/^\d{1,18}$/, "ids are 1 to 18 digits");
const tagId = z.string().min(1).max(64);

const draftItemSchema = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "1 to 64 letters, digits, - or _"),
  media: mediaRefSchema.nullable().default(null),
  title: text(DRAFT_LIMITS.title).nullable().default(null),
  description: text(DRAFT_LIMITS.description).nullable().default(null),
  link: text(DRAFT_LIMITS.link).nullable().default(null),
  canvasJson: z.string().max(DRAFT_LIMITS.canvasJson).nullable().default(null),
  pinTagIds: z.array(tagId).max(DRAFT_LIMITS.pinTagsPerItem * 2).default([]),
  selectedPinTagId: tagId.nullable().default(null),
});

/** A coordinate at the door: any finite number, so one out of range gets its field's message from validateDraft. */
const coordinate = z.number().finite().min(-1_000).max(1_000);

const taggedObjectSchema = z.strictObject({
  id: decimalId,
  type: z.enum(TAGGED_OBJECT_TYPES),
  title: text(DRAFT_LIMITS.title).default(""),
  /** A path on this site (the pin's grid image): the builder shows it to the draft's owner only. */
  media: z.string().max(500).regex(/^\/(?![/\\])/, "a path on this site").nullable().default(null),
});

const pinTagSchema = z.strictObject({
  id: tagId,
  pinTagKey: tagId,
  link: text(DRAFT_LIMITS.link).nullable().default(null),
  status: z.enum(PIN_TAG_STATUSES).default("created"),
  taggedObjectIds: z.array(decimalId).max(PIN_TAG_LIMITS.objectsPerTag).default([]),
  taggedObjects: z.array(taggedObjectSchema).max(PIN_TAG_LIMITS.objectsPerTag).default([]),
  x: coordinate.default(-1),
  y: coordinate.default(-1),
});
/** Live tags on every item of the largest draft, and as many deleted ones waiting to be removed from a published pin. */
const MAX_PIN_TAGS = DRAFT_LIMITS.items.story * DRAFT_LIMITS.pinTagsPerItem * 2;

/** What a create or update may set; everything else is the server's (publishingStatus, the times). */
export const draftChangesSchema = z.strictObject({
  type: z.enum(DRAFT_TYPES).optional(),
  status: z.enum(DRAFT_STATUSES).optional(),
  mode: z.enum(DRAFT_MODES).optional(),
  view: z.enum(DRAFT_VIEWS).optional(),
  publishOption: z.enum(PUBLISH_OPTIONS).optional(),
  scheduledDate: z.string().max(10).nullable().optional(),
  scheduledTime: z.string().max(5).nullable().optional(),
  timeZone: z.string().max(64).nullable().optional(),
  title: text(DRAFT_LIMITS.title).optional(),
  description: text(DRAFT_LIMITS.description).optional(),
  altText: text(DRAFT_LIMITS.altText).optional(),
  websiteLink: text(DRAFT_LIMITS.link).optional(),
  interestTags: z.array(z.strictObject({ id: tagId })).max(DRAFT_LIMITS.interestTags * 2).optional(),
  isCommentsAllowed: z.boolean().optional(),
  isShoppingRecAllowed: z.boolean().optional(),
  pinItemShareable: z.boolean().optional(),
  boardId: decimalId.nullable().optional(),
  sectionId: decimalId.nullable().optional(),
  items: z.array(draftItemSchema).max(DRAFT_LIMITS.items.story * 2).optional(),
  pinTags: z.array(pinTagSchema).max(MAX_PIN_TAGS).optional(),
  pinItemIndex: z.number().int().min(0).max(DRAFT_LIMITS.items.story * 2).optional(),
});
export type DraftChanges = z.output<typeof draftChangesSchema>;

/** The changes put on a draft: items by withItems' rules, the type from a story choice or the item count. */
export function applyChanges(draft: PinDraft, changes: DraftChanges): PinDraft {
  const { items, ...fields } = changes;
  const defined = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<PinDraft>;
  let next: PinDraft = { ...draft, ...defined };
  // Only a story is chosen; single and carousel follow from the items.
  if (changes.type !== undefined && changes.type !== "story" && draft.type === "story") next.type = "single";
  next = withItems(next, items ?? next.items);
  // Pages belong to a story: a draft that stops being one drops them.
  if (next.type !== "story") next.story = null;
  return reconcileTags(next);
}

/**
 * A stored draft read back: each field that no longer fits the shape falls back to its
 * default, so a draft written under older rules opens with everything that still holds.
 */
const defaults = newDraft();
export const storedDraftSchema = z.object({
  type: z.enum(DRAFT_TYPES).catch(defaults.type),
  status: z.enum(DRAFT_STATUSES).catch(defaults.status),
  mode: z.enum(DRAFT_MODES).catch(defaults.mode),
  view: z.enum(DRAFT_VIEWS).catch(defaults.view),
  publishOption: z.enum(PUBLISH_OPTIONS).catch(defaults.publishOption),
  publishingStatus: z.enum(PUBLISHING_STATUSES).catch(defaults.publishingStatus),
  scheduledDate: z.string().nullable().catch(null),
  scheduledTime: z.string().nullable().catch(null),
  timeZone: z.string().nullable().catch(null),
  title: z.string().catch(""),
  description: z.string().catch(""),
  altText: z.string().catch(""),
  websiteLink: z.string().catch(""),
  interestTags: z.array(z.object({ id: z.string() })).catch([]),
  isCommentsAllowed: z.boolean().catch(true),
  isShoppingRecAllowed: z.boolean().catch(true),
  pinItemShareable: z.boolean().catch(true),
  boardId: decimalId.nullable().catch(null),
  sectionId: decimalId.nullable().catch(null),
  items: z.array(draftItemSchema).catch([]),
  pinTags: z.array(pinTagSchema).catch([]),
  pinItemIndex: z.number().int().min(0).catch(0),
  story: storedStorySchema,
  lastEditedTime: z.number().nullable().catch(null),
  lastSavedTime: z.number().nullable().catch(null),
});

/** A stored draft's JSON text as a draft (defaults where it fails the shape). */
export function readStoredDraft(json: string): PinDraft {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    value = {};
  }
  return storedDraftSchema.parse(value !== null && typeof value === "object" ? value : {});
}
