import { describe, expect, it } from "vitest";
import { markEdited, newDraft } from "~/builder/drafts.ts";
import {
  autoDescription,
  autoTitle,
  blockEditsSchema,
  isBlockTaggable,
  markRemovedStickers,
  moveBlock,
  newBlock,
  newEdits,
  newPage,
  newStory,
  normalAngle,
  normalStory,
  rotateBlock,
  scaleBlock,
  storedStorySchema,
  storyDraftSchema,
  validateStory,
  withAutoText,
  type BlockEdits,
  type StoryBlock,
  type StoryDraft,
} from "./story-draft.ts";

const edits = (left: number, top: number, scale = 1, rotate = 0): BlockEdits => ({ left, top, scale, transform: { rotate, scaleX: 1, scaleY: 1 } });
const storyOf = (...blocks: StoryBlock[][]): StoryDraft => ({ ...newStory(), pages: blocks.map((each, at) => ({ ...newPage(`p${at}`), blocks: each })) });
const block = (id: string, fields: Partial<StoryBlock>): StoryBlock => ({ ...newBlock(id), ...fields });

/** A new paragraph block as spec 000's default text style and our placement give it, written out once. */
const DEFAULT_BLOCK = {
  type: "paragraph",
  text: "",
  fontId: "sans",
  style: { alignment: 1, color: "#333333", size: 28, letterSpacing: -0.4, lineHeight: 1.25 },
  media: null,
  edits: { left: 0.5, top: 0.5, scale: 1, transform: { rotate: 0, scaleX: 1, scaleY: 1 } },
  linkBlock: null,
  userId: null,
  pinId: null,
  isRemoved: false,
} as const;

describe("a new block: spec 000's default text style", () => {
  it("is a paragraph in alignment 1, dark grey, size 28, letter spacing -0.4, line height 1.25, centred on its page", () => {
    expect(newBlock("b1")).toEqual({ id: "b1", ...DEFAULT_BLOCK });
  });

  it("gives a page a white background and no selected block", () => {
    expect(newPage("p1")).toEqual({ id: "p1", backgroundColor: "#ffffff", media: null, blocks: [], selectedBlockId: null });
  });

  it("reads a block sent with only its id as the same defaults", () => {
    const parsed = storyDraftSchema.parse({ pages: [{ id: "p1", blocks: [{ id: "b1" }] }] });
    expect(parsed.pages[0]!.blocks[0]).toEqual({ id: "b1", ...DEFAULT_BLOCK });
    expect(parsed.pages[0]!.backgroundColor).toBe("#ffffff");
  });
});

describe("block geometry", () => {
  it.each([
    ["a move inside the page", edits(0.5, 0.5), 0.1, -0.2, 0.6, 0.3],
    ["past the right edge stops at it", edits(0.9, 0.5), 0.5, 0, 1, 0.5],
    ["past the top edge stops at it", edits(0.5, 0.1), 0, -0.4, 0.5, 0],
    ["past the left and bottom edges stops at both", edits(0.2, 0.8), -1, 3, 0, 1],
    ["a move by nothing", edits(0.25, 0.75), 0, 0, 0.25, 0.75],
    ["a move by a non-number is ignored", edits(0.25, 0.75), Number.NaN, 0.1, 0.25, 0.75],
  ])("moveBlock: %s", (_, start, dx, dy, left, top) => {
    const moved = moveBlock(start, dx, dy);
    expect(moved.left).toBeCloseTo(left, 10);
    expect(moved.top).toBeCloseTo(top, 10);
  });

  it.each([
    ["doubles", 1, 2, 2],
    ["halves", 1, 0.5, 0.5],
    ["stops at the largest, 4", 3, 2, 4],
    ["stops at the smallest, 0.25", 0.5, 0.1, 0.25],
    ["ignores a zero factor", 1.5, 0, 1.5],
    ["ignores a negative factor", 1.5, -2, 1.5],
  ])("scaleBlock %s", (_, from, factor, expected) => {
    expect(scaleBlock(edits(0.5, 0.5, from), factor).scale).toBe(expected);
  });

  it.each([
    ["a quarter turn", 0, 90, 90],
    ["back past zero", 10, -30, -20],
    ["past 180 wraps to the negative side", 170, 20, -170],
    ["past -180 wraps to the positive side", -170, -20, 170],
    ["exactly a half turn is 180", 90, 90, 180],
    ["a whole turn is no turn", 45, 360, 45],
  ])("rotateBlock: %s", (_, from, by, expected) => {
    expect(rotateBlock(edits(0.5, 0.5, 1, from), by).transform.rotate).toBe(expected);
  });

  it.each([
    [-180, 180],
    [540, 180],
    [-190, 170],
    [720, 0],
  ])("normalAngle(%d) is %d", (degrees, expected) => {
    expect(normalAngle(degrees)).toBe(expected);
  });

  it.each([
    ["the default edits", newEdits(), true],
    ["a centre off the page", { ...newEdits(), left: 1.2 }, false],
    ["a negative top", { ...newEdits(), top: -0.01 }, false],
    ["a scale over 4", { ...newEdits(), scale: 4.5 }, false],
    ["a scale under 0.25", { ...newEdits(), scale: 0.2 }, false],
    ["a rotation past 180", { ...newEdits(), transform: { rotate: 181, scaleX: 1, scaleY: 1 } }, false],
    ["a flip", { ...newEdits(), transform: { rotate: 0, scaleX: -1, scaleY: 1 } }, true],
    ["a stretch to nothing", { ...newEdits(), transform: { rotate: 0, scaleX: 0.1, scaleY: 1 } }, false],
  ])("edits at the door: %s", (_, value, accepted) => {
    expect(blockEditsSchema.safeParse(value).success).toBe(accepted);
  });
});

