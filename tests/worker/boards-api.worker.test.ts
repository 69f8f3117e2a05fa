// The saving API: boards, sections,
// saves, moves, bulk actions, ownership transfer and the two /v3 routes, against the built
// Worker and real D1. Every refusal is checked to have changed nothing.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { BASE, fetchWorker } from "./fixtures.ts";
import { CAST, CAST_BOARDS, browserFor, freshId, seedCast } from "./roles-fixture.ts";
import type { Browser } from "./accounts-helpers.ts";
import { call, freshCastBoard, insertPin, insertSave, ok, recountAll, row, rows, snapshot } from "./boards-helpers.ts";

// Several calls per test against a shared, busy machine: room beyond the default 5 s.
vi.setConfig({ testTimeout: 30_000 });

let owner: Browser;
let stranger: Browser;
let writer: Browser;
let deleter: Browser;
let signedOut: Browser;

/** A public pin everyone may see (born on the public cast board). */
let publicPin: number;

beforeAll(async () => {
  await seedCast();
  publicPin = await insertPin(freshId(), { title: "Lemon ricotta pancakes", category: "food_drinks" });
  await insertSave(CAST_BOARDS.public, publicPin, 1);
  await recountAll();
  [owner, stranger, writer, deleter, signedOut] = await Promise.all([
    browserFor("owner"),
    browserFor("stranger"),
    browserFor("collaborator_write"),
    browserFor("collaborator_delete"),
    browserFor("signed_out"),
  ]);
});

interface Board {
  id: string;
  name: string;
  slug: string;
  url: string;
  privacy: string;
  pin_count: number;
  sectionless_pin_count: number;
  section_count: number;
  access: string[];
  archived_by_me_at: number | null;
  pending_ownership_transfer: { user_id: string; username: string } | null;
  cover_pin: { id: string; image_url: string } | null;
  collaborated_by_me: boolean;
  owner: { id: string; username: string };
}
interface Section {
  id: string;
  board_id: string;
  title: string;
  pin_count: number;
  position: number;
}

const counts = (boardId: number | string) =>
  row<{ pin_count: number; sectionless_pin_count: number; section_count: number }>("SELECT pin_count, sectionless_pin_count, section_count FROM boards WHERE id = ?1", Number(boardId));
const userCounts = (userId: number) => row<{ pin_count: number; board_count: number; secret_board_count: number }>("SELECT pin_count, board_count, secret_board_count FROM users WHERE id = ?1", userId);
const saveCount = async (pinId: number) => (await row<{ save_count: number }>("SELECT save_count FROM pins WHERE id = ?1", pinId))!.save_count;
const feedIds = async (browser: Browser, boardId: number | string) =>
  (await ok<{ results: Array<{ id: string }> }>(browser, "BoardFeedResource", "get", { board_id: String(boardId) })).results.map((pin) => Number(pin.id));
const boardTotal = async () => (await row<{ n: number }>("SELECT count(*) AS n FROM boards"))!.n;

describe("BoardResource create", () => {
  it("creates a board with a slug unique per owner and counts it", async () => {
    const before = (await userCounts(CAST.owner))!;
    const first = await ok<Board>(owner, "BoardResource", "create", { name: "  Weekend trips ", description: "Places to go" });
    expect(first).toMatchObject({ name: "Weekend trips", slug: "weekend-trips", url: "/cast_owner/weekend-trips/", privacy: "public", pin_count: 0, access: ["write", "delete"] });
    const second = await ok<Board>(owner, "BoardResource", "create", { name: "Weekend Trips!" });
    expect(second.slug).toBe("weekend-trips-2");
    const secret = await ok<Board>(owner, "BoardResource", "create", { name: "Gift ideas", privacy: "secret" });
    expect(secret.privacy).toBe("secret");
    const after = (await userCounts(CAST.owner))!;
    expect(after.board_count).toBe(before.board_count + 2);
    expect(after.secret_board_count).toBe(before.secret_board_count + 1);
  });

  it.each([
    ["a 51-character name", { name: "x".repeat(51) }, "name"],
    ["an empty name", { name: "   " }, "name"],
    ["a 501-character description", { name: "Ok", description: "d".repeat(501) }, "description"],
    ["an unknown privacy", { name: "Ok", privacy: "friends" }, "privacy"],
    ["an unknown option", { name: "Ok", colour: "red" }, "colour"],
  ])("refuses %s with 400 naming the field, creating nothing", async (_name, options, field) => {
    const before = await boardTotal();
    const usersBefore = await userCounts(CAST.owner);
    const answer = await call(owner, "BoardResource", "create", options);
    expect(answer.status).toBe(400);
    expect(answer.error?.message_detail).toContain(field);
    expect(await boardTotal()).toBe(before);
    expect(await userCounts(CAST.owner)).toEqual(usersBefore);
  });

  it("accepts a 50-character name", async () => {
    const board = await ok<Board>(owner, "BoardResource", "create", { name: "n".repeat(50) });
    expect(board.name).toHaveLength(50);
  });

  it("asks a signed-out visitor to log in", async () => {
    const before = await boardTotal();
    expect((await call(signedOut, "BoardResource", "create", { name: "Nope" })).status).toBe(401);
    expect(await boardTotal()).toBe(before);
  });
});

