// What publishing a story draft makes: a pin of kind story whose story_pin_data is what the
// close-up reads (storyPinDataSchema in src/pins/pin.ts): every page with its image at the
// upload's sizes, its blocks, the metadata, the totals. Its grid image is the cover page's.
// Pure: the server reads the uploads and the sticker targets the author can see, asks this for
// the pin, and writes it in the same guarded batch as any other pin (publish.server.ts).
import type { FieldProblem } from "~/domain/errors.ts";
import type { PinDraft } from "~/builder/drafts.ts";
import type { MediaRef } from "~/builder/media-ref.ts";
import { FALLBACK_COLOUR, interestIdsOf, sizesOf, type PinPlan, type PublishableUpload } from "~/builder/publish.ts";
import { isAllowedRatio } from "~/media/aspect-ratio.ts";
import { fontFamily } from "./fonts.ts";
import { markRemovedStickers, newStory, type StoryBlock, type StoryDraft } from "./story-draft.ts";

/** Every upload a story names (page media and block media), once each, pages in order. */
export function storyUploadIds(story: StoryDraft | null): string[] {
  if (story === null) return [];
  const refs = story.pages.flatMap((page) => [page.media, ...page.blocks.map((block) => block.media)]).flatMap((media) => (media?.source === "uploaded" ? [media.ref] : []));
  return [...new Set(refs)];
}

/** The upload a media ref names, when it is the author's, free (or reserved for this pin), of its kind and with an image to show. */
function readyUpload(media: MediaRef | null, uploads: ReadonlyMap<string, PublishableUpload>, reserved: number | null): PublishableUpload | null {
  if (media === null || media.source !== "uploaded") return null;
  const upload = uploads.get(media.ref);
  if (!upload || (upload.pin_id !== null && upload.pin_id !== reserved) || upload.kind !== media.type || upload.images?.orig === undefined) return null;
  return upload;
}

/** The size a page or block shows an upload at: the close-up's 736x, else the original. */
const shownImage = (upload: PublishableUpload) => {
  const image = (upload.images?.["736x"] ?? upload.images?.orig)!;
  return { url: image.url, width: image.width, height: image.height };
};

/**
 * The full-page media's problem, or null: an upload of the author's that no other pin shows,
 * measured 9:16. Used by saving (where a page may still be empty) and by publishing.
 */
export function pageMediaProblem(media: MediaRef | null, uploads: ReadonlyMap<string, PublishableUpload>, reserved: number | null = null): string | null {
  if (media === null || media.source === "local") return null;
  const upload = readyUpload(media, uploads, reserved);
  if (!upload) return media.type === "video" && uploads.get(media.ref)?.kind === "video" ? "builder:validation.videoNeedsPoster" : "builder:validation.mediaNotReady";
  const orig = upload.images!.orig!;
  return isAllowedRatio(orig.width, orig.height, "story") ? null : "builder:story.notStoryRatio";
}

/** A block as the published story carries it (snake_case where spec 000 names the sticker fields so). */
function publishedBlock(block: StoryBlock, upload: PublishableUpload | null): Record<string, unknown> {
  const text = block.type === "link" ? (block.linkBlock?.text || block.text) : block.text;
  return {
    id: block.id,
    type: block.type,
    text,
    font_id: block.fontId,
    font_family: fontFamily(block.fontId),
    style: block.style,
    edits: block.edits,
    ...(upload && block.type === "image" ? { image: shownImage(upload) } : {}),
    ...(upload && block.type === "video" ? { image: shownImage(upload), video_url: upload.video_url, duration_ms: block.media?.durationMs ?? 0 } : {}),
    ...(block.type === "link" && block.linkBlock ? { url: block.linkBlock.srcUrl, canonical_url: block.linkBlock.canonicalUrl } : {}),
    ...(block.type === "mention_sticker" ? { user_id: block.userId, is_removed: block.isRemoved } : {}),
    ...(block.type === "product_sticker" ? { pin_id: block.pinId, is_removed: block.isRemoved } : {}),
  };
}

/**
 * The story pin a draft publishes as, or every problem that stops it: a board chosen, the cover
 * page's full-page media uploaded, every page's media a ready 9:16 upload, every image and video
 * block's media uploaded, every sticker aimed, every link block with its address. `visible`
 * holds the sticker targets the author can see now (stickerTarget's names): the others publish
 * marked removed. `reserved` is the pin id a scheduled story reserved its uploads under.
 */
