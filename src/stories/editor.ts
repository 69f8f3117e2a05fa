// The story editor's pure transitions on a StoryDraft (story-draft.ts): pages added, removed,
// reordered and changed; blocks added, removed, changed and selected; the keyboard's block edits
// and a pointer drag's move. The island records each result in its history (history.ts) and
// autosaves it; nothing here touches the DOM or the network.
import { fill } from "~/saves/strings.ts";
import type { DraftChanges, PinDraft } from "~/builder/drafts.ts";
import type { MediaRef } from "~/builder/media-ref.ts";
import { draftDiff } from "~/builder/autosave.ts";
import { moveBlock, newBlock, newPage, newStory, rotateBlock, scaleBlock, withAutoText, type BlockEdits, type StoryBlock, type StoryBlockType, type StoryDraft, type StoryPage } from "./story-draft.ts";

/** Pages and blocks a story may hold (the server's limits, docs/decisions.md "Story limits"). */
export const MAX_PAGES = 20;
export const MAX_BLOCKS_PER_PAGE = 10;

/** The block types the editor offers, in the order of its menu. */
export const EDITOR_BLOCK_TYPES = ["heading", "paragraph", "image", "video", "link", "product_sticker", "mention_sticker", "ingredient", "supply"] as const satisfies readonly StoryBlockType[];
export type EditorBlockType = (typeof EDITOR_BLOCK_TYPES)[number];

/** A heading starts larger than the default text (the default text style is a paragraph's). */
const HEADING_SIZE = 40;

/** Where new blocks start, top to bottom: the first at the centre. */
const STACK_TOPS = [0.5, 0.6, 0.7, 0.8, 0.4, 0.3, 0.2] as const;

/** A fresh id for a page or block: letters, digits and dashes, as the story schema takes. */
export const newStoryId = (prefix: "page" | "block"): string => `${prefix}-${crypto.randomUUID()}`;

const currentPage = (story: StoryDraft): StoryPage | undefined => story.pages[story.selectedPageIndex];

/** Adds a blank page after the one shown and shows it; a full story is unchanged. */
export function addPage(story: StoryDraft, id: string): StoryDraft {
  if (story.pages.length >= MAX_PAGES) return story;
  const at = story.selectedPageIndex + 1;
  const pages = [...story.pages.slice(0, at), newPage(id), ...story.pages.slice(at)];
  const coverPageIndex = story.coverPageIndex >= at ? story.coverPageIndex + 1 : story.coverPageIndex;
  return { ...story, pages, selectedPageIndex: at, coverPageIndex };
}

/** Index `index` after the page at `from` moved to `to`. */
function followMove(index: number, from: number, to: number): number {
  if (index === from) return to;
  if (from < index && index <= to) return index - 1;
  if (to <= index && index < from) return index + 1;
  return index;
}

/** Removes a page; the last page stays. The shown page and the cover stay on the pages they were (the cover falls to the first page when it is the one removed). */
export function removePage(story: StoryDraft, index: number): StoryDraft {
  if (story.pages.length <= 1 || index < 0 || index >= story.pages.length) return story;
  const pages = story.pages.filter((_, at) => at !== index);
  const shift = (value: number) => (value > index ? value - 1 : value);
  const selectedPageIndex = Math.min(shift(story.selectedPageIndex), pages.length - 1);
  const coverPageIndex = story.coverPageIndex === index ? 0 : shift(story.coverPageIndex);
  return { ...story, pages, selectedPageIndex, coverPageIndex };
}

/** Moves the page at `from` to `to`; the shown page and the cover follow their pages. Out of range: unchanged. */
export function movePage(story: StoryDraft, from: number, to: number): StoryDraft {
  const count = story.pages.length;
  if (![from, to].every((value) => Number.isInteger(value) && value >= 0 && value < count) || from === to) return story;
  const pages = [...story.pages];
  const [moved] = pages.splice(from, 1);
  pages.splice(to, 0, moved!);
  return { ...story, pages, selectedPageIndex: followMove(story.selectedPageIndex, from, to), coverPageIndex: followMove(story.coverPageIndex, from, to) };
}

/** Changes the page at `index`. */
export function changePage(story: StoryDraft, index: number, change: Partial<Omit<StoryPage, "id" | "blocks">>): StoryDraft {
  if (!story.pages[index]) return story;
  return { ...story, pages: story.pages.map((page, at) => (at === index ? { ...page, ...change } : page)) };
}

export const showPage = (story: StoryDraft, index: number): StoryDraft => (story.pages[index] ? { ...story, selectedPageIndex: index } : story);

