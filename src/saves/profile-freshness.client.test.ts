import { describe, expect, it, vi } from "vitest";
import { onProfileShown, watchProfileFreshness } from "./profile-freshness.client.ts";
import { STALE_KEY } from "./store.ts";

describe("onProfileShown", () => {
  it.each([
    [true, true, "reload"],
    [true, false, "nothing"],
    [false, true, "clear"],
    [false, false, "nothing"],
  ] as const)("restored %s, stale %s → %s", (restored, stale, action) => {
    expect(onProfileShown(restored, stale)).toBe(action);
  });
});

describe("watchProfileFreshness", () => {
  function fakes(stale: boolean) {
    const values = new Map<string, string>(stale ? [[STALE_KEY, "1"]] : []);
    const storage = { getItem: (key: string) => values.get(key) ?? null, removeItem: (key: string) => void values.delete(key) };
    const listeners: Array<(event: PageTransitionEvent) => void> = [];
    const reload = vi.fn();
    const win = {
      location: { reload },
      addEventListener: (_: string, listener: (event: PageTransitionEvent) => void) => listeners.push(listener),
      removeEventListener: vi.fn(),
    } as unknown as Window;
    return { values, storage, listeners, reload, win };
  }

  it("clears the flag on a fresh render (the refresh) without reloading", () => {
    const { values, storage, reload, win } = fakes(true);
    watchProfileFreshness(win, storage);
    expect(values.has(STALE_KEY)).toBe(false);
    expect(reload).not.toHaveBeenCalled();
  });

  it("reloads a page restored from the back-forward cache after a save elsewhere", () => {
    const { values, storage, listeners, reload, win } = fakes(false);
    watchProfileFreshness(win, storage);
    values.set(STALE_KEY, "1");
    listeners[0]!({ persisted: true } as PageTransitionEvent);
    expect(reload).toHaveBeenCalledOnce();
  });

  it("leaves a restored page alone when nothing changed", () => {
    const { storage, listeners, reload, win } = fakes(false);
    watchProfileFreshness(win, storage);
    listeners[0]!({ persisted: true } as PageTransitionEvent);
    listeners[0]!({ persisted: false } as PageTransitionEvent);
    expect(reload).not.toHaveBeenCalled();
  });
});
