import { describe, expect, it } from "vitest";
import { batchChanges, batchStart, dirtyFields, toggleSelected, type BatchValues } from "./batch.ts";

const draft = (title: string, description: string, websiteLink: string, boardId: string | null) => ({ title, description, websiteLink, boardId });

describe("batch edit: the form's start", () => {
  it("shows a value every draft shares and leaves the others empty", () => {
    const drafts = [draft("Soup", "Warm", "https://a.example/", "7"), draft("Bread", "Warm", "https://a.example/", "8")];
    expect(batchStart(drafts)).toEqual({ title: "", description: "Warm", websiteLink: "https://a.example/", boardId: null });
  });
});

describe("batch edit: only dirty fields are sent", () => {
  const start: BatchValues = { title: "", description: "Warm", websiteLink: "", boardId: null };

  it("sends nothing when nothing changed", () => {
    expect(dirtyFields(start, { ...start })).toEqual([]);
    expect(batchChanges(start, { ...start })).toEqual({});
  });

  it("sends the description alone when only it changed", () => {
    const edited = { ...start, description: "Cosy winter food" };
    expect(dirtyFields(start, edited)).toEqual(["description"]);
    expect(batchChanges(start, edited)).toEqual({ description: "Cosy winter food" });
  });

  it("sends title and link together, never the untouched fields", () => {
    expect(batchChanges(start, { ...start, title: "Dinner", websiteLink: "https://b.example/r" })).toEqual({ title: "Dinner", websiteLink: "https://b.example/r" });
  });

  it("clears the section with a new board (a section belongs to its board)", () => {
    expect(batchChanges(start, { ...start, boardId: "10001" })).toEqual({ boardId: "10001", sectionId: null });
  });

  it("counts clearing a shared value as a change", () => {
    expect(batchChanges(start, { ...start, description: "" })).toEqual({ description: "" });
  });
});

describe("toggleSelected", () => {
  it("adds and removes, keeping the list's order", () => {
    const order = ["3", "2", "1"];
    let selected = toggleSelected([], "1", order);
    selected = toggleSelected(selected, "3", order);
    expect(selected).toEqual(["3", "1"]);
    expect(toggleSelected(selected, "3", order)).toEqual(["1"]);
  });
});
