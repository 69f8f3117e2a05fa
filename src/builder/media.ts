// What the builder reads of an upload's answer (POST /v3/media/uploads/, src/media/uploads.server.ts
// UploadAnswer), and how an upload becomes an item's media. Pure: shared by the island and tests.
import type { MediaRef } from "./media-ref.ts";

export interface UploadInfo {
  id: string;
  kind: "image" | "video";
  width: number | null;
  height: number | null;
  dominant_color: string | null;
  status: "uploaded" | "published";
  images: Partial<Record<string, { url: string; width: number; height: number }>> | null;
  video_url: string | null;
}

/** Checks the fields the builder reads, so a changed answer fails here rather than on a card. */
export function toUploadInfo(value: unknown): UploadInfo {
  const answer = value as Partial<UploadInfo> | null;
  if (!answer || typeof answer.id !== "string" || (answer.kind !== "image" && answer.kind !== "video")) throw new TypeError("upload answer without id or kind");
  return {
    id: answer.id,
    kind: answer.kind,
    width: typeof answer.width === "number" ? answer.width : null,
    height: typeof answer.height === "number" ? answer.height : null,
    dominant_color: answer.dominant_color ?? null,
    status: answer.status === "published" ? "published" : "uploaded",
    images: answer.images ?? null,
    video_url: answer.video_url ?? null,
  };
}

/** An item's media for a stored upload: the upload's id and its measured size. */
export const mediaRefOf = (upload: UploadInfo): MediaRef => ({ type: upload.kind, source: "uploaded", ref: upload.id, width: upload.width, height: upload.height });

/** The picture a card shows: a grid-sized cut, else any cut (a video's poster has them too). */
export function previewUrl(upload: UploadInfo | undefined): string | null {
  const images = upload?.images;
  if (!images) return null;
  return images["236x"]?.url ?? images["474x"]?.url ?? images["orig"]?.url ?? Object.values(images)[0]?.url ?? null;
}

/** Whether the browser should try this file at all (the server decides by content): images and videos. */
export const isMediaFile = (file: { type: string }): boolean => file.type.startsWith("image/") || file.type.startsWith("video/");

/** Files of one drop or pick the builder takes at once: the rest are left for another drop. */
export const FILES_PER_DROP = 20;
