import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { blockClass, pageClass, placedBlock, storyCss, storyStyle } from "./story-style.ts";

const defaultStyle = { alignment: 1, color: "#333333", size: 28, letterSpacing: -0.4, lineHeight: 1.25 };
const placed = (extra: Record<string, unknown> = {}) => ({
  type: "paragraph",
  text: "Blind-bake the shell.",
  font_id: "serif",
  style: defaultStyle,
  edits: { left: 0.5, top: 0.3, scale: 1.2, transform: { rotate: -8, scaleX: 1, scaleY: 1 } },
  ...extra,
});

describe("a published story's CSS", () => {
  it("gives a page its background and a placed block its place, turn, scale, font, size, colour and alignment", () => {
    expect(storyCss([{ backgroundColor: "#F4E1C1", blocks: [placed()] }])).toBe(
      ".story-p0{background-color:#f4e1c1}" +
        '.story-b0-0{left:50%;top:30%;transform:translate(-50%,-50%) rotate(-8deg) scale(1.2,1.2);font-family:Georgia, Cambria, "Times New Roman", Times, serif;font-size:4.9645cqi;letter-spacing:-0.0709cqi;line-height:1.25;color:#333333;text-align:center}',
    );
  });

  it("stretches and flips with scaleX and scaleY, and aligns to the start or the end", () => {
    const block = placed({ font_id: "mono", style: { ...defaultStyle, alignment: 2, size: 56, color: "#AA0000" }, edits: { left: 0.25, top: 0.75, scale: 2, transform: { rotate: 90, scaleX: -1, scaleY: 0.5 } } });
    expect(storyCss([{ blocks: [placed({ edits: { left: 0, top: 1, scale: 1, transform: { rotate: 0, scaleX: 1, scaleY: 1 } }, style: { ...defaultStyle, alignment: 0 } }), block] }])).toBe(
      '.story-b0-0{left:0%;top:100%;transform:translate(-50%,-50%) rotate(0deg) scale(1,1);font-family:Georgia, Cambria, "Times New Roman", Times, serif;font-size:4.9645cqi;letter-spacing:-0.0709cqi;line-height:1.25;color:#333333;text-align:start}' +
        '.story-b0-1{left:25%;top:75%;transform:translate(-50%,-50%) rotate(90deg) scale(-2,1);font-family:ui-monospace, "SFMono-Regular", Menlo, Consolas, "Liberation Mono", monospace;font-size:9.9291cqi;letter-spacing:-0.0709cqi;line-height:1.25;color:#aa0000;text-align:end}',
    );
  });

  it("names classes by page and block, so a second page's blocks never take the first's", () => {
    expect([pageClass(1), blockClass(1, 0)]).toEqual(["story-p1", "story-b1-0"]);
    expect(storyCss([{ blocks: [] }, { backgroundColor: "#000000", blocks: [placed({ font_id: undefined, style: undefined })] }])).toBe(
      ".story-p1{background-color:#000000}.story-b1-0{left:50%;top:30%;transform:translate(-50%,-50%) rotate(-8deg) scale(1.2,1.2)}",
    );
  });

  it("leaves an older story's blocks, which carry no place, to flow under the page", () => {
    const seeded = { type: "heading", text: "Step 1" };
    expect(placedBlock(seeded)).toBeNull();
    expect(storyCss([{ backgroundColor: "#ffffff", blocks: [seeded] }])).toBe(".story-p0{background-color:#ffffff}");
  });

  it("never writes a stored value it has not checked: a colour that is not #rrggbb, a place off the page, an unknown font", () => {
    expect(storyCss([{ backgroundColor: "red;}body{display:none", blocks: [] }])).toBe("");
    expect(storyCss([{ blocks: [placed({ style: { ...defaultStyle, color: "#333333;}*{display:none" } })] }])).toBe("");
    expect(storyCss([{ blocks: [placed({ edits: { left: 2, top: 0.5, scale: 1, transform: { rotate: 0, scaleX: 1, scaleY: 1 } } })] }])).toBe("");
    expect(storyCss([{ blocks: [placed({ font_id: '"x"}*{color:red' })] }])).toBe(
      ".story-b0-0{left:50%;top:30%;transform:translate(-50%,-50%) rotate(-8deg) scale(1.2,1.2);font-size:4.9645cqi;letter-spacing:-0.0709cqi;line-height:1.25;color:#333333;text-align:center}",
    );
  });

  it("adds the SHA-256 of exactly the CSS it returns to the response's CSP", async () => {
    const hashes: string[] = [];
    const css = await storyStyle({ insertStyleHash: (hash: string) => hashes.push(hash) } as never, [{ backgroundColor: "#123456", blocks: [] }]);
    expect(css).toBe(".story-p0{background-color:#123456}");
    expect(hashes).toEqual([`sha256-${createHash("sha256").update(".story-p0{background-color:#123456}").digest("base64")}`]);
    const none: string[] = [];
    expect(await storyStyle({ insertStyleHash: (hash: string) => none.push(hash) } as never, [{ blocks: [] }])).toBe("");
    expect(none).toEqual([]);
  });
});