export function planStory(draft: PinDraft, uploads: ReadonlyMap<string, PublishableUpload>, visible: ReadonlySet<string>, reserved: number | null = null): { plan: PinPlan } | { problems: FieldProblem[] } {
  const story = markRemovedStickers(draft.story ?? newStory(), visible);
  const problems: FieldProblem[] = [];
  if (draft.boardId === null) problems.push({ field: "boardId", reason: "builder:validation.boardRequired" });
  story.pages.forEach((page, p) => {
    const field = `story.pages.${p}.media`;
    if (p === story.coverPageIndex && page.media === null) problems.push({ field, reason: "builder:story.coverNeedsMedia" });
    else if (page.media?.source === "local") problems.push({ field, reason: "builder:validation.mediaNotReady" });
    else {
      const reason = pageMediaProblem(page.media, uploads, reserved);
      if (reason) problems.push({ field, reason });
    }
    page.blocks.forEach((block, b) => {
      const at = (name: string) => `story.pages.${p}.blocks.${b}.${name}`;
      if ((block.type === "image" || block.type === "video") && !readyUpload(block.media, uploads, reserved)) problems.push({ field: at("media"), reason: "builder:validation.mediaNotReady" });
      if (block.type === "mention_sticker" && block.userId === null) problems.push({ field: at("userId"), reason: "builder:story.stickerNeedsTarget" });
      if (block.type === "product_sticker" && block.pinId === null) problems.push({ field: at("pinId"), reason: "builder:story.stickerNeedsTarget" });
      if (block.type === "link" && (block.linkBlock === null || block.linkBlock.srcUrl === "")) problems.push({ field: at("linkBlock"), reason: "builder:story.linkNeedsUrl" });
    });
  });
  if (problems.length > 0) return { problems };

  const cover = readyUpload(story.pages[story.coverPageIndex]!.media, uploads, reserved)!;
  let totalVideoMs = 0;
  let staticPageCount = 0;
  const pages = story.pages.map((page) => {
    const upload = readyUpload(page.media, uploads, reserved);
    const blockVideoMs = page.blocks.reduce((sum, block) => sum + (block.type === "video" ? (block.media?.durationMs ?? 0) : 0), 0);
    const pageVideoMs = upload?.kind === "video" ? (page.media?.durationMs ?? 0) : 0;
    totalVideoMs += pageVideoMs + blockVideoMs;
    if (upload?.kind !== "video" && !page.blocks.some((block) => block.type === "video")) staticPageCount++;
    return {
      id: page.id,
      backgroundColor: page.backgroundColor,
      image: upload ? shownImage(upload) : null,
      images: upload ? Object.fromEntries(sizesOf(upload).map(({ size, ...image }) => [size, image])) : {},
      ...(upload?.kind === "video" ? { video: { url: upload.video_url, durationMs: pageVideoMs } } : {}),
      blocks: page.blocks.map((block) => publishedBlock(block, readyUpload(block.media, uploads, reserved))),
    };
  });
  const title = draft.title.trim();
  return {
    plan: {
      kind: "story",
      title,
      description: draft.description.trim(),
      altText: draft.altText.trim() === "" ? null : draft.altText.trim(),
      link: null,
      dominantColor: cover.dominant_color ?? FALLBACK_COLOUR,
      imageSignature: cover.id,
      images: sizesOf(cover),
      video: null,
      storyPinData: {
        pinTitle: title,
        pages,
        metadata: { version: "1", coverPageId: story.pages[story.coverPageIndex]!.id, pageCount: pages.length },
        totalVideoDuration: totalVideoMs,
        staticPageCount,
        hasProductPins: story.pages.some((page) => page.blocks.some((block) => block.type === "product_sticker" && !block.isRemoved)),
        isDeleted: false,
        musicAttributions: [],
      },
      carouselData: null,
      commentsDisabled: !draft.isCommentsAllowed,
      isShoppingRecAllowed: draft.isShoppingRecAllowed,
      pinItemShareable: draft.pinItemShareable,
      uploadIds: storyUploadIds(story),
      interestIds: interestIdsOf(draft),
    },
  };
}
