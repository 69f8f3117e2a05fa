// Tried-it photos lose their metadata before they are stored: a phone's photo carries where it
// was taken (EXIF GPS), the device and often the owner's name, none of which a public post
// should publish. Pure byte surgery (no decoding, so it runs in the Worker): only the blocks
// that carry metadata go, the image data is copied as it is. Anything that does not parse as
// the format it claims answers null, and the upload is refused rather than stored unstripped.
import { concatBytes } from "~/runtime/bytes.ts";
import type { PhotoExtension } from "./photo.ts";

/** JPEG markers kept as they are: APP0 (JFIF) and APP14 (Adobe colour transform). */
const JPEG_KEPT_APP = new Set([0xe0, 0xee]);
/** APP2 segments that carry the colour profile start with this (the rest of APP2, e.g. MPF, goes). */
const ICC_PROFILE_ID = [..."ICC_PROFILE\0"].map((char) => char.charCodeAt(0));
const JPEG_APP2 = 0xe2;
const JPEG_COM = 0xfe;
const JPEG_SOS = 0xda;
const JPEG_EOI = 0xd9;
/** More marker segments than any camera writes before the image data: past it the file is refused. */
const JPEG_MAX_SEGMENTS_BEFORE_SOS = 512;
/** And in the whole file (a progressive JPEG has a few dozen scans and tables). */
const JPEG_MAX_SEGMENTS = 4096;

/**
 * Byte ranges kept from `bytes`, merged while they touch: a part is only started when a dropped
 * block breaks the run, so the number of parts is bounded by the number of dropped segments,
 * never by the number of markers (a file of RSTn pairs makes one part, not millions).
 */
class KeptRanges {
  readonly #parts: Uint8Array[] = [];
  #start = 0;
  #end = 0;
  #size = 0;
  readonly #bytes: Uint8Array;
  constructor(bytes: Uint8Array) {
    this.#bytes = bytes;
  }

  /** Bytes kept so far: the offset in the output the next kept byte will have. */
  get size(): number {
    return this.#size;
  }

