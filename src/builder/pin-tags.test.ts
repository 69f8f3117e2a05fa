import { describe, expect, it } from "vitest";
import { applyChanges, draftChangesSchema, newDraft, newItem, readStoredDraft, setItemMedia, validateDraft, type PinDraft } from "./drafts.ts";
import type { MediaRef } from "./media-ref.ts";
import {
  addTag,
  arrowMove,
  createTag,
  moveTag,
  pointToFraction,
  publishableTags,
  reconcileTags,
  removeTag,
  removedTag,
  savedTags,
  selectTag,
  setTagLink,
  setTaggedObjects,
  tagsOfItem,
  updateTag,
  type PinTag,
  type PinTagStatus,
  type TaggedObject,
} from "./pin-tags.ts";

const NOW = 1_700_000_000_000;
const image = (ref: string): MediaRef => ({ type: "image", source: "uploaded", ref, width: 1000, height: 1500 });
const lamp: TaggedObject = { id: "100007", type: "product", title: "Brass lamp", media: "/media/pins/100007/236x.jpg" };
const chair: TaggedObject = { id: "100008", type: "product", title: "Oak chair", media: null };
const room: TaggedObject = { id: "100001", type: "pin", title: "Reading corner", media: null };

/** A tag in a given status, placed at the middle, tagging the lamp. */
const tagIn = (status: PinTagStatus, id = "t1"): PinTag => ({
  id,
  pinTagKey: id,
  link: null,
  status,
  taggedObjectIds: ["100007"],
  taggedObjects: [lamp],
  x: 0.5,
  y: 0.5,
});

/** A draft with one image item (`a`) and one more (`b`). */
function twoItems(): PinDraft {
  return { ...newDraft(), type: "carousel", items: [newItem("a", image("m1")), newItem("b", image("m2"))] };
}

describe("createTag: spec 001 §3 defaults", () => {
  it("is created, tags nothing, links nowhere and is not placed (x and y -1)", () => {
    expect(createTag("t1")).toEqual({ id: "t1", pinTagKey: "t1", link: null, status: "created", taggedObjectIds: [], taggedObjects: [], x: -1, y: -1 });
  });

  it.each([
    ["inside the image", { x: 0.25, y: 0.75 }, 0.25, 0.75],
    ["on the corners", { x: 0, y: 1 }, 0, 1],
    ["past the right and bottom edges", { x: 1.4, y: 2 }, 1, 1],
    ["before the left and top edges", { x: -0.2, y: -3 }, 0, 0],
  ])("placed %s lands at (%s) clamped to the image", (_, at, x, y) => {
    expect(createTag("t1", at)).toMatchObject({ x, y, status: "created" });
  });
});

