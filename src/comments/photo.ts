// Tried-it photos: the type is read from the file's first bytes, never from its name or the
// Content-Type the browser claims, so only real JPEG, PNG and WebP images are stored.

export const DID_IT_PHOTO_MAX_BYTES = 5 * 1024 * 1024;
export type PhotoExtension = "jpg" | "png" | "webp";

/** The image type the magic bytes name, or null. */
export function sniffPhoto(bytes: Uint8Array): PhotoExtension | null {
  const at = (offset: number, ...values: number[]) => values.every((value, i) => bytes[offset + i] === value);
  if (bytes.length >= 3 && at(0, 0xff, 0xd8, 0xff)) return "jpg";
  if (bytes.length >= 8 && at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "png";
  // RIFF....WEBP
  if (bytes.length >= 12 && at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return "webp";
  return null;
}

export const IMAGE_SIGNATURE = /^[0-9a-f]{32}$/;
export const didItPhotoKey = (signature: string, extension: PhotoExtension) => `did-it/${signature}.${extension}`;

/**
 * An uploaded photo waits this long for its post; after it, the signature is refused and the
 * housekeeping deletes the file. Two hours: ample to write a post, short enough that a photo
 * someone changed their mind about does not linger.
 */
export const DID_IT_UPLOAD_TTL_MS = 2 * 60 * 60 * 1000;