describe("BoardResource get", () => {
  it("answers the Board JSON, with counts a stranger may see", async () => {
    const { boardId } = await freshCastBoard(false);
    // A pin born on the secret board, saved to this public board: its owner counts it, a stranger does not.
    const secretPin = await insertPin(freshId(), { boardId: CAST_BOARDS.secret });
    await insertSave(boardId, secretPin, 0);
    await recountAll();
    const mine = await ok<Board>(owner, "BoardResource", "get", { board_id: String(boardId) });
    expect(mine.pin_count).toBe(3);
    const theirs = await ok<Board>(stranger, "BoardResource", "get", { board_id: String(boardId) });
    expect(theirs).toMatchObject({ pin_count: 2, sectionless_pin_count: 1, section_count: 1, access: [], archived_by_me_at: null, collaborated_by_me: false });
    expect(theirs.cover_pin?.id).not.toBe(String(secretPin));
    const collaborator = await ok<Board>(writer, "BoardResource", "get", { board_id: String(boardId) });
    expect(collaborator).toMatchObject({ access: ["write"], collaborated_by_me: true });
  });

  it.each([
    ["an unknown board", () => "999999", 404],
    ["a secret board of someone else", () => String(CAST_BOARDS.secret), 404],
  ])("answers 404 for %s", async (_name, id, status) => {
    expect((await call(stranger, "BoardResource", "get", { board_id: id() })).status).toBe(status);
  });

  it("hides a private profile's public board from strangers (as its page does), not from its people", async () => {
    const { boardId, sectionId } = await freshCastBoard(false);
    await env.DB.prepare("UPDATE users SET is_private_profile = 1 WHERE id = ?1").bind(CAST.owner).run();
    try {
      expect((await call(stranger, "BoardResource", "get", { board_id: String(boardId) })).status).toBe(404);
      expect((await call(stranger, "BoardSectionsResource", "get", { board_id: String(boardId) })).status).toBe(404);
      expect((await call(stranger, "BoardSectionPinsResource", "get", { section_id: String(sectionId) })).status).toBe(404);
      expect((await stranger.fetch(`/v3/boards/${boardId}/`)).status).toBe(404);
      expect((await call(writer, "BoardResource", "get", { board_id: String(boardId) })).status).toBe(200);
      expect((await call(owner, "BoardResource", "get", { board_id: String(boardId) })).status).toBe(200);
    } finally {
      await env.DB.prepare("UPDATE users SET is_private_profile = 0 WHERE id = ?1").bind(CAST.owner).run();
    }
  });

  it("refuses a malformed id with 400", async () => {
    const answer = await call(owner, "BoardResource", "get", { board_id: "12a" });
    expect(answer.status).toBe(400);
    expect(answer.error?.message_detail).toContain("board_id");
  });
});

describe("BoardResource update", () => {
  it("renames (new slug), edits, sets a cover and layout", async () => {
    const { boardId, pins } = await freshCastBoard(false);
    const board = await ok<Board>(owner, "BoardResource", "update", { board_id: String(boardId), name: "Renamed board", description: "New words", layout: "custom", cover_pin_id: String(pins[1]) });
    expect(board).toMatchObject({ name: "Renamed board", slug: "renamed-board" });
    expect(board.cover_pin?.id).toBe(String(pins[1]));
  });

  it("refuses a cover that is not on the board, changing nothing", async () => {
    const { boardId } = await freshCastBoard(false);
    const before = await snapshot(boardId);
    const answer = await call(owner, "BoardResource", "update", { board_id: String(boardId), name: "Changed", cover_pin_id: String(publicPin) });
    expect(answer.status).toBe(400);
    expect(answer.error?.message_detail).toContain("cover_pin_id");
    expect(await snapshot(boardId)).toEqual(before);
  });

  it("refuses a 51-character name with 400 naming name, changing nothing", async () => {
    const { boardId } = await freshCastBoard(false);
    const before = await snapshot(boardId);
    const answer = await call(owner, "BoardResource", "update", { board_id: String(boardId), name: "y".repeat(51) });
    expect(answer.status).toBe(400);
    expect(answer.error?.message_detail).toContain("name");
    expect(await snapshot(boardId)).toEqual(before);
  });

  it.each([
    ["a stranger on a public board", "stranger", false, 403],
    ["a stranger on a secret board", "stranger", true, 404],
    ["a collaborator", "collaborator_delete", false, 403],
  ] as const)("refuses %s, changing nothing", async (_name, role, isPrivate, status) => {
    const { boardId } = await freshCastBoard(isPrivate);
    const before = await snapshot(boardId);
    const browser = await browserFor(role);
    expect((await call(browser, "BoardResource", "update", { board_id: String(boardId), name: "Hijacked" })).status).toBe(status);
    expect(await snapshot(boardId)).toEqual(before);
  });

  it("archives and unarchives: archived_by_me_at, the owner's counts and the pins' save counts follow", async () => {
    const { boardId, pins } = await freshCastBoard(false);
    const before = (await userCounts(CAST.owner))!;
    const saves = await saveCount(pins[0]);
    const archived = await ok<Board>(owner, "BoardResource", "update", { board_id: String(boardId), archived: true });
    expect(archived.archived_by_me_at).toBeGreaterThan(0);
    expect((await userCounts(CAST.owner))!.board_count).toBe(before.board_count - 1);
    expect(await saveCount(pins[0])).toBe(saves - 1);
    // An archived board is private: a stranger no longer finds it.
    expect((await call(stranger, "BoardResource", "get", { board_id: String(boardId) })).status).toBe(404);
    const back = await ok<Board>(owner, "BoardResource", "update", { board_id: String(boardId), archived: false });
    expect(back.archived_by_me_at).toBeNull();
    expect((await userCounts(CAST.owner))!.board_count).toBe(before.board_count);
    expect(await saveCount(pins[0])).toBe(saves);
  });

  it("moves counts between public and secret in the same batch", async () => {
    const { boardId, pins } = await freshCastBoard(false);
    const before = (await userCounts(CAST.owner))!;
    const saves = await saveCount(pins[1]);
    await ok(owner, "BoardResource", "update", { board_id: String(boardId), privacy: "secret" });
    const after = (await userCounts(CAST.owner))!;
    expect([after.board_count, after.secret_board_count]).toEqual([before.board_count - 1, before.secret_board_count + 1]);
    expect(await saveCount(pins[1])).toBe(saves - 1);
    expect((await call(stranger, "BoardResource", "get", { board_id: String(boardId) })).status).toBe(404);
  });

  it("refuses an update without changes", async () => {
    const { boardId } = await freshCastBoard(false);
    expect((await call(owner, "BoardResource", "update", { board_id: String(boardId) })).status).toBe(400);
  });
});