describe("the status rule: editing a story marks its draft edited unless it is on its way", () => {
  it.each([
    ["created", "edited"],
    ["edited", "edited"],
    ["saved", "edited"],
    ["processing", "processing"],
    ["creating", "creating"],
    ["saving", "saving"],
  ] as const)("%s becomes %s", (status, expected) => {
    expect(markEdited({ ...newDraft(), type: "story", story: newStory(), status }, 1).status).toBe(expected);
  });
});

describe("the sticker removal rule", () => {
  const story = storyOf([
    block("m1", { type: "mention_sticker", userId: "7" }),
    block("s1", { type: "product_sticker", pinId: "900" }),
    block("s2", { type: "product_sticker", pinId: "901", isRemoved: true }),
    block("t1", { type: "paragraph", text: "Not a sticker" }),
  ]);
  const removed = (visible: string[]) => markRemovedStickers(story, new Set(visible)).pages[0]!.blocks.map((each) => [each.id, each.isRemoved]);

  it.each([
    ["every target seen", ["user:7", "pin:900", "pin:901"], [["m1", false], ["s1", false], ["s2", false], ["t1", false]]],
    ["the person gone", ["pin:900", "pin:901"], [["m1", true], ["s1", false], ["s2", false], ["t1", false]]],
    ["a product gone", ["user:7", "pin:901"], [["m1", false], ["s1", true], ["s2", false], ["t1", false]]],
    ["nothing seen", [], [["m1", true], ["s1", true], ["s2", true], ["t1", false]]],
  ])("%s", (_, visible, expected) => {
    expect(removed(visible)).toEqual(expected);
  });
});

describe("taggable blocks", () => {
  it.each([
    ["an uploaded image", { type: "image", source: "uploaded", ref: "u1", width: 9, height: 16 }, true],
    ["an uploaded video", { type: "video", source: "uploaded", ref: "u1", width: 9, height: 16 }, true],
    ["an image still on the device", { type: "image", source: "local", ref: "l1", width: 9, height: 16 }, true],
    ["a video still on the device", { type: "video", source: "local", ref: "l1", width: 9, height: 16 }, false],
    ["no media", null, false],
  ] as const)("%s: %s", (_, media, expected) => {
    expect(isBlockTaggable({ media })).toBe(expected);
  });
});

