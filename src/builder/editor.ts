// The single pin editor's pure rules beside drafts.ts: reordering a carousel's items, the
// messages of validateDraft's problems, the crop offer and the publishing statuses it shows.
import type { FieldProblem } from "~/domain/errors.ts";
import { fill } from "~/saves/strings.ts";
import type { PickerData } from "~/saves/picker.ts";
import { isAllowedRatio, nearestAllowedRatio, type AllowedRatio } from "~/media/aspect-ratio.ts";
import type { PinDraft } from "./drafts.ts";
import type { MediaRef } from "./media-ref.ts";

/** Spec 001 §4 publishing statuses the editor walks through (the draft itself never claims them). */
export interface PublishState {
  status: "notAttempted" | "attempted" | "publishing" | "succeeded";
  message: string | null;
}

/** Moves the item at `from` to `to`; the selection follows the item it was on. Out of range: unchanged. */
export function moveItem(draft: PinDraft, from: number, to: number): PinDraft {
  const count = draft.items.length;
  if (!Number.isInteger(from) || !Number.isInteger(to) || from < 0 || to < 0 || from >= count || to >= count || from === to) return draft;
  const items = [...draft.items];
  const [moved] = items.splice(from, 1);
  items.splice(to, 0, moved!);
  const selectedId = draft.items[draft.pinItemIndex]?.id;
  const pinItemIndex = Math.max(0, items.findIndex((item) => item.id === selectedId));
  return { ...draft, items, pinItemIndex };
}

/** Each field's first problem as the person reads it, from the validation strings. */
export function problemMessages(problems: readonly FieldProblem[], messages: Readonly<Record<string, string>>): Record<string, string> {
  const byField: Record<string, string> = {};
  for (const problem of problems) {
    if (byField[problem.field] !== undefined) continue;
    const template = messages[problem.reason];
    byField[problem.field] = template === undefined ? problem.reason : fill(template, problem.values ?? {});
  }
  return byField;
}

/** The ratio to offer an item's media a crop to, or null: a video, an allowed shape, or no size known. */
export function cropRatioFor(media: MediaRef | null): AllowedRatio | null {
  if (!media || media.type !== "image" || media.source !== "uploaded" || !media.width || !media.height) return null;
  return isAllowedRatio(media.width, media.height, "pin") ? null : nearestAllowedRatio(media.width, media.height, "pin");
}

/** The boards a pin can go to, recent ones first, each once (the save picker's answer). */
export function boardChoices(picker: PickerData | null): Array<{ id: string; name: string }> {
  if (!picker) return [];
  const recent = new Set(picker.recent.map((board) => board.id));
  return [...picker.recent, ...picker.boards.filter((board) => !recent.has(board.id))].map((board) => ({ id: board.id, name: board.name }));
}