describe("BoardResource delete", () => {
  it("deletes the board, its sections and saves; pins born only there leave every feed (410)", async () => {
    const board = await ok<Board>(owner, "BoardResource", "create", { name: "Short lived" });
    const boardId = Number(board.id);
    const onlyHere = await insertPin(freshId(), { boardId });
    const alsoElsewhere = await insertPin(freshId(), { boardId });
    await insertSave(boardId, onlyHere, 1);
    await insertSave(boardId, alsoElsewhere, 2);
    await insertSave(CAST_BOARDS.public, alsoElsewhere, 50);
    await insertSave(boardId, publicPin, 3);
    await recountAll();
    const before = (await userCounts(CAST.owner))!;
    const publicSaves = await saveCount(publicPin);
    expect(await ok(owner, "BoardResource", "delete", { board_id: board.id })).toEqual({ board_id: board.id });
    expect((await call(owner, "BoardResource", "get", { board_id: board.id })).status).toBe(404);
    expect(await row("SELECT 1 FROM board_pins WHERE board_id = ?1", boardId)).toBeNull();
    expect((await row<{ is_deleted: number }>("SELECT is_deleted FROM pins WHERE id = ?1", onlyHere))!.is_deleted).toBe(1);
    expect(await row<{ is_deleted: number; board_id: number }>("SELECT is_deleted, board_id FROM pins WHERE id = ?1", alsoElsewhere)).toEqual({ is_deleted: 0, board_id: CAST_BOARDS.public });
    expect(await saveCount(publicPin)).toBe(publicSaves - 1);
    const after = (await userCounts(CAST.owner))!;
    expect(after.board_count).toBe(before.board_count - 1);
    expect(after.pin_count).toBe(before.pin_count - 1);
    expect((await fetchWorker(`/pin/${onlyHere}/`)).status).toBe(410);
  });

  it("a pin born on a secret board never turns public when that board goes", async () => {
    const secret = await ok<Board>(owner, "BoardResource", "create", { name: "Hidden things", privacy: "secret" });
    const pin = await insertPin(freshId(), { boardId: Number(secret.id) });
    await insertSave(Number(secret.id), pin, 1);
    await insertSave(CAST_BOARDS.public, pin, 60);
    await recountAll();
    await ok(owner, "BoardResource", "delete", { board_id: secret.id });
    expect((await row<{ is_deleted: number }>("SELECT is_deleted FROM pins WHERE id = ?1", pin))!.is_deleted).toBe(1);
    expect(await row("SELECT 1 FROM board_pins WHERE pin_id = ?1", pin)).toBeNull();
    expect((await counts(CAST_BOARDS.public))!.pin_count).toBe((await rows("SELECT 1 FROM board_pins WHERE board_id = ?1", CAST_BOARDS.public)).length);
  });

  it("refuses a collaborator (403) and a stranger on a secret board (404), deleting nothing", async () => {
    for (const [role, isPrivate, status] of [["collaborator_delete", false, 403], ["stranger", true, 404]] as const) {
      const { boardId } = await freshCastBoard(isPrivate);
      const before = await snapshot(boardId);
      expect((await call(await browserFor(role), "BoardResource", "delete", { board_id: String(boardId) })).status).toBe(status);
      expect(await snapshot(boardId)).toEqual(before);
    }
  });
});

