// Pin drafts in D1 (pin_drafts, migration 0019): each person's own, one JSON document a row,
// read back through storedDraftSchema. Every statement names the owner in its WHERE clause, so
// another person's draft is as absent as a missing one. Each write is one statement.
import { loadBoardWithRole } from "~/boards/access.server.ts";
import { decide } from "~/boards/policy.ts";
import { findSection } from "~/boards/sections.server.ts";
import type { FieldProblem } from "~/domain/errors.ts";
import { encodeKeyset, keysetPageOf, type KeysetPage } from "~/feeds/cursor.ts";
import { hostAndParents, readStoredDraft, storedDraftSchema, type PinDraft } from "./drafts.ts";

/** Drafts one person may keep: enough for a batch upload session or two, bounded so a list and a count stay cheap. */
export const MAX_DRAFTS_PER_PERSON = 100;
export const DRAFTS_PAGE_SIZE = 25;

/** A draft as the API answers it: its id and every field, lastSavedTime from the row. */
export type DraftAnswer = PinDraft & { id: string; createdAt: number };

/** A stored draft and the version an update must find to apply. */
export interface StoredDraft {
  draft: DraftAnswer;
  version: number;
}

interface DraftRow {
  id: number;
  draft: string;
  version: number;
  created_at: number;
  updated_at: number;
}

function answerOf(row: DraftRow): DraftAnswer {
  return { ...readStoredDraft(row.draft), lastSavedTime: row.updated_at, id: String(row.id), createdAt: row.created_at };
}

/** What is stored: the draft's own fields only (the id and the save time are the row's). */
function storedJson(draft: PinDraft): string {
  return JSON.stringify({ ...storedDraftSchema.parse(draft), lastSavedTime: null });
}

/** The viewer's draft, or null when there is none of that id that is theirs. */
export async function findDraft(db: D1Database, userId: number, draftId: number): Promise<StoredDraft | null> {
  const row = await db.prepare("SELECT id, draft, version, created_at, updated_at FROM pin_drafts WHERE id = ?1 AND user_id = ?2").bind(draftId, userId).first<DraftRow>();
  return row ? { draft: answerOf(row), version: row.version } : null;
}

/**
 * One page of the viewer's drafts, newest first (by id: a draft's place never moves while
 * paging); of one type only when `type` is given (the story editor lists its own).
 */
export async function listDrafts(db: D1Database, userId: number, beforeId: number | null, size: number, type: PinDraft["type"] | null = null): Promise<KeysetPage<DraftAnswer>> {
  const { results } = await db
    .prepare(
      `SELECT id, draft, version, created_at, updated_at FROM pin_drafts
       WHERE user_id = ?1 AND (?2 IS NULL OR id < ?2) AND (?4 IS NULL OR json_extract(draft, '$.type') = ?4) ORDER BY id DESC LIMIT ?3`,
    )
    .bind(userId, beforeId, size + 1, type)
    .all<DraftRow>();
  return keysetPageOf(results, size, (row) => encodeKeyset(row.id, row.id), answerOf);
}

/**
 * Stores a new draft unless the person already keeps MAX_DRAFTS_PER_PERSON: the count and the
 * insert are one statement, so two creates at once cannot both pass the limit. Null when full.
 */
export async function createDraft(db: D1Database, userId: number, draft: PinDraft, now: number): Promise<DraftAnswer | null> {
  const row = await db
    .prepare(
      `INSERT INTO pin_drafts (user_id, draft, version, created_at, updated_at)
       SELECT ?1, ?2, 1, ?3, ?3 WHERE (SELECT count(*) FROM pin_drafts WHERE user_id = ?1) < ?4
       RETURNING id, draft, version, created_at, updated_at`,
    )
    .bind(userId, storedJson({ ...draft, lastEditedTime: now }), now, MAX_DRAFTS_PER_PERSON)
    .first<DraftRow>();
  return row ? answerOf(row) : null;
}

/**
 * Replaces the draft when it is still at `version` (nothing changed it since it was read).
 * Null when it was changed or deleted meanwhile; the caller reads it again.
 */
export async function replaceDraft(db: D1Database, userId: number, draftId: number, version: number, draft: PinDraft, now: number): Promise<DraftAnswer | null> {
  const row = await db
    .prepare(
      `UPDATE pin_drafts SET draft = ?4, version = version + 1, updated_at = ?5
       WHERE id = ?1 AND user_id = ?2 AND version = ?3
       RETURNING id, draft, version, created_at, updated_at`,
    )
    .bind(draftId, userId, version, storedJson(draft), now)
    .first<DraftRow>();
  return row ? answerOf(row) : null;
}

/** Deletes the viewer's draft; false when there was none of that id that is theirs. */
export async function deleteDraft(db: D1Database, userId: number, draftId: number): Promise<boolean> {
  const result = await db.prepare("DELETE FROM pin_drafts WHERE id = ?1 AND user_id = ?2").bind(draftId, userId).run();
  return result.meta.changes > 0;
}

/**
 * Which of these hosts, or their parent domains, are blocked link hosts: one indexed lookup
 * of only the names that could matter, however long the blocked list grows.
 */
export async function blockedHostsAmong(db: D1Database, hosts: readonly string[]): Promise<Set<string>> {
  const names = [...new Set(hosts.flatMap(hostAndParents))];
  if (names.length === 0) return new Set();
  const { results } = await db
    .prepare("SELECT lower(domain) AS domain FROM link_domains WHERE is_blocked = 1 AND lower(domain) IN (SELECT value FROM json_each(?1))")
    .bind(JSON.stringify(names))
    .all<{ domain: string }>();
  return new Set(results.map((row) => row.domain));
}

/**
 * The problem with a chosen board and section: the board must be one the person may save a
 * pin to (the board policy's save_pin), the section one of that board. A missing board, a
 * hidden one and one they may only look at give the same answer, so nothing about a board
 * they cannot see leaks through a draft.
 */
export async function boardChoiceProblems(db: D1Database, viewerId: number, boardId: string | null, sectionId: string | null): Promise<FieldProblem[]> {
  if (boardId === null) return [];
  const loaded = await loadBoardWithRole(db, Number(boardId), viewerId);
  if (!loaded || decide(loaded.role, "save_pin", loaded.isPrivate) !== "ok") return [{ field: "boardId", reason: "builder:validation.boardNotWritable" }];
  if (sectionId === null) return [];
  const section = await findSection(db, Number(sectionId));
  return section && section.board_id === loaded.board.id ? [] : [{ field: "sectionId", reason: "builder:validation.sectionNotOnBoard" }];
}
