// Rows and reads shared by the boards Worker tests: pins with their grid image, saves, fresh
// boards shared with the cast's collaborators, and a snapshot of everything a board write may
// touch (to prove a refused call changed nothing).
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { CAST, CAST_BOARDS, freshId } from "./roles-fixture.ts";
import type { Browser } from "./accounts-helpers.ts";

const db = () => env.DB;

/** A pin by `pinner` born on `boardId` (its own board), with the grid's 236x image. */
export async function insertPin(id: number, options: { pinner?: number; boardId?: number | null; kind?: string; title?: string; category?: string | null } = {}): Promise<number> {
  await db().batch([
    db()
      .prepare(
        `INSERT INTO pins (id, pinner_id, board_id, kind, title, category, image_signature, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'sig', ?7, ?7)`,
      )
      .bind(id, options.pinner ?? CAST.owner, options.boardId === undefined ? CAST_BOARDS.public : options.boardId, options.kind ?? "image", options.title ?? `Pin ${id}`, options.category ?? null, 1_700_000_000_000 + id),
    db().prepare("INSERT INTO pin_images (pin_id, size, url, width, height, dominant_color) VALUES (?1, '236x', ?2, 236, 300, '#abcdef')").bind(id, `/media/pins/${id}/236x.jpg`),
  ]);
  return id;
}

/** A save row (no counters touched: call recount() after seeding). */
export async function insertSave(boardId: number, pinId: number, position: number, sectionId: number | null = null, savedBy: number = CAST.owner): Promise<void> {
  await db()
    .prepare("INSERT INTO board_pins (board_id, pin_id, section_id, saved_by, position, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
    .bind(boardId, pinId, sectionId, savedBy, position, 1_700_000_000_000 + pinId)
    .run();
}

async function insertSection(boardId: number, title: string, position = 0): Promise<number> {
  const id = freshId();
  await db().prepare("INSERT INTO board_sections (id, board_id, title, slug, position, created_at) VALUES (?1, ?2, ?3, ?4, ?5, 0)").bind(id, boardId, title, `s-${id}`, position).run();
  return id;
}

/** Sets every counter from the rows, as the server does after each write. */
export async function recountAll(): Promise<void> {
  await db().batch([
    db().prepare(`UPDATE boards SET pin_count = (SELECT count(*) FROM board_pins bp WHERE bp.board_id = boards.id),
                  sectionless_pin_count = (SELECT count(*) FROM board_pins bp WHERE bp.board_id = boards.id AND bp.section_id IS NULL),
                  section_count = (SELECT count(*) FROM board_sections s WHERE s.board_id = boards.id)`),
    db().prepare("UPDATE board_sections SET pin_count = (SELECT count(*) FROM board_pins bp WHERE bp.section_id = board_sections.id)"),
    db().prepare(`UPDATE pins SET save_count = (SELECT count(*) FROM board_pins bp JOIN boards b ON b.id = bp.board_id
                  WHERE bp.pin_id = pins.id AND b.privacy = 'public' AND b.archived_at IS NULL)`),
    db().prepare(`UPDATE users SET board_count = (SELECT count(*) FROM boards b WHERE b.owner_id = users.id AND b.archived_at IS NULL AND b.privacy != 'secret'),
                  secret_board_count = (SELECT count(*) FROM boards b WHERE b.owner_id = users.id AND b.archived_at IS NULL AND b.privacy = 'secret'),
                  pin_count = (SELECT count(*) FROM pins p WHERE p.pinner_id = users.id AND p.is_deleted = 0)`),
  ]);
}

/**
 * A board of CAST.owner shared like the cast boards (write and write+delete collaborators),
 * with a section and two pins saved on it (one in the section). The pins are born on the
 * public cast board, so every role may see them.
 */
export async function freshCastBoard(isPrivate: boolean): Promise<{ boardId: number; sectionId: number; pins: [number, number] }> {
  const boardId = freshId();
  await db().batch([
    db()
      .prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, is_collaborative, collaborator_count, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, 1, 2, 0, 0)")
      .bind(boardId, CAST.owner, `Board ${boardId}`, `board-${boardId}`, isPrivate ? "secret" : "public"),
    db().prepare("INSERT INTO board_collaborators (board_id, user_id, status, access, type, invited_by, created_at) VALUES (?1, ?2, 'accepted', 'write', 'invite', ?3, 0)").bind(boardId, CAST.collaborator_write, CAST.owner),
    db().prepare("INSERT INTO board_collaborators (board_id, user_id, status, access, type, invited_by, created_at) VALUES (?1, ?2, 'accepted', 'write,delete', 'invite', ?3, 0)").bind(boardId, CAST.collaborator_delete, CAST.owner),
  ]);
  const sectionId = await insertSection(boardId, "Ideas");
  const first = await insertPin(freshId());
  const second = await insertPin(freshId());
  await insertSave(boardId, first, 1, sectionId);
  await insertSave(boardId, second, 2);
  await recountAll();
  return { boardId, sectionId, pins: [first, second] };
}