describe("RepinResource", () => {
  it("saves to a board: savedInfo, counts once, idempotent", async () => {
    const { boardId } = await freshCastBoard(false);
    const pin = await insertPin(freshId());
    const before = (await counts(boardId))!;
    const saves = await saveCount(pin);
    const first = await ok<{ saved_info: Record<string, unknown>; board: Record<string, unknown>; pin_id: string }>(owner, "RepinResource", "create", { pin_id: String(pin), board_id: String(boardId) });
    expect(first).toEqual({
      saved_info: { boardId: String(boardId), sectionId: null, title: `Board ${boardId}`, type: "board", url: `/cast_owner/board-${boardId}/`, localPinId: String(pin) },
      board: { id: String(boardId), name: `Board ${boardId}`, privacy: "public" },
      pin_id: String(pin),
    });
    const again = await ok(owner, "RepinResource", "create", { pin_id: String(pin), board_id: String(boardId) });
    expect(again).toEqual(first);
    expect(await counts(boardId)).toEqual({ ...before, pin_count: before.pin_count + 1, sectionless_pin_count: before.sectionless_pin_count + 1 });
    expect(await saveCount(pin)).toBe(saves + 1);
    expect((await feedIds(owner, boardId))[0]).toBe(pin);
  });

  it("saves into a section; a section of another board is a 404 with nothing saved", async () => {
    const { boardId, sectionId } = await freshCastBoard(false);
    const other = await freshCastBoard(false);
    const pin = await insertPin(freshId());
    const saved = await ok<{ saved_info: { sectionId: string } }>(writer, "RepinResource", "create", { pin_id: String(pin), board_id: String(boardId), section_id: String(sectionId) });
    expect(saved.saved_info.sectionId).toBe(String(sectionId));
    expect((await row<{ pin_count: number }>("SELECT pin_count FROM board_sections WHERE id = ?1", sectionId))!.pin_count).toBe(2);
    const before = await snapshot(boardId);
    const pin2 = await insertPin(freshId());
    expect((await call(owner, "RepinResource", "create", { pin_id: String(pin2), board_id: String(boardId), section_id: String(other.sectionId) })).status).toBe(404);
    expect(await snapshot(boardId)).toEqual(before);
  });

  it("a saved pin on a secret board does not add to save_count", async () => {
    const { boardId } = await freshCastBoard(true);
    const pin = await insertPin(freshId());
    const saves = await saveCount(pin);
    await ok(owner, "RepinResource", "create", { pin_id: String(pin), board_id: String(boardId) });
    expect(await saveCount(pin)).toBe(saves);
    expect((await counts(boardId))!.pin_count).toBe(3);
  });

  it.each<[string, boolean[], number]>([
    ["no stories: first", [false, false, false], 0],
    ["one leading story: after it", [true, false, false], 1],
    ["two leading stories: after both", [true, true, false], 2],
    ["three leading stories: after two", [true, true, true], 2],
  ])("puts a new save at the front, after at most 2 leading stories (%s)", async (_name, stories, index) => {
    const board = await ok<Board>(owner, "BoardResource", "create", { name: `Stories ${freshId()}` });
    for (const [i, isStory] of stories.entries()) {
      await insertSave(Number(board.id), await insertPin(freshId(), { kind: isStory ? "story" : "image" }), i + 1);
    }
    await recountAll();
    const pin = await insertPin(freshId());
    await ok(owner, "RepinResource", "create", { pin_id: String(pin), board_id: board.id });
    expect((await feedIds(owner, board.id)).indexOf(pin)).toBe(index);
  });

  it("refuses a board the viewer cannot write to, saving nothing", async () => {
    const pin = await insertPin(freshId());
    for (const [board, status] of [[CAST_BOARDS.public, 403], [CAST_BOARDS.secret, 404]] as const) {
      const before = await snapshot(board);
      expect((await call(stranger, "RepinResource", "create", { pin_id: String(pin), board_id: String(board) })).status).toBe(status);
      expect(await snapshot(board)).toEqual(before);
    }
    expect((await call(owner, "RepinResource", "create", { pin_id: String(pin), board_id: "987654" })).status).toBe(404);
  });

  it("refuses a pin the viewer may not see (404) or that is deleted (410)", async () => {
    const { boardId } = await freshCastBoard(false);
    const hidden = await insertPin(freshId(), { boardId: CAST_BOARDS.secret });
    const strangerBoard = await ok<Board>(stranger, "BoardResource", "create", { name: "Mine" });
    expect((await call(stranger, "RepinResource", "create", { pin_id: String(hidden), board_id: strangerBoard.id })).status).toBe(404);
    const gone = await insertPin(freshId());
    await env.DB.prepare("UPDATE pins SET is_deleted = 1 WHERE id = ?1").bind(gone).run();
    expect((await call(owner, "RepinResource", "create", { pin_id: String(gone), board_id: String(boardId) })).status).toBe(410);
  });

  it("unsaves; counts never go below zero; unsaving again is harmless", async () => {
    const board = await ok<Board>(owner, "BoardResource", "create", { name: `Unsave ${freshId()}` });
    const pin = await insertPin(freshId());
    await ok(owner, "RepinResource", "create", { pin_id: String(pin), board_id: board.id });
    expect(await ok(owner, "RepinResource", "delete", { pin_id: String(pin), board_id: board.id })).toEqual({ pin_id: String(pin), board_id: board.id });
    expect(await ok(owner, "RepinResource", "delete", { pin_id: String(pin), board_id: board.id })).toEqual({ pin_id: String(pin), board_id: board.id });
    expect(await counts(board.id)).toEqual({ pin_count: 0, sectionless_pin_count: 0, section_count: 0 });
    expect(await saveCount(pin)).toBe(0);
  });

  it("a write-only collaborator may save but not unsave", async () => {
    const { boardId, pins } = await freshCastBoard(false);
    const before = await snapshot(boardId);
    expect((await call(writer, "RepinResource", "delete", { pin_id: String(pins[0]), board_id: String(boardId) })).status).toBe(403);
    expect(await snapshot(boardId)).toEqual(before);
    await ok(deleter, "RepinResource", "delete", { pin_id: String(pins[0]), board_id: String(boardId) });
  });

  it("asks signed-out visitors to log in (401) and limited logins to log in fully (403 code 17)", async () => {
    const pin = await insertPin(freshId());
    const before = await snapshot(CAST_BOARDS.public);
    expect((await call(signedOut, "RepinResource", "create", { pin_id: String(pin), board_id: String(CAST_BOARDS.public) })).status).toBe(401);
    await env.DB.prepare("UPDATE users SET login_state = 'limited' WHERE id = ?1").bind(CAST.collaborator_write).run();
    try {
      const limited = await call(writer, "RepinResource", "create", { pin_id: String(pin), board_id: String(CAST_BOARDS.public) });
      expect([limited.status, limited.error?.code]).toEqual([403, 17]);
    } finally {
      await env.DB.prepare("UPDATE users SET login_state = 'full' WHERE id = ?1").bind(CAST.collaborator_write).run();
    }
    expect(await snapshot(CAST_BOARDS.public)).toEqual(before);
  });

  it("quick-saves to the profile only when save_behavior says so", async () => {
    const pin = await insertPin(freshId());
    await env.DB.prepare("UPDATE users SET save_behavior = 0 WHERE id = ?1").bind(CAST.stranger).run();
    const refused = await call(stranger, "RepinResource", "create", { pin_id: String(pin) });
    expect(refused.status).toBe(400);
    expect(refused.error?.message_detail).toContain("board_id");
    expect(await row("SELECT 1 FROM profile_saves WHERE user_id = ?1", CAST.stranger)).toBeNull();
    await env.DB.prepare("UPDATE users SET save_behavior = 1 WHERE id = ?1").bind(CAST.stranger).run();
    const saved = await ok<{ saved_info: Record<string, unknown>; board: null }>(stranger, "RepinResource", "create", { pin_id: String(pin) });
    expect(saved.saved_info).toEqual({ boardId: null, sectionId: null, title: "cast_stranger", type: "profile", url: "/cast_stranger/", localPinId: String(pin) });
    expect(saved.board).toBeNull();
    await ok(stranger, "RepinResource", "create", { pin_id: String(pin) });
    expect(await rows("SELECT 1 FROM profile_saves WHERE user_id = ?1", CAST.stranger)).toHaveLength(1);
    await ok(stranger, "RepinResource", "delete", { pin_id: String(pin) });
    expect(await row("SELECT 1 FROM profile_saves WHERE user_id = ?1", CAST.stranger)).toBeNull();
  });
});

