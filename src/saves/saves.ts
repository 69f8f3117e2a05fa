// Saving and repinning as pure transitions (spec 001 §3 Pin client-only fields savedInfo,
// undoAction, undoText; §4 "Saving and repinning"). The store (store.ts) applies them
// optimistically: the pin reads saved the moment the person chooses a board, and the snapshot
// taken then is put back if the server refuses. No DOM, no fetch here.

import type { SavedInfo } from "./saved-info.ts";

export type { SavedInfo };
export type Privacy = "public" | "secret" | "protected";

/** A board as the picker and the repin answer carry it. */
export interface BoardRef {
  id: string;
  name: string;
  privacy: Privacy;
  url: string;
}

export interface SectionRef {
  id: string;
  title: string;
}

/** Where a save goes: a board (optionally one of its sections) or the profile (boardless). */
export type SaveTarget =
  | { kind: "board"; board: BoardRef; section: SectionRef | null }
  | { kind: "profile"; title: string; url: string };

/** The RepinResource.create answer. */
export interface RepinAnswer {
  saved_info: SavedInfo;
  board: { id: string; name: string; privacy: Privacy } | null;
  pin_id: string;
}

/** What Undo takes back: the save just made (RepinResource.delete with this board, or none). */
interface UndoAction {
  pinId: string;
  boardId: string | null;
}

export interface PinSave {
  savedInfo: SavedInfo | null;
  /** Spec 001 §4: a repin records the target board's name and privacy on the pin. */
  board: { id: string; name: string; privacy: Privacy } | null;
  undoAction: UndoAction | null;
  undoText: string | null;
  /** A call is in flight; the state shown is the optimistic one. */
  pending: "save" | "unsave" | null;
  /** The state before the optimistic change, put back if the server refuses. */
  before: Settled | null;
}
type Settled = Omit<PinSave, "before" | "pending">;

export const UNSAVED: PinSave = { savedInfo: null, board: null, undoAction: null, undoText: null, pending: null, before: null };

export type SaveEvent =
  /** The person chose a target: show it saved now. */
  | { type: "save"; pinId: string; target: SaveTarget }
  /** The server kept the save: its savedInfo replaces the provisional one; Undo becomes possible. */
  | { type: "saved"; answer: RepinAnswer; undoText: string }
  /** Unsave (or Undo) from this board, or from the profile when boardId is null. */
  | { type: "unsave"; boardId: string | null }
  | { type: "unsaved" }
  /** The server refused the save or unsave in flight: back to the snapshot. */
  | { type: "failed" }
  /** The undo toast went away: Undo is no longer offered. */
  | { type: "undoExpired" };

const settled = (state: PinSave): Settled => ({ savedInfo: state.savedInfo, board: state.board, undoAction: state.undoAction, undoText: state.undoText });

/** The savedInfo shown while the save is in flight, built from what the picker knew. */
export function provisionalSavedInfo(pinId: string, target: SaveTarget): SavedInfo {
  return target.kind === "board"
    ? { boardId: target.board.id, sectionId: target.section?.id ?? null, title: target.board.name, type: "board", url: target.board.url, localPinId: pinId }
    : { boardId: null, sectionId: null, title: target.title, type: "profile", url: target.url, localPinId: pinId };
}

export function nextPinSave(state: PinSave, event: SaveEvent): PinSave {
  switch (event.type) {
    case "save": {
      const board = event.target.kind === "board" ? { id: event.target.board.id, name: event.target.board.name, privacy: event.target.board.privacy } : state.board;
      return { savedInfo: provisionalSavedInfo(event.pinId, event.target), board, undoAction: null, undoText: null, pending: "save", before: settled(state) };
    }
    case "saved": {
      if (state.pending !== "save") return state;
      const info = event.answer.saved_info;
      return {
        savedInfo: info,
        board: event.answer.board ?? state.board,
        undoAction: { pinId: event.answer.pin_id, boardId: info.type === "board" ? info.boardId : null },
        undoText: event.undoText,
        pending: null,
        before: null,
      };
    }
    case "unsave": {
      // Unsaving a board the pin is not shown saved to leaves what is shown alone.
      const current = state.savedInfo;
      const matches = current !== null && (event.boardId === null ? current.type === "profile" : current.boardId === event.boardId);
      return {
        savedInfo: matches ? null : current,
        board: matches && current.type === "board" ? null : state.board,
        undoAction: null,
        undoText: null,
        pending: "unsave",
        before: settled(state),
      };
    }
    case "unsaved":
      return state.pending === "unsave" ? { ...state, pending: null, before: null } : state;
    case "failed":
      return state.before && state.pending ? { ...state.before, pending: null, before: null } : state;
    case "undoExpired":
      return state.undoAction ? { ...state, undoAction: null, undoText: null } : state;
  }
}
