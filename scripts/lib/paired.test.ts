import { describe, expect, it } from "vitest";
import { median, pairedRound, pairedSummary, rate, settleMs } from "./paired.mjs";

const slice = (requests: number, seconds = 2, p50 = 10, p99 = 30) => ({ requests, seconds, p50, p99 });

describe("paired throughput", () => {
  it("rates slices as total requests over total seconds", () => {
    expect(rate([slice(1000, 2), slice(500, 1)])).toBe(500);
    expect(rate([])).toBe(0);
  });

  it("takes the middle value, or the mean of the middle two", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNull();
  });

  it("divides the route's rate by the rate of the healthz slices beside it", () => {
    // The machine slows down by half in the second round: each side slows with it, and the
    // ratio stays what it was, where a healthz measured only in the first round would halve it.
    const summary = pairedSummary([
      { route: slice(1000), healthz: slice(2000) },
      { route: slice(500), healthz: slice(1000) },
    ]);
    expect(summary.rps).toBe(375);
    expect(summary.healthz_rps).toBe(750);
    expect(summary.ratio).toBe(0.5);
    expect(summary.ratio_rounds).toEqual([0.5, 0.5]);
  });

  it("reports the medians of the route's slices' p50 and p99", () => {
    const summary = pairedSummary([
      { route: slice(10, 1, 5, 40), healthz: slice(10) },
      { route: slice(10, 1, 7, 90), healthz: slice(10) },
      { route: slice(10, 1, 6, 50), healthz: slice(10) },
    ]);
    expect(summary.p50).toBe(6);
    expect(summary.p99).toBe(50);
  });

  it("has no ratio without healthz requests, and no summary without rounds", () => {
    expect(pairedSummary([{ route: slice(10), healthz: slice(0) }]).ratio).toBeNull();
    expect(pairedSummary([{ route: slice(10), healthz: slice(0) }]).ratio_rounds).toEqual([null]);
    expect(() => pairedSummary([])).toThrow(/at least one round/);
  });

  it("runs /healthz first in even rounds and the route first in odd ones, answering healthz first", async () => {
    const order: string[] = [];
    const run = (name: string) => async () => {
      order.push(name);
      return name;
    };
    expect(await pairedRound(0, run("healthz"), run("route"))).toEqual(["healthz", "route"]);
    expect(await pairedRound(1, run("healthz"), run("route"))).toEqual(["healthz", "route"]);
    expect(order).toEqual(["healthz", "route", "route", "healthz"]);
  });

  it("lets a slow route's last requests finish before the next measurement, within bounds", () => {
    expect(settleMs(969)).toBe(1938);
    expect(settleMs(40)).toBe(500);
    expect(settleMs(60_000)).toBe(5000);
    expect(settleMs(Number.NaN)).toBe(500);
  });
});
