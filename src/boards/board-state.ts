// Spec 001 §4 "Board": a board's counts and owner-only flags as the client holds them, and
// every change a board action makes, as one pure reducer `(board, event) => board`. The
// server's answer replaces the state afterwards; these keep the screen right in between and
// are what a refusal reverts. Counts never fall below zero.
import type { BoardPrivacy } from "./board.ts";

export interface SectionCount {
  id: string;
  title: string;
  pin_count: number;
  /** The section's address under its board (its page); absent where the answer did not carry it. */
  slug?: string;
}

export interface BoardState {
  id: string;
  name: string;
  description: string;
  privacy: BoardPrivacy;
  pin_count: number;
  sectionless_pin_count: number;
  section_count: number;
  sections: SectionCount[];
  cover_pin_id: string | null;
  archived_by_me_at: number | null;
  pending_ownership_transfer: { user_id: string; username: string } | null;
}

export type BoardEvent =
  /** Pins saved or moved onto the board (into a section, or sectionless when null). */
  | { type: "pinsAdded"; sectionId: string | null; count: number }
  /** Pins deleted or moved off the board; `sectionId` says where they were. */
  | { type: "pinsRemoved"; sectionId: string | null; count: number }
  /** Pins moved between sections of this board (null = sectionless): the board total is unchanged. */
  | { type: "pinsMovedWithin"; from: string | null; to: string | null; count: number }
  | { type: "sectionAdded"; section: SectionCount }
  | { type: "sectionRenamed"; sectionId: string; title: string }
  /** The section goes; its pins stay on the board, sectionless. */
  | { type: "sectionDeleted"; sectionId: string }
  | { type: "sectionsReordered"; sectionIds: readonly string[] }
  | { type: "edited"; name?: string; description?: string; privacy?: BoardPrivacy; coverPinId?: string | null }
  | { type: "archived"; now: number }
  | { type: "unarchived" }
  | { type: "transferRequested"; user: { user_id: string; username: string } }
  | { type: "transferCancelled" };

const floor = (value: number) => Math.max(0, value);

function changeSection(board: BoardState, sectionId: string, by: number): SectionCount[] {
  return board.sections.map((section) => (section.id === sectionId ? { ...section, pin_count: floor(section.pin_count + by) } : section));
}

/** Adds `by` (possibly negative) to the pins of one place on the board: a section, or sectionless. */
function changePlace(board: BoardState, sectionId: string | null, by: number): BoardState {
  return sectionId === null
    ? { ...board, sectionless_pin_count: floor(board.sectionless_pin_count + by) }
    : { ...board, sections: changeSection(board, sectionId, by) };
}

export function boardReducer(board: BoardState, event: BoardEvent): BoardState {
  switch (event.type) {
    case "pinsAdded":
      return { ...changePlace(board, event.sectionId, event.count), pin_count: board.pin_count + event.count };
    case "pinsRemoved":
      return { ...changePlace(board, event.sectionId, -event.count), pin_count: floor(board.pin_count - event.count) };
    case "pinsMovedWithin":
      if (event.from === event.to) return board;
      return changePlace(changePlace(board, event.from, -event.count), event.to, event.count);
    case "sectionAdded":
      if (board.sections.some((section) => section.id === event.section.id)) return board;
      return { ...board, sections: [event.section, ...board.sections], section_count: board.section_count + 1 };
    case "sectionRenamed":
      return { ...board, sections: board.sections.map((section) => (section.id === event.sectionId ? { ...section, title: event.title } : section)) };
    case "sectionDeleted": {
      const gone = board.sections.find((section) => section.id === event.sectionId);
      if (!gone) return { ...board, section_count: floor(board.section_count - 1) };
      return {
        ...board,
        sections: board.sections.filter((section) => section.id !== event.sectionId),
        section_count: floor(board.section_count - 1),
        sectionless_pin_count: board.sectionless_pin_count + gone.pin_count,
      };
    }
    case "sectionsReordered": {
      const byId = new Map(board.sections.map((section) => [section.id, section]));
      const ordered = event.sectionIds.flatMap((id) => byId.get(id) ?? []);
      // Only a permutation of the board's own sections is a reorder; anything else changes nothing.
      if (ordered.length !== board.sections.length || new Set(event.sectionIds).size !== ordered.length) return board;
      return { ...board, sections: ordered };
    }
    case "edited":
      return {
        ...board,
        ...(event.name === undefined ? {} : { name: event.name }),
        ...(event.description === undefined ? {} : { description: event.description }),
        ...(event.privacy === undefined ? {} : { privacy: event.privacy }),
        ...(event.coverPinId === undefined ? {} : { cover_pin_id: event.coverPinId }),
      };
    case "archived":
      return { ...board, archived_by_me_at: event.now };
    case "unarchived":
      return { ...board, archived_by_me_at: null };
    case "transferRequested":
      return { ...board, pending_ownership_transfer: event.user };
    case "transferCancelled":
      return { ...board, pending_ownership_transfer: null };
  }
}

/** Applies events in order (a bulk action's several changes, or a revert's replay). */
export function applyAll(board: BoardState, events: readonly BoardEvent[]): BoardState {
  return events.reduce(boardReducer, board);
}
