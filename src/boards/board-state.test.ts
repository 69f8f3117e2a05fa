import { describe, expect, it } from "vitest";
import { applyAll, boardReducer, type BoardEvent, type BoardState } from "./board-state.ts";

/** Board 10002 "Weeknight dinners" with its three sections (docs/demo-accounts.md). */
const dinners: BoardState = {
  id: "10002",
  name: "Weeknight dinners",
  description: "",
  privacy: "public",
  pin_count: 10,
  sectionless_pin_count: 4,
  section_count: 3,
  sections: [
    { id: "50003", title: "Pasta", pin_count: 3 },
    { id: "50004", title: "Soups", pin_count: 2 },
    { id: "50005", title: "Sheet pan dinners", pin_count: 1 },
  ],
  cover_pin_id: null,
  archived_by_me_at: null,
  pending_ownership_transfer: null,
};

const counts = (board: BoardState) => ({
  pin_count: board.pin_count,
  sectionless: board.sectionless_pin_count,
  section_count: board.section_count,
  sections: Object.fromEntries(board.sections.map((section) => [section.id, section.pin_count])),
});

describe("pin counts on add, delete, edit and move, never below zero", () => {
  it.each<{ name: string; event: BoardEvent; pin_count: number; sectionless: number; sections: Record<string, number> }>([
    { name: "save one sectionless", event: { type: "pinsAdded", sectionId: null, count: 1 }, pin_count: 11, sectionless: 5, sections: { 50003: 3, 50004: 2, 50005: 1 } },
    { name: "save one into Pasta", event: { type: "pinsAdded", sectionId: "50003", count: 1 }, pin_count: 11, sectionless: 4, sections: { 50003: 4, 50004: 2, 50005: 1 } },
    { name: "delete one from Soups", event: { type: "pinsRemoved", sectionId: "50004", count: 1 }, pin_count: 9, sectionless: 4, sections: { 50003: 3, 50004: 1, 50005: 1 } },
    { name: "move 3 away from Soups (only 2 there): floor 0", event: { type: "pinsRemoved", sectionId: "50004", count: 3 }, pin_count: 7, sectionless: 4, sections: { 50003: 3, 50004: 0, 50005: 1 } },
    { name: "delete 12 sectionless from 10: floor 0", event: { type: "pinsRemoved", sectionId: null, count: 12 }, pin_count: 0, sectionless: 0, sections: { 50003: 3, 50004: 2, 50005: 1 } },
    { name: "edit: Pasta to Soups", event: { type: "pinsMovedWithin", from: "50003", to: "50004", count: 1 }, pin_count: 10, sectionless: 4, sections: { 50003: 2, 50004: 3, 50005: 1 } },
    { name: "move out of a section", event: { type: "pinsMovedWithin", from: "50005", to: null, count: 1 }, pin_count: 10, sectionless: 5, sections: { 50003: 3, 50004: 2, 50005: 0 } },
    { name: "move 2 from Sheet pan (1 there): floor 0", event: { type: "pinsMovedWithin", from: "50005", to: "50003", count: 2 }, pin_count: 10, sectionless: 4, sections: { 50003: 5, 50004: 2, 50005: 0 } },
    { name: "move within the same place changes nothing", event: { type: "pinsMovedWithin", from: "50003", to: "50003", count: 1 }, pin_count: 10, sectionless: 4, sections: { 50003: 3, 50004: 2, 50005: 1 } },
  ])("$name", ({ event, pin_count, sectionless, sections }) => {
    const next = counts(boardReducer(dinners, event));
    expect(next).toEqual({ pin_count, sectionless, section_count: 3, sections });
  });

  it("a move between boards is a remove on one and an add on the other", () => {
    const source = boardReducer(dinners, { type: "pinsRemoved", sectionId: "50003", count: 2 });
    const target = boardReducer({ ...dinners, id: "10003", pin_count: 0, sectionless_pin_count: 0, sections: [], section_count: 0 }, { type: "pinsAdded", sectionId: null, count: 2 });
    expect([source.pin_count, source.sections[0]?.pin_count, target.pin_count, target.sectionless_pin_count]).toEqual([8, 1, 2, 2]);
  });
});

