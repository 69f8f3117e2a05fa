import { afterEach, describe, expect, it, vi } from "vitest";
import { perViewer } from "./viewer-values.ts";

interface Props {
  pinId: string;
  quickSave: boolean;
  locale: string;
}

/** An island that hands back the props it was called with. */
function wrapped() {
  const seen: object[] = [];
  const Island = perViewer((props: Props) => {
    seen.push(props);
    return null;
  });
  return { Island, seen };
}

const slotBlock = JSON.stringify({ save: { quickSave: true }, comments: "not an object" });

describe("an island wrapped for member pages", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("is given its props as they are on a page that names no slot, and never sees the slot name", () => {
    const { Island, seen } = wrapped();
    Island({ pinId: "9", quickSave: false, locale: "en" });
    Island({ pinId: "9", quickSave: false, locale: "en", viewerSlot: "save" }); // on the server: no document
    expect(seen).toEqual([
      { pinId: "9", quickSave: false, locale: "en" },
      { pinId: "9", quickSave: false, locale: "en" },
    ]);
  });

  it("takes its slot's values over its props in the browser, and nothing from another slot or a broken one", () => {
    vi.stubGlobal("document", { getElementById: (id: string) => (id === "pinloom-viewer-slots" ? { textContent: slotBlock } : null) });
    const { Island, seen } = wrapped();
    Island({ pinId: "9", quickSave: false, locale: "fr", viewerSlot: "save" });
    Island({ pinId: "9", quickSave: false, locale: "fr", viewerSlot: "reactions" });
    Island({ pinId: "9", quickSave: false, locale: "fr", viewerSlot: "comments" });
    Island({ pinId: "9", quickSave: false, locale: "fr" });
    expect(seen).toEqual([
      { pinId: "9", quickSave: true, locale: "fr" },
      { pinId: "9", quickSave: false, locale: "fr" },
      { pinId: "9", quickSave: false, locale: "fr" },
      { pinId: "9", quickSave: false, locale: "fr" },
    ]);
  });

  it("keeps the island's name for React's tools", () => {
    function SaveButton(_props: Props) {
      return null;
    }
    expect(perViewer(SaveButton).displayName).toBe("SaveButton");
  });
});
