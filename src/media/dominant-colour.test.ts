import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { decodeSmallPng, dominantColourOf } from "./dominant-colour.ts";

describe("the dominant colour", () => {
  it("is the centre of the most frequent 16-level cell", () => {
    // Three pixels in the cell of rgb(200, 40, 40), one white.
    const rgb = Uint8Array.from([200, 40, 40, 207, 47, 33, 193, 32, 46, 255, 255, 255]);
    expect(dominantColourOf(rgb)).toBe("#c82828");
  });

  it("is read from a PNG of every colour type sharp writes", async () => {
    const rgb = await sharp({ create: { width: 8, height: 6, channels: 3, background: { r: 104, g: 152, b: 200 } } }).png().toBuffer();
    const rgba = await sharp({ create: { width: 8, height: 6, channels: 4, background: { r: 104, g: 152, b: 200, alpha: 1 } } }).png().toBuffer();
    const palette = await sharp({ create: { width: 8, height: 6, channels: 3, background: { r: 104, g: 152, b: 200 } } }).png({ palette: true }).toBuffer();
    const grey = await sharp({ create: { width: 8, height: 6, channels: 3, background: { r: 8, g: 8, b: 8 } } }).greyscale().png().toBuffer();
    for (const png of [rgb, rgba, palette]) {
      const decoded = await decodeSmallPng(png);
      expect(decoded && { width: decoded.width, height: decoded.height }).toEqual({ width: 8, height: 6 });
      expect(dominantColourOf(decoded!.rgb)).toBe("#6898c8");
    }
    expect(dominantColourOf((await decodeSmallPng(grey))!.rgb)).toBe("#080808");
  });

  it("refuses what is not a small 8-bit PNG", async () => {
    expect(await decodeSmallPng(new TextEncoder().encode("not a png at all, only some text"))).toBeNull();
    const large = await sharp({ create: { width: 300, height: 300, channels: 3, background: "#fff" } }).png().toBuffer();
    expect(await decodeSmallPng(large)).toBeNull();
  });
});
