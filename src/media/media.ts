// Where media lives: R2 keys and the stable public URLs the Worker serves them at.
// Pure, shared by the seed script (Node), the server and the pages.

export const PIN_IMAGE_SIZES = [
  "60x60",
  "136x136",
  "170x",
  "236x",
  "474x",
  "564x",
  "736x",
  "600x315",
  "orig",
] as const;
export type PinImageSize = (typeof PIN_IMAGE_SIZES)[number];

/** How each size is cut: a square or fixed box is cropped to cover; "NNNx" keeps the ratio. */
export function sizeBox(size: PinImageSize): { width: number; height?: number } | null {
  if (size === "orig") return null;
  const [w, h] = size.split("x");
  return h ? { width: Number(w), height: Number(h) } : { width: Number(w) };
}

/** Sizes a grid or close-up may pick for srcset, ratio-preserving only, narrow to wide. */
export const RESPONSIVE_SIZES = ["170x", "236x", "474x", "564x", "736x"] as const satisfies readonly PinImageSize[];

export const USER_IMAGE_SIZES = { small: 30, medium: 75, large: 140, xlarge: 280 } as const;
export type UserImageSize = keyof typeof USER_IMAGE_SIZES;

const MEDIA_PREFIX = "/media/";

export const mediaKeys = {
  pinImage: (pinId: number | string, size: PinImageSize) => `pins/${pinId}/${size}.jpg`,
  slotImage: (pinId: number | string, slot: number, size: PinImageSize) => `pins/${pinId}/slot-${slot}/${size}.jpg`,
  storyImage: (pinId: number | string, page: number, size: PinImageSize) => `pins/${pinId}/page-${page}/${size}.jpg`,
  video: (pinId: number | string, ext: "mp4" | "webm") => `pins/${pinId}/video.${ext}`,
  captions: (pinId: number | string, locale: string) => `pins/${pinId}/captions.${locale}.vtt`,
  userImage: (userId: number | string, size: UserImageSize) => `users/${userId}/${size}.jpg`,
};

export function mediaUrl(key: string): string {
  return MEDIA_PREFIX + key;
}

/** Content types by extension; anything else is not served. */
export const MEDIA_TYPES: Record<string, string> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  gif: "image/gif",
  mp4: "video/mp4",
  webm: "video/webm",
  vtt: "text/vtt; charset=utf-8",
};
