import { describe, expect, it } from "vitest";
import { SPEC_NEW_DRAFT } from "../../tests/unit/pin-draft-defaults.ts";
import {
  addItem,
  applyChanges,
  draftChangesSchema,
  isTaggable,
  linkProblem,
  markEdited,
  newDraft,
  newItem,
  readStoredDraft,
  removeItem,
  setItemMedia,
  validateDraft,
  type PinDraft,
} from "./drafts.ts";
import type { MediaRef } from "./media-ref.ts";
import { createTag } from "./pin-tags.ts";

const NOW = 1_700_000_000_000;
const blocked = new Set(["spam.example"]);
const image = (ref: string): MediaRef => ({ type: "image", source: "uploaded", ref, width: 1000, height: 1500 });
const localVideo: MediaRef = { type: "video", source: "local", ref: "device-1", width: null, height: null };
const uploadedVideo: MediaRef = { type: "video", source: "uploaded", ref: "up-9", width: 1080, height: 1920 };

/** A draft holding `count` items with ids i0, i1, … and the given type and selection. */
function withCount(count: number, type: PinDraft["type"] = count >= 2 ? "carousel" : "single", selected = 0): PinDraft {
  const items = Array.from({ length: count }, (_, at) => newItem(`i${at}`, image(`m${at}`)));
  return { ...newDraft(), type, items, pinItemIndex: selected };
}

describe("newDraft: spec 001 defaults", () => {
  it("starts single, created, create mode, upload view, publish now, not attempted, everything allowed", () => {
    expect(newDraft()).toEqual({ ...SPEC_NEW_DRAFT, lastEditedTime: null, lastSavedTime: null });
  });
});

describe("addItem: a second item makes a carousel", () => {
  it.each([
    ["first item of a new draft", 0, "single", "single", 1, 0],
    ["second item", 1, "single", "carousel", 2, 1],
    ["third item", 2, "carousel", "carousel", 3, 2],
    ["fifth item (the carousel's last)", 4, "carousel", "carousel", 5, 4],
    ["sixth item is refused", 5, "carousel", "carousel", 5, 0],
    ["second page of a story", 1, "story", "story", 2, 1],
    ["twentieth page of a story", 19, "story", "story", 20, 19],
    ["twenty-first page is refused", 20, "story", "story", 20, 0],
  ] as const)("%s", (_name, count, type, expectedType, expectedCount, expectedIndex) => {
    const next = addItem(withCount(count, type), newItem("new", image("new")), NOW);
    expect(next.type).toBe(expectedType);
    expect(next.items).toHaveLength(expectedCount);
    expect(next.pinItemIndex).toBe(expectedIndex);
  });
});

describe("removeItem: down to one is single; the selection moves to a neighbour", () => {
  it.each([
    ["carousel of 3, remove the selected middle → next one (now at 1)", 3, 1, 1, "carousel", 1, ["i0", "i2"]],
    ["carousel of 3, remove the selected last → previous", 3, 2, 2, "carousel", 1, ["i0", "i1"]],
    ["carousel of 3, remove the selected first → the next, at 0", 3, 0, 0, "carousel", 0, ["i1", "i2"]],
    ["carousel of 3, remove one before the selected → selection follows its item", 3, 2, 0, "carousel", 1, ["i1", "i2"]],
    ["carousel of 3, remove one after the selected → selection unchanged", 3, 0, 2, "carousel", 0, ["i0", "i1"]],
    ["carousel of 2 down to 1 → single", 2, 1, 0, "single", 0, ["i1"]],
    ["single down to none → single, index 0", 1, 0, 0, "single", 0, []],
  ] as const)("%s", (_name, count, selected, removed, expectedType, expectedIndex, expectedIds) => {
    const next = removeItem(withCount(count, undefined, selected), removed, NOW);
    expect(next.type).toBe(expectedType);
    expect(next.pinItemIndex).toBe(expectedIndex);
    expect(next.items.map((item) => item.id)).toEqual(expectedIds);
  });

  it("keeps a story a story when pages are removed down to one", () => {
    expect(removeItem(withCount(2, "story"), 0, NOW).type).toBe("story");
  });

  it("ignores an index outside the items", () => {
    const draft = withCount(2);
    expect(removeItem(draft, 2, NOW)).toBe(draft);
    expect(removeItem(draft, -1, NOW)).toBe(draft);
  });
});

