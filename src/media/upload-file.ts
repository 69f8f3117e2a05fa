// What an uploaded file is, read from its bytes alone: its type by magic numbers (never its
// name or the type the browser claims), an image's dimensions from its header, whether it is
// whole, and a GIF without its metadata blocks. Pure, so it runs in the Worker and in Node.
import { concatBytes } from "~/runtime/bytes.ts";

/** Spec 001 §5: the builder's limit for one file, whatever its kind. */
export const MEDIA_UPLOAD_MAX_BYTES = 209_715_200;
/**
 * An image is read whole to strip its metadata and measure it, and a Worker isolate has 128 MB
 * in all: images stop well below the file limit. 20 MB is what mature pin products accept.
 */
export const MEDIA_IMAGE_MAX_BYTES = 20 * 1024 * 1024;

export type UploadImageType = "jpg" | "png" | "webp" | "gif";
type UploadVideoType = "mp4" | "webm";
export type UploadType = UploadImageType | UploadVideoType;

export const UPLOAD_CONTENT_TYPES: Record<UploadType, string> = {
  jpg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  gif: "image/gif",
  mp4: "video/mp4",
  webm: "video/webm",
};

/** Bytes that decide the type: enough for every signature below, WebM's DocType included. */
export const SNIFF_BYTES = 64;

/**
 * ISO BMFF major brands that are MP4 video. HEIC and AVIF images (heic, mif1, avif) and
 * QuickTime (qt) share the `ftyp` box and are not accepted as video.
 */
const MP4_BRANDS = new Set(["isom", "iso2", "iso4", "iso5", "iso6", "mp41", "mp42", "avc1", "M4V ", "dash", "mmp4", "MSNV"]);

const ascii = (bytes: Uint8Array, at: number, length: number) => String.fromCharCode(...bytes.subarray(at, at + length));

/** The type the file's first bytes name, or null for anything the builder does not take. */
export function sniffUpload(bytes: Uint8Array): UploadType | null {
  const at = (offset: number, ...values: number[]) => bytes.length >= offset + values.length && values.every((value, i) => bytes[offset + i] === value);
  if (at(0, 0xff, 0xd8, 0xff)) return "jpg";
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "png";
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 4) === "WEBP") return "webp";
  if (bytes.length >= 6 && (ascii(bytes, 0, 6) === "GIF87a" || ascii(bytes, 0, 6) === "GIF89a")) return "gif";
  if (bytes.length >= 12 && ascii(bytes, 4, 4) === "ftyp" && MP4_BRANDS.has(ascii(bytes, 8, 4))) return "mp4";
  // EBML header whose DocType is "webm" (Matroska files name "matroska" there).
  if (at(0, 0x1a, 0x45, 0xdf, 0xa3) && ascii(bytes, 4, Math.min(bytes.length, SNIFF_BYTES) - 4).includes("webm")) return "webm";
  return null;
}

export const isImageType = (type: UploadType): type is UploadImageType => type !== "mp4" && type !== "webm";

