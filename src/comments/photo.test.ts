// Tried-it photos are typed by their magic bytes (jpeg/png/webp, sniffed), never by their name or header.
import { describe, expect, it } from "vitest";
import { sniffPhoto, type PhotoExtension } from "./photo.ts";

const bytes = (...values: number[]) => Uint8Array.from(values);

describe("sniffPhoto", () => {
  it.each<[string, Uint8Array, PhotoExtension | null]>([
    ["JPEG", bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10), "jpg"],
    ["PNG", bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0), "png"],
    ["WebP", bytes(0x52, 0x49, 0x46, 0x46, 1, 2, 3, 4, 0x57, 0x45, 0x42, 0x50), "webp"],
    ["RIFF but WAVE", bytes(0x52, 0x49, 0x46, 0x46, 1, 2, 3, 4, 0x57, 0x41, 0x56, 0x45), null],
    ["GIF", bytes(0x47, 0x49, 0x46, 0x38, 0x39, 0x61), null],
    ["HTML named .jpg", new TextEncoder().encode("<html><script>alert(1)</script>"), null],
    ["empty", bytes(), null],
    ["a truncated JPEG header", bytes(0xff, 0xd8), null],
  ])("%s → %s", (_, input, expected) => {
    expect(sniffPhoto(input)).toBe(expected);
  });
});
