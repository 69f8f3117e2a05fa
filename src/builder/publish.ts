// What publishing a draft makes: the pin's own fields, its images at every size, its video and
// its carousel slots, all from the draft and the uploads it names. Pure: the server reads the
// uploads, asks this for the pin, and writes it in one batch (publish.server.ts).
import type { FieldProblem } from "~/domain/errors.ts";
import { PIN_IMAGE_SIZES, type PinImageSize } from "~/media/media.ts";
import type { PinKind } from "~/pins/pin.ts";
import type { DraftItem, PinDraft } from "./drafts.ts";

/** An upload as publishing needs it (src/media/uploads.server.ts reads it). */
export interface PublishableUpload {
  id: string;
  kind: "image" | "video";
  content_type: string;
  dominant_color: string | null;
  /** Images: every size; videos: their poster's, or null before a poster is sent. */
  images: Partial<Record<PinImageSize, { url: string; width: number; height: number }>> | null;
  video_url: string | null;
  /** The pin it shows in, or will at its scheduled time; null while free. */
  pin_id: number | null;
}

interface PlannedImage {
  size: PinImageSize;
  url: string;
  width: number;
  height: number;
}

interface PlannedVideo {
  format: "V_720P" | "V_WEBM";
  url: string;
  mimeType: string;
  width: number;
  height: number;
  durationMs: number;
  thumbnail: string;
}

/** The pin a draft publishes as. */
export interface PinPlan {
  kind: Extract<PinKind, "image" | "video" | "carousel" | "story">;
  title: string;
  description: string;
  altText: string | null;
  link: string | null;
  dominantColor: string;
  /** The first item's upload: the pin's image signature. */
  imageSignature: string;
  images: PlannedImage[];
  video: PlannedVideo | null;
  /** A story's pages as the close-up reads them (storyPinDataSchema); null for other pins. */
  storyPinData: Record<string, unknown> | null;
  carouselData: { slots: Array<{ title: string | null; details: string | null; link: string | null; dominantColor: string; images: Record<string, { url: string; width: number; height: number }> }> } | null;
  commentsDisabled: boolean;
  isShoppingRecAllowed: boolean;
  pinItemShareable: boolean;
  /** Every upload the pin shows, in item order. */
  uploadIds: string[];
  interestIds: number[];
}

export const FALLBACK_COLOUR = "#e9e9e9";

/** The draft's interests that are ids (a tag the builder only suggested names none). */
export const interestIdsOf = (draft: PinDraft): number[] => draft.interestTags.flatMap((tag) => (/^\d{1,18}$/.test(tag.id) ? [Number(tag.id)] : []));

/** The uploads a draft's items name, in item order (an item without uploaded media names none). */
export function draftUploadIds(draft: PinDraft): string[] {
  return draft.items.flatMap((item) => (item.media?.source === "uploaded" ? [item.media.ref] : []));
}

/** The one problem with an item's media, or null. */
function mediaProblem(item: DraftItem, uploads: ReadonlyMap<string, PublishableUpload>, reserved: number | null, inCarousel: boolean): string | null {
  const media = item.media;
  if (media === null || media.source !== "uploaded") return "builder:validation.mediaNotReady";
  const upload = uploads.get(media.ref);
  // Missing, someone else's, or already shown by another pin (or reserved by a schedule).
  if (!upload || (upload.pin_id !== null && upload.pin_id !== reserved) || upload.kind !== media.type) return "builder:validation.mediaNotReady";
  if (upload.images?.orig === undefined) return "builder:validation.videoNeedsPoster";
  if (inCarousel && upload.kind === "video") return "builder:validation.carouselImagesOnly";
  return null;
}

export const sizesOf = (upload: PublishableUpload) =>
  PIN_IMAGE_SIZES.flatMap((size) => {
    const image = upload.images?.[size];
    return image ? [{ size, ...image }] : [];
  });

/**
 * The pin a draft publishes as, or the problems that stop it: a board chosen, at least one
 * item, every item's media an upload of the person's that no other pin shows (a video with its
 * poster), and carousels of images only. `reserved` is the pin id a scheduled pin reserved its
 * uploads under. Field rules (lengths, links) are validateDraft's and checked before.
 */
export function planPin(draft: PinDraft, uploads: ReadonlyMap<string, PublishableUpload>, reserved: number | null = null): { plan: PinPlan } | { problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  if (draft.type === "story") problems.push({ field: "type", reason: "builder:validation.storyNotHere" });
  if (draft.boardId === null) problems.push({ field: "boardId", reason: "builder:validation.boardRequired" });
  if (draft.items.length === 0) problems.push({ field: "items", reason: "builder:validation.mediaRequired" });
  const seen = new Set<string>();
  draft.items.forEach((item, at) => {
    // One upload shows in one place: the same file twice in a carousel is one too many.
    const repeated = item.media !== null && seen.has(item.media.ref);
    if (item.media) seen.add(item.media.ref);
    const reason = repeated ? "builder:validation.duplicateItem" : mediaProblem(item, uploads, reserved, draft.items.length > 1);
    if (reason) problems.push({ field: `items.${at}.media`, reason });
  });
  if (problems.length > 0) return { problems };

  const itemUploads = draft.items.map((item) => uploads.get(item.media!.ref)!);
  const first = itemUploads[0]!;
  const link = draft.websiteLink === "" ? null : draft.websiteLink;
  const carousel = draft.items.length > 1;
  const video: PlannedVideo | null =
    first.kind === "video"
      ? {
          format: first.content_type === "video/webm" ? "V_WEBM" : "V_720P",
          url: first.video_url!,
          mimeType: first.content_type,
          width: first.images!.orig!.width,
          height: first.images!.orig!.height,
          durationMs: draft.items[0]!.media!.durationMs ?? 0,
          thumbnail: (first.images!["736x"] ?? first.images!.orig!).url,
        }
      : null;
  return {
    plan: {
      kind: carousel ? "carousel" : first.kind,
      title: draft.title.trim(),
      description: draft.description.trim(),
      altText: draft.altText.trim() === "" ? null : draft.altText.trim(),
      link,
      dominantColor: first.dominant_color ?? FALLBACK_COLOUR,
      imageSignature: first.id,
      images: sizesOf(first),
      video,
      storyPinData: null,
      carouselData: carousel
        ? {
            slots: draft.items.map((item, at) => {
              const upload = itemUploads[at]!;
              return {
                title: item.title,
                details: item.description,
                link: item.link ?? link,
                dominantColor: upload.dominant_color ?? FALLBACK_COLOUR,
                images: Object.fromEntries(sizesOf(upload).map(({ size, ...image }) => [size, image])),
              };
            }),
          }
        : null,
      commentsDisabled: !draft.isCommentsAllowed,
      isShoppingRecAllowed: draft.isShoppingRecAllowed,
      pinItemShareable: draft.pinItemShareable,
      uploadIds: itemUploads.map((upload) => upload.id),
      interestIds: interestIdsOf(draft),
    },
  };
}