describe("section_count on section add and delete, never below zero", () => {
  it("add puts the section first and counts it", () => {
    const next = boardReducer(dinners, { type: "sectionAdded", section: { id: "50010", title: "Stews", pin_count: 0 } });
    expect(next.section_count).toBe(4);
    expect(next.sections.map((section) => section.id)).toEqual(["50010", "50003", "50004", "50005"]);
  });

  it("adding the same section twice counts it once", () => {
    const once = boardReducer(dinners, { type: "sectionAdded", section: { id: "50010", title: "Stews", pin_count: 0 } });
    expect(boardReducer(once, { type: "sectionAdded", section: { id: "50010", title: "Stews", pin_count: 0 } }).section_count).toBe(4);
  });

  it("delete drops it and its pins become sectionless (board total unchanged)", () => {
    const next = boardReducer(dinners, { type: "sectionDeleted", sectionId: "50003" });
    expect(counts(next)).toEqual({ pin_count: 10, sectionless: 7, section_count: 2, sections: { 50004: 2, 50005: 1 } });
  });

  it("delete at zero stays zero", () => {
    expect(boardReducer({ ...dinners, sections: [], section_count: 0 }, { type: "sectionDeleted", sectionId: "50003" }).section_count).toBe(0);
  });

  it("rename keeps the place", () => {
    expect(boardReducer(dinners, { type: "sectionRenamed", sectionId: "50004", title: "Stews" }).sections.map((section) => section.title)).toEqual(["Pasta", "Stews", "Sheet pan dinners"]);
  });

  it.each([
    { ids: ["50005", "50003", "50004"], expected: ["50005", "50003", "50004"] },
    { ids: ["50005", "50003"], expected: ["50003", "50004", "50005"] },
    { ids: ["50005", "50005", "50003"], expected: ["50003", "50004", "50005"] },
    { ids: ["50005", "50003", "99999"], expected: ["50003", "50004", "50005"] },
  ])("reorder to $ids gives $expected (only a permutation counts)", ({ ids, expected }) => {
    expect(boardReducer(dinners, { type: "sectionsReordered", sectionIds: ids }).sections.map((section) => section.id)).toEqual(expected);
  });
});

describe("archive, ownership transfer and edit", () => {
  it("archive sets archived_by_me_at to now, unarchive clears it", () => {
    const archived = boardReducer(dinners, { type: "archived", now: 1_763_800_000_000 });
    expect(archived.archived_by_me_at).toBe(1_763_800_000_000);
    expect(boardReducer(archived, { type: "unarchived" }).archived_by_me_at).toBeNull();
  });

  it("a transfer request sets the pending collaborator, cancel clears it", () => {
    const pending = boardReducer(dinners, { type: "transferRequested", user: { user_id: "7", username: "sam" } });
    expect(pending.pending_ownership_transfer).toEqual({ user_id: "7", username: "sam" });
    expect(boardReducer(pending, { type: "transferCancelled" }).pending_ownership_transfer).toBeNull();
  });

  it("edit changes only the given fields", () => {
    const next = boardReducer(dinners, { type: "edited", name: "Fast dinners", privacy: "secret" });
    expect([next.name, next.privacy, next.description, next.cover_pin_id]).toEqual(["Fast dinners", "secret", "", null]);
    expect(boardReducer(dinners, { type: "edited", coverPinId: "100001" }).cover_pin_id).toBe("100001");
  });

  it("applyAll replays events in order", () => {
    const next = applyAll(dinners, [
      { type: "sectionAdded", section: { id: "50010", title: "Stews", pin_count: 0 } },
      { type: "pinsMovedWithin", from: null, to: "50010", count: 2 },
      { type: "sectionDeleted", sectionId: "50010" },
    ]);
    expect(counts(next)).toEqual(counts(dinners));
  });
});