const u16be = (bytes: Uint8Array, at: number) => (bytes[at]! << 8) | bytes[at + 1]!;
const u16le = (bytes: Uint8Array, at: number) => bytes[at]! | (bytes[at + 1]! << 8);
const u24le = (bytes: Uint8Array, at: number) => bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);
const u32le = (bytes: Uint8Array, at: number) => (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0;
const u32be = (bytes: Uint8Array, at: number) => ((bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) >>> 0;

export interface Dimensions {
  width: number;
  height: number;
}

/** JPEG start-of-frame markers (every SOFn but DHT C4, JPG C8 and DAC CC) carry the frame's size. */
const isSof = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

function jpegDimensions(bytes: Uint8Array): Dimensions | null {
  let at = 2;
  // Bounded by the file: each step moves past one segment.
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null;
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    const length = u16be(bytes, at + 2);
    if (length < 2) return null;
    if (isSof(marker)) return { height: u16be(bytes, at + 5), width: u16be(bytes, at + 7) };
    at += 2 + length;
  }
  return null;
}

function webpDimensions(bytes: Uint8Array): Dimensions | null {
  if (bytes.length < 30) return null;
  const chunk = ascii(bytes, 12, 4);
  if (chunk === "VP8X") return { width: u24le(bytes, 24) + 1, height: u24le(bytes, 27) + 1 };
  if (chunk === "VP8L") {
    if (bytes[20] !== 0x2f) return null;
    const bits = u32le(bytes, 21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8 ") {
    // A key frame's start code, then 14-bit width and height.
    if (bytes[23] !== 0x9d || bytes[24] !== 0x01 || bytes[25] !== 0x2a) return null;
    return { width: u16le(bytes, 26) & 0x3fff, height: u16le(bytes, 28) & 0x3fff };
  }
  return null;
}

/** The image's pixel size from its header, or null when the header does not say. */
export function imageDimensions(bytes: Uint8Array, type: UploadImageType): Dimensions | null {
  let size: Dimensions | null;
  if (type === "jpg") size = jpegDimensions(bytes);
  else if (type === "png") size = bytes.length >= 24 && ascii(bytes, 12, 4) === "IHDR" ? { width: u32be(bytes, 16), height: u32be(bytes, 20) } : null;
  else if (type === "gif") size = bytes.length >= 10 ? { width: u16le(bytes, 6), height: u16le(bytes, 8) } : null;
  else size = webpDimensions(bytes);
  return size && size.width > 0 && size.height > 0 ? size : null;
}

const u16 = (bytes: Uint8Array, at: number, little: boolean) => (little ? u16le(bytes, at) : u16be(bytes, at));
const u32 = (bytes: Uint8Array, at: number, little: boolean) => (little ? u32le(bytes, at) : u32be(bytes, at));
const EXIF_ID = "Exif\0\0";
const EXIF_ORIENTATION_TAG = 0x0112;

/** The Orientation tag (1 to 8) of a TIFF block's first IFD, or 1 when it has none that parses. */
function tiffOrientation(tiff: Uint8Array): number {
  if (tiff.length < 8) return 1;
  const order = ascii(tiff, 0, 2);
  if (order !== "II" && order !== "MM") return 1;
  const little = order === "II";
  if (u16(tiff, 2, little) !== 42) return 1;
  const ifd = u32(tiff, 4, little);
  if (ifd + 2 > tiff.length) return 1;
  const entries = u16(tiff, ifd, little);
  // Bounded by the entry count (at most 65,535) and the block's length.
  for (let index = 0; index < entries; index++) {
    const entry = ifd + 2 + index * 12;
    if (entry + 12 > tiff.length) return 1;
    if (u16(tiff, entry, little) !== EXIF_ORIENTATION_TAG) continue;
    // A SHORT (type 3), one value, held in the entry itself.
    if (u16(tiff, entry + 2, little) !== 3 || u32(tiff, entry + 4, little) !== 1) return 1;
    const value = u16(tiff, entry + 8, little);
    return value >= 1 && value <= 8 ? value : 1;
  }
  return 1;
}

/**
 * The EXIF orientation a JPEG asks to be shown with (1 upright; 2 to 8 mirrored and/or turned),
 * read from its first Exif APP1 segment before the image data; 1 when it names none. Stripping
 * the metadata throws this tag away, so it is read first and applied to the pixels.
 */
export function jpegOrientation(bytes: Uint8Array): number {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return 1;
  let at = 2;
  // Bounded by the file: each step moves past one segment.
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return 1;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker === 0xda || marker === 0xd9) return 1;
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    const length = u16be(bytes, at + 2);
    if (length < 2 || at + 2 + length > bytes.length) return 1;
    if (marker === 0xe1 && length >= 8 + EXIF_ID.length && ascii(bytes, at + 4, EXIF_ID.length) === EXIF_ID) {
      return tiffOrientation(bytes.subarray(at + 4 + EXIF_ID.length, at + 2 + length));
    }
    at += 2 + length;
  }
  return 1;
}

