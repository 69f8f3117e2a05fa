// The organiser's toast messages, in the island's strings; the shell shows them (toast-event.ts).
import { showToast } from "~/shell/toast-event.ts";
import type { Notice } from "./board-store.ts";
import { counted, type OrganizeStrings } from "./strings.ts";

/** The message of a store notice in the island's strings. */
export function noticeText(strings: OrganizeStrings, notice: Notice, count = 1): string {
  if (notice === "moved" || notice === "copied" || notice === "deleted") return counted(strings, `toast.${notice}`, count);
  return strings.text[`toast.${notice}`];
}

export function notifier(strings: OrganizeStrings) {
  return (notice: Notice, count?: number) => showToast({ id: `organize-${notice}`, message: noticeText(strings, notice, count) });
}