describe("BoardPickerResource", () => {
  it("lists recent boards first (≤ 5), writable boards filtered by name, their sections and where the pin is saved", async () => {
    const picker = await browserFor("collaborator_write");
    const pin = await insertPin(freshId());
    const { boardId, sectionId } = await freshCastBoard(false);
    await ok(picker, "RepinResource", "create", { pin_id: String(pin), board_id: String(boardId), section_id: String(sectionId) });
    const answer = await ok<{ recent: Board[]; boards: Board[]; sections: Record<string, Section[]>; saved: Array<Record<string, unknown>> }>(picker, "BoardPickerResource", "get", { pin_id: String(pin) });
    expect(answer.recent[0]!.id).toBe(String(boardId));
    expect(answer.recent.length).toBeLessThanOrEqual(5);
    expect(answer.boards.map((board) => board.id)).toContain(String(CAST_BOARDS.secret));
    expect(answer.sections[String(boardId)]!.map((section) => section.id)).toContain(String(sectionId));
    expect(answer.saved).toEqual([{ boardId: String(boardId), sectionId: String(sectionId), title: `Board ${boardId}`, type: "board", url: `/cast_owner/board-${boardId}/`, localPinId: String(pin) }]);
    const filtered = await ok<{ boards: Board[] }>(picker, "BoardPickerResource", "get", { filter: "SECRET plans" });
    expect(filtered.boards.map((board) => board.id)).toEqual([String(CAST_BOARDS.secret)]);
  });

  it("never offers a stranger's boards, archived boards, or more than page_size", async () => {
    const archived = await ok<Board>(owner, "BoardResource", "create", { name: "Packed away" });
    await ok(owner, "BoardResource", "update", { board_id: archived.id, archived: true });
    const mine = await ok<{ boards: Board[] }>(owner, "BoardPickerResource", "get", { page_size: 50 });
    expect(mine.boards.map((board) => board.id)).not.toContain(archived.id);
    const theirs = await ok<{ boards: Board[] }>(stranger, "BoardPickerResource", "get", {});
    expect(theirs.boards.every((board) => board.owner.id === String(CAST.stranger))).toBe(true);
    const small = await ok<{ boards: Board[] }>(owner, "BoardPickerResource", "get", { page_size: 2 });
    expect(small.boards).toHaveLength(2);
    expect((await call(owner, "BoardPickerResource", "get", { page_size: 51 })).status).toBe(400);
    expect((await call(owner, "BoardPickerResource", "get", { filter: "f".repeat(51) })).status).toBe(400);
    expect((await call(signedOut, "BoardPickerResource", "get", {})).status).toBe(401);
  });
});

describe("sections", () => {
  it("creates at the front, lists, renames, reorders and deletes (pins stay, sectionless)", async () => {
    const { boardId, sectionId, pins } = await freshCastBoard(false);
    const created = await ok<Section>(owner, "BoardSectionResource", "create", { board_id: String(boardId), title: "Brand new" });
    expect(created).toMatchObject({ board_id: String(boardId), title: "Brand new", pin_count: 0 });
    const listed = await ok<{ results: Section[] }>(stranger, "BoardSectionsResource", "get", { board_id: String(boardId) });
    expect(listed.results.map((section) => section.id)).toEqual([created.id, String(sectionId)]);
    expect((await counts(boardId))!.section_count).toBe(2);
    expect(await ok<Section>(writer, "BoardSectionResource", "update", { section_id: created.id, title: "Renamed" })).toMatchObject({ title: "Renamed" });
    const reordered = await ok<{ results: Section[] }>(owner, "BoardSectionsResource", "update", { board_id: String(boardId), section_ids: [String(sectionId), created.id] });
    expect(reordered.results.map((section) => section.id)).toEqual([String(sectionId), created.id]);
    await ok(deleter, "BoardSectionResource", "delete", { section_id: String(sectionId) });
    expect(await counts(boardId)).toEqual({ pin_count: 2, sectionless_pin_count: 2, section_count: 1 });
    expect((await row<{ section_id: number | null }>("SELECT section_id FROM board_pins WHERE board_id = ?1 AND pin_id = ?2", boardId, pins[0]))!.section_id).toBeNull();
  });

  it("refuses a 51-character title, a reorder that is not exactly the board's sections, and an unknown section", async () => {
    const { boardId, sectionId } = await freshCastBoard(false);
    const before = await snapshot(boardId);
    const long = await call(owner, "BoardSectionResource", "create", { board_id: String(boardId), title: "t".repeat(51) });
    expect([long.status, long.error?.message_detail?.includes("title")]).toEqual([400, true]);
    for (const ids of [[], [String(sectionId), String(sectionId)], [String(sectionId), "424242"]]) {
      const answer = await call(owner, "BoardSectionsResource", "update", { board_id: String(boardId), section_ids: ids });
      expect([answer.status, answer.error?.message_detail?.includes("section_ids")]).toEqual([400, true]);
    }
    const unknown = await call(owner, "BoardSectionResource", "delete", { section_id: "424242" });
    expect(unknown.status).toBe(404);
    expect(await snapshot(boardId)).toEqual(before);
    // A section of a secret board answers a stranger exactly like a section that does not exist.
    const secret = await freshCastBoard(true);
    const hidden = await call(stranger, "BoardSectionPinsResource", "get", { section_id: String(secret.sectionId) });
    expect([hidden.status, hidden.error?.message]).toEqual([404, unknown.error?.message]);
  });

  it("reads and reorders a section's pins", async () => {
    const { boardId, sectionId, pins } = await freshCastBoard(false);
    const extra = await insertPin(freshId());
    await insertSave(boardId, extra, 5, sectionId);
    await recountAll();
    const read = async () => (await ok<{ results: Array<{ id: string }>; bookmark: string }>(stranger, "BoardSectionPinsResource", "get", { section_id: String(sectionId) })).results.map((pin) => Number(pin.id));
    expect(await read()).toEqual([pins[0], extra]);
    await ok(writer, "BoardSectionPinsResource", "update", { section_id: String(sectionId), pin_id: String(extra), after_pin_id: null });
    expect(await read()).toEqual([extra, pins[0]]);
    // A pin outside the section is refused, nothing changes.
    const before = await snapshot(boardId);
    expect((await call(owner, "BoardSectionPinsResource", "update", { section_id: String(sectionId), pin_id: String(pins[1]), after_pin_id: null })).status).toBe(400);
    expect(await snapshot(boardId)).toEqual(before);
  });
});

