import { describe, expect, it } from "vitest";
import { BULK_MAX_IDS, NOTHING_SELECTED, bulkTargets, isSelected, selectAll, selectedCount, selectedOf, toggle, type Selection } from "./selection.ts";

const pins = ["100001", "100004", "100009", "100010"].map((id) => ({ id }));

describe("select mode", () => {
  it("picking and unpicking pins", () => {
    const one = toggle(NOTHING_SELECTED, "100004");
    const two = toggle(one, "100001");
    expect(bulkTargets(two)).toEqual({ pin_ids: ["100004", "100001"] });
    expect(bulkTargets(toggle(two, "100004"))).toEqual({ pin_ids: ["100001"] });
    expect(selectedOf(two, pins).map((pin) => pin.id)).toEqual(["100001", "100004"]);
  });

  it("select all with exclusions", () => {
    const all = toggle(toggle(selectAll(), "100009"), "100010");
    expect(isSelected(all, "100001")).toBe(true);
    expect(isSelected(all, "100009")).toBe(false);
    expect(selectedCount(all, 12)).toBe(10);
    expect(bulkTargets(all)).toEqual({ all: true, excluded_pin_ids: ["100009", "100010"] });
    expect(bulkTargets(toggle(all, "100009"))).toEqual({ all: true, excluded_pin_ids: ["100010"] });
  });

  it.each<{ selection: Selection; total: number; count: number }>([
    { selection: NOTHING_SELECTED, total: 10, count: 0 },
    { selection: { all: false, ids: ["1", "2"] }, total: 10, count: 2 },
    { selection: selectAll(), total: 10, count: 10 },
    { selection: { all: true, excluded: ["1", "2", "3"] }, total: 2, count: 0 },
  ])("count $count of $total", ({ selection, total, count }) => {
    expect(selectedCount(selection, total)).toBe(count);
  });

  it(`refuses a ${BULK_MAX_IDS + 1}st pick (the server's bound)`, () => {
    let selection: Selection = NOTHING_SELECTED;
    for (let i = 0; i < BULK_MAX_IDS + 1; i += 1) selection = toggle(selection, String(i));
    expect(selectedCount(selection, 1000)).toBe(BULK_MAX_IDS);
    expect(isSelected(selection, String(BULK_MAX_IDS))).toBe(false);
  });
});