  keep(start: number, end: number): void {
    this.#size += end - start;
    if (start === this.#end) {
      this.#end = end;
      return;
    }
    if (this.#end > this.#start) this.#parts.push(this.#bytes.subarray(this.#start, this.#end));
    this.#start = start;
    this.#end = end;
  }

  join(): Uint8Array {
    if (this.#end > this.#start) this.#parts.push(this.#bytes.subarray(this.#start, this.#end));
    this.#start = this.#end;
    return concatBytes(this.#parts);
  }
}

const isIccProfile = (bytes: Uint8Array, payloadStart: number, end: number) =>
  end - payloadStart >= ICC_PROFILE_ID.length && ICC_PROFILE_ID.every((value, i) => bytes[payloadStart + i] === value);

/**
 * The end of the entropy-coded data that starts at `from`: the offset of the first marker that
 * is not data (0xFF00 is a stuffed 0xFF, RSTn are restart markers inside the scan, 0xFF fill
 * bytes may precede a marker), or the file's length when there is none.
 */
function entropyEnd(bytes: Uint8Array, from: number): number {
  let at = from;
  for (;;) {
    const ff = bytes.indexOf(0xff, at);
    if (ff < 0 || ff + 1 >= bytes.length) return bytes.length;
    const next = bytes[ff + 1]!;
    if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) {
      at = ff + 2;
    } else if (next === 0xff) {
      // Fill bytes: the marker (if any) starts at the first 0xFF of the run.
      let last = ff + 1;
      while (last < bytes.length && bytes[last] === 0xff) last++;
      if (last >= bytes.length) return bytes.length;
      const marker = bytes[last]!;
      if (marker === 0x00 || (marker >= 0xd0 && marker <= 0xd7)) at = last + 1;
      else return ff;
    } else {
      return ff;
    }
  }
}

/**
 * Walks every marker segment of the file, the entropy-coded data after each SOS included, so
 * metadata between progressive scans goes too; the file ends at its first EOI (whatever
 * follows, such as a motion photo's video, an MPF secondary JPEG with its own EXIF or a
 * Samsung trailer, is dropped).
 */
function stripJpeg(bytes: Uint8Array): Uint8Array | null {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  const kept = new KeptRanges(bytes);
  kept.keep(0, 2);
  let at = 2;
  let segments = 0;
  let sawScan = false;
  // Bounded by the file: every step moves `at` forward by at least one byte.
  while (at < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    segments++;
    if ((!sawScan && segments > JPEG_MAX_SEGMENTS_BEFORE_SOS) || segments > JPEG_MAX_SEGMENTS) return null;
    // Fill bytes (0xFF repeated) may precede a marker.
    let markerAt = at + 1;
    while (markerAt < bytes.length && bytes[markerAt] === 0xff) markerAt++;
    if (markerAt >= bytes.length) return null;
    const marker = bytes[markerAt]!;
    const segmentStart = markerAt + 1;
    // Standalone markers carry no length.
    if (marker === JPEG_EOI) {
      kept.keep(at, segmentStart);
      return kept.join();
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      kept.keep(at, segmentStart);
      at = segmentStart;
      continue;
    }
    if (segmentStart + 2 > bytes.length) return null;
    const length = (bytes[segmentStart]! << 8) | bytes[segmentStart + 1]!;
    if (length < 2 || segmentStart + length > bytes.length) return null;
    const end = segmentStart + length;
    if (marker === JPEG_SOS) {
      // The scan header and its entropy-coded data are image: kept up to the next real marker.
      sawScan = true;
      const dataEnd = entropyEnd(bytes, end);
      kept.keep(at, dataEnd);
      at = dataEnd;
      continue;
    }
    const isApp = marker >= 0xe0 && marker <= 0xef;
    const keptApp = JPEG_KEPT_APP.has(marker) || (marker === JPEG_APP2 && isIccProfile(bytes, segmentStart + 2, end));
    const drop = marker === JPEG_COM || (isApp && !keptApp);
    if (!drop) kept.keep(at, end);
    at = end;
  }
  // Entropy-coded data running to the end of the file without its EOI (a truncated download):
  // nothing after the image data could hide there, so it is kept as it is. Anything else ended
  // in the middle of a segment and was refused above.
  return sawScan ? kept.join() : null;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/**
 * PNG chunks kept: the image, its palette and transparency, the colour information a decoder
 * needs to show it right, and APNG animation. Every other chunk goes, known metadata (eXIf,
 * text of every kind, tIME, C2PA caBX) and unknown private chunks alike: a deny-list would let
 * the next vendor chunk through.
 */
const PNG_KEPT = new Set(["IHDR", "PLTE", "IDAT", "IEND", "tRNS", "gAMA", "cHRM", "sRGB", "iCCP", "pHYs", "sBIT", "bKGD", "acTL", "fcTL", "fdAT"]);

const fourcc = (bytes: Uint8Array, at: number) => String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!);

function stripPng(bytes: Uint8Array): Uint8Array | null {
  if (bytes.length < 8 || PNG_SIGNATURE.some((value, i) => bytes[i] !== value)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const kept = new KeptRanges(bytes);
  kept.keep(0, 8);
  let at = 8;
  while (at < bytes.length) {
    if (at + 12 > bytes.length) return null;
    const length = view.getUint32(at);
    const end = at + 12 + length;
    if (end > bytes.length) return null;
    const type = fourcc(bytes, at + 4);
    if (PNG_KEPT.has(type)) kept.keep(at, end);
    at = end;
    if (type === "IEND") return kept.join();
  }
  return null;
}

/** WebP chunks kept: image data (lossy, lossless, alpha), the extended header, animation and the colour profile. */
const WEBP_KEPT = new Set(["VP8 ", "VP8L", "VP8X", "ALPH", "ANIM", "ANMF", "ICCP"]);

/** VP8X flag bits (first byte of its payload) that announce an EXIF or an XMP chunk. */
const VP8X_EXIF_FLAG = 0x08;
const VP8X_XMP_FLAG = 0x04;

function stripWebp(bytes: Uint8Array): Uint8Array | null {
  if (bytes.length < 12 || fourcc(bytes, 0) !== "RIFF" || fourcc(bytes, 8) !== "WEBP") return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const riffEnd = Math.min(bytes.length, 8 + view.getUint32(4, true));
  // The header's 12 bytes are kept and rewritten below (its size and the VP8X flags).
  const kept = new KeptRanges(bytes);
  kept.keep(0, 12);
  let vp8xFlagsAt: number | null = null;
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
      vp8xFlagsAt ??= kept.size + 8;
    }
    if (WEBP_KEPT.has(type)) kept.keep(at, Math.min(end, riffEnd));
    at = end;
  }
  // join copies, so the input is never written to.
  const out = kept.join();
  new DataView(out.buffer).setUint32(4, out.length - 8, true);
  if (vp8xFlagsAt !== null) out[vp8xFlagsAt] = out[vp8xFlagsAt]! & ~(VP8X_EXIF_FLAG | VP8X_XMP_FLAG);
  return out;
}

/** The photo without its metadata blocks, or null when its structure does not parse. */
export function stripPhotoMetadata(bytes: Uint8Array, type: PhotoExtension): Uint8Array | null {
  if (type === "jpg") return stripJpeg(bytes);
  if (type === "png") return stripPng(bytes);
  return stripWebp(bytes);
}