describe("BoardFeedResource update (reorder)", () => {
  it("puts a pin after another, or first", async () => {
    const board = await ok<Board>(owner, "BoardResource", "create", { name: `Order ${freshId()}` });
    const ids = [await insertPin(freshId()), await insertPin(freshId()), await insertPin(freshId())];
    for (const [i, id] of ids.entries()) await insertSave(Number(board.id), id, i + 1);
    await ok(owner, "BoardFeedResource", "update", { board_id: board.id, pin_id: String(ids[0]), after_pin_id: String(ids[2]) });
    expect(await feedIds(owner, board.id)).toEqual([ids[1], ids[2], ids[0]]);
    await ok(owner, "BoardFeedResource", "update", { board_id: board.id, pin_id: String(ids[2]), after_pin_id: null });
    expect(await feedIds(owner, board.id)).toEqual([ids[2], ids[1], ids[0]]);
    // Many moves between the same two neighbours end in a renumbering, never a wrong order.
    for (let i = 0; i < 30; i++) {
      await ok(owner, "BoardFeedResource", "update", { board_id: board.id, pin_id: String(i % 2 ? ids[0] : ids[1]), after_pin_id: String(ids[2]) });
    }
    expect((await feedIds(owner, board.id))[0]).toBe(ids[2]);
    expect((await call(stranger, "BoardFeedResource", "update", { board_id: board.id, pin_id: String(ids[0]), after_pin_id: null })).status).toBe(403);
    expect((await call(owner, "BoardFeedResource", "update", { board_id: board.id, pin_id: String(publicPin), after_pin_id: null })).status).toBe(400);
    // However often positions were split, no two pins ever share one (ties would make the order arbitrary).
    const positions = (await rows<{ position: number }>("SELECT position FROM board_pins WHERE board_id = ?1", Number(board.id))).map((save) => save.position);
    expect(new Set(positions).size).toBe(positions.length);
  }, 30_000);
});

describe("BoardsFeedResource update (profile boards order)", () => {
  it("orders the owner's boards and refuses another owner's anchor", async () => {
    const a = await ok<Board>(owner, "BoardResource", "create", { name: `A ${freshId()}` });
    const b = await ok<Board>(owner, "BoardResource", "create", { name: `B ${freshId()}` });
    await ok(owner, "BoardsFeedResource", "update", { board_id: a.id, after_board_id: null });
    await ok(owner, "BoardsFeedResource", "update", { board_id: b.id, after_board_id: a.id });
    const order = await rows<{ id: number }>("SELECT id FROM boards WHERE owner_id = ?1 ORDER BY position", CAST.owner);
    expect(order.slice(0, 2).map((board) => String(board.id))).toEqual([a.id, b.id]);
    const strangerBoard = await ok<Board>(stranger, "BoardResource", "create", { name: "Theirs" });
    expect((await call(owner, "BoardsFeedResource", "update", { board_id: a.id, after_board_id: strangerBoard.id })).status).toBe(400);
    expect((await call(stranger, "BoardsFeedResource", "update", { board_id: a.id, after_board_id: null })).status).toBe(403);
  });
});

describe("PinResource update and delete", () => {
  it("lets the pinner edit title, description and link; anyone else gets 403 with nothing changed", async () => {
    const pin = await insertPin(freshId());
    expect(await ok(owner, "PinResource", "update", { id: String(pin), title: "Better title", description: "<b>bold</b>", link: "https://example.com/x" })).toMatchObject({ pin_id: String(pin) });
    expect(await row("SELECT title, description, description_html, link, domain FROM pins WHERE id = ?1", pin)).toEqual({
      title: "Better title",
      description: "<b>bold</b>",
      description_html: "&lt;b&gt;bold&lt;/b&gt;",
      link: "https://example.com/x",
      domain: "example.com",
    });
    expect((await call(writer, "PinResource", "update", { id: String(pin), title: "Mine now" })).status).toBe(403);
    expect((await call(owner, "PinResource", "update", { id: String(pin), link: "javascript:alert(1)" })).status).toBe(400);
    expect((await call(owner, "PinResource", "update", { id: String(pin), description: "d".repeat(501) })).status).toBe(400);
    expect((await row<{ title: string }>("SELECT title FROM pins WHERE id = ?1", pin))!.title).toBe("Better title");
  });

  it("moves a pin between boards and sections, to the front, counts following", async () => {
    const from = await freshCastBoard(false);
    const to = await freshCastBoard(false);
    const pin = from.pins[1];
    const moved = await ok(owner, "PinResource", "update", { id: String(pin), from_board_id: String(from.boardId), board_id: String(to.boardId), section_id: String(to.sectionId) });
    expect(moved).toEqual({ pin_id: String(pin), board_id: String(to.boardId), section_id: String(to.sectionId) });
    expect(await counts(from.boardId)).toEqual({ pin_count: 1, sectionless_pin_count: 0, section_count: 1 });
    expect(await counts(to.boardId)).toEqual({ pin_count: 3, sectionless_pin_count: 1, section_count: 1 });
    expect((await feedIds(owner, to.boardId))[0]).toBe(pin);
    // Within the board: out of the section.
    await ok(owner, "PinResource", "update", { id: String(pin), from_board_id: String(to.boardId), section_id: null });
    expect(await counts(to.boardId)).toEqual({ pin_count: 3, sectionless_pin_count: 2, section_count: 1 });
  });

  it("refuses a move by a write-only collaborator (needs remove_pin on the source), changing nothing", async () => {
    const from = await freshCastBoard(false);
    const to = await freshCastBoard(false);
    const before = [await snapshot(from.boardId), await snapshot(to.boardId)];
    expect((await call(writer, "PinResource", "update", { id: String(from.pins[0]), from_board_id: String(from.boardId), board_id: String(to.boardId) })).status).toBe(403);
    expect([await snapshot(from.boardId), await snapshot(to.boardId)]).toEqual(before);
  });

  it("deletes a pin: gone from every feed, counts recounted, 410 on its page; only its pinner may", async () => {
    const { boardId } = await freshCastBoard(false);
    const pin = await insertPin(freshId());
    await ok(owner, "RepinResource", "create", { pin_id: String(pin), board_id: String(boardId) });
    await ok(owner, "RepinResource", "create", { pin_id: String(pin), board_id: String(CAST_BOARDS.secret) });
    await recountAll();
    const before = (await userCounts(CAST.owner))!;
    expect((await call(writer, "PinResource", "delete", { id: String(pin) })).status).toBe(403);
    expect(await ok(owner, "PinResource", "delete", { id: String(pin) })).toEqual({ pin_id: String(pin) });
    expect(await rows("SELECT 1 FROM board_pins WHERE pin_id = ?1", pin)).toEqual([]);
    expect((await counts(boardId))!.pin_count).toBe(2);
    expect((await userCounts(CAST.owner))!.pin_count).toBe(before.pin_count - 1);
    expect(await feedIds(owner, boardId)).not.toContain(pin);
    expect((await fetchWorker(`/pin/${pin}/`)).status).toBe(410);
    expect((await call(owner, "PinResource", "delete", { id: String(pin) })).status).toBe(410);
  });
});