/** Adds a block of a type to the page shown, selected; a full page is unchanged. */
export function addBlock(story: StoryDraft, id: string, type: EditorBlockType): StoryDraft {
  const page = currentPage(story);
  if (!page || page.blocks.length >= MAX_BLOCKS_PER_PAGE) return story;
  // Each new block starts a little lower than the last, so blocks added in a row do not hide each other.
  const start = newBlock(id, type);
  const base = { ...start, edits: { ...start.edits, top: STACK_TOPS[page.blocks.length % STACK_TOPS.length]! } };
  const block: StoryBlock =
    type === "heading" ? { ...base, style: { ...base.style, size: HEADING_SIZE } } : type === "link" ? { ...base, linkBlock: { text: "", srcUrl: "", canonicalUrl: null, imageSignature: null, imageUrl: null, isFetching: false } } : base;
  return changePage(story, story.selectedPageIndex, { blocks: [...page.blocks, block], selectedBlockId: id } as Partial<StoryPage>);
}

/** Changes one block by id. */
export function changeBlock(story: StoryDraft, id: string, change: (block: StoryBlock) => StoryBlock): StoryDraft {
  return { ...story, pages: story.pages.map((page) => (page.blocks.some((block) => block.id === id) ? { ...page, blocks: page.blocks.map((block) => (block.id === id ? change(block) : block)) } : page)) };
}

/** Removes a block; its page's selection is cleared when it was the one selected. */
export function removeBlock(story: StoryDraft, id: string): StoryDraft {
  return {
    ...story,
    pages: story.pages.map((page) => (page.blocks.some((block) => block.id === id) ? { ...page, blocks: page.blocks.filter((block) => block.id !== id), selectedBlockId: page.selectedBlockId === id ? null : page.selectedBlockId } : page)),
  };
}

/** Selects a block on the page shown (null: none). An id not on that page is unchanged. */
export function selectBlock(story: StoryDraft, id: string | null): StoryDraft {
  const page = currentPage(story);
  if (!page || (id !== null && !page.blocks.some((block) => block.id === id)) || page.selectedBlockId === id) return story;
  return changePage(story, story.selectedPageIndex, { selectedBlockId: id } as Partial<StoryPage>);
}

/** A nudge moves a block by this fraction of its page; with Shift, by the larger one. */
const NUDGE = 0.01;
const BIG_NUDGE = 0.1;
/** + and - scale by this factor (Shift: the larger one). */
const SCALE_STEP = 1.1;
const BIG_SCALE_STEP = 1.5;
/** [ and ] turn by this many degrees (Shift: the larger one). */
const ROTATE_STEP = 5;
const BIG_ROTATE_STEP = 45;

/**
 * The edit a key makes to the selected block, or null for a key the canvas does not take:
 * arrows nudge, + and - scale, [ and ] rotate (] clockwise). Arrows are physical: left is left
 * on the page in every language, as the picture is.
 */
export function keyEdit(key: string, shift: boolean): ((edits: BlockEdits) => BlockEdits) | null {
  const step = shift ? BIG_NUDGE : NUDGE;
  const scale = shift ? BIG_SCALE_STEP : SCALE_STEP;
  const turn = shift ? BIG_ROTATE_STEP : ROTATE_STEP;
  switch (key) {
    case "ArrowLeft":
      return (edits) => moveBlock(edits, -step, 0);
    case "ArrowRight":
      return (edits) => moveBlock(edits, step, 0);
    case "ArrowUp":
      return (edits) => moveBlock(edits, 0, -step);
    case "ArrowDown":
      return (edits) => moveBlock(edits, 0, step);
    case "+":
    case "=":
      return (edits) => scaleBlock(edits, scale);
    case "-":
    case "_":
      return (edits) => scaleBlock(edits, 1 / scale);
    case "[":
    case "{":
      return (edits) => rotateBlock(edits, -turn);
    case "]":
    case "}":
      return (edits) => rotateBlock(edits, turn);
    default:
      return null;
  }
}

/** A pointer drag of (dx, dy) pixels on a canvas of width × height pixels, as a block move. */
export function dragEdits(start: BlockEdits, dx: number, dy: number, width: number, height: number): BlockEdits {
  if (!(width > 0 && height > 0)) return start;
  return moveBlock(start, dx / width, dy / height);
}

/** A point in the page's pixels (the browser's client coordinates). */
interface Point {
  x: number;
  y: number;
}

/**
 * A drag of the corner handle as a scale: the block grows by how much further from its centre
 * the pointer is than where the drag started (dragging the corner outward to twice the distance
 * doubles it). Kept within the scale limits; a start on the centre itself changes nothing.
 */
