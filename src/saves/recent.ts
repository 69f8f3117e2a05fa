// Spec 001 §3 User.recent_boards and §4 Session isProfilePinsStale, as pure transitions.
import type { BoardRef } from "./saves.ts";

/** BoardPickerResource answers at most 5 recent boards; the client list keeps the same bound. */
export const RECENT_BOARDS_MAX = 5;

/** The board just saved to goes first; a board already listed moves up rather than repeating. */
export function rememberRecent(recent: readonly BoardRef[], board: BoardRef, max = RECENT_BOARDS_MAX): BoardRef[] {
  return [board, ...recent.filter((item) => item.id !== board.id)].slice(0, Math.max(0, max));
}

/** A board that is gone (deleted, or no longer writable) leaves the recent list. */
export function forgetRecent(recent: readonly BoardRef[], boardId: string): BoardRef[] {
  return recent.filter((item) => item.id !== boardId);
}

/**
 * Spec 001 §4 Session: deleting a board, a section or a pin, and creating a board, a pin or a
 * repin, mark profile pins stale; a refresh clears the flag. Anything else leaves it.
 */
export type StaleEvent = "deleteBoard" | "deleteSection" | "deletePin" | "createBoard" | "createPin" | "createRepin" | "refresh";

const STALE_MAKERS: ReadonlySet<StaleEvent> = new Set(["deleteBoard", "deleteSection", "deletePin", "createBoard", "createPin", "createRepin"]);

export function nextProfilePinsStale(stale: boolean, event: StaleEvent): boolean {
  if (event === "refresh") return false;
  return STALE_MAKERS.has(event) ? true : stale;
}