describe("BoardBulkResource", () => {
  it("bulkMove moves the listed pins to the front of the target, in their order", async () => {
    const from = await freshCastBoard(false);
    const to = await freshCastBoard(false);
    const answer = await ok(owner, "BoardBulkResource", "update", { board_id: String(from.boardId), action: "bulkMove", pin_ids: from.pins.map(String), target_board_id: String(to.boardId) });
    expect(answer).toEqual({ moved: 2 });
    expect(await counts(from.boardId)).toEqual({ pin_count: 0, sectionless_pin_count: 0, section_count: 1 });
    expect(await counts(to.boardId)).toEqual({ pin_count: 4, sectionless_pin_count: 3, section_count: 1 });
    expect((await feedIds(owner, to.boardId)).slice(0, 2)).toEqual(from.pins);
  });

  it("move-all leaves only the excluded pins", async () => {
    const from = await freshCastBoard(false);
    const to = await freshCastBoard(true);
    expect(await ok(owner, "BoardBulkResource", "update", { board_id: String(from.boardId), action: "bulkMove", all: true, excluded_pin_ids: [String(from.pins[0])], target_board_id: String(to.boardId), target_section_id: String(to.sectionId) })).toEqual({ moved: 1 });
    expect(await feedIds(owner, from.boardId)).toEqual([from.pins[0]]);
    expect((await row<{ pin_count: number }>("SELECT pin_count FROM board_sections WHERE id = ?1", to.sectionId))!.pin_count).toBe(2);
    // Moved from a public board to a secret one: strangers no longer see that save.
    expect(await saveCount(from.pins[1])).toBe(0);
  });

  it("is all or nothing: one pin not on the board, a foreign target, or a section of another board changes nothing", async () => {
    const from = await freshCastBoard(false);
    const to = await freshCastBoard(false);
    const foreign = await ok<Board>(stranger, "BoardResource", "create", { name: "Stranger's" });
    const before = [await snapshot(from.boardId), await snapshot(to.boardId)];
    const cases: Array<[Record<string, unknown>, number, string | null]> = [
      [{ pin_ids: [String(from.pins[0]), String(publicPin)], target_board_id: String(to.boardId) }, 400, "pin_ids"],
      [{ pin_ids: [String(from.pins[0])], target_board_id: foreign.id }, 403, null],
      [{ pin_ids: [String(from.pins[0])], target_board_id: String(CAST_BOARDS.secret), target_section_id: String(to.sectionId) }, 404, null],
      [{ pin_ids: Array.from({ length: 251 }, (_, i) => String(i + 1)), target_board_id: String(to.boardId) }, 400, "pin_ids"],
      [{ pin_ids: [], target_board_id: String(to.boardId) }, 400, "pin_ids"],
      [{ pin_ids: [String(from.pins[0])] }, 400, "target_board_id"],
    ];
    for (const [extra, status, field] of cases) {
      const answer = await call(owner, "BoardBulkResource", "update", { board_id: String(from.boardId), action: "bulkMove", ...extra });
      expect(answer.status, JSON.stringify(extra).slice(0, 80)).toBe(status);
      if (field) expect(answer.error?.message_detail).toContain(field);
    }
    expect([await snapshot(from.boardId), await snapshot(to.boardId)]).toEqual(before);
  });

  it("bulkCopy copies what the viewer sees, skipping pins already there", async () => {
    const from = await freshCastBoard(false);
    const mine = await ok<Board>(stranger, "BoardResource", "create", { name: `Copies ${freshId()}` });
    expect(await ok(stranger, "BoardBulkResource", "update", { board_id: String(from.boardId), action: "bulkCopy", all: true, target_board_id: mine.id })).toEqual({ copied: 2 });
    expect(await ok(stranger, "BoardBulkResource", "update", { board_id: String(from.boardId), action: "bulkCopy", pin_ids: [String(from.pins[0])], target_board_id: mine.id })).toEqual({ copied: 0 });
    expect((await counts(mine.id))!.pin_count).toBe(2);
    expect(await feedIds(stranger, mine.id)).toEqual(from.pins);
  });

  it("bulkCreateSection makes a section and moves the pins into it; bulkDelete takes pins off the board", async () => {
    const { boardId, pins } = await freshCastBoard(false);
    const created = await ok<{ moved: number; section: Section }>(owner, "BoardBulkResource", "update", { board_id: String(boardId), action: "bulkCreateSection", pin_ids: pins.map(String), section_title: "Picked" });
    expect(created.moved).toBe(2);
    expect(created.section).toMatchObject({ title: "Picked", pin_count: 2, board_id: String(boardId) });
    expect(await counts(boardId)).toEqual({ pin_count: 2, sectionless_pin_count: 0, section_count: 2 });
    expect(await ok(deleter, "BoardBulkResource", "update", { board_id: String(boardId), action: "bulkDelete", all: true })).toEqual({ deleted: 2 });
    expect(await counts(boardId)).toEqual({ pin_count: 0, sectionless_pin_count: 0, section_count: 2 });
    expect((await row<{ pin_count: number }>("SELECT pin_count FROM board_sections WHERE id = ?1", Number(created.section.id)))!.pin_count).toBe(0);
    // Nothing left: counts stay at zero.
    expect(await ok(owner, "BoardBulkResource", "update", { board_id: String(boardId), action: "bulkDelete", all: true })).toEqual({ deleted: 0 });
    expect((await counts(boardId))!.pin_count).toBe(0);
  });

  it("a write-only collaborator cannot bulkDelete", async () => {
    const { boardId } = await freshCastBoard(false);
    const before = await snapshot(boardId);
    expect((await call(writer, "BoardBulkResource", "update", { board_id: String(boardId), action: "bulkDelete", all: true })).status).toBe(403);
    expect(await snapshot(boardId)).toEqual(before);
  });
});

