import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { PHOTO_DIR, renderImageJob } from "./media.ts";
import { PHOTOS, photoAttribution } from "./photos.ts";

const licences = readFileSync(path.join(PHOTO_DIR, "LICENSES.md"), "utf8");

describe("the demo world's photographs", () => {
  it("catalogues exactly the committed photo files", () => {
    const files = readdirSync(PHOTO_DIR).filter((name) => name.endsWith(".jpg")).sort();
    expect(PHOTOS.map((photo) => photo.file).sort()).toEqual(files);
  });

  it("keeps the committed photos small: at most 1600 px, under 15 MB together", () => {
    let total = 0;
    for (const photo of PHOTOS) {
      expect(Math.max(photo.width, photo.height), photo.file).toBeLessThanOrEqual(1600);
      total += statSync(path.join(PHOTO_DIR, photo.file)).size;
    }
    expect(total).toBeLessThan(15 * 1024 * 1024);
  });

  it("has the catalogued size, no metadata and the catalogued dominant colour in each file", async () => {
    for (const photo of PHOTOS) {
      const file = path.join(PHOTO_DIR, photo.file);
      const metadata = await sharp(file).metadata();
      expect([metadata.width, metadata.height], photo.file).toEqual([photo.width, photo.height]);
      expect({ exif: metadata.exif, icc: metadata.icc, xmp: metadata.xmp, iptc: metadata.iptc }, photo.file).toEqual({ exif: undefined, icc: undefined, xmp: undefined, iptc: undefined });
      const { dominant } = await sharp(file).stats();
      const hex = `#${[dominant.r, dominant.g, dominant.b].map((value) => value.toString(16).padStart(2, "0")).join("")}`;
      expect(hex, photo.file).toBe(photo.dominant);
    }
  });

  it("names every photo's author, licence and source package in LICENSES.md", () => {
    for (const photo of PHOTOS) {
      const row = licences.split("\n").find((line) => line.startsWith(`| ${photo.file} |`));
      expect(row, photo.file).toBeDefined();
      expect(row).toContain(`| ${photo.author} |`);
      expect(row).toContain(`| ${photo.licence.name} |`);
      expect(row).toContain(`| ${photo.sourcePackage} (`);
    }
  });

  it("gives every photo several captions with distinct titles", () => {
    const titles = PHOTOS.flatMap((photo) => photo.captions.map((caption) => caption.title));
    expect(new Set(titles).size).toBe(titles.length);
    for (const photo of PHOTOS) {
      expect(photo.captions.length, photo.file).toBeGreaterThanOrEqual(3);
      for (const caption of photo.captions) {
        expect(caption.title.length).toBeLessThanOrEqual(100);
        expect(caption.keyword && caption.description && caption.alt, caption.title).toBeTruthy();
      }
    }
  });

  it("attributes a photo to its photographer under its licence", () => {
    const photo = PHOTOS.find((candidate) => candidate.file === "picos-de-europa-path.jpg");
    expect(photo && photoAttribution(photo)).toEqual({
      author: "Aitzol Berasategi",
      ccUrl: "https://creativecommons.org/licenses/by/4.0/",
      licenseName: "CC BY 4.0",
      link: "https://packages.debian.org/bookworm/lomiri-wallpapers-16.04",
      mediaType: "image",
      providerName: "Debian (lomiri-wallpapers-16.04)",
    });
  });
});

describe("rendering a photo", () => {
  const spec = { style: "photo" as const, width: 736, height: 920, palette: ["#587838"], seed: 0, text: null, photo: "aitzgorri-autumn.jpg" };
  const job = {
    spec,
    shareKey: null,
    outputs: [
      { key: "a/orig.jpg", width: 736, height: 920 },
      { key: "a/236x.jpg", width: 236, height: 295 },
      { key: "a/square.jpg", width: 150, height: 150 },
    ],
  };

  it("crops it to every output's exact size, the same bytes every time", async () => {
    const first = await renderImageJob(job);
    const again = await renderImageJob(job);
    expect(first.map((object) => object.key)).toEqual(["a/orig.jpg", "a/236x.jpg", "a/square.jpg"]);
    for (const [index, object] of first.entries()) {
      const metadata = await sharp(object.body).metadata();
      expect([metadata.format, metadata.width, metadata.height]).toEqual(["jpeg", job.outputs[index]?.width, job.outputs[index]?.height]);
      expect(Buffer.from(object.body).equals(Buffer.from(again[index]?.body ?? []))).toBe(true);
    }
  });

  it("shows the photo's pixels, not a drawing: the crop matches the photo's centre", async () => {
    const [orig] = await renderImageJob(job);
    // 736:920 of a 1600x1065 photo is its central 852x1065 strip.
    const expected = await sharp(path.join(PHOTO_DIR, "aitzgorri-autumn.jpg")).extract({ left: 374, top: 0, width: 852, height: 1065 }).resize(8, 10, { fit: "fill" }).raw().toBuffer();
    const actual = await sharp(Buffer.from(orig?.body ?? [])).resize(8, 10, { fit: "fill" }).raw().toBuffer();
    const worst = Math.max(...[...actual].map((value, index) => Math.abs(value - (expected[index] ?? 0))));
    expect(worst).toBeLessThan(24);
  });
});
