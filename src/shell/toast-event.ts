// Toasts from islands and page scripts. Each is bundled apart from the shell's own script, and
// its copy of shell.ts would hold a toast stack nobody renders, so a toast travels as a window
// event that AppShell.astro listens for and pushes onto the one rendered stack.
import type { Toast } from "./shell.ts";

export const TOAST_EVENT = "pinloom:toast";

/** Asks the shell to show `toast` (one with the same id replaces the one showing). */
export function showToast(toast: Toast, target: EventTarget = window): void {
  target.dispatchEvent(new CustomEvent<Toast>(TOAST_EVENT, { detail: toast }));
}
