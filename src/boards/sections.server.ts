// Board sections (BoardSectionResource, BoardSectionsResource): create at the front of the
// list, rename, delete (its pins stay on the board, sectionless), reorder. One D1 batch each,
// WHERE clauses repeating the board id, counts recounted last (counts.server.ts).
import { badRequest } from "~/domain/errors.ts";
import { recountBoards } from "./counts.server.ts";
// A board holds at most as many sections as one bulk call names ids: the reorder call lists them all.
import { MAX_BULK_IDS as MAX_SECTIONS } from "./options.ts";
import { firstPosition } from "./positions.ts";
import { slugify, uniqueSlug } from "./slug.ts";
import { isUniqueViolation } from "./write.server.ts";

export interface SectionRow {
  id: number;
  board_id: number;
  title: string;
  slug: string;
  position: number;
}

/** A section and its board's id, or null when there is no such section. */
export async function findSection(db: D1Database, sectionId: number): Promise<SectionRow | null> {
  return db.prepare("SELECT id, board_id, title, slug, position FROM board_sections WHERE id = ?1").bind(sectionId).first<SectionRow>();
}

async function sectionSlugs(db: D1Database, boardId: number, exceptId: number | null): Promise<{ slugs: string[]; count: number; first: number | null }> {
  const { results } = await db
    .prepare("SELECT id, slug, position FROM board_sections WHERE board_id = ?1 ORDER BY position, id LIMIT ?2")
    .bind(boardId, MAX_SECTIONS + 1)
    .all<{ id: number; slug: string; position: number }>();
  return { slugs: results.filter((row) => row.id !== exceptId).map((row) => row.slug), count: results.length, first: results[0]?.position ?? null };
}

/**
 * The statements creating a section at the front of the board's list (spec 001 §4: new
 * sections go to the front), for a caller that may add more to the same batch; the new id is
 * `(SELECT id FROM board_sections WHERE board_id = ? AND slug = ?)` with the returned slug.
 * 400 board_id when the board already holds MAX_SECTIONS.
 */
export async function prepareSection(db: D1Database, boardId: number, title: string, now = Date.now()): Promise<{ slug: string; statements: D1PreparedStatement[] }> {
  const existing = await sectionSlugs(db, boardId, null);
  if (existing.count >= MAX_SECTIONS) throw badRequest([{ field: "board_id", reason: "boards:validation.tooManySections", values: { maximum: MAX_SECTIONS } }]);
  const slug = uniqueSlug(slugify(title, "section"), existing.slugs, now);
  return {
    slug,
    statements: [
      db
        .prepare("INSERT INTO board_sections (board_id, title, slug, position, created_at) VALUES (?1, ?2, ?3, ?4, ?5)")
        .bind(boardId, title, slug, firstPosition(existing.first), now),
    ],
  };
}

/** Creates a section; returns its id. A lost slug race is retried once. */
export async function createSection(db: D1Database, boardId: number, title: string): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const { slug, statements } = await prepareSection(db, boardId, title);
    try {
      const results = await db.batch([
        ...statements,
        ...recountBoards(db, [boardId]),
        db.prepare("SELECT id FROM board_sections WHERE board_id = ?1 AND slug = ?2").bind(boardId, slug),
      ]);
      return Number((results.at(-1)?.results as Array<{ id: number }>)[0]!.id);
    } catch (error) {
      if (attempt === 0 && isUniqueViolation(error)) continue;
      throw error;
    }
  }
}

export async function renameSection(db: D1Database, section: SectionRow, title: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const { slugs } = await sectionSlugs(db, section.board_id, section.id);
    const slug = title === section.title ? section.slug : uniqueSlug(slugify(title, "section"), slugs);
    try {
      await db.prepare("UPDATE board_sections SET title = ?3, slug = ?4 WHERE id = ?1 AND board_id = ?2").bind(section.id, section.board_id, title, slug).run();
      return;
    } catch (error) {
      if (attempt === 0 && isUniqueViolation(error)) continue;
      throw error;
    }
  }
}

/** Deletes a section; its pins stay on the board without a section. */
export async function deleteSection(db: D1Database, section: SectionRow): Promise<void> {
  await db.batch([
    db.prepare("UPDATE board_pins SET section_id = NULL WHERE board_id = ?1 AND section_id = ?2").bind(section.board_id, section.id),
    db.prepare("UPDATE pins SET section_id = NULL WHERE board_id = ?1 AND section_id = ?2").bind(section.board_id, section.id),
    db.prepare("DELETE FROM board_blocking_actions WHERE board_id = ?1 AND section_id = ?2").bind(section.board_id, section.id),
    db.prepare("DELETE FROM board_sections WHERE id = ?2 AND board_id = ?1").bind(section.board_id, section.id),
    ...recountBoards(db, [section.board_id]),
  ]);
}

/**
 * Puts the board's sections in the given order. `sectionIds` must be exactly the board's
 * sections (400 section_ids otherwise); the statement repeats the board id, so a section
 * created meanwhile keeps its place and one deleted meanwhile is simply not there.
 */
export async function reorderSections(db: D1Database, boardId: number, sectionIds: readonly number[]): Promise<void> {
  const { results } = await db.prepare("SELECT id FROM board_sections WHERE board_id = ?1 LIMIT ?2").bind(boardId, MAX_SECTIONS + 1).all<{ id: number }>();
  const current = new Set(results.map((row) => row.id));
  const given = new Set(sectionIds);
  if (given.size !== sectionIds.length || given.size !== current.size || [...given].some((id) => !current.has(id))) {
    throw badRequest([{ field: "section_ids", reason: "boards:validation.sectionsMismatch" }]);
  }
  await db
    .prepare(
      `UPDATE board_sections SET position = (SELECT o.key + 1 FROM json_each(?2) o WHERE o.value = board_sections.id)
       WHERE board_id = ?1 AND id IN (SELECT value FROM json_each(?2))`,
    )
    .bind(boardId, JSON.stringify(sectionIds))
    .run();
}

/** The id of a board's section by its slug (a section a batch just created), or null. */
export async function sectionIdBySlug(db: D1Database, boardId: number, slug: string): Promise<number | null> {
  const row = await db.prepare("SELECT id FROM board_sections WHERE board_id = ?1 AND slug = ?2").bind(boardId, slug).first<{ id: number }>();
  return row?.id ?? null;
}
