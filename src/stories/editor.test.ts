import { describe, expect, it } from "vitest";
import { newBlock, newEdits, newPage, newStory, type StoryBlock, type StoryDraft } from "./story-draft.ts";
import { newDraft, type PinDraft } from "~/builder/drafts.ts";
import { addBlock, addPage, blockName, changeBlock, docOf, dragEdits, keyEdit, movePage, pinIdFrom, removeBlock, removePage, selectBlock, storyChanges, withFetchedPage, withStory, withText } from "./editor.ts";

const threePages = (): StoryDraft => ({ ...newStory("a"), pages: [newPage("a"), newPage("b"), newPage("c")] });
const ids = (story: StoryDraft) => story.pages.map((page) => page.id);

describe("story editor pages", () => {
  it("adds a page after the one shown and shows it, moving the cover along when it comes later", () => {
    const story = { ...threePages(), selectedPageIndex: 0, coverPageIndex: 2 };
    const added = addPage(story, "new");
    expect(ids(added)).toEqual(["a", "new", "b", "c"]);
    expect(added.selectedPageIndex).toBe(1);
    expect(added.coverPageIndex).toBe(3);
  });

  it("adds no page past 20", () => {
    const full = { ...newStory("p0"), pages: Array.from({ length: 20 }, (_, at) => newPage(`p${at}`)) };
    expect(addPage(full, "extra")).toBe(full);
  });

  it("removes a page but never the last one", () => {
    const story = { ...threePages(), selectedPageIndex: 2, coverPageIndex: 2 };
    const removed = removePage(story, 0);
    expect(ids(removed)).toEqual(["b", "c"]);
    expect(removed.selectedPageIndex).toBe(1);
    expect(removed.coverPageIndex).toBe(1);
    const one = newStory("only");
    expect(removePage(one, 0)).toBe(one);
  });

  it("puts the cover on the first page when its page is removed", () => {
    const removed = removePage({ ...threePages(), coverPageIndex: 1 }, 1);
    expect(ids(removed)).toEqual(["a", "c"]);
    expect(removed.coverPageIndex).toBe(0);
  });

  it("moves a page and the shown page and cover follow their pages", () => {
    const story = { ...threePages(), selectedPageIndex: 0, coverPageIndex: 1 };
    const moved = movePage(story, 0, 2);
    expect(ids(moved)).toEqual(["b", "c", "a"]);
    expect(moved.selectedPageIndex).toBe(2);
    expect(moved.coverPageIndex).toBe(0);
    const back = movePage(moved, 2, 0);
    expect(ids(back)).toEqual(["a", "b", "c"]);
    expect(back.selectedPageIndex).toBe(0);
    expect(back.coverPageIndex).toBe(1);
    expect(movePage(story, 0, 3)).toBe(story);
  });
});

describe("story editor blocks", () => {
  it("adds a selected block to the page shown; a heading starts at size 40, a link with an empty address", () => {
    const story = addBlock(addBlock(newStory("a"), "h", "heading"), "l", "link");
    const page = story.pages[0]!;
    expect(page.blocks.map((block) => block.id)).toEqual(["h", "l"]);
    expect(page.selectedBlockId).toBe("l");
    expect(page.blocks[0]!.style.size).toBe(40);
    expect(page.blocks[0]!.edits).toEqual({ left: 0.5, top: 0.5, scale: 1, transform: { rotate: 0, scaleX: 1, scaleY: 1 } });
    expect(page.blocks[1]!.edits.top).toBe(0.6);
    expect(page.blocks[1]!.linkBlock).toEqual({ text: "", srcUrl: "", canonicalUrl: null, imageSignature: null, imageUrl: null, isFetching: false });
  });

  it("adds no eleventh block to a page", () => {
    let story = newStory("a");
    for (let at = 0; at < 10; at++) story = addBlock(story, `b${at}`, "paragraph");
    expect(addBlock(story, "b10", "paragraph")).toBe(story);
  });

  it("selects only a block on the page shown and clears the selection when the block goes", () => {
    const story = { ...newStory("a"), pages: [{ ...newPage("a"), blocks: [newBlock("x")] }, { ...newPage("b"), blocks: [newBlock("y")] }] };
    expect(selectBlock(story, "y")).toBe(story);
    const selected = selectBlock(story, "x");
    expect(selected.pages[0]!.selectedBlockId).toBe("x");
    const removed = removeBlock(selected, "x");
    expect(removed.pages[0]!.blocks).toEqual([]);
    expect(removed.pages[0]!.selectedBlockId).toBeNull();
  });

  it("changes one block by id, wherever it is", () => {
    const story = { ...newStory("a"), pages: [newPage("a"), { ...newPage("b"), blocks: [newBlock("y")] }] };
    const changed = changeBlock(story, "y", (block) => ({ ...block, text: "Hello" }));
    expect(changed.pages[1]!.blocks[0]!.text).toBe("Hello");
    expect(changed.pages[0]).toBe(story.pages[0]);
  });
});