describe("validateStory", () => {
  const fields = (story: StoryDraft) => validateStory(story).map((problem) => [problem.field, problem.reason, problem.values?.maximum]);

  it.each([
    ["a heading of 100 characters", "heading", 100, []],
    ["a heading of 101", "heading", 101, [["story.pages.0.blocks.0.text", "builder:story.textTooLong", 100]]],
    ["a paragraph of 500", "paragraph", 500, []],
    ["a paragraph of 501", "paragraph", 501, [["story.pages.0.blocks.0.text", "builder:story.textTooLong", 500]]],
    ["an ingredient of 101", "ingredient", 101, [["story.pages.0.blocks.0.text", "builder:story.textTooLong", 100]]],
    ["text on an image block", "image", 1, [["story.pages.0.blocks.0.text", "builder:story.textTooLong", 0]]],
  ] as const)("%s", (_, type, length, expected) => {
    expect(fields(storyOf([block("b1", { type, text: "x".repeat(length) })]))).toEqual(expected);
  });

  it("refuses a font the editor does not offer, on the block's fontId", () => {
    expect(fields(storyOf([block("b1", { fontId: "comic-neue" })]))).toEqual([["story.pages.0.blocks.0.fontId", "builder:story.unknownFont", undefined]]);
  });

  it("refuses a block id used twice across pages, and a cover past the last page", () => {
    const story = { ...storyOf([block("b1", {})], [block("b1", {})]), coverPageIndex: 2 };
    expect(fields(story)).toEqual([
      ["story.pages", "builder:story.duplicateId", undefined],
      ["story.coverPageIndex", "builder:story.coverNotAPage", undefined],
    ]);
  });

  it("refuses a person on a product sticker and video media on an image block", () => {
    const story = storyOf([
      block("b1", { type: "product_sticker", pinId: "5", userId: "6" }),
      block("b2", { type: "image", media: { type: "video", source: "uploaded", ref: "u", width: 9, height: 16 } }),
    ]);
    expect(fields(story)).toEqual([
      ["story.pages.0.blocks.0.userId", "builder:story.fieldNotForBlock", undefined],
      ["story.pages.0.blocks.1.media", "builder:story.mediaNotForBlock", undefined],
    ]);
  });

  it.each([
    ["no pages", { pages: [] }, false],
    ["twenty pages", { pages: Array.from({ length: 20 }, (_, at) => ({ id: `p${at}` })) }, true],
    ["twenty-one pages", { pages: Array.from({ length: 21 }, (_, at) => ({ id: `p${at}` })) }, false],
    ["ten blocks on a page", { pages: [{ id: "p", blocks: Array.from({ length: 10 }, (_, at) => ({ id: `b${at}` })) }] }, true],
    ["eleven blocks on a page", { pages: [{ id: "p", blocks: Array.from({ length: 11 }, (_, at) => ({ id: `b${at}` })) }] }, false],
    ["an unknown block type", { pages: [{ id: "p", blocks: [{ id: "b", type: "poll" }] }] }, false],
    ["a background that is not #rrggbb", { pages: [{ id: "p", backgroundColor: "red" }] }, false],
  ])("the door takes %s: %s", (_, value, accepted) => {
    expect(storyDraftSchema.safeParse(value).success).toBe(accepted);
  });

  it("opens a stored story that no longer fits as none", () => {
    expect(storedStorySchema.parse({ pages: "broken" })).toBeNull();
  });
});

describe("title and description from the blocks", () => {
  const story = storyOf(
    [block("b0", { type: "paragraph", text: "  First words  " }), block("b1", { type: "heading", text: "" })],
    [block("b2", { type: "heading", text: "Lemon curd tart" }), block("b3", { type: "paragraph", text: "Second words" })],
  );

  it("takes the first heading with text and the first paragraph with text", () => {
    expect(autoTitle(story)).toBe("Lemon curd tart");
    expect(autoDescription(story)).toBe("First words");
  });

  it.each([
    ["neither edited: both follow the blocks", { title: false, description: false }, "Lemon curd tart", "First words", [true, true]],
    ["the title written now: it is kept", { title: true, description: false }, "Mine", "First words", [false, true]],
    ["the description written now: it is kept", { title: false, description: true }, "Lemon curd tart", "My words", [true, false]],
  ])("%s", (_, edited, title, description, auto) => {
    const made = withAutoText({ title: "Mine", description: "My words", story }, edited);
    expect([made.title, made.description]).toEqual([title, description]);
    expect([made.story.isTitleAutoGenerated, made.story.isDescriptionAutoGenerated]).toEqual(auto);
  });

  it("keeps a title edited before even when this change does not write it", () => {
    const made = withAutoText({ title: "Kept", description: "", story: { ...story, isTitleEdited: true } }, { title: false, description: false });
    expect(made.title).toBe("Kept");
  });
});

describe("normalStory", () => {
  it("drops a selected block that is not on its page and keeps the selected page in range", () => {
    const story = { ...storyOf([block("b1", {})]), selectedPageIndex: 4 };
    story.pages[0] = { ...story.pages[0]!, selectedBlockId: "gone" };
    const normal = normalStory(story);
    expect(normal.selectedPageIndex).toBe(0);
    expect(normal.pages[0]!.selectedBlockId).toBeNull();
  });
});
