import { describe, expect, it, vi } from "vitest";
import { readJsonBlock } from "./json-block.ts";

const page = (blocks: Record<string, string>) => ({ getElementById: (id: string) => (id in blocks ? ({ textContent: blocks[id] } as HTMLElement) : null) });

describe("a page's JSON block", () => {
  it("is its parsed text", () => {
    expect(readJsonBlock(page({ data: '{"a":[1,2]}' }), "data")).toEqual({ a: [1, 2] });
  });

  it("is null when the page has none, an empty one, or no document", () => {
    expect(readJsonBlock(page({}), "data")).toBeNull();
    expect(readJsonBlock(page({ data: "" }), "data")).toBeNull();
    expect(readJsonBlock(undefined, "data")).toBeNull();
  });

  it("is null when broken, and says which block", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(readJsonBlock(page({ data: "{not json" }), "data")).toBeNull();
    expect(warn).toHaveBeenCalledWith("#data is not JSON", expect.any(SyntaxError));
    warn.mockRestore();
  });
});
