// The board picker's rules, pure: which rows it lists for a filter (recent boards first, then
// the others, each board once), sections under an expanded board, keyboard movement through
// the list, and the inline "Create board" title (spec 000 §9: at most 50 characters).
import type { BoardRef, SavedInfo, SectionRef } from "./saves.ts";

/** Spec 000 §9: board title max 50 characters. */
export const BOARD_NAME_MAX = 50;
/** BoardPickerResource accepts a filter of at most 50 characters. */
const FILTER_MAX = 50;

export interface PickerData {
  recent: BoardRef[];
  boards: BoardRef[];
  sections: Record<string, SectionRef[]>;
  saved: SavedInfo[];
}

export const EMPTY_PICKER: PickerData = { recent: [], boards: [], sections: {}, saved: [] };

export type PickerRow =
  | { kind: "board"; key: string; board: BoardRef; group: "recent" | "all"; sectionCount: number; expanded: boolean; saved: boolean }
  | { kind: "section"; key: string; board: BoardRef; section: SectionRef; saved: boolean };

/** Case- and accent-insensitive comparison form of a name or a filter. */
function foldName(value: string): string {
  return value.normalize("NFKD").replace(/\p{M}/gu, "").toLocaleLowerCase().trim();
}

/** The filter as typed, bounded to what the server accepts. */
export function boundFilter(value: string): string {
  return [...value].slice(0, FILTER_MAX).join("");
}

export function matchesFilter(name: string, filter: string): boolean {
  const wanted = foldName(filter);
  return wanted === "" || foldName(name).includes(wanted);
}

/**
 * The rows in display order: recent boards first (most recent first, as given), then every
 * other board; a board listed as recent is not listed again. A board whose sections are
 * expanded is followed by them. With a filter, only boards whose name matches are listed.
 */
export function pickerRows(data: PickerData, filter: string, expanded: ReadonlySet<string>): PickerRow[] {
  const rows: PickerRow[] = [];
  const seen = new Set<string>();
  const savedBoards = new Set(data.saved.filter((info) => info.type === "board" && info.sectionId === null).map((info) => info.boardId));
  const savedSections = new Set(data.saved.map((info) => info.sectionId).filter((id): id is string => id !== null));
  const add = (board: BoardRef, group: "recent" | "all") => {
    if (seen.has(board.id) || !matchesFilter(board.name, filter)) return;
    seen.add(board.id);
    const sections = data.sections[board.id] ?? [];
    const open = sections.length > 0 && expanded.has(board.id);
    rows.push({ kind: "board", key: `${group}-${board.id}`, board, group, sectionCount: sections.length, expanded: open, saved: savedBoards.has(board.id) });
    if (open) {
      for (const section of sections) rows.push({ kind: "section", key: `section-${section.id}`, board, section, saved: savedSections.has(section.id) });
    }
  };
  for (const board of data.recent) add(board, "recent");
  for (const board of data.boards) add(board, "all");
  return rows;
}

export type NavigationKey = "ArrowDown" | "ArrowUp" | "Home" | "End";

/** The active row after a key: arrows move one and stop at the ends; -1 is "none yet". */
export function moveActive(active: number, key: NavigationKey, count: number): number {
  if (count <= 0) return -1;
  switch (key) {
    case "ArrowDown":
      return active < 0 ? 0 : Math.min(active + 1, count - 1);
    case "ArrowUp":
      return active < 0 ? count - 1 : Math.max(active - 1, 0);
    case "Home":
      return 0;
    case "End":
      return count - 1;
  }
}

/** Characters as a person counts them (code points), the way the database's length() does. */
export const nameLength = (value: string) => [...value].length;

export interface NameInput {
  value: string;
  /** The change asked for more than 50 characters and was cut back to 50. */
  refused: boolean;
}

/** A change to the "Create board" title: past 50 characters the extra is refused, not kept. */
export function nextBoardName(next: string, max = BOARD_NAME_MAX): NameInput {
  if (nameLength(next) <= max) return { value: next, refused: false };
  return { value: [...next].slice(0, max).join(""), refused: true };
}

export type NameProblem = "empty" | "tooLong" | null;

/** What stops a title from being created (the server trims, then wants 1..50 characters). */
export function boardNameProblem(value: string, max = BOARD_NAME_MAX): NameProblem {
  const trimmed = value.trim();
  if (trimmed === "") return "empty";
  return nameLength(trimmed) > max ? "tooLong" : null;
}
