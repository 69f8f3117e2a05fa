import { describe, expect, it } from "vitest";
import { resolveSticker, resolveStickers, type StickerTargets } from "./story-stickers.ts";

const targets: StickerTargets = {
  people: new Map([["7", { id: "7", username: "mira", full_name: "Mira Osei" }]]),
  pins: new Set(["9001"]),
};

describe("a published story's stickers as a reader sees them", () => {
  it("names a mentioned person the reader may be shown, with their profile's username", () => {
    expect(resolveSticker({ type: "mention_sticker", user_id: "7", is_removed: true }, targets)).toEqual({
      type: "mention_sticker",
      user_id: "7",
      user: { id: "7", username: "mira", full_name: "Mira Osei" },
      is_removed: false,
    });
  });

  it("marks a mention of anyone else removed and clears the id it named", () => {
    expect(resolveSticker({ type: "mention_sticker", user_id: "8", is_removed: false }, targets)).toEqual({ type: "mention_sticker", user_id: null, user: null, is_removed: true });
    expect(resolveSticker({ type: "mention_sticker", user_id: "not a number" }, targets)).toMatchObject({ user_id: null, is_removed: true });
  });

  it("keeps a product sticker's pin only while the reader may open it", () => {
    expect(resolveSticker({ type: "product_sticker", pin_id: "9001", is_removed: false }, targets)).toEqual({ type: "product_sticker", pin_id: "9001", is_removed: false });
    expect(resolveSticker({ type: "product_sticker", pin_id: "9002", is_removed: false }, targets)).toEqual({ type: "product_sticker", pin_id: null, is_removed: true });
  });

  it("answers every other block as it is, page by page", () => {
    const heading = { type: "heading", text: "Blood orange tart" };
    const pages = resolveStickers([{ id: "p1", blocks: [heading, { type: "mention_sticker", user_id: "7" }] }], targets);
    expect(pages[0]!.blocks[0]).toBe(heading);
    expect(pages[0]!.blocks[1]).toMatchObject({ user: { username: "mira" }, is_removed: false });
  });
});
