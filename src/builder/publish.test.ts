import { describe, expect, it } from "vitest";
import { newDraft, newItem, type PinDraft } from "./drafts.ts";
import { planPin, type PublishableUpload } from "./publish.ts";

const image = (id: string, colour = "#102030"): PublishableUpload => ({
  id,
  kind: "image",
  content_type: "image/jpeg",
  dominant_color: colour,
  images: { "236x": { url: `/media/uploads/7/${id}/236x.jpg`, width: 236, height: 354 }, orig: { url: `/media/uploads/7/${id}/orig.jpg`, width: 1000, height: 1500 } },
  video_url: null,
  pin_id: null,
});
const video = (id: string, poster: boolean): PublishableUpload => ({
  id,
  kind: "video",
  content_type: "video/webm",
  dominant_color: poster ? "#000000" : null,
  images: poster ? { "736x": { url: `/media/uploads/7/${id}/736x.jpg`, width: 736, height: 1308 }, orig: { url: `/media/uploads/7/${id}/poster.jpg`, width: 1080, height: 1920 } } : null,
  video_url: `/media/uploads/7/${id}/video.webm`,
  pin_id: null,
});

function draftWith(uploads: PublishableUpload[], fields: Partial<PinDraft> = {}): PinDraft {
  return {
    ...newDraft(),
    boardId: "55",
    items: uploads.map((upload, at) => newItem(`item-${at}`, { type: upload.kind, source: "uploaded", ref: upload.id, width: null, height: null, durationMs: upload.kind === "video" ? 4200 : null })),
    ...fields,
  };
}
const mapOf = (uploads: PublishableUpload[]) => new Map(uploads.map((upload) => [upload.id, upload]));

describe("the pin a draft publishes as", () => {
  it("is an image pin with the first upload's sizes, colour and signature, and trimmed text", () => {
    const upload = image("a1");
    const result = planPin(draftWith([upload], { title: "  Pear tart ", description: " Buttery ", altText: "   ", websiteLink: "https://bakery.example/tart", isCommentsAllowed: false }), mapOf([upload]));
    expect(result).toEqual({
      plan: {
        kind: "image",
        title: "Pear tart",
        description: "Buttery",
        altText: null,
        link: "https://bakery.example/tart",
        dominantColor: "#102030",
        imageSignature: "a1",
        images: [
          { size: "236x", url: "/media/uploads/7/a1/236x.jpg", width: 236, height: 354 },
          { size: "orig", url: "/media/uploads/7/a1/orig.jpg", width: 1000, height: 1500 },
        ],
        video: null,
        storyPinData: null,
        carouselData: null,
        commentsDisabled: true,
        isShoppingRecAllowed: true,
        pinItemShareable: true,
        uploadIds: ["a1"],
        interestIds: [],
      },
    });
  });

  it("is a video pin whose images are its poster's and whose length the browser measured", () => {
    const upload = video("v1", true);
    const result = planPin(draftWith([upload]), mapOf([upload]));
    expect("plan" in result && result.plan.video).toEqual({
      format: "V_WEBM",
      url: "/media/uploads/7/v1/video.webm",
      mimeType: "video/webm",
      width: 1080,
      height: 1920,
      durationMs: 4200,
      thumbnail: "/media/uploads/7/v1/736x.jpg",
    });
  });

  it("is a carousel of two images, each slot with its own colour and the draft's link unless it has its own", () => {
    const uploads = [image("c1", "#111111"), image("c2", "#222222")];
    const draft = draftWith(uploads, { websiteLink: "https://shop.example/" });
    draft.items[1] = { ...draft.items[1]!, link: "https://shop.example/second", title: "Second" };
    const result = planPin(draft, mapOf(uploads));
    if (!("plan" in result)) throw new Error("expected a plan");
    expect(result.plan.kind).toBe("carousel");
    expect(result.plan.carouselData!.slots.map((slot) => [slot.title, slot.link, slot.dominantColor])).toEqual([
      [null, "https://shop.example/", "#111111"],
      ["Second", "https://shop.example/second", "#222222"],
    ]);
  });
});

describe("what stops a draft from publishing", () => {
  const free = image("f1");
  const taken = { ...image("t1"), pin_id: 99 };
  it.each<[string, PinDraft, PublishableUpload[], Array<[string, string]>]>([
    ["no board", draftWith([free], { boardId: null }), [free], [["boardId", "builder:validation.boardRequired"]]],
    ["no items", draftWith([]), [], [["items", "builder:validation.mediaRequired"]]],
    ["an upload that is not the person's (absent from their uploads)", draftWith([free]), [], [["items.0.media", "builder:validation.mediaNotReady"]]],
    ["an upload another pin shows", draftWith([taken]), [taken], [["items.0.media", "builder:validation.mediaNotReady"]]],
    ["a video with no poster yet", draftWith([video("v2", false)]), [video("v2", false)], [["items.0.media", "builder:validation.videoNeedsPoster"]]],
    ["a video in a carousel", draftWith([free, video("v3", true)]), [free, video("v3", true)], [["items.1.media", "builder:validation.carouselImagesOnly"]]],
    ["the same upload twice in a carousel", draftWith([free, free]), [free], [["items.1.media", "builder:validation.duplicateItem"]]],
    ["a story (made in the story editor)", draftWith([free], { type: "story" }), [free], [["type", "builder:validation.storyNotHere"]]],
  ])("%s", (_, draft, uploads, expected) => {
    const result = planPin(draft, mapOf(uploads));
    expect("problems" in result ? result.problems.map((problem) => [problem.field, problem.reason]) : []).toEqual(expected);
  });

  it("lets a scheduled pin use the uploads it reserved", () => {
    const reserved = { ...image("r1"), pin_id: 4242 };
    expect("plan" in planPin(draftWith([reserved]), mapOf([reserved]), 4242)).toBe(true);
  });
});
