import { describe, expect, it } from "vitest";
import { asPart, contextMark, memberIsland, viewerSlotOf, type MemberRender } from "./marks.ts";

const NONCE = "5b0c8e1a-2f3d-4c6b-9a7e-1d2c3b4a5f60";

function memberRender(): { ctx: { renderMode: "member"; member: ReturnType<typeof asPart> }; render: MemberRender } {
  const render: MemberRender = { nonce: NONCE, islands: new Map() };
  return { ctx: { renderMode: "member", member: asPart({ render }) }, render };
}

describe("a page's per-viewer islands outside a member render", () => {
  it("keep their props as given, with no marks and no slot", () => {
    for (const renderMode of ["personal", "shared"] as const) {
      const ctx = { renderMode };
      const props = { pinId: "9", quickSave: false };
      expect(memberIsland(ctx, "save", props)).toEqual({ props: { pinId: "9", quickSave: false }, open: "", close: "" });
      expect(viewerSlotOf(ctx, "comments")).toEqual({});
      expect(contextMark(ctx)).toBe("");
    }
  });

  it("ignore a member part on a context that is not a member render", () => {
    const { ctx } = memberRender();
    const personal = { ...ctx, renderMode: "personal" as const };
    expect(memberIsland(personal, "account", { a: 1 })).toEqual({ props: { a: 1 }, open: "", close: "" });
    expect(contextMark(personal)).toBe("");
  });
});

describe("a page's per-viewer islands in a member render", () => {
  it("carry their slot, are kept with the template, and are wrapped in the render's marks", () => {
    const { ctx, render } = memberRender();
    const island = memberIsland(ctx, "reactions", { pinId: "9", language: "en" });
    expect(island.props).toEqual({ pinId: "9", language: "en", viewerSlot: "reactions" });
    expect(island.open).toBe("<!--pinloom-member:5b0c8e1a-2f3d-4c6b-9a7e-1d2c3b4a5f60:reactions-->");
    expect(island.close).toBe("<!--/pinloom-member:5b0c8e1a-2f3d-4c6b-9a7e-1d2c3b4a5f60:reactions-->");
    expect(render.islands.get("reactions")).toEqual({ pinId: "9", language: "en", viewerSlot: "reactions" });
    expect([...render.islands.keys()]).toEqual(["reactions"]);
  });

  it("name their slot when their server HTML is everyone's, and the head has the context's mark", () => {
    const { ctx, render } = memberRender();
    expect(viewerSlotOf(ctx, "comments")).toEqual({ viewerSlot: "comments" });
    expect(render.islands.size).toBe(0);
    expect(contextMark(ctx)).toBe("<!--pinloom-member:5b0c8e1a-2f3d-4c6b-9a7e-1d2c3b4a5f60:context-->");
  });
});