/**
 * What turns an image stored with EXIF orientation `orientation` upright, as the Images
 * binding's transform options: a mirror first, then a clockwise turn (the binding flips before
 * it rotates). Null for an upright image.
 */
export function uprightTransform(orientation: number): { flip?: "h" | "v"; rotate?: 90 | 180 | 270 } | null {
  switch (orientation) {
    case 2:
      return { flip: "h" };
    case 3:
      return { rotate: 180 };
    case 4:
      return { flip: "v" };
    case 5:
      return { flip: "h", rotate: 270 };
    case 6:
      return { rotate: 90 };
    case 7:
      return { flip: "h", rotate: 90 };
    case 8:
      return { rotate: 270 };
    default:
      return null;
  }
}

/**
 * Whether a stripped image is whole: a JPEG ends at its EOI, a WebP holds every byte its RIFF
 * header declares. (The PNG and GIF strippers refuse a file without its IEND or trailer.) A
 * truncated download would otherwise be stored and shown half grey.
 */
export function isWholeImage(bytes: Uint8Array, type: UploadImageType): boolean {
  if (type === "jpg") return bytes.length >= 4 && bytes[bytes.length - 2] === 0xff && bytes[bytes.length - 1] === 0xd9;
  if (type === "webp") return bytes.length >= 12 && 8 + u32le(bytes, 4) <= bytes.length;
  return true;
}

/**
 * GIF application extensions kept: animation looping (NETSCAPE2.0, ANIMEXTS1.0) and the colour
 * profile (ICCRGBG1). XMP and every other vendor block go, as comments do.
 */
const GIF_KEPT_APPLICATIONS = new Set(["NETSCAPE2.0", "ANIMEXTS1.0", "ICCRGBG1012"]);
const GIF_EXTENSION = 0x21;
const GIF_IMAGE = 0x2c;
const GIF_TRAILER = 0x3b;
const GIF_COMMENT = 0xfe;
const GIF_APPLICATION = 0xff;

/** The offset after the data sub-blocks starting at `at` (each a length byte, ending at 0), or -1. */
function subBlocksEnd(bytes: Uint8Array, at: number): number {
  let position = at;
  while (position < bytes.length) {
    const length = bytes[position]!;
    position += 1 + length;
    if (length === 0) return position;
  }
  return -1;
}

const colourTableBytes = (packed: number) => (packed & 0x80 ? 3 * 2 ** ((packed & 0x07) + 1) : 0);

/** A GIF without its comment and metadata extensions, or null when its blocks do not parse to the trailer. */
export function stripGif(bytes: Uint8Array): Uint8Array | null {
  if (bytes.length < 13 || sniffUpload(bytes) !== "gif") return null;
  const parts: Uint8Array[] = [];
  let at = 13 + colourTableBytes(bytes[10]!);
  if (at > bytes.length) return null;
  let keptFrom = 0;
  // Bounded by the file: every block moves `at` forward.
  while (at < bytes.length) {
    const block = bytes[at]!;
    if (block === GIF_TRAILER) {
      parts.push(bytes.subarray(keptFrom, at + 1));
      return concatBytes(parts);
    }
    if (block === GIF_IMAGE) {
      if (at + 11 > bytes.length) return null;
      // Descriptor (10 bytes), local colour table, LZW minimum code size, then the data.
      const end = subBlocksEnd(bytes, at + 10 + colourTableBytes(bytes[at + 9]!) + 1);
      if (end < 0) return null;
      at = end;
      continue;
    }
    if (block !== GIF_EXTENSION || at + 2 > bytes.length) return null;
    const label = bytes[at + 1]!;
    const end = subBlocksEnd(bytes, at + 2);
    if (end < 0) return null;
    const application = label === GIF_APPLICATION && bytes[at + 2] === 11 ? ascii(bytes, at + 3, 11) : null;
    const drop = label === GIF_COMMENT || (label === GIF_APPLICATION && (application === null || !GIF_KEPT_APPLICATIONS.has(application)));
    if (drop) {
      parts.push(bytes.subarray(keptFrom, at));
      keptFrom = end;
    }
    at = end;
  }
  return null;
}