describe("setItemMedia: new media resets the canvas, the tags and the selected tag", () => {
  it("clears canvasJson, pinTagIds and selectedPinTagId of that item only", () => {
    const draft = withCount(2);
    draft.items = [
      { ...draft.items[0]!, canvasJson: "{}", pinTagIds: ["t1", "t2"], selectedPinTagId: "t1" },
      { ...draft.items[1]!, canvasJson: "{}", pinTagIds: ["t3"], selectedPinTagId: "t3" },
    ];
    draft.pinTags = ["t1", "t2", "t3"].map((id) => createTag(id, { x: 0.5, y: 0.5 }));
    const next = setItemMedia(draft, 1, image("fresh"), NOW);
    expect(next.items[1]).toMatchObject({ media: image("fresh"), canvasJson: null, pinTagIds: [], selectedPinTagId: null });
    expect(next.items[0]).toMatchObject({ canvasJson: "{}", pinTagIds: ["t1", "t2"], selectedPinTagId: "t1" });
    expect(next.pinTags.map((tag) => tag.id)).toEqual(["t1", "t2"]);
    expect(next.lastEditedTime).toBe(NOW);
  });

  it("does the same when an autosave sends an item with other media, and keeps tags when the media is the same", () => {
    const draft = withCount(2);
    draft.items = draft.items.map((item, at) => ({ ...item, pinTagIds: [`t${at}`], selectedPinTagId: `t${at}` }));
    draft.pinTags = [createTag("t0", { x: 0.5, y: 0.5 }), createTag("t1", { x: 0.5, y: 0.5 })];
    const sent = draft.items.map((item, at) => (at === 0 ? { ...item, media: image("other") } : item));
    const next = applyChanges(draft, { items: sent });
    expect(next.items[0]).toMatchObject({ pinTagIds: [], selectedPinTagId: null });
    expect(next.items[1]).toMatchObject({ pinTagIds: ["t1"], selectedPinTagId: "t1" });
    expect(next.pinTags.map((tag) => tag.id)).toEqual(["t1"]);
  });
});

describe("isTaggable: media, not a local video, and no link", () => {
  it.each([
    ["no media", null, "", false],
    ["an uploaded image, no link", image("a"), "", true],
    ["an uploaded image with a link", image("a"), "https://shop.example/", false],
    ["a local video, no link", localVideo, "", false],
    ["an uploaded video, no link", uploadedVideo, "", true],
    ["an image still on the device, no link", { ...image("a"), source: "local" } as MediaRef, "", true],
  ] as const)("%s → %s", (_name, media, link, expected) => {
    expect(isTaggable(media, link)).toBe(expected);
  });
});

describe("markEdited: an edit marks the draft edited unless it is in flight", () => {
  it.each([
    ["created", "edited"],
    ["saved", "edited"],
    ["edited", "edited"],
    ["saving", "saving"],
    ["creating", "creating"],
    ["processing", "processing"],
  ] as const)("%s → %s", (status, expected) => {
    expect(markEdited({ ...newDraft(), status }, NOW).status).toBe(expected);
  });
});

describe("linkProblem: at most 2,048 characters, http or https, not a blocked host", () => {
  const at2048 = `https://shop.example/${"a".repeat(2048 - "https://shop.example/".length)}`;
  it.each([
    ["no link", "", null],
    ["https", "https://shop.example/item", null],
    ["http", "http://shop.example/item", null],
    ["exactly 2,048 characters", at2048, null],
    ["2,049 characters", `${at2048}b`, "builder:validation.linkTooLong"],
    ["javascript:", "javascript:alert(1)", "builder:validation.linkScheme"],
    ["ftp", "ftp://shop.example/file", "builder:validation.linkScheme"],
    ["not a URL", "shop.example/item", "builder:validation.linkScheme"],
    ["a blocked host", "https://spam.example/deal", "builder:validation.linkBlocked"],
    ["a subdomain of a blocked host", "https://cheap.spam.example/deal", "builder:validation.linkBlocked"],
    ["a blocked host in capitals with a trailing dot", "https://SPAM.example./deal", "builder:validation.linkBlocked"],
  ])("%s", (_name, link, expected) => {
    expect(at2048).toHaveLength(2048);
    expect(linkProblem(link, blocked)).toBe(expected);
  });
});