export function scaleDragEdits(start: BlockEdits, centre: Point, from: Point, to: Point): BlockEdits {
  const before = Math.hypot(from.x - centre.x, from.y - centre.y);
  const after = Math.hypot(to.x - centre.x, to.y - centre.y);
  if (!(before >= 1) || !Number.isFinite(after)) return start;
  return scaleBlock(start, after / before);
}

/**
 * A drag of the rotate handle as a turn: the block turns by the angle the pointer swept around
 * its centre (clockwise on the screen is positive, as CSS rotates). The angle wraps into
 * (-180, 180]; a pointer on the centre itself changes nothing.
 */
export function rotateDragEdits(start: BlockEdits, centre: Point, from: Point, to: Point): BlockEdits {
  const near = (point: Point) => Math.hypot(point.x - centre.x, point.y - centre.y) < 1;
  if (near(from) || near(to)) return start;
  const swept = Math.atan2(to.y - centre.y, to.x - centre.x) - Math.atan2(from.y - centre.y, from.x - centre.x);
  return rotateBlock(start, Math.round(((swept * 180) / Math.PI) * 10) / 10);
}

/**
 * The edit a key makes on one of the selected block's handles, so each handle works from the
 * keyboard as it does under the pointer: on the resize handle the arrows away from the centre
 * (right, up) grow the block and the others shrink it; on the rotate handle right and up turn it
 * clockwise, left and down back. Shift takes the larger step, as on the block itself.
 */
export function handleKeyEdit(handle: "scale" | "rotate", key: string, shift: boolean): ((edits: BlockEdits) => BlockEdits) | null {
  const forward = key === "ArrowRight" || key === "ArrowUp";
  const backward = key === "ArrowLeft" || key === "ArrowDown";
  if (!forward && !backward) return keyEdit(key, shift);
  if (handle === "scale") {
    const step = shift ? BIG_SCALE_STEP : SCALE_STEP;
    return (edits) => scaleBlock(edits, forward ? step : 1 / step);
  }
  const turn = shift ? BIG_ROTATE_STEP : ROTATE_STEP;
  return (edits) => rotateBlock(edits, forward ? turn : -turn);
}

/** The keys of an undo or redo: Ctrl or Cmd with Z undoes, with Shift+Z (or Ctrl+Y) redoes. */
export function historyShortcut(key: { key: string; ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }): "undo" | "redo" | null {
  if (key.altKey || !(key.ctrlKey || key.metaKey)) return null;
  const letter = key.key.toLowerCase();
  if (letter === "z") return key.shiftKey ? "redo" : "undo";
  if (letter === "y" && key.ctrlKey && !key.shiftKey) return "redo";
  return null;
}

/** Input types a person types text into: there the browser's own undo applies, not the story's. */
const TEXT_INPUT_TYPES: ReadonlySet<string> = new Set(["text", "search", "url", "email", "tel", "password", "number", "date", "time", "datetime-local", "month", "week"]);

/** Whether an element takes typed text (a text field, a text area, editable content). */
export function isTextEntry(element: { tagName?: string; type?: string; isContentEditable?: boolean } | null): boolean {
  if (!element) return false;
  if (element.isContentEditable) return true;
  const tag = (element.tagName ?? "").toUpperCase();
  if (tag === "TEXTAREA") return true;
  return tag === "INPUT" && TEXT_INPUT_TYPES.has((element.type ?? "text").toLowerCase());
}

/** What a block is called to assistive technology: its type's name and its text (or its number on the page). */
export function blockName(block: Pick<StoryBlock, "type" | "text">, position: number, typeNames: Readonly<Record<string, string>>, template: string): string {
  const type = typeNames[block.type] ?? block.type;
  const text = block.text.trim();
  return fill(template, { type, label: text === "" ? String(position) : text.slice(0, 60) });
}

// --- What the editor edits and what an autosave sends ------------------------------------------

/** The draft fields the story editor edits: one value, so undo and redo step through all of them. */
export type StoryDoc = Pick<PinDraft, "title" | "description" | "boardId" | "sectionId" | "publishOption" | "scheduledDate" | "scheduledTime"> & { story: StoryDraft };

export const docOf = (draft: PinDraft): StoryDoc => ({
  title: draft.title,
  description: draft.description,
  boardId: draft.boardId,
  sectionId: draft.sectionId,
  publishOption: draft.publishOption,
  scheduledDate: draft.scheduledDate,
  scheduledTime: draft.scheduledTime,
  story: draft.story ?? newStory(),
});

/**
 * The doc after a story change: the title and description follow the blocks until the person
 * writes their own (withAutoText, the rule the server applies on every save).
 */
export function withStory(doc: StoryDoc, story: StoryDraft): StoryDoc {
  const texts = withAutoText({ title: doc.title, description: doc.description, story }, { title: false, description: false });
  return { ...doc, ...texts };
}

