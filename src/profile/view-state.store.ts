// The profile view on this device: a store persisted in localStorage. Every change is written
// through and applied as classes on <html> (viewClasses), the same classes the inline
// VIEW_STATE_SCRIPT sets before first paint, so the page never shifts on load.
import { atom } from "nanostores";
import { PROFILE_VIEW_KEY, parseProfileView, toProfileView, viewClasses, type ProfileView } from "./view-state.ts";

function readStored(): ProfileView {
  try {
    return parseProfileView(localStorage.getItem(PROFILE_VIEW_KEY));
  } catch {
    return parseProfileView(null);
  }
}

export const $profileView = atom<ProfileView>(readStored());

export function setProfileView(patch: Partial<ProfileView>): void {
  $profileView.set(toProfileView({ ...$profileView.get(), ...patch }));
}

$profileView.listen((view) => {
  try {
    localStorage.setItem(PROFILE_VIEW_KEY, JSON.stringify(view));
  } catch {
    // storage full or disabled: the view lasts for this page only
  }
});

/** Keeps the <html> classes in step with the store (call once per page). */
export function applyProfileView(root: HTMLElement = document.documentElement): () => void {
  return $profileView.subscribe((view) => {
    for (const name of [...root.classList]) if (name.startsWith("pv-")) root.classList.remove(name);
    root.classList.add(...viewClasses(view));
  });
}
