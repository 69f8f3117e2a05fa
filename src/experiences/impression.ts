// An experience's impression (spec 002 §4 "Impression tracking is paused on window blur and
// resumed on focus"): it counts as seen once it has been on screen for IMPRESSION_MS while the
// window had focus. Blur pauses the count (the time so far is kept), focus resumes it; the
// impression is reported once. The window and the timers are injected, so tests drive them.

/** How long an experience must be in front of the person to count as viewed. */
export const IMPRESSION_MS = 1000;

export interface FocusSource {
  addEventListener(type: "blur" | "focus", listener: () => void): void;
  removeEventListener(type: "blur" | "focus", listener: () => void): void;
}

export interface ImpressionClock {
  now(): number;
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realClock: ImpressionClock = {
  now: () => Date.now(),
  set: (run, ms) => setTimeout(run, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface ImpressionTracker {
  /** Whether the count is running now (false while blurred, after the impression, or stopped). */
  running(): boolean;
  /** Stops for good (the experience left the page) without reporting. */
  stop(): void;
}

/**
 * Starts counting now when `focused`, else at the next focus; calls `onImpression` once the
 * focused time reaches IMPRESSION_MS.
 */
export function trackImpression(source: FocusSource, focused: boolean, onImpression: () => void, clock: ImpressionClock = realClock): ImpressionTracker {
  let shown = 0;
  let since: number | null = null;
  let timer: unknown;
  let done = false;

  const pause = () => {
    if (since === null) return;
    shown += clock.now() - since;
    since = null;
    clock.clear(timer);
    timer = undefined;
  };
  const finish = () => {
    done = true;
    since = null;
    timer = undefined;
    source.removeEventListener("blur", pause);
    source.removeEventListener("focus", resume);
  };
  function resume() {
    if (done || since !== null) return;
    since = clock.now();
    timer = clock.set(() => {
      finish();
      onImpression();
    }, Math.max(0, IMPRESSION_MS - shown));
  }

  source.addEventListener("blur", pause);
  source.addEventListener("focus", resume);
  if (focused) resume();
  return {
    running: () => since !== null,
    stop() {
      if (done) return;
      clock.clear(timer);
      finish();
    },
  };
}