/** Everything a board write may touch, for "nothing changed" checks. */
export async function snapshot(boardId: number): Promise<unknown> {
  const [board, sections, saves, collaborators, pins, users, recent, profile] = await db().batch([
    db().prepare("SELECT * FROM boards WHERE id = ?1").bind(boardId),
    db().prepare("SELECT * FROM board_sections WHERE board_id = ?1 ORDER BY id").bind(boardId),
    db().prepare("SELECT * FROM board_pins WHERE board_id = ?1 ORDER BY pin_id").bind(boardId),
    db().prepare("SELECT * FROM board_collaborators WHERE board_id = ?1 ORDER BY user_id").bind(boardId),
    db().prepare("SELECT id, board_id, section_id, title, is_deleted, save_count FROM pins WHERE id IN (SELECT pin_id FROM board_pins WHERE board_id = ?1) OR board_id = ?1 ORDER BY id").bind(boardId),
    db().prepare("SELECT id, pin_count, board_count, secret_board_count FROM users ORDER BY id"),
    db().prepare("SELECT * FROM recent_boards WHERE board_id = ?1 ORDER BY user_id").bind(boardId),
    db().prepare("SELECT * FROM profile_saves ORDER BY user_id, pin_id"),
  ]);
  return [board, sections, saves, collaborators, pins, users, recent, profile].map((result) => result?.results);
}

export interface ResourceAnswer<T = Record<string, unknown>> {
  status: number;
  data: T;
  error: { message: string; message_detail: string | null; code: number } | null;
}

/** A resource call's HTTP status, its data on success and its error object otherwise. */
export async function call<T = Record<string, unknown>>(browser: Browser, name: string, action: "get" | "create" | "update" | "delete", options: unknown): Promise<ResourceAnswer<T>> {
  const response = await browser.resource(name, action, options);
  const body = await response.json<Record<string, unknown>>();
  const envelope = body.resource_response as { data: T; error?: ResourceAnswer["error"] } | undefined;
  const error = (envelope?.error ?? (body.error as ResourceAnswer["error"]) ?? (response.status === 200 ? null : (body as unknown as ResourceAnswer["error"]))) ?? null;
  return { status: response.status, data: (envelope?.data ?? null) as T, error };
}

/** Asserts a success and answers its data. */
export async function ok<T = Record<string, unknown>>(browser: Browser, name: string, action: "get" | "create" | "update" | "delete", options: unknown): Promise<T> {
  const answer = await call<T>(browser, name, action, options);
  expect(answer.status, `${name}.${action} ${JSON.stringify(options)}: ${JSON.stringify(answer.error)}`).toBe(200);
  return answer.data;
}

export async function row<T = Record<string, unknown>>(sql: string, ...binds: unknown[]): Promise<T | null> {
  return db().prepare(sql).bind(...binds).first<T>();
}

export async function rows<T = Record<string, unknown>>(sql: string, ...binds: unknown[]): Promise<T[]> {
  return (await db().prepare(sql).bind(...binds).all<T>()).results;
}
