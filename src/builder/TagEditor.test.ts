import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import builder from "../../locales/en_US/builder.json";
import { newItem, type DraftItem } from "./drafts.ts";
import { createTag, setTaggedObjects, type PinTag } from "./pin-tags.ts";
import TagEditor from "./TagEditor.tsx";
import type { TagEditorStrings } from "./tag-editor.ts";

const strings = builder.tags as TagEditorStrings;
const image = { type: "image", source: "uploaded", ref: "u1", width: 800, height: 1200 } as const;
const lamp = { id: "100007", type: "product", title: "Brass lamp", media: null } as const;
const render = (item: DraftItem, tags: PinTag[], draftLink = "") =>
  renderToStaticMarkup(createElement(TagEditor, { item, tags, strings, draftLink, onChange: () => undefined, search: () => Promise.resolve([]) }));
const count = (html: string, pattern: RegExp) => html.match(new RegExp(pattern, "g"))?.length ?? 0;

describe("TagEditor's server HTML", () => {
  it("an item with no media, or with a link, says why it takes no tags and offers nothing to press", () => {
    for (const html of [render(newItem("a"), []), render(newItem("a", image), [], "https://shop.example/")]) {
      expect(html).toContain("Tags need an image or an uploaded video, and no link on the Pin");
      expect(html).not.toContain("<button");
    }
  });

  it("shows a labelled dot for each placed tag, lists every tag, and opens the selected one for searching", () => {
    const placed = setTaggedObjects(createTag("t1", { x: 0.4, y: 0.6 }), [lamp]);
    const unplaced = createTag("t2");
    const item: DraftItem = { ...newItem("a", image), pinTagIds: ["t1", "t2"], selectedPinTagId: "t1" };
    const html = render(item, [placed, unplaced]);
    expect(count(html, /class="tag-editor-dot"/)).toBe(1);
    expect(html).toContain('aria-pressed="true" aria-label="Tag 1: Brass lamp. 40% across, 60% down"');
    expect(html).toContain("Tag 2, nothing tagged yet");
    expect(html).toContain("Not placed yet");
    expect(count(html, />Remove tag</)).toBe(2);
    expect(html).toContain('aria-label="Remove Brass lamp from this tag"');
    expect(html).toContain('role="search"');
    expect(html).toContain("Find a Pin or product to tag");
    expect(html).toContain(">Add a tag</button>");
  });

  it("at 10 tags the add button is disabled and says why", () => {
    const tags = Array.from({ length: 10 }, (_, at) => createTag(`t${at}`, { x: 0.1 * at, y: 0.5 }));
    const html = render({ ...newItem("a", image), pinTagIds: tags.map((tag) => tag.id) }, tags);
    expect(html).toMatch(/<button type="button" class="button" disabled="" aria-describedby="[^"]+">Add a tag<\/button>/);
    expect(html).toContain("You can add up to 10 tags");
    expect(html).not.toContain('role="search"');
  });
});
