import { describe, expect, it } from "vitest";
import { imageDimensions, isWholeImage, jpegOrientation, sniffUpload, stripGif, uprightTransform } from "./upload-file.ts";

const bytes = (...values: Array<number | string>) =>
  Uint8Array.from(values.flatMap((value) => (typeof value === "string" ? [...value].map((char) => char.charCodeAt(0)) : [value])));

describe("the upload's type by its bytes", () => {
  it.each([
    ["a JPEG", bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10), "jpg"],
    ["a PNG", bytes(0x89, "PNG", 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13), "png"],
    ["a WebP", bytes("RIFF", 0, 0, 0, 0, "WEBPVP8 "), "webp"],
    ["a GIF89a", bytes("GIF89a", 1, 0, 1, 0), "gif"],
    ["a GIF87a", bytes("GIF87a", 1, 0, 1, 0), "gif"],
    ["an MP4", bytes(0, 0, 0, 0x20, "ftypisom", 0, 0, 2, 0), "mp4"],
    ["a WebM", bytes(0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84, "webm"), "webm"],
    ["HTML named .jpg", bytes("<html>not a photo</html>"), null],
    ["a HEIC image (an ISO BMFF file that is not video)", bytes(0, 0, 0, 0x18, "ftypheic", 0, 0, 0, 0), null],
    ["a Matroska file that is not WebM", bytes(0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x88, "matroska"), null],
    ["an empty body", bytes(), null],
  ])("%s", (_name, input, expected) => {
    expect(sniffUpload(input)).toBe(expected);
  });
});

describe("an image's size from its header", () => {
  it("reads a PNG's IHDR", () => {
    expect(imageDimensions(bytes(0x89, "PNG", 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, "IHDR", 0, 0, 0x01, 0x2c, 0, 0, 0x01, 0xc2), "png")).toEqual({ width: 300, height: 450 });
  });
  it("reads a GIF's logical screen", () => {
    expect(imageDimensions(bytes("GIF89a", 0x2c, 0x01, 0xc2, 0x01), "gif")).toEqual({ width: 300, height: 450 });
  });
  it("reads a JPEG's frame header past its other segments", () => {
    const jpeg = bytes(0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0, 0xff, 0xc0, 0, 11, 8, 0x01, 0xc2, 0x01, 0x2c, 1, 1, 0x11, 0);
    expect(imageDimensions(jpeg, "jpg")).toEqual({ width: 300, height: 450 });
  });
  it("reads a lossy WebP's key frame", () => {
    const webp = bytes("RIFF", 22, 0, 0, 0, "WEBPVP8 ", 10, 0, 0, 0, 0, 0, 0, 0x9d, 0x01, 0x2a, 0x2c, 0x01, 0xc2, 0x01);
    expect(imageDimensions(webp, "webp")).toEqual({ width: 300, height: 450 });
  });
  it("answers null for a zero size", () => {
    expect(imageDimensions(bytes("GIF89a", 0, 0, 1, 0), "gif")).toBeNull();
  });
});

describe("whole images", () => {
  it("a JPEG must end at its EOI", () => {
    expect(isWholeImage(bytes(0xff, 0xd8, 0xff, 0xd9), "jpg")).toBe(true);
    expect(isWholeImage(bytes(0xff, 0xd8, 0xff, 0xda, 0x12), "jpg")).toBe(false);
  });
  it("a WebP must hold what its RIFF header declares", () => {
    expect(isWholeImage(bytes("RIFF", 4, 0, 0, 0, "WEBP"), "webp")).toBe(true);
    expect(isWholeImage(bytes("RIFF", 40, 0, 0, 0, "WEBP"), "webp")).toBe(false);
  });
});

describe("a GIF without its metadata", () => {
  // 1×1, no global table; a comment, an XMP application block, the NETSCAPE loop block, one image.
  const comment = bytes(0x21, 0xfe, 5, "owner", 0);
  const xmp = bytes(0x21, 0xff, 11, "XMP DataXMP", 3, "gps", 0);
  const loop = bytes(0x21, 0xff, 11, "NETSCAPE2.0", 3, 1, 0, 0, 0);
  const image = bytes(0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x4c, 0x01, 0);
  const gif = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((part) => [...part]));
  const header = bytes("GIF89a", 1, 0, 1, 0, 0, 0, 0);

  it("drops comments and XMP, keeps the loop block and the image", () => {
    expect(stripGif(gif(header, comment, xmp, loop, image, bytes(0x3b)))).toEqual(gif(header, loop, image, bytes(0x3b)));
  });
  it("refuses a GIF cut before its trailer", () => {
    expect(stripGif(gif(header, loop, image))).toBeNull();
  });
});

describe("a JPEG's EXIF orientation", () => {
  /** An Exif APP1 segment whose first IFD holds one entry, in big-endian (MM) or little-endian (II) order. */
  const exifApp1 = (order: "MM" | "II", tag: number, type: number, value: number) => {
    const be = (n: number, size: number) => Array.from({ length: size }, (_, i) => (n >> (8 * (size - 1 - i))) & 0xff);
    const word = (n: number, size: number) => (order === "MM" ? be(n, size) : be(n, size).reverse());
    const tiff = [...order, ...word(42, 2), ...word(8, 4), ...word(1, 2), ...word(tag, 2), ...word(type, 2), ...word(1, 4), ...word(value, 2), 0, 0, ...word(0, 4)];
    return [0xff, 0xe1, ...be(2 + 6 + tiff.length, 2), "Exif", 0, 0, ...tiff];
  };
  const scan = [0xff, 0xda, 0, 8, 1, 1, 0, 0, 0x3f, 0, 0x12, 0x34, 0xff, 0xd9];

  it.each([
    ["big-endian, turned a quarter clockwise", bytes(0xff, 0xd8, ...exifApp1("MM", 0x0112, 3, 6), ...scan), 6],
    ["little-endian, mirrored", bytes(0xff, 0xd8, ...exifApp1("II", 0x0112, 3, 2), ...scan), 2],
    ["after a JFIF segment", bytes(0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0, ...exifApp1("II", 0x0112, 3, 8), ...scan), 8],
    ["an orientation outside 1 to 8", bytes(0xff, 0xd8, ...exifApp1("MM", 0x0112, 3, 9), ...scan), 1],
    ["an orientation of the wrong type", bytes(0xff, 0xd8, ...exifApp1("MM", 0x0112, 4, 6), ...scan), 1],
    ["another tag only", bytes(0xff, 0xd8, ...exifApp1("MM", 0x010e, 3, 6), ...scan), 1],
    ["no EXIF at all", bytes(0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0, ...scan), 1],
    ["an Exif segment cut short", bytes(0xff, 0xd8, 0xff, 0xe1, 0, 40, "Exif", 0, 0, "MM"), 1],
    ["not a JPEG", bytes(0x89, "PNG", 0x0d, 0x0a, 0x1a, 0x0a), 1],
  ])("%s", (_name, input, expected) => {
    expect(jpegOrientation(input)).toBe(expected);
  });

  it.each([
    [1, null],
    [2, { flip: "h" }],
    [3, { rotate: 180 }],
    [4, { flip: "v" }],
    [5, { flip: "h", rotate: 270 }],
    [6, { rotate: 90 }],
    [7, { flip: "h", rotate: 90 }],
    [8, { rotate: 270 }],
  ])("orientation %d is made upright by %j", (orientation, expected) => {
    expect(uprightTransform(orientation)).toEqual(expected);
  });
});
