import { describe, expect, it } from "vitest";
import { newItem, type DraftItem } from "./drafts.ts";
import { addTag, createTag, moveTag, removeTag, selectTag, setTaggedObjects, updateTag, type PinTag, type TaggedObject } from "./pin-tags.ts";
import { canAddObject, canAddTag, newTagId, onItem, positionText, taggableResults, tagLabel, type TagEditorStrings } from "./tag-editor.ts";

const strings = {
  tagLabel: "Tag {{number}}: {{name}}",
  emptyTag: "Tag {{number}}, nothing tagged yet",
  position: "{{x}}% across, {{y}}% down",
  notPlaced: "Not placed yet",
  untitled: "Untitled Pin",
} as TagEditorStrings;

const lamp: TaggedObject = { id: "7", type: "product", title: "Brass lamp", media: null };
const rug: TaggedObject = { id: "8", type: "pin", title: "", media: null };
const item = (): DraftItem => newItem("a", { type: "image", source: "uploaded", ref: "u1", width: 800, height: 1200 });

describe("onItem: a tag operation on one item", () => {
  it("adds a tag to the item and the list, leaving another item's tags alone", () => {
    const other: PinTag = { ...createTag("other", { x: 0.1, y: 0.1 }), status: "saved" };
    const change = onItem(item(), [other], (draft) => addTag(draft, 0, createTag("t1", { x: 0.4, y: 0.6 })));
    expect(change.item).toMatchObject({ id: "a", pinTagIds: ["t1"], selectedPinTagId: "t1" });
    expect(change.pinTags.map((tag) => [tag.id, tag.status])).toEqual([
      ["other", "saved"],
      ["t1", "created"],
    ]);
  });

  it("moves, selects and removes by the spec's rules", () => {
    const saved: PinTag = { ...createTag("t1", { x: 0.5, y: 0.5 }), status: "saved" };
    const start = { ...item(), pinTagIds: ["t1"], selectedPinTagId: null };
    const moved = onItem(start, [saved], (draft) => selectTag(updateTag(draft, "t1", (tag) => moveTag(tag, 0.6, 0.5)), 0, "t1"));
    expect(moved.item.selectedPinTagId).toBe("t1");
    expect(moved.pinTags[0]).toMatchObject({ x: 0.6, status: "edited" });
    const removed = onItem(moved.item, moved.pinTags, (draft) => removeTag(draft, "t1"));
    expect(removed.item).toMatchObject({ pinTagIds: [], selectedPinTagId: null });
    expect(removed.pinTags.map((tag) => tag.status)).toEqual(["deleted"]);
  });
});

describe("labels", () => {
  it.each<[string, PinTag, number, string]>([
    ["an empty tag", createTag("t"), 0, "Tag 1, nothing tagged yet"],
    ["a tag on one pin", setTaggedObjects(createTag("t"), [lamp]), 2, "Tag 3: Brass lamp"],
    ["a tag on two pins, one untitled", setTaggedObjects(createTag("t"), [lamp, rug]), 0, "Tag 1: Brass lamp, Untitled Pin"],
  ])("%s", (_, tag, index, expected) => {
    expect(tagLabel(strings, tag, index)).toBe(expected);
  });

  it.each<[string, PinTag, string]>([
    ["a placed tag in whole percent", createTag("t", { x: 0.254, y: 0.666 }), "25% across, 67% down"],
    ["an unplaced tag", createTag("t"), "Not placed yet"],
  ])("position of %s", (_, tag, expected) => {
    expect(positionText(strings, tag)).toBe(expected);
  });
});

describe("limits", () => {
  it("an item takes 10 tags, a tag 5 pins", () => {
    expect(canAddTag({ ...item(), pinTagIds: Array.from({ length: 9 }, (_, at) => `t${at}`) })).toBe(true);
    expect(canAddTag({ ...item(), pinTagIds: Array.from({ length: 10 }, (_, at) => `t${at}`) })).toBe(false);
    const pins = (count: number) => Array.from({ length: count }, (_, at): TaggedObject => ({ id: String(at + 1), type: "pin", title: "", media: null }));
    expect(canAddObject(setTaggedObjects(createTag("t"), pins(4)))).toBe(true);
    expect(canAddObject(setTaggedObjects(createTag("t"), pins(5)))).toBe(false);
  });

  it("tag ids are unique and fit the draft schema", () => {
    const a = newTagId();
    expect(a).not.toBe(newTagId());
    expect(a.length).toBeLessThanOrEqual(64);
  });
});

describe("taggableResults: search answers as things to tag", () => {
  it("keeps pins, marks products, keeps only on-site image paths", () => {
    const data = {
      results: [
        { type: "pin", id: "100007", kind: "product", title: "Wool overshirt", image: { url: "/media/pins/100007/236x.jpg" } },
        { type: "pin", id: "100005", kind: "recipe", title: "Banana bread", image: { url: "https://elsewhere.example/x.jpg" } },
        { type: "board", id: "10002", name: "Weeknight" },
        { type: "pin", id: "not-an-id", kind: "image", title: "Broken" },
        { type: "pin", id: "100001", kind: "image", title: "Orzo", image: { url: "//cdn.example/x.jpg" } },
      ],
    };
    expect(taggableResults(data)).toEqual([
      { id: "100007", type: "product", title: "Wool overshirt", media: "/media/pins/100007/236x.jpg" },
      { id: "100005", type: "pin", title: "Banana bread", media: null },
      { id: "100001", type: "pin", title: "Orzo", media: null },
    ]);
  });

  it("takes at most a page of 8, and nothing from an answer of another shape", () => {
    const many = { results: Array.from({ length: 12 }, (_, at) => ({ type: "pin", id: String(at + 1), kind: "image", title: `P${at}`, image: null })) };
    expect(taggableResults(many).map((each) => each.id)).toEqual(["1", "2", "3", "4", "5", "6", "7", "8"]);
    expect(taggableResults(null)).toEqual([]);
    expect(taggableResults({ results: "no" })).toEqual([]);
  });
});

describe("the editor's words", () => {
  it("every string it uses is in each locale's builder tags table", async () => {
    const { tagEditorStrings } = await import("./tag-editor.ts");
    const keys = Object.values(tagEditorStrings(((key: string) => key) as never)).map((key) => key.replace("builder:tags.", ""));
    for (const locale of ["en_US", "fr", "ar_SA"]) {
      const table = ((await import(`../../locales/${locale}/builder.json`)) as { default: { tags: Record<string, string> } }).default.tags;
      expect(keys.filter((key) => !table[key]), locale).toEqual([]);
    }
  });
});
