// Spec 000 §9: a board title is at most 50 characters and a description at most 500; section
// titles follow the board title's limit (the server's CHECK). Lengths count characters as the
// server does (code points), so an emoji is one, not two.
import { BOARD_PRIVACIES, type BoardPrivacy } from "./board.ts";

export const BOARD_NAME_MAX = 50;
export const BOARD_DESCRIPTION_MAX = 500;
export const SECTION_TITLE_MAX = 50;

export const charCount = (text: string): number => [...text].length;

/**
 * What a text field keeps when the person types `next`: the new text while it fits, else the
 * previous text and `refused: true`, so the 51st character is refused visibly, not cut silently.
 */
export function limitInput(previous: string, next: string, max: number): { value: string; refused: boolean } {
  return charCount(next) <= max ? { value: next, refused: false } : { value: previous, refused: true };
}

export type BoardField = "name" | "description" | "privacy";
export type FieldProblem = "required" | "tooLong" | "invalid";

export interface BoardDraft {
  name: string;
  description: string;
  privacy: string;
}

/** The problems of a board form, by field; empty when it may be sent. */
export function boardProblems(draft: BoardDraft): Partial<Record<BoardField, FieldProblem>> {
  const problems: Partial<Record<BoardField, FieldProblem>> = {};
  const name = draft.name.trim();
  if (name === "") problems.name = "required";
  else if (charCount(name) > BOARD_NAME_MAX) problems.name = "tooLong";
  if (charCount(draft.description) > BOARD_DESCRIPTION_MAX) problems.description = "tooLong";
  if (!(BOARD_PRIVACIES as readonly string[]).includes(draft.privacy)) problems.privacy = "invalid";
  return problems;
}

export function isBoardPrivacy(value: string): value is BoardPrivacy {
  return (BOARD_PRIVACIES as readonly string[]).includes(value);
}

/** A section title's problem, or null when it may be sent. */
export function sectionTitleProblem(title: string): FieldProblem | null {
  const trimmed = title.trim();
  if (trimmed === "") return "required";
  return charCount(trimmed) > SECTION_TITLE_MAX ? "tooLong" : null;
}