describe("status transitions: spec 001 §4", () => {
  it.each<[string, PinTagStatus, (tag: PinTag) => PinTag, PinTagStatus]>([
    // Changing a saved tag's objects, coordinates or link target marks it edited.
    ["moving a saved tag", "saved", (tag) => moveTag(tag, 0.1, 0.2), "edited"],
    ["changing a saved tag's objects", "saved", (tag) => setTaggedObjects(tag, [chair]), "edited"],
    ["adding an object to a saved tag", "saved", (tag) => setTaggedObjects(tag, [lamp, chair]), "edited"],
    ["changing a saved tag's link", "saved", (tag) => setTagLink(tag, "https://shop.example/lamp"), "edited"],
    // A created tag was never stored: it stays created through any change.
    ["moving a created tag", "created", (tag) => moveTag(tag, 0.1, 0.2), "created"],
    ["changing a created tag's objects", "created", (tag) => setTaggedObjects(tag, [chair]), "created"],
    ["changing a created tag's link", "created", (tag) => setTagLink(tag, "https://shop.example/lamp"), "created"],
    // Edited stays edited.
    ["moving an edited tag", "edited", (tag) => moveTag(tag, 0.9, 0.9), "edited"],
    // Removing a created tag keeps it created; removing any other marks it deleted.
    ["removing a created tag", "created", removedTag, "created"],
    ["removing a saved tag", "saved", removedTag, "deleted"],
    ["removing an edited tag", "edited", removedTag, "deleted"],
    ["removing a deleted tag", "deleted", removedTag, "deleted"],
    // A change that changes nothing is no edit.
    ["moving a saved tag to where it is", "saved", (tag) => moveTag(tag, 0.5, 0.5), "saved"],
    ["setting a saved tag's same objects", "saved", (tag) => setTaggedObjects(tag, [lamp]), "saved"],
    ["setting a saved tag's same link", "saved", (tag) => setTagLink(tag, ""), "saved"],
    // A deleted tag is gone: it takes no change.
    ["moving a deleted tag", "deleted", (tag) => moveTag(tag, 0.1, 0.1), "deleted"],
  ])("%s (%s) leaves it %s", (_, from, change, to) => {
    expect(change(tagIn(from)).status).toBe(to);
  });

  it("a deleted tag keeps its place, objects and link whatever is asked", () => {
    const deleted = tagIn("deleted");
    expect(moveTag(deleted, 0.1, 0.1)).toBe(deleted);
    expect(setTaggedObjects(deleted, [chair])).toBe(deleted);
    expect(setTagLink(deleted, "https://x.example/")).toBe(deleted);
  });

  it("after publishing, live tags are saved and deleted ones are gone", () => {
    expect(savedTags([tagIn("created", "a"), tagIn("edited", "b"), tagIn("deleted", "c"), tagIn("saved", "d")]).map((tag) => [tag.id, tag.status])).toEqual([
      ["a", "saved"],
      ["b", "saved"],
      ["d", "saved"],
    ]);
  });
});

describe("moveTag and setTaggedObjects keep values in bounds", () => {
  it.each([
    [0.3, 0.6, 0.3, 0.6],
    [1.5, 0.5, 1, 0.5],
    [-1, -1, 0, 0],
  ])("moving to (%s, %s) puts the tag at (%s, %s)", (x, y, atX, atY) => {
    expect(moveTag(tagIn("created"), x, y)).toMatchObject({ x: atX, y: atY });
  });

  it("ignores a move to a coordinate that is not a number", () => {
    const tag = tagIn("saved");
    expect(moveTag(tag, Number.NaN, 0.2)).toBe(tag);
  });

  it("names each pin once and at most 5 pins", () => {
    const many = Array.from({ length: 7 }, (_, at): TaggedObject => ({ id: String(200 + at), type: "pin", title: `P${at}`, media: null }));
    const tag = setTaggedObjects(createTag("t"), [room, room, ...many]);
    expect(tag.taggedObjectIds).toEqual(["100001", "200", "201", "202", "203"]);
    expect(tag.taggedObjects.map((object) => object.id)).toEqual(tag.taggedObjectIds);
  });
});