/** The doc after the person wrote the title or the description themselves. */
export function withText(doc: StoryDoc, field: "title" | "description", value: string): StoryDoc {
  const texts = withAutoText({ title: field === "title" ? value : doc.title, description: field === "description" ? value : doc.description, story: doc.story }, { title: field === "title", description: field === "description" });
  return { ...doc, ...texts };
}

/** The changes an autosave sends: the fields that differ from the stored draft, the story whole when any of it changed. */
export function storyChanges(saved: PinDraft, doc: StoryDoc, timeZone: string): DraftChanges & { story?: StoryDraft } {
  const changes: DraftChanges & { story?: StoryDraft } = draftDiff(saved, { ...saved, ...doc }, timeZone);
  if (JSON.stringify(saved.story ?? null) !== JSON.stringify(doc.story)) changes.story = doc.story;
  return changes;
}

/** A product pin named by its address (…/pin/123/) or its number; null for anything else. */
export function pinIdFrom(value: string): string | null {
  const text = value.trim();
  const match = /^(\d{1,18})$/.exec(text) ?? /\/pin\/(\d{1,18})\/?(?:[?#].*)?$/.exec(text);
  return match ? match[1]! : null;
}

/** What the builder's web page read (FindPinImagesResource) says of a page, as a link block uses it. */
export interface FetchedPage {
  title: string;
  link: string;
  items: ReadonlyArray<{ src: string }>;
}

/** Link text longer than this is cut (the link block's text limit, docs/decisions.md "Story limits"). */
const LINK_TEXT_MAX = 100;

/**
 * A link block after its page was read: its canonical address and first image, and the page's
 * title as its text unless the person wrote their own; no longer fetching.
 */
export function withFetchedPage(block: StoryBlock, page: FetchedPage): StoryBlock {
  const link = block.linkBlock ?? { text: "", srcUrl: "", canonicalUrl: null, imageSignature: null, imageUrl: null, isFetching: false };
  const text = block.text.trim() !== "" ? block.text : page.title.trim().slice(0, LINK_TEXT_MAX);
  return { ...block, text, linkBlock: { ...link, text, canonicalUrl: page.link || null, imageUrl: page.items[0]?.src ?? null, isFetching: false } };
}

// --- Publishing progress ----------------------------------------------------------------------

/** One media item a story publishes: where it is (a page's full-page media, or a block's) and its upload. */
export interface PublishMedia {
  ref: string;
  kind: "image" | "video";
  /** The page it is on, from 0. */
  page: number;
  /** The block showing it, null for the page's full-page media. */
  blockType: StoryBlockType | null;
}

/** Where each media item is in publishing (spec 001 "publishProgress"): not looked at yet, being checked, processed, or not. */
export type MediaProgress = "waiting" | "processing" | "ready" | "failed";

/** The uploaded media a story publishes, pages in order, each page's own before its blocks'; each upload once. */
export function publishMedia(story: StoryDraft): PublishMedia[] {
  const seen = new Set<string>();
  return story.pages.flatMap((page, at) =>
    [{ media: page.media, blockType: null }, ...page.blocks.map((block) => ({ media: block.media, blockType: block.type }))].flatMap(({ media, blockType }) => {
      if (media === null || media.source !== "uploaded" || seen.has(media.ref)) return [];
      seen.add(media.ref);
      return [{ ref: media.ref, kind: media.type, page: at, blockType }];
    }),
  );
}

/** Whether an upload is processed enough to publish: its cuts are made, and a video has its file and poster. */
export function uploadProcessed(upload: { kind: "image" | "video"; images: Partial<Record<string, unknown>> | null; video_url: string | null }, kind: "image" | "video"): boolean {
  if (upload.kind !== kind || !upload.images?.["orig"]) return false;
  return kind === "image" || upload.video_url !== null;
}

// --- Video blocks -------------------------------------------------------------------------------

/** A video the person already uploaded in the builder, as a video block can show it. */
export interface BuilderVideo {
  media: MediaRef;
  /** Its item's title, else its draft's; empty when neither has one. */
  title: string;
}

/** The uploaded videos of the person's builder drafts, each once, newest draft first as listed. A video still on the device is not offered. */
export function builderVideos(drafts: ReadonlyArray<Pick<PinDraft, "title" | "items">>): BuilderVideo[] {
  const seen = new Set<string>();
  return drafts.flatMap((draft) =>
    draft.items.flatMap((item) => {
      const media = item.media;
      if (media === null || media.type !== "video" || media.source !== "uploaded" || seen.has(media.ref)) return [];
      seen.add(media.ref);
      return [{ media, title: (item.title ?? "").trim() || draft.title.trim() }];
    }),
  );
}
