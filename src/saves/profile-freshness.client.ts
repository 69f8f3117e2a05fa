// Profile pins are marked stale by a save, a new board or a deleted pin (spec 001 §4
// "Session", src/saves/store.ts) and cleared by a refresh. The owner's profile is rendered on
// the server, so a fresh load IS the refresh; only a page restored from the back-forward cache
// shows the old pins, and it reloads when something changed meanwhile.
import { STALE_KEY } from "./store.ts";

type FlagStore = Pick<Storage, "getItem" | "removeItem">;

/** What a profile page does when shown: a restored page with stale pins reloads; any other clears the flag. */
export function onProfileShown(restored: boolean, stale: boolean): "reload" | "clear" | "nothing" {
  if (restored) return stale ? "reload" : "nothing";
  return stale ? "clear" : "nothing";
}

function readFlag(storage: FlagStore | null): boolean {
  try {
    return storage?.getItem(STALE_KEY) === "1";
  } catch {
    return false;
  }
}

/** Clears the flag for this fresh render and reloads a restored page whose pins went stale. Returns the unsubscribe. */
export function watchProfileFreshness(win: Window = window, storage: FlagStore | null = sessionStorageOrNull()): () => void {
  const act = (restored: boolean) => {
    const action = onProfileShown(restored, readFlag(storage));
    if (action === "reload") win.location.reload();
    if (action === "clear") {
      try {
        storage?.removeItem(STALE_KEY);
      } catch {
        // storage blocked: nothing was stored either
      }
    }
  };
  act(false);
  const onShow = (event: PageTransitionEvent) => {
    if (event.persisted) act(true);
  };
  win.addEventListener("pageshow", onShow);
  return () => win.removeEventListener("pageshow", onShow);
}

function sessionStorageOrNull(): FlagStore | null {
  try {
    return typeof sessionStorage === "undefined" ? null : sessionStorage;
  } catch {
    return null;
  }
}
