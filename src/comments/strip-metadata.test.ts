// Real images (made and decoded by sharp) with GPS EXIF, XMP and text metadata: after
// stripPhotoMetadata none of it is left and the image still decodes to the same pixels.
import sharp from "sharp";
import { crc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import { sniffPhoto } from "./photo.ts";
import { stripPhotoMetadata } from "./strip-metadata.ts";

const GPS_SECRET = "GPS-SECRET-DATUM";
const OWNER_SECRET = "Owner Secret Name";
const XMP_SECRET = "xmp-secret-creator";
const XMP = `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator>${XMP_SECRET}</dc:creator></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;

const EXIF = {
  IFD0: { Copyright: OWNER_SECRET, Artist: OWNER_SECRET },
  IFD3: { GPSLatitudeRef: "N", GPSLatitude: "48/1 51/1 24/1", GPSLongitudeRef: "E", GPSLongitude: "2/1 21/1 3/1", GPSMapDatum: GPS_SECRET },
};

/** A 16×16 picture with a gradient, so a decode that loses data would show. */
function picture() {
  const raw = Buffer.alloc(16 * 16 * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 7) % 256;
  return sharp(raw, { raw: { width: 16, height: 16, channels: 3 } });
}

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString("latin1");

/** A PNG chunk with its CRC, to add the text chunks sharp does not write. */
function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, "latin1"), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** Inserts chunks right after IHDR (signature 8 + IHDR 25 bytes). */
const withPngChunks = (png: Buffer, ...chunks: Buffer[]) => Buffer.concat([png.subarray(0, 33), ...chunks, png.subarray(33)]);

async function samples(): Promise<Array<[string, Buffer]>> {
  const jpeg = await picture().jpeg({ quality: 100 }).withExif(EXIF).withXmp(XMP).toBuffer();
  // A comment segment (COM) too.
  const com = Buffer.concat([Buffer.from([0xff, 0xfe, 0x00, 2 + 14]), Buffer.from("secret comment", "latin1")]);
  const jpegWithCom = Buffer.concat([jpeg.subarray(0, 2), com, jpeg.subarray(2)]);
  const png = await picture().png().withExif(EXIF).toBuffer();
  const pngWithText = withPngChunks(
    png,
    pngChunk("tEXt", Buffer.from(`Author\0${OWNER_SECRET}`, "latin1")),
    pngChunk("iTXt", Buffer.from(`XML:com.adobe.xmp\0\0\0\0\0${XMP}`, "latin1")),
    pngChunk("tIME", Buffer.from([0x07, 0xea, 11, 22, 10, 0, 0])),
  );
  const webp = await picture().webp({ lossless: true }).withExif(EXIF).withXmp(XMP).toBuffer();
  return [
    ["jpeg", jpegWithCom],
    ["png", pngWithText],
    ["webp", webp],
  ];
}

describe("stripPhotoMetadata", () => {
  it.each(["jpeg", "png", "webp"])("%s: GPS EXIF, XMP and text are gone and the image still decodes to the same pixels", async (name) => {
    const [, input] = (await samples()).find(([sample]) => sample === name)!;
    const before = await sharp(input).metadata();
    // The sample really carries what must go.
    expect(before.exif, "sample has EXIF").toBeDefined();
    expect(text(input)).toContain(GPS_SECRET);
    expect(text(input)).toContain(OWNER_SECRET);

    const type = sniffPhoto(input)!;
    const output = stripPhotoMetadata(input, type);
    expect(output).not.toBeNull();
    const after = await sharp(Buffer.from(output!)).metadata();
    expect(after.exif).toBeUndefined();
    expect(after.xmp).toBeUndefined();
    expect(after.format).toBe(before.format);
    expect([after.width, after.height]).toEqual([16, 16]);
    for (const secret of [GPS_SECRET, OWNER_SECRET, XMP_SECRET, "secret comment"]) expect(text(output!)).not.toContain(secret);

    const pixels = async (bytes: Uint8Array) => sharp(Buffer.from(bytes)).removeAlpha().raw().toBuffer();
    expect((await pixels(output!)).equals(await pixels(input))).toBe(true);
  });

  it("keeps the JPEG's APP0 (JFIF) and APP14 (Adobe) segments, byte for byte", async () => {
    const jpeg = await picture().jpeg().withExif(EXIF).toBuffer();
    const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, ...Buffer.from("JFIF\0", "latin1"), 1, 1, 0, 0, 1, 0, 1, 0, 0]);
    const app14 = Buffer.from([0xff, 0xee, 0x00, 0x0e, ...Buffer.from("Adobe", "latin1"), 0, 100, 0, 0, 0, 0, 1]);
    const input = Buffer.concat([jpeg.subarray(0, 2), app0, app14, jpeg.subarray(2)]);
    const output = Buffer.from(stripPhotoMetadata(input, "jpg")!);
    expect(output.subarray(2, 2 + app0.length + app14.length).equals(Buffer.concat([app0, app14]))).toBe(true);
    expect(output.length).toBeLessThan(input.length);
    expect((await sharp(output).metadata()).exif).toBeUndefined();
  });

  it("clears the WebP VP8X EXIF and XMP flags and rewrites the RIFF size", async () => {
    const [, webp] = (await samples()).find(([sample]) => sample === "webp")!;
    const output = Buffer.from(stripPhotoMetadata(webp, "webp")!);
    const vp8x = output.indexOf("VP8X", 12, "latin1");
    expect(vp8x).toBe(12);
    expect(output[vp8x + 8]! & 0x0c).toBe(0);
    expect(output.readUInt32LE(4)).toBe(output.length - 8);
  });

  it.each<[string, Uint8Array, "jpg" | "png" | "webp"]>([
    ["a JPEG cut short", Uint8Array.from([0xff, 0xd8, 0xff, 0xe1, 0x00, 0x40, 0x45]), "jpg"],
    ["a JPEG without markers", Uint8Array.from([0xff, 0xd8, 0x00, 0x00, 0x00]), "jpg"],
    ["a PNG chunk longer than the file", Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xff, 0xff, 0xff, 0x49, 0x48, 0x44, 0x52]), "png"],
    ["a WebP chunk longer than the file", Uint8Array.from([...Buffer.from("RIFF"), 20, 0, 0, 0, ...Buffer.from("WEBPVP8X"), 0xff, 0, 0, 0]), "webp"],
  ])("refuses %s (null, never stored unstripped)", (_, bytes, type) => {
    expect(stripPhotoMetadata(bytes, type)).toBeNull();
  });
});
