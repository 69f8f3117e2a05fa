// An image's dominant colour, defined as the seeded pins' is (sharp's `stats().dominant`): the
// most frequent cell of a 16×16×16 histogram of its sRGB pixels, answered as that cell's
// centre. The pixels come from a small PNG thumbnail the Images binding makes (it answers no
// raw pixels locally), decoded here: 8-bit PNGs of every colour type, inflated by the
// platform's DecompressionStream.

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Larger thumbnails are not needed for a histogram and are refused rather than decoded. */
const MAX_PIXELS = 256 * 256;

/** Channels per pixel by PNG colour type (grey, RGB, palette, grey+alpha, RGBA). */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

interface DecodedPng {
  width: number;
  height: number;
  /** RGB triples, one per pixel. */
  rgb: Uint8Array;
}

async function inflate(data: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const stream = new Blob([data]).stream().pipeThrough(new DecompressionStream("deflate"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const paeth = (a: number, b: number, c: number) => {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
};

/** A small non-interlaced 8-bit PNG's pixels as RGB, or null for anything else. */
export async function decodeSmallPng(bytes: Uint8Array): Promise<DecodedPng | null> {
  if (bytes.length < 33 || PNG_SIGNATURE.some((value, i) => bytes[i] !== value)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  const depth = bytes[24]!;
  const colourType = bytes[25]!;
  const channels = CHANNELS[colourType];
  if (depth !== 8 || channels === undefined || bytes[28] !== 0 || width === 0 || height === 0 || width * height > MAX_PIXELS) return null;
  const idat: Uint8Array[] = [];
  let palette: Uint8Array | null = null;
  let at = 8;
  while (at + 12 <= bytes.length) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    const data = bytes.subarray(at + 8, at + 8 + length);
    if (type === "IDAT") idat.push(data);
    else if (type === "PLTE") palette = data;
    else if (type === "IEND") break;
    at += 12 + length;
  }
  if (colourType === 3 && palette === null) return null;
  const joined = new Uint8Array(idat.reduce((sum, part) => sum + part.length, 0));
  idat.reduce((offset, part) => (joined.set(part, offset), offset + part.length), 0);
  let raw: Uint8Array;
  try {
    raw = await inflate(joined);
  } catch {
    return null;
  }
  const stride = width * channels;
  if (raw.length < height * (stride + 1)) return null;
  // Undo each row's filter in place (bytes per pixel = channels at depth 8).
  const pixels = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const row = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = y * stride;
    for (let x = 0; x < stride; x++) {
      const left = x >= channels ? pixels[out + x - channels]! : 0;
      const up = y > 0 ? pixels[out - stride + x]! : 0;
      const upLeft = y > 0 && x >= channels ? pixels[out - stride + x - channels]! : 0;
      const value = row[x]!;
      const predicted = filter === 0 ? 0 : filter === 1 ? left : filter === 2 ? up : filter === 3 ? (left + up) >> 1 : filter === 4 ? paeth(left, up, upLeft) : -1;
      if (predicted < 0) return null;
      pixels[out + x] = (value + predicted) & 0xff;
    }
  }
  const rgb = new Uint8Array(width * height * 3);
  for (let i = 0; i < width * height; i++) {
    const p = i * channels;
    if (colourType === 3) {
      const entry = pixels[p]! * 3;
      rgb.set([palette![entry] ?? 0, palette![entry + 1] ?? 0, palette![entry + 2] ?? 0], i * 3);
    } else if (channels <= 2) {
      rgb.fill(pixels[p]!, i * 3, i * 3 + 3);
    } else {
      rgb.set(pixels.subarray(p, p + 3), i * 3);
    }
  }
  return { width, height, rgb };
}

/** The most frequent 16-level cell of the pixels, as "#rrggbb" of its centre (ties: the lowest cell). */
export function dominantColourOf(rgb: Uint8Array): string {
  const counts = new Uint32Array(4096);
  for (let i = 0; i + 2 < rgb.length; i += 3) counts[((rgb[i]! >> 4) << 8) | ((rgb[i + 1]! >> 4) << 4) | (rgb[i + 2]! >> 4)]!++;
  let best = 0;
  for (let cell = 1; cell < counts.length; cell++) if (counts[cell]! > counts[best]!) best = cell;
  const centre = (level: number) => ((level << 4) + 8).toString(16).padStart(2, "0");
  return `#${centre(best >> 8)}${centre((best >> 4) & 0xf)}${centre(best & 0xf)}`;
}
