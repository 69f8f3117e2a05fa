// The results charts' geometry (docs/decisions.md, "Ad results"): d3-scale places one band per
// day and maps values to heights on a "nice" axis, d3-shape draws the line of a rate. Pure
// numbers, no DOM: ResultsChart.astro writes them out as SVG on the server, so the chart needs no
// script in the browser and crawlers, screen readers and a 390 px phone all get the same image.
import { scaleBand, scaleLinear } from "d3-scale";
import { line } from "d3-shape";

export interface ChartFrame {
  width: number;
  height: number;
  /** Room around the plot: the left side holds the axis' labels. */
  margin: { top: number; right: number; bottom: number; left: number };
}

/** The frame the results page draws in (SVG user units; the image scales to its box). */
const RESULTS_FRAME: ChartFrame = { width: 320, height: 150, margin: { top: 10, right: 6, bottom: 6, left: 52 } };

export interface ChartPoint {
  day: string;
  value: number;
}

export interface Chart {
  kind: "bar" | "line";
  frame: ChartFrame;
  /** The plot's bottom (the zero line) and its left and right ends. */
  baseline: { y: number; x1: number; x2: number };
  /** The axis' values and where their grid lines run; counts get whole numbers only. */
  ticks: Array<{ value: number; y: number }>;
  /** One per day (a bar chart's bars; a line chart's points, width 0, at the band's middle). */
  marks: Array<{ day: string; value: number; x: number; y: number; width: number; height: number }>;
  /** A line chart's path (SVG "d"); null for bars. */
  path: string | null;
}

/** Two decimals: the SVG stays short and its numbers stable. */
const round = (value: number) => Math.round(value * 100) / 100;

/**
 * The chart of one metric by day. `whole` keeps the axis to whole numbers (counts); a rate or an
 * amount may step by fractions. A range of zeros still draws an axis (0 to 1).
 */
export function chartOf(kind: "bar" | "line", points: readonly ChartPoint[], options: { whole: boolean; frame?: ChartFrame }): Chart {
  const frame = options.frame ?? RESULTS_FRAME;
  const { width, height, margin } = frame;
  const left = margin.left;
  const right = width - margin.right;
  const bottom = height - margin.bottom;
  const x = scaleBand<string>()
    .domain(points.map((point) => point.day))
    .range([left, right])
    .padding(0.2);
  const top = Math.max(0, ...points.map((point) => point.value));
  const y = scaleLinear()
    .domain([0, top > 0 ? top : 1])
    .nice(3)
    .range([bottom, margin.top]);
  const ticks = y
    .ticks(3)
    .filter((value) => !options.whole || Number.isInteger(value))
    .map((value) => ({ value, y: round(y(value)) }));
  const band = x.bandwidth();
  const marks = points.map((point) => {
    const start = x(point.day) ?? left;
    const at = round(y(point.value));
    return kind === "bar"
      ? { day: point.day, value: point.value, x: round(start), y: at, width: round(band), height: round(bottom - at) }
      : { day: point.day, value: point.value, x: round(start + band / 2), y: at, width: 0, height: 0 };
  });
  const path =
    kind === "line" && marks.length > 0
      ? line<(typeof marks)[number]>()
          .x((mark) => mark.x)
          .y((mark) => mark.y)
          .digits(2)(marks)
      : null;
  return { kind, frame, baseline: { y: round(bottom), x1: left, x2: right }, ticks, marks, path };
}