describe("validateDraft: one problem per field", () => {
  const field = (draft: Partial<PinDraft>) => validateDraft({ ...newDraft(), ...draft }, blocked).map((problem) => [problem.field, problem.reason, problem.values?.maximum]);

  it.each([
    ["title of 100 characters", { title: "t".repeat(100) }, []],
    ["title of 101 characters", { title: "t".repeat(101) }, [["title", "builder:validation.titleTooLong", 100]]],
    ["description of 500 characters", { description: "d".repeat(500) }, []],
    ["description of 501 characters", { description: "d".repeat(501) }, [["description", "builder:validation.descriptionTooLong", 500]]],
    ["alt text of 501 characters", { altText: "a".repeat(501) }, [["altText", "builder:validation.altTextTooLong", 500]]],
    ["a blocked website link", { websiteLink: "https://spam.example/" }, [["websiteLink", "builder:validation.linkBlocked", undefined]]],
    ["a website link of 2,049 characters", { websiteLink: `https://a.example/${"x".repeat(2031)}` }, [["websiteLink", "builder:validation.linkTooLong", 2048]]],
    ["a date that is no calendar day", { scheduledDate: "2025-02-30" }, [["scheduledDate", "builder:validation.scheduledDate", undefined]]],
    ["a calendar day", { scheduledDate: "2024-02-29", scheduledTime: "23:59" }, []],
    ["a time past the day", { scheduledTime: "24:00" }, [["scheduledTime", "builder:validation.scheduledTime", undefined]]],
    ["11 interest tags", { interestTags: Array.from({ length: 11 }, (_, at) => ({ id: String(at) })) }, [["interestTags", "builder:validation.tooManyTags", 10]]],
    ["a section without a board", { sectionId: "5" }, [["sectionId", "builder:validation.sectionWithoutBoard", undefined]]],
  ] as const)("%s", (_name, draft, expected) => {
    expect(field(draft as Partial<PinDraft>)).toEqual(expected);
  });

  it("names every bad field once, even when a field breaks several rules", () => {
    const problems = field({ title: "t".repeat(101), description: "d".repeat(501), websiteLink: `javascript:${"x".repeat(2048)}` });
    expect(problems).toEqual([
      ["title", "builder:validation.titleTooLong", 100],
      ["description", "builder:validation.descriptionTooLong", 500],
      ["websiteLink", "builder:validation.linkTooLong", 2048],
    ]);
  });

  it("checks each item's own title, description, link and tags under items.N", () => {
    const draft = withCount(2);
    draft.items[1] = { ...draft.items[1]!, title: "t".repeat(101), link: "ftp://x.example/", pinTagIds: ["t1"] };
    expect(validateDraft(draft, blocked).map((problem) => [problem.field, problem.reason])).toEqual([
      ["items.1.title", "builder:validation.titleTooLong"],
      ["items.1.link", "builder:validation.linkScheme"],
      ["items.1.pinTagIds", "builder:validation.notTaggable"],
    ]);
  });

  it.each([
    ["a carousel of 6 items", 6, "carousel", 5],
    ["a story of 21 pages", 21, "story", 20],
  ] as const)("refuses %s", (_name, count, type, maximum) => {
    expect(validateDraft(withCount(count, type), blocked).map((problem) => [problem.field, problem.values?.maximum])).toEqual([["items", maximum]]);
  });
});

describe("the API's change schema and a stored draft read back", () => {
  it("refuses unknown fields and server-owned ones", () => {
    expect(draftChangesSchema.safeParse({ publishingStatus: "succeeded" }).success).toBe(false);
    expect(draftChangesSchema.safeParse({ colour: "red" }).success).toBe(false);
    expect(draftChangesSchema.safeParse({ title: "Lemon cake" }).success).toBe(true);
  });

  it("makes the type follow the items: three items sent as single are a carousel", () => {
    const items = ["a", "b", "c"].map((id) => newItem(id, image(id)));
    expect(applyChanges(newDraft(), { type: "single", items }).type).toBe("carousel");
    expect(applyChanges(newDraft(), { type: "story", items }).type).toBe("story");
  });

  it("falls back to the default of each field a stored draft no longer fits, keeping the rest", () => {
    const draft = readStoredDraft(JSON.stringify({ title: "Kept", type: "panorama", isCommentsAllowed: "yes" }));
    expect(draft).toMatchObject({ title: "Kept", type: "single", isCommentsAllowed: true, status: "created" });
    expect(readStoredDraft("not json")).toEqual({ ...SPEC_NEW_DRAFT, lastEditedTime: null, lastSavedTime: null });
  });
});