describe("story editor keys and drags", () => {
  const start = newEdits();

  it("nudges by 1% of the page with an arrow and 10% with Shift", () => {
    expect(keyEdit("ArrowRight", false)!(start)).toMatchObject({ left: 0.51, top: 0.5 });
    expect(keyEdit("ArrowUp", false)!(start)).toMatchObject({ left: 0.5, top: 0.49 });
    expect(keyEdit("ArrowLeft", true)!(start)).toMatchObject({ left: 0.4, top: 0.5 });
    expect(keyEdit("ArrowDown", true)!(start).top).toBeCloseTo(0.6, 10);
  });

  it("scales with + and - and rotates with [ and ]", () => {
    expect(keyEdit("+", false)!(start).scale).toBeCloseTo(1.1, 10);
    expect(keyEdit("-", true)!(start).scale).toBeCloseTo(0.6667, 4);
    expect(keyEdit("]", false)!(start).transform.rotate).toBe(5);
    expect(keyEdit("[", true)!(start).transform.rotate).toBe(-45);
  });

  it("takes no other key", () => {
    expect(keyEdit("a", false)).toBeNull();
    expect(keyEdit("Enter", true)).toBeNull();
  });

  it("turns a drag in pixels into fractions of the canvas, keeping the centre on the page", () => {
    expect(dragEdits(start, 36, -64, 360, 640)).toMatchObject({ left: 0.6, top: 0.4 });
    expect(dragEdits(start, 1000, 1000, 360, 640)).toMatchObject({ left: 1, top: 1 });
    expect(dragEdits(start, 10, 10, 0, 640)).toBe(start);
  });
});

describe("block names", () => {
  const types = { heading: "Heading", image: "Image" };
  it("names a block by its type and text, or its number when it has no text", () => {
    expect(blockName({ type: "heading", text: "  Autumn soup " }, 1, types, "{{type}}: {{label}}")).toBe("Heading: Autumn soup");
    expect(blockName({ type: "image", text: "" }, 3, types, "{{type}}: {{label}}")).toBe("Image: 3");
  });
});

describe("story editor doc", () => {
  const saved = (): PinDraft => ({ ...newDraft(), type: "story", story: newStory("a") });

  it("follows the first heading for the title until the person writes one", () => {
    const doc = docOf(saved());
    const headed = withStory(doc, { ...doc.story, pages: [{ ...newPage("a"), blocks: [{ ...newBlock("h", "heading"), text: "Soup night" }] }] });
    expect(headed.title).toBe("Soup night");
    expect(headed.story.isTitleAutoGenerated).toBe(true);
    const written = withText(headed, "title", "My soups");
    expect(written.title).toBe("My soups");
    expect(written.story.isTitleEdited).toBe(true);
    expect(written.story.isTitleAutoGenerated).toBe(false);
    const later = withStory(written, { ...written.story, pages: [{ ...newPage("a"), blocks: [{ ...newBlock("h", "heading"), text: "Other" }] }] });
    expect(later.title).toBe("My soups");
    expect(later.description).toBe("");
  });

  it("sends only the changed fields, and the story whole when it changed", () => {
    const draft = saved();
    expect(storyChanges(draft, docOf(draft), "UTC")).toEqual({});
    const doc = { ...docOf(draft), boardId: "10001" };
    expect(storyChanges(draft, doc, "UTC")).toEqual({ boardId: "10001" });
    const story = addPage(draft.story!, "b");
    expect(storyChanges(draft, { ...docOf(draft), story }, "UTC")).toEqual({ story });
  });

  it("sends the time zone with a schedule", () => {
    const draft = saved();
    const doc = { ...docOf(draft), publishOption: "schedule" as const, scheduledDate: "2030-01-02", scheduledTime: "09:30" };
    expect(storyChanges(draft, doc, "Europe/Paris")).toEqual({ publishOption: "schedule", scheduledDate: "2030-01-02", scheduledTime: "09:30", timeZone: "Europe/Paris" });
  });

  it("reads a product pin from its address or its number", () => {
    expect(pinIdFrom("123")).toBe("123");
    expect(pinIdFrom(" https://pinloom.example/pin/4567/ ")).toBe("4567");
    expect(pinIdFrom("/pin/89/?utm=x")).toBe("89");
    expect(pinIdFrom("https://pinloom.example/board/1/")).toBeNull();
    expect(pinIdFrom("12a")).toBeNull();
  });
});

describe("link blocks", () => {
  const link = (text: string): StoryBlock => ({ ...newBlock("l", "link"), text, linkBlock: { text, srcUrl: "https://example.com/soup", canonicalUrl: null, imageSignature: null, imageUrl: null, isFetching: true } });
  const page = { title: "  Squash soup, the long way  ", link: "https://example.com/recipes/soup", items: [{ src: "https://example.com/soup.jpg" }, { src: "https://example.com/b.jpg" }] };

  it("takes the page's title, canonical address and first image when the person wrote no text", () => {
    expect(withFetchedPage(link(""), page)).toMatchObject({
      text: "Squash soup, the long way",
      linkBlock: { text: "Squash soup, the long way", srcUrl: "https://example.com/soup", canonicalUrl: "https://example.com/recipes/soup", imageUrl: "https://example.com/soup.jpg", isFetching: false },
    });
  });

  it("keeps the person's own text and cuts a long title to 100 characters", () => {
    expect(withFetchedPage(link("Full recipe"), page).text).toBe("Full recipe");
    expect(withFetchedPage(link(""), { title: "x".repeat(150), link: "", items: [] })).toMatchObject({ text: "x".repeat(100), linkBlock: { canonicalUrl: null, imageUrl: null } });
  });
});