describe("BoardOwnershipTransferResource", () => {
  it("sets and clears the pending owner; only an accepted collaborator may be asked", async () => {
    const { boardId } = await freshCastBoard(false);
    const asked = await ok<Board>(owner, "BoardOwnershipTransferResource", "create", { board_id: String(boardId), user_id: String(CAST.collaborator_write) });
    expect(asked.pending_ownership_transfer).toEqual({ user_id: String(CAST.collaborator_write), username: "cast_collaborator_write" });
    // Only the owner sees it.
    expect((await ok<Board>(writer, "BoardResource", "get", { board_id: String(boardId) })).pending_ownership_transfer).toBeNull();
    const refused = await call(owner, "BoardOwnershipTransferResource", "create", { board_id: String(boardId), user_id: String(CAST.stranger) });
    expect([refused.status, refused.error?.message_detail?.includes("user_id")]).toEqual([400, true]);
    expect((await row<{ pending_owner_id: number }>("SELECT pending_owner_id FROM boards WHERE id = ?1", boardId))!.pending_owner_id).toBe(CAST.collaborator_write);
    expect((await ok<Board>(owner, "BoardOwnershipTransferResource", "delete", { board_id: String(boardId) })).pending_ownership_transfer).toBeNull();
    expect((await call(writer, "BoardOwnershipTransferResource", "create", { board_id: String(boardId), user_id: String(CAST.collaborator_write) })).status).toBe(403);
  });
});

describe("GET /v3/boards/{id}/ (blocking actions)", () => {
  it("answers the spec's message when there are none, lists running ones, and bulk actions wait for them", async () => {
    const { boardId, pins } = await freshCastBoard(false);
    const empty = await owner.fetch(`/v3/boards/${boardId}/`);
    expect(empty.status).toBe(200);
    expect(await empty.json()).toEqual({ status: "success", code: 0, message: "No blocking actions found in the response", data: { board: { id: String(boardId), blocking_actions: [] } } });
    await env.DB.prepare("INSERT INTO board_blocking_actions (id, board_id, section_id, kind, progress, created_at) VALUES (77, ?1, -1, 'import', 40, 1700)").bind(boardId).run();
    const running = await owner.fetch(`/v3/boards/${boardId}/`);
    expect((await running.json<{ data: unknown }>()).data).toEqual({ board: { id: String(boardId), blocking_actions: [{ id: "77", created_timestamp: 1700, progress: 40, section_id: -1 }] } });
    const before = await snapshot(boardId);
    expect((await call(owner, "BoardBulkResource", "update", { board_id: String(boardId), action: "bulkDelete", pin_ids: [String(pins[0])] })).status).toBe(409);
    expect(await snapshot(boardId)).toEqual(before);
    expect((await stranger.fetch(`/v3/boards/${CAST_BOARDS.secret}/`)).status).toBe(404);
    expect((await stranger.fetch("/v3/boards/123456789/")).status).toBe(404);
  });
});

describe("GET /v3/pins/{id}/board_title_suggestions/", () => {
  it("suggests up to five titles from the pin, none the viewer already has", async () => {
    await ok(owner, "BoardResource", "create", { name: "Pancakes" });
    const response = await owner.fetch(`/v3/pins/${publicPin}/board_title_suggestions/`);
    expect(response.status).toBe(200);
    const body = await response.json<{ status: string; data: { titles: string[] } }>();
    expect(body.status).toBe("success");
    expect(body.data.titles).toEqual(["Food & drinks", "Ricotta pancakes", "Lemon", "Lemon ricotta pancakes"]);
    expect((await signedOut.fetch(`/v3/pins/${publicPin}/board_title_suggestions/`)).status).toBe(401);
    const hidden = await insertPin(freshId(), { boardId: CAST_BOARDS.secret });
    expect((await stranger.fetch(`/v3/pins/${hidden}/board_title_suggestions/`)).status).toBe(404);
  });
});

describe("the edge cache after a write", () => {
  it("a signed-out board page shows a new save at once (its cached render was purged)", async () => {
    const board = await ok<Board>(owner, "BoardResource", "create", { name: `Cached ${freshId()}` });
    const path = `/cast_owner/${board.slug}/`;
    const first = await fetchWorker(path, { headers: { "user-agent": "Mozilla/5.0 Chrome/124.0" } });
    expect(first.status).toBe(200);
    await first.text();
    const pin = await insertPin(freshId(), { title: "Freshly saved pin" });
    await ok(owner, "RepinResource", "create", { pin_id: String(pin), board_id: board.id });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = await fetchWorker(path, { headers: { "user-agent": "Mozilla/5.0 Chrome/124.0" } });
    expect(await second.text()).toContain(`/pin/${pin}/`);
    expect(BASE).toContain("pinloom");
  });
});