describe("tags on a draft's items", () => {
  it("adding a tag puts it on the item, in the list, and selects it", () => {
    const draft = addTag(twoItems(), 1, createTag("t1", { x: 0.5, y: 0.5 }));
    expect(draft.items[1]).toMatchObject({ pinTagIds: ["t1"], selectedPinTagId: "t1" });
    expect(draft.items[0]).toMatchObject({ pinTagIds: [], selectedPinTagId: null });
    expect(draft.pinTags.map((tag) => tag.id)).toEqual(["t1"]);
  });

  it("an item takes at most 10 tags; the 11th leaves the draft unchanged", () => {
    let draft = twoItems();
    for (let at = 1; at <= 10; at++) draft = addTag(draft, 0, createTag(`t${at}`));
    expect(draft.items[0]?.pinTagIds).toHaveLength(10);
    expect(addTag(draft, 0, createTag("t11"))).toBe(draft);
  });

  it("a tag id already in use, or an item that is not there, leaves the draft unchanged", () => {
    const draft = addTag(twoItems(), 0, createTag("t1"));
    expect(addTag(draft, 1, createTag("t1"))).toBe(draft);
    expect(addTag(draft, 5, createTag("t2"))).toBe(draft);
  });

  it("removing a created tag drops it from the item and the list", () => {
    const draft = removeTag(addTag(twoItems(), 0, createTag("t1")), "t1");
    expect(draft.items[0]).toMatchObject({ pinTagIds: [], selectedPinTagId: null });
    expect(draft.pinTags).toEqual([]);
  });

  it("removing a saved tag takes it off the item and keeps it in the list, deleted", () => {
    const start: PinDraft = { ...twoItems(), pinTags: [tagIn("saved")] };
    start.items[0] = { ...start.items[0]!, pinTagIds: ["t1"], selectedPinTagId: "t1" };
    const draft = removeTag(start, "t1");
    expect(draft.items[0]).toMatchObject({ pinTagIds: [], selectedPinTagId: null });
    expect(draft.pinTags).toEqual([{ ...tagIn("saved"), status: "deleted" }]);
    expect(tagsOfItem(draft, draft.items[0]!)).toEqual([]);
  });

  it("updateTag changes the one tag by the transition rules", () => {
    const start: PinDraft = { ...twoItems(), pinTags: [tagIn("saved", "t1"), tagIn("saved", "t2")] };
    const draft = updateTag(start, "t2", (tag) => moveTag(tag, 0.2, 0.3));
    expect(draft.pinTags.map((tag) => [tag.id, tag.status, tag.x, tag.y])).toEqual([
      ["t1", "saved", 0.5, 0.5],
      ["t2", "edited", 0.2, 0.3],
    ]);
    expect(updateTag(start, "nope", (tag) => moveTag(tag, 0, 0))).toBe(start);
  });

  it("selects only one of the item's own tags", () => {
    const draft = addTag(addTag(twoItems(), 0, createTag("t1")), 1, createTag("t2"));
    expect(selectTag(draft, 0, null).items[0]?.selectedPinTagId).toBeNull();
    expect(selectTag(draft, 0, "t2")).toBe(draft);
  });

  it("new media on an item clears its tags by the removal rule (spec 001 §4)", () => {
    let draft: PinDraft = { ...twoItems(), pinTags: [tagIn("saved", "old")] };
    draft.items[0] = { ...draft.items[0]!, pinTagIds: ["old"], selectedPinTagId: "old" };
    draft = addTag(draft, 0, createTag("new"));
    const next = setItemMedia(draft, 0, image("m9"), NOW);
    expect(next.items[0]).toMatchObject({ pinTagIds: [], selectedPinTagId: null });
    expect(next.pinTags.map((tag) => [tag.id, tag.status])).toEqual([["old", "deleted"]]);
  });

  it("reconciling lets an item go of unknown, deleted and doubly named tags", () => {
    const draft: PinDraft = { ...twoItems(), pinTags: [tagIn("created", "t1"), tagIn("deleted", "t2")] };
    draft.items[0] = { ...draft.items[0]!, pinTagIds: ["t1", "t2", "ghost"], selectedPinTagId: "ghost" };
    draft.items[1] = { ...draft.items[1]!, pinTagIds: ["t1"], selectedPinTagId: "t1" };
    const next = reconcileTags(draft);
    expect(next.items.map((item) => [item.pinTagIds, item.selectedPinTagId])).toEqual([
      [["t1"], null],
      [[], null],
    ]);
    expect(next.pinTags.map((tag) => [tag.id, tag.status])).toEqual([
      ["t1", "created"],
      ["t2", "deleted"],
    ]);
  });

  it("publishes only live, placed tags that point at a pin, with their item's index", () => {
    let draft = twoItems();
    draft = addTag(draft, 0, setTaggedObjects(createTag("placed", { x: 0.1, y: 0.2 }), [lamp]));
    draft = addTag(draft, 0, setTaggedObjects(createTag("unplaced"), [lamp]));
    draft = addTag(draft, 1, createTag("empty", { x: 0.5, y: 0.5 }));
    draft = addTag(draft, 1, setTaggedObjects(createTag("second", { x: 0.9, y: 0.9 }), [room, chair]));
    expect(publishableTags(draft).map(({ itemIndex, tag }) => [itemIndex, tag.id])).toEqual([
      [0, "placed"],
      [1, "second"],
    ]);
  });
});

