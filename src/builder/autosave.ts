// What an autosave sends: the editor's fields that differ from the draft as last saved, so a
// save never overwrites a field the person did not touch (another tab's, or a batch edit's).
import type { DraftChanges, PinDraft } from "./drafts.ts";

/** The draft fields the single pin editor edits, as the API names them. */
const EDITOR_FIELDS = [
  "title",
  "description",
  "altText",
  "websiteLink",
  "isCommentsAllowed",
  "isShoppingRecAllowed",
  "boardId",
  "sectionId",
  "publishOption",
  "scheduledDate",
  "scheduledTime",
  "items",
  "pinItemIndex",
] as const satisfies readonly (keyof DraftChanges & keyof PinDraft)[];

/** The schedule's fields: a change to any of them sends the person's time zone with it. */
const SCHEDULE_FIELDS: ReadonlySet<string> = new Set(["publishOption", "scheduledDate", "scheduledTime"]);

/** A change set the builder sends; a schedule's carries the time zone it is read in (an IANA name). */
export type EditorChanges = DraftChanges;

const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/** The changed fields only; empty when nothing needs saving. */
export function draftDiff(saved: PinDraft, edited: PinDraft, timeZone: string): EditorChanges {
  const changes: Record<string, unknown> = {};
  for (const field of EDITOR_FIELDS) if (!same(saved[field], edited[field])) changes[field] = edited[field];
  if (Object.keys(changes).some((field) => SCHEDULE_FIELDS.has(field)) && edited.publishOption === "schedule") changes["timeZone"] = timeZone;
  return changes as EditorChanges;
}

export const hasChanges = (changes: EditorChanges): boolean => Object.keys(changes).length > 0;
