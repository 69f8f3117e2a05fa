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

/** A JPEG marker segment with its length. */
function segment(marker: number, payload: Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([head, payload]);
}

/** Offsets of every SOS marker of a JPEG made by sharp (a marker's 0xFF is never data there). */
function scanOffsets(jpeg: Buffer): number[] {
  const offsets: number[] = [];
  for (let at = jpeg.indexOf(Buffer.from([0xff, 0xda])); at >= 0; at = jpeg.indexOf(Buffer.from([0xff, 0xda]), at + 2)) offsets.push(at);
  return offsets;
}

const exifSegment = () => segment(0xe1, Buffer.concat([Buffer.from("Exif\0\0", "latin1"), Buffer.from(`GPS ${GPS_SECRET} owner ${OWNER_SECRET}`, "latin1")]));

describe("stripPhotoMetadata: JPEG after the first scan", () => {
  it("cuts at the first EOI: a trailing second JPEG with its EXIF (MPF, motion photo) is dropped", async () => {
    const first = await picture().jpeg().toBuffer();
    const second = await picture().jpeg().withExif(EXIF).toBuffer();
    const trailer = Buffer.from(`SEFT${OWNER_SECRET}`, "latin1");
    const input = Buffer.concat([first, second, trailer]);
    expect(text(input)).toContain(GPS_SECRET);
    const output = Buffer.from(stripPhotoMetadata(input, "jpg")!);
    expect(output.equals(first)).toBe(true);
    expect(text(output)).not.toContain(GPS_SECRET);
    expect(text(output)).not.toContain(OWNER_SECRET);
  });

  it("drops APPn and COM between progressive scans and keeps every scan (same pixels)", async () => {
    const progressive = await picture().jpeg({ progressive: true, quality: 90 }).toBuffer();
    const scans = scanOffsets(progressive);
    expect(scans.length, "sharp wrote several scans").toBeGreaterThan(1);
    const between = scans[1]!;
    const com = segment(0xfe, Buffer.from("secret comment", "latin1"));
    const input = Buffer.concat([progressive.subarray(0, between), exifSegment(), com, progressive.subarray(between)]);
    // The spliced file is still a valid JPEG carrying the secrets.
    expect(text(input)).toContain(GPS_SECRET);
    const output = Buffer.from(stripPhotoMetadata(input, "jpg")!);
    expect(output.equals(progressive)).toBe(true);
    for (const secret of [GPS_SECRET, OWNER_SECRET, "secret comment"]) expect(text(output)).not.toContain(secret);
    const pixels = async (bytes: Buffer) => sharp(bytes).raw().toBuffer();
    expect((await pixels(output)).equals(await pixels(input))).toBe(true);
  });

  it("keeps APP2 ICC_PROFILE segments (colours stay right) and drops other APP2 (MPF)", async () => {
    const withIcc = await picture().jpeg().withIccProfile("p3").withExif(EXIF).toBuffer();
    expect((await sharp(withIcc).metadata()).icc, "sample has a profile").toBeDefined();
    const mpf = segment(0xe2, Buffer.from(`MPF\0${OWNER_SECRET}`, "latin1"));
    const input = Buffer.concat([withIcc.subarray(0, 2), mpf, withIcc.subarray(2)]);
    const output = Buffer.from(stripPhotoMetadata(input, "jpg")!);
    const after = await sharp(output).metadata();
    expect(after.icc).toBeDefined();
    expect(Buffer.from(after.icc!).equals(Buffer.from((await sharp(withIcc).metadata()).icc!))).toBe(true);
    expect(after.exif).toBeUndefined();
    expect(text(output)).not.toContain(OWNER_SECRET);
  });

  it("keeps stuffed 0xFF00 bytes and RSTn markers inside a scan as data", () => {
    const sos = segment(0xda, Buffer.from([1, 1, 0, 0, 63, 0]));
    const data = Buffer.from([0x12, 0xff, 0x00, 0x34, 0xff, 0xd0, 0x56, 0xff, 0xff, 0xd1, 0x78]);
    const input = Buffer.concat([Buffer.from([0xff, 0xd8]), sos, data, exifSegment(), Buffer.from([0xff, 0xd9])]);
    const output = Buffer.from(stripPhotoMetadata(input, "jpg")!);
    expect(output.equals(Buffer.concat([Buffer.from([0xff, 0xd8]), sos, data, Buffer.from([0xff, 0xd9])]))).toBe(true);
  });

  it("refuses more than 512 segments before the first scan (a 5 MB file of FF D0 pairs), quickly", () => {
    const input = Buffer.alloc(5 * 1024 * 1024, 0);
    input[0] = 0xff;
    input[1] = 0xd8;
    for (let at = 2; at + 1 < input.length; at += 2) {
      input[at] = 0xff;
      input[at + 1] = 0xd0;
    }
    const started = performance.now();
    expect(stripPhotoMetadata(input, "jpg")).toBeNull();
    expect(performance.now() - started).toBeLessThan(500);
  });

  it("copies a scan of 5 MB of restart markers as one run (merged ranges)", () => {
    const sos = segment(0xda, Buffer.from([1, 1, 0, 0, 63, 0]));
    const data = Buffer.alloc(5 * 1024 * 1024);
    for (let at = 0; at + 1 < data.length; at += 2) {
      data[at] = 0xff;
      data[at + 1] = 0xd0 + ((at / 2) % 8);
    }
    const input = Buffer.concat([Buffer.from([0xff, 0xd8]), sos, data, Buffer.from([0xff, 0xd9])]);
    const output = stripPhotoMetadata(input, "jpg")!;
    expect(Buffer.from(output).equals(input)).toBe(true);
  });
});

describe("stripPhotoMetadata: only known image chunks survive", () => {
  it("drops PNG chunks outside the allow-list (C2PA caBX, private ones) and keeps the image's", async () => {
    const png = await picture().png().toBuffer();
    const input = withPngChunks(png, pngChunk("caBX", Buffer.from(`c2pa ${OWNER_SECRET}`, "latin1")), pngChunk("prVt", Buffer.from(GPS_SECRET, "latin1")), pngChunk("gAMA", Buffer.from([0, 0, 0xb1, 0x8f])));
    const output = Buffer.from(stripPhotoMetadata(input, "png")!);
    expect(text(output)).not.toContain(OWNER_SECRET);
    expect(text(output)).not.toContain(GPS_SECRET);
    expect(text(output)).toContain("gAMA");
    expect((await sharp(output).raw().toBuffer()).equals(await sharp(input).raw().toBuffer())).toBe(true);
  });

  it("drops WebP chunks outside the allow-list and rewrites the RIFF size", async () => {
    const webp = await picture().webp({ lossless: true }).withIccProfile("p3").toBuffer();
    const odd = Buffer.concat([Buffer.from("C2PA", "latin1"), Buffer.from([15, 0, 0, 0]), Buffer.from(`${OWNER_SECRET}!`, "latin1").subarray(0, 15), Buffer.from([0])]);
    const input = Buffer.concat([webp, odd]);
    input.writeUInt32LE(input.length - 8, 4);
    const output = Buffer.from(stripPhotoMetadata(input, "webp")!);
    expect(text(output)).not.toContain(OWNER_SECRET.slice(0, 15));
    expect(output.readUInt32LE(4)).toBe(output.length - 8);
    expect(text(output)).toContain("ICCP");
    expect((await sharp(output).metadata()).icc).toBeDefined();
    expect((await sharp(output).raw().toBuffer()).equals(await sharp(webp).raw().toBuffer())).toBe(true);
  });
});