describe("keyboard and pointer placement", () => {
  it.each([
    ["ArrowRight", false, 0.51, 0.5],
    ["ArrowLeft", false, 0.49, 0.5],
    ["ArrowUp", false, 0.5, 0.49],
    ["ArrowDown", false, 0.5, 0.51],
    ["ArrowRight", true, 0.6, 0.5],
    ["ArrowUp", true, 0.5, 0.4],
  ])("%s (shift %s) from the centre moves to (%s, %s)", (key, large, x, y) => {
    expect(arrowMove({ x: 0.5, y: 0.5 }, key, large)).toEqual({ x, y });
  });

  it("stops at the image's edges", () => {
    expect(arrowMove({ x: 0.95, y: 0.02 }, "ArrowRight", true)).toEqual({ x: 1, y: 0.02 });
    expect(arrowMove({ x: 0.95, y: 0.02 }, "ArrowUp", true)).toEqual({ x: 0.95, y: 0 });
  });

  it("moves an unplaced tag from the centre, and ignores other keys", () => {
    expect(arrowMove({ x: -1, y: -1 }, "ArrowDown", false)).toEqual({ x: 0.5, y: 0.51 });
    expect(arrowMove({ x: 0.5, y: 0.5 }, "Enter", false)).toBeNull();
  });

  it.each([
    ["the middle of a 400×600 box at (100, 50)", 300, 350, { x: 0.5, y: 0.5 }],
    ["its top-left corner", 100, 50, { x: 0, y: 0 }],
    ["a point a quarter across and down", 200, 200, { x: 0.25, y: 0.25 }],
    ["outside it, clamped to its edge", 600, 0, { x: 1, y: 0 }],
  ])("a tap at %s", (_, clientX, clientY, expected) => {
    expect(pointToFraction(clientX, clientY, { left: 100, top: 50, width: 400, height: 600 })).toEqual(expected);
  });

  it("has no place in an image with no size yet", () => {
    expect(pointToFraction(10, 10, { left: 0, top: 0, width: 0, height: 0 })).toBeNull();
  });
});

