import { describe, expect, it } from "vitest";
import { chartOf, type ChartFrame } from "./results-chart.ts";

// A frame with no margins, so each number below is the scale's own arithmetic, worked by hand.
const FRAME: ChartFrame = { width: 300, height: 100, margin: { top: 0, right: 0, bottom: 0, left: 0 } };

describe("the results chart's geometry", () => {
  it("gives each day a band (a fifth of it padding) and each count a bar from the zero line", () => {
    // Three bands: step 300 / 3.2 = 93.75, bars 75 wide, the first 18.75 in; the axis 0 to 10.
    const chart = chartOf(
      "bar",
      [
        { day: "2026-01-01", value: 0 },
        { day: "2026-01-02", value: 5 },
        { day: "2026-01-03", value: 10 },
      ],
      { whole: true, frame: FRAME },
    );
    expect(chart.marks).toEqual([
      { day: "2026-01-01", value: 0, x: 18.75, y: 100, width: 75, height: 0 },
      { day: "2026-01-02", value: 5, x: 112.5, y: 50, width: 75, height: 50 },
      { day: "2026-01-03", value: 10, x: 206.25, y: 0, width: 75, height: 100 },
    ]);
    expect(chart.ticks).toEqual([
      { value: 0, y: 100 },
      { value: 5, y: 50 },
      { value: 10, y: 0 },
    ]);
    expect(chart.baseline).toEqual({ y: 100, x1: 0, x2: 300 });
    expect(chart.path).toBeNull();
  });

  it("draws a rate as a line through the bands' middles on an axis rounded up to a nice step", () => {
    // Highest 0.05: the axis runs to 0.06 in steps of 0.02.
    const chart = chartOf(
      "line",
      [
        { day: "2026-01-01", value: 0.02 },
        { day: "2026-01-02", value: 0 },
        { day: "2026-01-03", value: 0.05 },
      ],
      { whole: false, frame: FRAME },
    );
    expect(chart.ticks).toEqual([
      { value: 0, y: 100 },
      { value: 0.02, y: 66.67 },
      { value: 0.04, y: 33.33 },
      { value: 0.06, y: 0 },
    ]);
    expect(chart.marks.map((mark) => [mark.x, mark.y])).toEqual([
      [56.25, 66.67],
      [150, 100],
      [243.75, 16.67],
    ]);
    expect(chart.path).toBe("M56.25,66.67L150,100L243.75,16.67");
  });

  it("draws days of nothing flat on an axis of 0 to 1, whole numbers only for counts", () => {
    // Two bands: step 300 / 2.2 = 136.36, bars 109.09 wide, the first 27.27 in.
    const chart = chartOf(
      "bar",
      [
        { day: "2026-01-01", value: 0 },
        { day: "2026-01-02", value: 0 },
      ],
      { whole: true, frame: FRAME },
    );
    expect(chart.ticks).toEqual([
      { value: 0, y: 100 },
      { value: 1, y: 0 },
    ]);
    expect(chart.marks).toEqual([
      { day: "2026-01-01", value: 0, x: 27.27, y: 100, width: 109.09, height: 0 },
      { day: "2026-01-02", value: 0, x: 163.64, y: 100, width: 109.09, height: 0 },
    ]);
  });
});
