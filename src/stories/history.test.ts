import { describe, expect, it } from "vitest";
import { canRedo, canUndo, record, redo, replacePresent, startHistory, undo } from "./history.ts";

describe("story editor history", () => {
  it("starts with nothing to undo or redo", () => {
    const history = startHistory("a");
    expect(history).toEqual({ past: [], present: "a", future: [] });
    expect(canUndo(history)).toBe(false);
    expect(canRedo(history)).toBe(false);
  });

  it("undoes and redoes edits in order", () => {
    const history = record(record(startHistory("a"), "b"), "c");
    expect(history).toEqual({ past: ["a", "b"], present: "c", future: [] });
    const back = undo(history);
    expect(back).toEqual({ past: ["a"], present: "b", future: ["c"] });
    const twice = undo(back);
    expect(twice).toEqual({ past: [], present: "a", future: ["b", "c"] });
    expect(undo(twice)).toBe(twice);
    expect(redo(twice)).toEqual({ past: ["a"], present: "b", future: ["c"] });
    expect(redo(redo(twice))).toEqual({ past: ["a", "b"], present: "c", future: [] });
  });

  it("forgets what was undone once a new edit is made", () => {
    const history = record(undo(record(record(startHistory(1), 2), 3)), 4);
    expect(history).toEqual({ past: [1, 2], present: 4, future: [] });
    expect(canRedo(history)).toBe(false);
  });

  it("keeps only the last 50 edits", () => {
    let history = startHistory(0);
    for (let step = 1; step <= 60; step++) history = record(history, step);
    expect(history.past.length).toBe(50);
    expect(history.past[0]).toBe(10);
    expect(history.past[49]).toBe(59);
    expect(history.present).toBe(60);
    for (let step = 0; step < 50; step++) history = undo(history);
    expect(history.present).toBe(10);
    expect(canUndo(history)).toBe(false);
  });

  it("does not record the same value twice", () => {
    const history = startHistory("a");
    expect(record(history, "a")).toBe(history);
  });

  it("replaces the present without an undo step", () => {
    const history = replacePresent(record(startHistory("a"), "b"), "B");
    expect(history).toEqual({ past: ["a"], present: "B", future: [] });
  });
});
