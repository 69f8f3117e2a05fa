// The device store in Node: localStorage and <html> are stand-ins.
import { beforeEach, describe, expect, it, vi } from "vitest";

const storage = new Map<string, string>();
const classes = new Set<string>();
const root = {
  classList: {
    add: (...names: string[]) => names.forEach((name) => classes.add(name)),
    remove: (name: string) => classes.delete(name),
    [Symbol.iterator]: () => classes.values(),
  },
};

beforeEach(() => {
  vi.resetModules();
  storage.clear();
  classes.clear();
  vi.stubGlobal("localStorage", { getItem: (key: string) => storage.get(key) ?? null, setItem: (key: string, value: string) => storage.set(key, value) });
});

describe("$profileView", () => {
  it("starts from what the device stored, and writes every change back", async () => {
    storage.set("pinloom:profile-view", JSON.stringify({ boardSortOrder: "newest" }));
    const { $profileView, setProfileView } = await import("./view-state.store.ts");
    expect($profileView.get().boardSortOrder).toBe("newest");
    setProfileView({ profilePinDensity: "compact" });
    expect(JSON.parse(storage.get("pinloom:profile-view")!)).toMatchObject({ boardSortOrder: "newest", profilePinDensity: "compact" });
  });

  it("applies the view as <html> classes and swaps them on change", async () => {
    const { applyProfileView, setProfileView } = await import("./view-state.store.ts");
    classes.add("unrelated");
    applyProfileView(root as unknown as HTMLElement);
    expect(classes).toContain("pv-profile-density-default");
    setProfileView({ profilePinDensity: "comfy", profileBoardView: "list" });
    expect(classes).toContain("pv-profile-density-comfy");
    expect(classes).toContain("pv-board-view-list");
    expect(classes).not.toContain("pv-profile-density-default");
    expect(classes).toContain("unrelated");
  });

  it("refuses values outside the spec's lists", async () => {
    const { $profileView, setProfileView } = await import("./view-state.store.ts");
    setProfileView({ boardPinDensity: "huge" as never });
    expect($profileView.get().boardPinDensity).toBe("default");
  });
});
