// Toasts from an island: the shell (AppShell.astro) listens for pinloom:toast and shows them.
import type { Notice } from "./board-store.ts";
import { counted, type OrganizeStrings } from "./strings.ts";

export function showToast(id: string, message: string): void {
  dispatchEvent(new CustomEvent("pinloom:toast", { detail: { id, message } }));
}

/** The message of a store notice in the island's strings. */
export function noticeText(strings: OrganizeStrings, notice: Notice, count = 1): string {
  if (notice === "moved" || notice === "copied" || notice === "deleted") return counted(strings, `toast.${notice}`, count);
  return strings.text[`toast.${notice}`];
}

export function notifier(strings: OrganizeStrings) {
  return (notice: Notice, count?: number) => showToast(`organize-${notice}`, noticeText(strings, notice, count));
}
