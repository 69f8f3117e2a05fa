import { describe, expect, it } from "vitest";
import { newDraft, type PinDraft } from "~/builder/drafts.ts";
import type { MediaRef } from "~/builder/media-ref.ts";
import type { PublishableUpload } from "~/builder/publish.ts";
import { newBlock, newPage, newStory, type StoryBlock, type StoryPage } from "./story-draft.ts";
import { planStory, storyUploadIds } from "./story-publish.ts";

const tall = (id: string, width = 900, height = 1600): PublishableUpload => ({
  id,
  kind: "image",
  content_type: "image/jpeg",
  dominant_color: "#445566",
  images: { "736x": { url: `/media/uploads/7/${id}/736x.jpg`, width: 736, height: Math.round((736 * height) / width) }, orig: { url: `/media/uploads/7/${id}/orig.jpg`, width, height } },
  video_url: null,
  pin_id: null,
});
const uploaded = (ref: string, type: "image" | "video" = "image", durationMs: number | null = null): MediaRef => ({ type, source: "uploaded", ref, width: null, height: null, durationMs });
const page = (id: string, media: MediaRef | null, blocks: StoryBlock[] = []): StoryPage => ({ ...newPage(id), media, blocks });
const draftOf = (pages: StoryPage[], fields: Partial<PinDraft> = {}): PinDraft => ({ ...newDraft(), type: "story", boardId: "55", title: "Tart", story: { ...newStory(), pages }, ...fields });
const mapOf = (...uploads: PublishableUpload[]) => new Map(uploads.map((upload) => [upload.id, upload]));

describe("the story pin a story draft publishes as", () => {
  const heading = { ...newBlock("h1", "heading"), text: "Lemon tart" };
  const sticker = { ...newBlock("s1", "product_sticker"), pinId: "900" };
  const mention = { ...newBlock("m1", "mention_sticker"), userId: "7" };
  const link = { ...newBlock("l1", "link"), linkBlock: { text: "The recipe", srcUrl: "https://bakery.example/tart", canonicalUrl: null, imageSignature: null, imageUrl: null, isFetching: false } };

  it("carries every page with its image at the upload's sizes, its blocks and the totals; its grid image is the cover's", () => {
    const draft = draftOf([page("p1", uploaded("a1"), [heading]), page("p2", uploaded("a2"), [sticker, mention, link])], { story: { ...newStory(), pages: [page("p1", uploaded("a1"), [heading]), page("p2", uploaded("a2"), [sticker, mention, link])], coverPageIndex: 1 } });
    const result = planStory(draft, mapOf(tall("a1"), tall("a2", 1080, 1920)), new Set(["pin:900"]));
    if (!("plan" in result)) throw new Error(JSON.stringify(result.problems));
    const { plan } = result;
    expect([plan.kind, plan.imageSignature, plan.dominantColor, plan.uploadIds]).toEqual(["story", "a2", "#445566", ["a1", "a2"]]);
    expect(plan.images).toEqual([
      { size: "736x", url: "/media/uploads/7/a2/736x.jpg", width: 736, height: 1308 },
      { size: "orig", url: "/media/uploads/7/a2/orig.jpg", width: 1080, height: 1920 },
    ]);
    const data = plan.storyPinData as { pinTitle: string; pages: Array<Record<string, unknown> & { blocks: Array<Record<string, unknown>> }>; totalVideoDuration: number; staticPageCount: number; hasProductPins: boolean };
    expect([data.pinTitle, data.totalVideoDuration, data.staticPageCount, data.hasProductPins]).toEqual(["Tart", 0, 2, true]);
    expect(data.pages[0]).toMatchObject({ id: "p1", backgroundColor: "#ffffff", image: { url: "/media/uploads/7/a1/736x.jpg", width: 736, height: 1308 } });
    expect(data.pages[0]!.blocks[0]).toMatchObject({ id: "h1", type: "heading", text: "Lemon tart", font_id: "sans" });
    expect(data.pages[1]!.blocks.map((block) => [block.type, block.text, block.pin_id ?? block.user_id ?? block.url, block.is_removed])).toEqual([
      ["product_sticker", "", "900", false],
      ["mention_sticker", "", "7", true],
      ["link", "The recipe", "https://bakery.example/tart", undefined],
    ]);
  });

  it("counts a video page's length and leaves it out of the static pages", () => {
    const clip: PublishableUpload = { ...tall("v1", 1080, 1920), kind: "video", content_type: "video/mp4", video_url: "/media/uploads/7/v1/video.mp4" };
    const result = planStory(draftOf([page("p1", uploaded("a1")), page("p2", uploaded("v1", "video", 6500))]), mapOf(tall("a1"), clip), new Set());
    const data = ("plan" in result ? result.plan.storyPinData : null) as { totalVideoDuration: number; staticPageCount: number; hasProductPins: boolean };
    expect([data.totalVideoDuration, data.staticPageCount, data.hasProductPins]).toEqual([6500, 1, false]);
  });

  it.each([
    ["a cover page without media", [page("p1", null)], mapOf(), [["story.pages.0.media", "builder:story.coverNeedsMedia"]]],
    ["a page of 2:3", [page("p1", uploaded("w1"))], mapOf(tall("w1", 1000, 1500)), [["story.pages.0.media", "builder:story.notStoryRatio"]]],
    ["an upload that is not the author's", [page("p1", uploaded("x1"))], mapOf(), [["story.pages.0.media", "builder:validation.mediaNotReady"]]],
    ["an upload another pin took", [page("p1", uploaded("t1"))], mapOf({ ...tall("t1"), pin_id: 4 }), [["story.pages.0.media", "builder:validation.mediaNotReady"]]],
    [
      "an image block without media and an unaimed sticker",
      [page("p1", uploaded("a1"), [newBlock("i1", "image"), newBlock("s1", "product_sticker")])],
      mapOf(tall("a1")),
      [
        ["story.pages.0.blocks.0.media", "builder:validation.mediaNotReady"],
        ["story.pages.0.blocks.1.pinId", "builder:story.stickerNeedsTarget"],
      ],
    ],
  ])("refuses %s", (_, pages, uploads, expected) => {
    const result = planStory(draftOf(pages), uploads, new Set());
    expect("problems" in result ? result.problems.map((problem) => [problem.field, problem.reason]) : []).toEqual(expected);
  });

  it("refuses a story without a board", () => {
    const result = planStory(draftOf([page("p1", uploaded("a1"))], { boardId: null }), mapOf(tall("a1")), new Set());
    expect("problems" in result ? result.problems.map((problem) => problem.field) : []).toEqual(["boardId"]);
  });

  it("names each upload once, pages and blocks in order", () => {
    const story = { ...newStory(), pages: [page("p1", uploaded("a1"), [{ ...newBlock("i1", "image"), media: uploaded("b1") }]), page("p2", uploaded("a1"))] };
    expect(storyUploadIds(story)).toEqual(["a1", "b1"]);
  });
});
