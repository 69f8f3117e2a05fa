import { describe, expect, it } from "vitest";
import { showToast } from "./toast-event.ts";

describe("showToast", () => {
  it("dispatches pinloom:toast carrying the toast, action and all", () => {
    const target = new EventTarget();
    const seen: unknown[] = [];
    target.addEventListener("pinloom:toast", (event) => seen.push((event as CustomEvent).detail));
    const run = () => {};
    showToast({ id: "save-1", message: "Saved to Dinners", action: { label: "Undo", run }, durationMs: 5000 }, target);
    expect(seen).toEqual([{ id: "save-1", message: "Saved to Dinners", action: { label: "Undo", run }, durationMs: 5000 }]);
  });
});
