// Batch edit (spec 001 §2): one form for several drafts. Only the fields the person changed are
// sent, so a draft keeps its own value of every field left alone.
import type { DraftChanges, PinDraft } from "./drafts.ts";

const BATCH_FIELDS = ["title", "description", "websiteLink", "boardId"] as const;
export type BatchField = (typeof BATCH_FIELDS)[number];
export type BatchValues = { [F in BatchField]: F extends "boardId" ? string | null : string };

/** The form's starting values: a field all the drafts share shows that value; any other starts empty. */
export function batchStart(drafts: readonly Pick<PinDraft, BatchField>[]): BatchValues {
  const shared = <F extends BatchField>(field: F, empty: BatchValues[F]): BatchValues[F] => {
    const first = drafts[0]?.[field] ?? empty;
    return drafts.every((draft) => draft[field] === first) ? (first as BatchValues[F]) : empty;
  };
  return { title: shared("title", ""), description: shared("description", ""), websiteLink: shared("websiteLink", ""), boardId: shared("boardId", null) };
}

/** The fields whose value differs from where the form started, in the form's order. */
export function dirtyFields(start: BatchValues, edited: BatchValues): BatchField[] {
  return BATCH_FIELDS.filter((field) => start[field] !== edited[field]);
}

/** The update a batch sends each draft: the dirty fields only (a new board clears the section). */
export function batchChanges(start: BatchValues, edited: BatchValues): DraftChanges {
  const changes: DraftChanges = {};
  for (const field of dirtyFields(start, edited)) {
    if (field === "boardId") {
      changes.boardId = edited.boardId;
      changes.sectionId = null;
    } else changes[field] = edited[field];
  }
  return changes;
}

/** Adds or removes one draft from the selection, keeping the list's order. */
export function toggleSelected(selected: readonly string[], id: string, order: readonly string[]): string[] {
  const next = new Set(selected);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return order.filter((each) => next.has(each));
}
