import { describe, expect, it } from "vitest";
import { judgeTargets } from "./bench.mjs";

/** A run's result as the bench writes it, with only what the targets read. */
function run(routes: Array<Record<string, unknown>>, measurements: Record<string, unknown> = {}) {
  return { routes, measurements };
}

describe("the bench's targets", () => {
  it("judge ratios as floors and CPU as ceilings, from the same run's routes", () => {
    const verdicts = judgeTargets(
      run([
        { name: "healthz", ratio_to_healthz: 1, cpu_ms_per_request: 0.7 },
        { name: "pin", ratio_to_healthz: 0.91, cpu_ms_per_request: 0.8 },
        { name: "pin (crawler)", ratio_to_healthz: 0.89, cpu_ms_per_request: 0.8 },
        { name: "pin (signed in)", ratio_to_healthz: 0.5, cpu_ms_per_request: 1.2 },
        { name: "pin (miss)", ratio_to_healthz: 0.1, cpu_ms_per_request: 4.2 },
        { name: "home (miss)", ratio_to_healthz: 0.2, cpu_ms_per_request: 2.9 },
        { name: "login", ratio_to_healthz: 0.01, cpu_ms_per_request: 900 },
      ]),
    );
    const verdict = (name: string) => verdicts.find((v: { name: string }) => v.name === name);
    expect(verdict("cached close-up (browser) ratio")).toEqual({ name: "cached close-up (browser) ratio", measured: 0.91, min: 0.9, pass: true });
    expect(verdict("cached close-up (crawler) ratio")?.pass).toBe(false);
    expect(verdict("signed-in close-up ratio")?.pass).toBe(true);
    expect(verdict("full render of a close-up, cpu ms")).toEqual({ name: "full render of a close-up, cpu ms", measured: 4.2, max: 4, pass: false });
    expect(verdict("full render of home, cpu ms")?.pass).toBe(true);
    // The login's password hash is left out of the slowest route: the slowest is the close-up's render.
    expect(verdict("slowest route but login, cpu ms")).toEqual({ name: "slowest route but login, cpu ms", measured: 4.2, max: 5, pass: true });
  });

  it("say 'not measured' for what the run did not measure", () => {
    const verdicts = judgeTargets(run([{ name: "healthz", ratio_to_healthz: 1, cpu_ms_per_request: null }]));
    expect(verdicts.find((v: { name: string }) => v.name === "cached home ratio")).toEqual({ name: "cached home ratio", measured: null, min: 0.9, pass: null });
    expect(verdicts.find((v: { name: string }) => v.name === "Lighthouse mobile performance, pin")?.pass).toBeNull();
  });

  it("read the page JavaScript and Lighthouse figures from the measurements", () => {
    const verdicts = judgeTargets(run([], { page_javascript: { pin: { at_load_gzip_kb: 20.4 } }, lighthouse: { pages: { home: { performance: 97 } } } }));
    expect(verdicts.find((v: { name: string }) => v.name === "close-up JavaScript at load, KB gzip")).toEqual({ name: "close-up JavaScript at load, KB gzip", measured: 20.4, max: 20, pass: false });
    expect(verdicts.find((v: { name: string }) => v.name === "Lighthouse mobile performance, home")?.pass).toBe(true);
  });
});
