import { describe, expect, it } from "vitest";
import { newBlock, newEdits, newPage, newStory, type StoryBlock, type StoryDraft } from "./story-draft.ts";
import { newDraft, type PinDraft } from "~/builder/drafts.ts";
import { addBlock, addPage, blockName, builderVideos, changeBlock, docOf, dragEdits, handleKeyEdit, historyShortcut, isTextEntry, keyEdit, publishMedia, rotateDragEdits, scaleDragEdits, uploadProcessed, movePage, pinIdFrom, removeBlock, removePage, selectBlock, storyChanges, withFetchedPage, withStory, withText } from "./editor.ts";

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

describe("story editor handles", () => {
  const start = newEdits();
  const centre = { x: 200, y: 300 };

  it("scales by how much further from the centre the corner is dragged", () => {
    // The corner starts 50 px right and 50 px down of the centre; dragged to 100, 100 it is twice as far.
    expect(scaleDragEdits(start, centre, { x: 250, y: 350 }, { x: 300, y: 400 }).scale).toBeCloseTo(2, 10);
    expect(scaleDragEdits({ ...start, scale: 2 }, centre, { x: 250, y: 350 }, { x: 225, y: 325 }).scale).toBeCloseTo(1, 10);
  });

  it("keeps a dragged scale within 0.25 and 4, and ignores a drag that starts on the centre", () => {
    expect(scaleDragEdits(start, centre, { x: 210, y: 300 }, { x: 600, y: 300 }).scale).toBe(4);
    expect(scaleDragEdits(start, centre, { x: 300, y: 300 }, { x: 201, y: 300 }).scale).toBe(0.25);
    expect(scaleDragEdits(start, centre, centre, { x: 400, y: 400 })).toBe(start);
  });

  it("leaves the place, the turn and the stretch alone when it scales", () => {
    const placed = { left: 0.3, top: 0.7, scale: 1, transform: { rotate: 30, scaleX: -1, scaleY: 1.5 } };
    expect(scaleDragEdits(placed, centre, { x: 250, y: 300 }, { x: 275, y: 300 })).toEqual({ ...placed, scale: 1.5 });
  });

  it("turns by the angle swept around the centre, clockwise on the screen positive", () => {
    // From straight above the centre to straight right of it: a quarter turn clockwise.
    expect(rotateDragEdits(start, centre, { x: 200, y: 200 }, { x: 300, y: 300 }).transform.rotate).toBe(90);
    expect(rotateDragEdits(start, centre, { x: 200, y: 200 }, { x: 100, y: 300 }).transform.rotate).toBe(-90);
    expect(rotateDragEdits(start, centre, { x: 200, y: 200 }, { x: 300, y: 200 }).transform.rotate).toBe(45);
  });

  it("wraps a dragged turn into (-180, 180] and ignores the centre itself", () => {
    const turned = { ...start, transform: { rotate: 170, scaleX: 1, scaleY: 1 } };
    expect(rotateDragEdits(turned, centre, { x: 200, y: 200 }, { x: 300, y: 300 }).transform.rotate).toBe(-100);
    expect(rotateDragEdits(start, centre, { x: 200, y: 200 }, centre)).toBe(start);
  });

  it("works each handle from the keyboard: right and up grow or turn clockwise, left and down the other way", () => {
    expect(handleKeyEdit("scale", "ArrowUp", false)!(start).scale).toBeCloseTo(1.1, 10);
    expect(handleKeyEdit("scale", "ArrowLeft", true)!(start).scale).toBeCloseTo(0.6667, 4);
    expect(handleKeyEdit("rotate", "ArrowRight", false)!(start).transform.rotate).toBe(5);
    expect(handleKeyEdit("rotate", "ArrowDown", true)!(start).transform.rotate).toBe(-45);
    expect(handleKeyEdit("rotate", "+", false)!(start).scale).toBeCloseTo(1.1, 10);
    expect(handleKeyEdit("scale", "Enter", false)).toBeNull();
  });
});