describe("draft fields and validation", () => {
  const tagged = (): PinDraft => addTag({ ...newDraft(), items: [newItem("a", image("m1"))] }, 0, setTaggedObjects(createTag("t1", { x: 0.5, y: 0.5 }), [lamp]));

  it("a new draft has no tags", () => {
    expect(newDraft().pinTags).toEqual([]);
  });

  it("a tagged draft on a taggable item has no problems", () => {
    expect(validateDraft(tagged(), new Set())).toEqual([]);
  });

  it.each<[string, (draft: PinDraft) => PinDraft, Array<{ field: string; reason: string }>]>([
    ["x past the image", (draft) => ({ ...draft, pinTags: [{ ...draft.pinTags[0]!, x: 1.2 }] }), [{ field: "pinTags.0.x", reason: "builder:validation.tagPosition" }]],
    ["y before the image", (draft) => ({ ...draft, pinTags: [{ ...draft.pinTags[0]!, y: -0.5 }] }), [{ field: "pinTags.0.y", reason: "builder:validation.tagPosition" }]],
    ["a link that is not http", (draft) => ({ ...draft, pinTags: [{ ...draft.pinTags[0]!, link: "ftp://shop.example/" }] }), [{ field: "pinTags.0.link", reason: "builder:validation.linkScheme" }]],
    ["a link to a blocked host", (draft) => ({ ...draft, pinTags: [{ ...draft.pinTags[0]!, link: "https://spam.example/x" }] }), [{ field: "pinTags.0.link", reason: "builder:validation.linkBlocked" }]],
    ["one pin named twice", (draft) => ({ ...draft, pinTags: [{ ...draft.pinTags[0]!, taggedObjectIds: ["100007", "100007"] }] }), [{ field: "pinTags.0.taggedObjectIds", reason: "builder:validation.duplicateTaggedPin" }]],
    ["two tags of one id", (draft) => ({ ...draft, pinTags: [draft.pinTags[0]!, draft.pinTags[0]!] }), [{ field: "pinTags", reason: "builder:validation.duplicateTag" }]],
    ["an item naming a tag that is not there", (draft) => ({ ...draft, pinTags: [] }), [{ field: "items.0.pinTagIds", reason: "builder:validation.unknownTag" }]],
    ["a tag on an item with a link (untaggable)", (draft) => ({ ...draft, websiteLink: "https://shop.example/" }), [{ field: "items.0.pinTagIds", reason: "builder:validation.notTaggable" }]],
    [
      "a tag on a video still on the device (untaggable)",
      (draft) => ({ ...draft, items: [{ ...draft.items[0]!, media: { type: "video", source: "local", ref: "d1", width: null, height: null } }] }),
      [{ field: "items.0.pinTagIds", reason: "builder:validation.notTaggable" }],
    ],
  ])("%s is a problem on its field", (_, change, expected) => {
    expect(validateDraft(change(tagged()), new Set(["spam.example"]))).toEqual(expected);
  });

  it("a deleted tag's place is not checked (it is only waiting to be removed)", () => {
    const draft = { ...newDraft(), pinTags: [{ ...tagIn("deleted"), x: 7 }] };
    expect(validateDraft(draft, new Set())).toEqual([]);
  });

  it("an unplaced tag is a valid draft (it is placed before publishing)", () => {
    const draft = addTag({ ...newDraft(), items: [newItem("a", image("m1"))] }, 0, createTag("t1"));
    expect(validateDraft(draft, new Set())).toEqual([]);
  });

  it("the changes schema takes tags with their defaults and bounds each list", () => {
    const parsed = draftChangesSchema.parse({ pinTags: [{ id: "t1", pinTagKey: "t1" }] });
    expect(parsed.pinTags).toEqual([{ id: "t1", pinTagKey: "t1", link: null, status: "created", taggedObjectIds: [], taggedObjects: [], x: -1, y: -1 }]);
    const sixPins = ["1", "2", "3", "4", "5", "6"];
    expect(draftChangesSchema.safeParse({ pinTags: [{ id: "t1", pinTagKey: "t1", taggedObjectIds: sixPins }] }).success).toBe(false);
    expect(draftChangesSchema.safeParse({ pinTags: Array.from({ length: 401 }, (_, at) => ({ id: `t${at}`, pinTagKey: `t${at}` })) }).success).toBe(false);
    expect(draftChangesSchema.safeParse({ pinTags: [{ id: "t1", pinTagKey: "t1", taggedObjectIds: ["not-a-pin"] }] }).success).toBe(false);
    expect(draftChangesSchema.safeParse({ pinTags: [{ id: "t1", pinTagKey: "t1", taggedObjects: [{ ...lamp, media: "https://elsewhere.example/x.jpg" }] }] }).success).toBe(false);
    expect(draftChangesSchema.safeParse({ pinTags: [{ id: "t1", pinTagKey: "t1", taggedObjects: [{ ...lamp, media: "//elsewhere.example/x.jpg" }] }] }).success).toBe(false);
  });

  it("applying changes whose item got new media drops the item's created tags", () => {
    const draft = tagged();
    const next = applyChanges(draft, { items: [{ ...draft.items[0]!, media: image("m2") }] });
    expect(next.items[0]).toMatchObject({ pinTagIds: [], selectedPinTagId: null });
    expect(next.pinTags).toEqual([]);
  });

  it("a stored draft reads its tags back, and a broken tag list as none", () => {
    expect(readStoredDraft(JSON.stringify(tagged())).pinTags).toEqual(tagged().pinTags);
    expect(readStoredDraft(JSON.stringify({ ...tagged(), pinTags: "nope" })).pinTags).toEqual([]);
  });
});
