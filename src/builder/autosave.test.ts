import { describe, expect, it } from "vitest";
import { draftDiff, hasChanges } from "./autosave.ts";
import { newDraft, newItem } from "./drafts.ts";
import { boardChoices, cropRatioFor, moveItem, problemMessages } from "./editor.ts";

const saved = { ...newDraft(), title: "Soup" };

describe("autosave sends the changed fields only", () => {
  it("sends nothing for an unchanged draft", () => {
    expect(hasChanges(draftDiff(saved, { ...saved }, "Europe/Paris"))).toBe(false);
  });

  it("sends a typed title and nothing else", () => {
    expect(draftDiff(saved, { ...saved, title: "Soup for two" }, "Europe/Paris")).toEqual({ title: "Soup for two" });
  });

  it("sends the whole item list when an item changed", () => {
    const items = [newItem("a")];
    expect(draftDiff(saved, { ...saved, items }, "UTC")).toEqual({ items });
  });

  it("sends the person's time zone with a schedule", () => {
    const edited = { ...saved, publishOption: "schedule" as const, scheduledDate: "2026-12-01", scheduledTime: "09:30" };
    expect(draftDiff(saved, edited, "Asia/Riyadh")).toEqual({ publishOption: "schedule", scheduledDate: "2026-12-01", scheduledTime: "09:30", timeZone: "Asia/Riyadh" });
  });

  it("sends no time zone when publishing now", () => {
    expect(draftDiff({ ...saved, publishOption: "schedule" }, { ...saved, publishOption: "publish-immediately" }, "UTC")).toEqual({ publishOption: "publish-immediately" });
  });
});

describe("moveItem: reordering a carousel", () => {
  const carousel = { ...newDraft(), type: "carousel" as const, items: [newItem("a"), newItem("b"), newItem("c")], pinItemIndex: 0 };

  it("moves an item and the selection follows the selected item", () => {
    const moved = moveItem(carousel, 0, 2);
    expect(moved.items.map((item) => item.id)).toEqual(["b", "c", "a"]);
    expect(moved.pinItemIndex).toBe(2);
  });

  it("keeps the selection on its item when another moves past it", () => {
    const moved = moveItem({ ...carousel, pinItemIndex: 1 }, 2, 0);
    expect(moved.items.map((item) => item.id)).toEqual(["c", "a", "b"]);
    expect(moved.pinItemIndex).toBe(2);
  });

  it.each([
    [-1, 0],
    [0, 3],
    [1, 1],
  ])("leaves the draft alone for %i → %i", (from, to) => {
    expect(moveItem(carousel, from, to)).toBe(carousel);
  });
});

describe("problemMessages", () => {
  it("gives each field its first problem, placeholders filled", () => {
    const messages = { "builder:validation.titleTooLong": "Titles can be up to {{maximum}} characters", "builder:validation.linkScheme": "Use http" };
    const problems = [
      { field: "title", reason: "builder:validation.titleTooLong", values: { maximum: 100 } },
      { field: "websiteLink", reason: "builder:validation.linkScheme" },
      { field: "title", reason: "builder:validation.linkScheme" },
    ];
    expect(problemMessages(problems, messages)).toEqual({ title: "Titles can be up to 100 characters", websiteLink: "Use http" });
  });
});

describe("cropRatioFor: the crop offer (spec 001 §5)", () => {
  const image = (width: number, height: number) => ({ type: "image" as const, source: "uploaded" as const, ref: "u1", width, height });
  it.each([
    [1000, 1500, null],
    [900, 1200, null],
    [800, 800, null],
    [1600, 900, "1:1"],
    [1000, 1250, "3:4"],
    [600, 1200, "2:3"],
  ])("%i × %i is offered %s", (width, height, expected) => {
    expect(cropRatioFor(image(width, height))).toBe(expected);
  });

  it("offers nothing for a video, a file still on the device or an unknown size", () => {
    expect(cropRatioFor({ type: "video", source: "uploaded", ref: "v", width: 1920, height: 1080 })).toBeNull();
    expect(cropRatioFor({ type: "image", source: "local", ref: "x", width: 1920, height: 1080 })).toBeNull();
    expect(cropRatioFor({ type: "image", source: "uploaded", ref: "x", width: null, height: null })).toBeNull();
    expect(cropRatioFor(null)).toBeNull();
  });
});

describe("boardChoices", () => {
  it("lists recent boards first and every board once", () => {
    const board = (id: string, name: string) => ({ id, name, privacy: "public" as const, url: `/b/${id}/` });
    const picker = { recent: [board("2", "Soups")], boards: [board("1", "Bread"), board("2", "Soups"), board("3", "Cakes")], sections: {}, saved: [] };
    expect(boardChoices(picker)).toEqual([
      { id: "2", name: "Soups" },
      { id: "1", name: "Bread" },
      { id: "3", name: "Cakes" },
    ]);
    expect(boardChoices(null)).toEqual([]);
  });
});
