import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { IMPRESSION_MS, trackImpression } from "./impression.ts";

/** A window stand-in: blur and focus are dispatched by the test. */
const fakeWindow = () => new EventTarget();
const clock = { now: () => Date.now(), set: (run: () => void, ms: number) => setTimeout(run, ms), clear: (handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>) };

describe("impression tracking", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("reports once after a second in front of a focused window", () => {
    const onImpression = vi.fn();
    trackImpression(fakeWindow(), true, onImpression, clock);
    vi.advanceTimersByTime(IMPRESSION_MS - 1);
    expect(onImpression).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onImpression).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(10 * IMPRESSION_MS);
    expect(onImpression).toHaveBeenCalledTimes(1);
  });

  it("pauses on blur, keeping the time so far, and resumes on focus", () => {
    const source = fakeWindow();
    const onImpression = vi.fn();
    const tracker = trackImpression(source, true, onImpression, clock);
    vi.advanceTimersByTime(600);
    source.dispatchEvent(new Event("blur"));
    expect(tracker.running()).toBe(false);
    // However long the window is away, nothing is counted.
    vi.advanceTimersByTime(60_000);
    expect(onImpression).not.toHaveBeenCalled();
    source.dispatchEvent(new Event("focus"));
    expect(tracker.running()).toBe(true);
    vi.advanceTimersByTime(399);
    expect(onImpression).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onImpression).toHaveBeenCalledTimes(1);
    expect(tracker.running()).toBe(false);
  });

  it("starts only at the first focus when the window is in the background", () => {
    const source = fakeWindow();
    const onImpression = vi.fn();
    trackImpression(source, false, onImpression, clock);
    vi.advanceTimersByTime(5 * IMPRESSION_MS);
    expect(onImpression).not.toHaveBeenCalled();
    source.dispatchEvent(new Event("focus"));
    vi.advanceTimersByTime(IMPRESSION_MS);
    expect(onImpression).toHaveBeenCalledTimes(1);
  });

  it("a repeated focus does not restart the count, and stop ends it unreported", () => {
    const source = fakeWindow();
    const onImpression = vi.fn();
    const tracker = trackImpression(source, true, onImpression, clock);
    vi.advanceTimersByTime(500);
    source.dispatchEvent(new Event("focus"));
    vi.advanceTimersByTime(500);
    expect(onImpression).toHaveBeenCalledTimes(1);

    const stopped = vi.fn();
    const other = trackImpression(fakeWindow(), true, stopped, clock);
    vi.advanceTimersByTime(500);
    other.stop();
    vi.advanceTimersByTime(5 * IMPRESSION_MS);
    expect(stopped).not.toHaveBeenCalled();
    expect(tracker.running()).toBe(false);
  });
});
