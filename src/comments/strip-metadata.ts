// Tried-it photos lose their metadata before they are stored: a phone's photo carries where it
// was taken (EXIF GPS), the device and often the owner's name, none of which a public post
// should publish. Pure byte surgery (no decoding, so it runs in the Worker): only the blocks
// that carry metadata go, the image data is copied as it is. Anything that does not parse as
// the format it claims answers null, and the upload is refused rather than stored unstripped.
import type { PhotoExtension } from "./photo.ts";

/** JPEG markers kept before the image data: APP0 (JFIF) and APP14 (Adobe colour transform). */
const JPEG_KEPT_APP = new Set([0xe0, 0xee]);
const JPEG_COM = 0xfe;
const JPEG_SOS = 0xda;
const JPEG_EOI = 0xd9;

function stripJpeg(bytes: Uint8Array): Uint8Array | null {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  const parts: Uint8Array[] = [bytes.subarray(0, 2)];
  let at = 2;
  // Bounded by the file: every step moves `at` forward by at least one byte.
  while (at < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    // Fill bytes (0xFF repeated) may precede a marker.
    let markerAt = at + 1;
    while (markerAt < bytes.length && bytes[markerAt] === 0xff) markerAt++;
    if (markerAt >= bytes.length) return null;
    const marker = bytes[markerAt]!;
    const segmentStart = markerAt + 1;
    // Standalone markers carry no length.
    if (marker === JPEG_EOI) {
      parts.push(bytes.subarray(at, segmentStart));
      return join(parts);
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      parts.push(bytes.subarray(at, segmentStart));
      at = segmentStart;
      continue;
    }
    if (segmentStart + 2 > bytes.length) return null;
    const length = (bytes[segmentStart]! << 8) | bytes[segmentStart + 1]!;
    if (length < 2 || segmentStart + length > bytes.length) return null;
    const end = segmentStart + length;
    if (marker === JPEG_SOS) {
      // The entropy-coded data and everything after it is image: copied as it is.
      parts.push(bytes.subarray(at));
      return join(parts);
    }
    const isApp = marker >= 0xe0 && marker <= 0xef;
    const drop = marker === JPEG_COM || (isApp && !JPEG_KEPT_APP.has(marker));
    if (!drop) parts.push(bytes.subarray(at, end));
    at = end;
  }
  return null;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** PNG chunks that carry metadata: EXIF, text of every kind, and the last-modified time. */
const PNG_DROPPED = new Set(["eXIf", "tEXt", "zTXt", "iTXt", "tIME"]);

const fourcc = (bytes: Uint8Array, at: number) => String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!);

function stripPng(bytes: Uint8Array): Uint8Array | null {
  if (bytes.length < 8 || PNG_SIGNATURE.some((value, i) => bytes[i] !== value)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const parts: Uint8Array[] = [bytes.subarray(0, 8)];
  let at = 8;
  while (at < bytes.length) {
    if (at + 12 > bytes.length) return null;
    const length = view.getUint32(at);
    const end = at + 12 + length;
    if (end > bytes.length) return null;
    const type = fourcc(bytes, at + 4);
    if (!PNG_DROPPED.has(type)) parts.push(bytes.subarray(at, end));
    at = end;
    if (type === "IEND") return join(parts);
  }
  return null;
}

/** VP8X flag bits (first byte of its payload) that announce an EXIF or an XMP chunk. */
const VP8X_EXIF_FLAG = 0x08;
const VP8X_XMP_FLAG = 0x04;

function stripWebp(bytes: Uint8Array): Uint8Array | null {
  if (bytes.length < 12 || fourcc(bytes, 0) !== "RIFF" || fourcc(bytes, 8) !== "WEBP") return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const riffEnd = Math.min(bytes.length, 8 + view.getUint32(4, true));
  const chunks: Uint8Array[] = [];
  let at = 12;
  while (at < riffEnd) {
    if (at + 8 > riffEnd) return null;
    const type = fourcc(bytes, at);
    const size = view.getUint32(at + 4, true);
    // Chunks are padded to an even size.
    const end = at + 8 + size + (size % 2);
    if (end > riffEnd + (size % 2) || at + 8 + size > riffEnd) return null;
    if (type === "VP8X") {
      if (size < 10) return null;
      const copy = bytes.slice(at, Math.min(end, riffEnd));
      copy[8] = copy[8]! & ~(VP8X_EXIF_FLAG | VP8X_XMP_FLAG);
      chunks.push(copy);
    } else if (type !== "EXIF" && type !== "XMP ") {
      chunks.push(bytes.subarray(at, Math.min(end, riffEnd)));
    }
    at = end;
  }
  const body = join(chunks);
  const out = new Uint8Array(12 + body.length);
  out.set(bytes.subarray(0, 12));
  new DataView(out.buffer).setUint32(4, 4 + body.length, true);
  out.set(body, 12);
  return out;
}

function join(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** The photo without its metadata blocks, or null when its structure does not parse. */
export function stripPhotoMetadata(bytes: Uint8Array, type: PhotoExtension): Uint8Array | null {
  if (type === "jpg") return stripJpeg(bytes);
  if (type === "png") return stripPng(bytes);
  return stripWebp(bytes);
}