describe("undo and redo keys", () => {
  const keys = (key: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }> = {}) => ({ key, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...mods });

  it("undoes with Ctrl+Z or Cmd+Z and redoes with Shift added or Ctrl+Y", () => {
    expect(historyShortcut(keys("z", { ctrlKey: true }))).toBe("undo");
    expect(historyShortcut(keys("z", { metaKey: true }))).toBe("undo");
    expect(historyShortcut(keys("Z", { ctrlKey: true, shiftKey: true }))).toBe("redo");
    expect(historyShortcut(keys("Z", { metaKey: true, shiftKey: true }))).toBe("redo");
    expect(historyShortcut(keys("y", { ctrlKey: true }))).toBe("redo");
  });

  it("takes no key without Ctrl or Cmd, with Alt, or another letter", () => {
    expect(historyShortcut(keys("z"))).toBeNull();
    expect(historyShortcut(keys("z", { ctrlKey: true, altKey: true }))).toBeNull();
    expect(historyShortcut(keys("x", { ctrlKey: true }))).toBeNull();
    expect(historyShortcut(keys("y", { metaKey: true }))).toBeNull();
  });

  it("leaves text fields to the browser's own undo", () => {
    expect(isTextEntry({ tagName: "TEXTAREA" })).toBe(true);
    expect(isTextEntry({ tagName: "INPUT", type: "text" })).toBe(true);
    expect(isTextEntry({ tagName: "INPUT", type: "url" })).toBe(true);
    expect(isTextEntry({ tagName: "DIV", isContentEditable: true })).toBe(true);
    expect(isTextEntry({ tagName: "INPUT", type: "color" })).toBe(false);
    expect(isTextEntry({ tagName: "INPUT", type: "radio" })).toBe(false);
    expect(isTextEntry({ tagName: "SELECT" })).toBe(false);
    expect(isTextEntry({ tagName: "BUTTON" })).toBe(false);
    expect(isTextEntry(null)).toBe(false);
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

describe("publishing progress", () => {
  const uploaded = (ref: string, type: "image" | "video" = "image") => ({ type, source: "uploaded" as const, ref, width: 900, height: 1600 });

  it("lists each uploaded media item once, pages in order, a page's own before its blocks'", () => {
    const story: StoryDraft = {
      ...newStory("a"),
      pages: [
        { ...newPage("a"), media: uploaded("u1"), blocks: [{ ...newBlock("x", "image"), media: uploaded("u2") }, newBlock("t", "heading")] },
        { ...newPage("b"), media: { ...uploaded("local-1", "video"), source: "local" }, blocks: [{ ...newBlock("y", "video"), media: uploaded("u3", "video") }, { ...newBlock("z", "image"), media: uploaded("u1") }] },
        newPage("c"),
      ],
    };
    expect(publishMedia(story)).toEqual([
      { ref: "u1", kind: "image", page: 0, blockType: null },
      { ref: "u2", kind: "image", page: 0, blockType: "image" },
      { ref: "u3", kind: "video", page: 1, blockType: "video" },
    ]);
    expect(publishMedia(newStory("a"))).toEqual([]);
  });

  it("counts an upload processed once its cuts exist, and a video once it also has its file", () => {
    const cut = { orig: { url: "/o.jpg", width: 900, height: 1600 } };
    expect(uploadProcessed({ kind: "image", images: cut, video_url: null }, "image")).toBe(true);
    expect(uploadProcessed({ kind: "image", images: null, video_url: null }, "image")).toBe(false);
    expect(uploadProcessed({ kind: "video", images: cut, video_url: "/v.mp4" }, "video")).toBe(true);
    expect(uploadProcessed({ kind: "video", images: cut, video_url: null }, "video")).toBe(false);
    expect(uploadProcessed({ kind: "video", images: null, video_url: "/v.mp4" }, "video")).toBe(false);
    expect(uploadProcessed({ kind: "image", images: cut, video_url: null }, "video")).toBe(false);
  });
});

describe("video blocks", () => {
  const video = (ref: string, source: "uploaded" | "local" = "uploaded") => ({ type: "video" as const, source, ref, width: 720, height: 1280, durationMs: 4000 });
  const item = (id: string, media: ReturnType<typeof video> | null, title: string | null = null) => ({ id, media, title, description: null, link: null, canvasJson: null, pinTagIds: [], selectedPinTagId: null });

  it("offers each video uploaded in the builder once, named by its item or its draft, and no video still on the device", () => {
    const drafts = [
      { title: "Soup clips", items: [item("a", video("v1")), item("b", video("v2"), "Stirring")] },
      { title: "  ", items: [item("c", video("v1")), item("d", video("local-9", "local")), item("e", { ...video("i1"), type: "image" } as never), item("f", null)] },
      { title: "Bread", items: [item("g", video("v3"))] },
    ];
    expect(builderVideos(drafts)).toEqual([
      { media: video("v1"), title: "Soup clips" },
      { media: video("v2"), title: "Stirring" },
      { media: video("v3"), title: "Bread" },
    ]);
  });

  it("puts the video block in the editor's menu after the image", () => {
    const story = addBlock(newStory("a"), "v", "video");
    expect(story.pages[0]!.blocks[0]).toMatchObject({ type: "video", media: null, edits: newEdits() });
  });
});
