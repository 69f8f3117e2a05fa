// Access to a board through its people: a hidden profile cannot be invited (and so listed),
// removing a collaborator cancels a transfer offered to them, a follow of a board turned secret
// can still be taken back without telling anything of it, a collaborator's move never
// publishes the owner's private pins, and a write collaborator undoes only their own saves.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { CAST, browserFor, freshId, seedCast } from "./roles-fixture.ts";
import { call, freshCastBoard, insertPin, insertSave, ok, recountAll, row } from "./boards-helpers.ts";

beforeAll(async () => {
  await seedCast();
});

describe("collaborator changes", () => {
  it("cannot invite (and so list) a person whose profile is hidden", async () => {
    const hidden = freshId();
    await env.DB.prepare("INSERT INTO users (id, username, email, full_name, is_private_profile, created_at) VALUES (?1, ?2, ?3, 'Hidden Person', 1, 0)").bind(hidden, `hidden_${hidden}`, `h${hidden}@cast.test`).run();
    const board = await freshCastBoard(false);
    const owner = await browserFor("owner");
    const answer = await ok<{ invited: string[]; skipped: string[] }>(owner, "BoardCollaboratorResource", "create", { board_id: String(board.boardId), user_ids: [String(hidden)] });
    expect(answer).toEqual({ invited: [], skipped: [String(hidden)] });
    const list = await ok<{ results: Array<{ user: { full_name: string } }> }>(owner, "BoardCollaboratorsResource", "get", { board_id: String(board.boardId) });
    expect(list.results.map((item) => item.user.full_name)).not.toContain("Hidden Person");
  });

  it("cancels an ownership transfer offered to a collaborator who is removed", async () => {
    const board = await freshCastBoard(false);
    const owner = await browserFor("owner");
    await ok(owner, "BoardOwnershipTransferResource", "create", { board_id: String(board.boardId), user_id: String(CAST.collaborator_write) });
    expect(await row("SELECT pending_owner_id FROM boards WHERE id = ?1", board.boardId)).toEqual({ pending_owner_id: CAST.collaborator_write });
    await ok(owner, "BoardCollaboratorResource", "delete", { board_id: String(board.boardId), user_id: String(CAST.collaborator_write) });
    expect(await row("SELECT pending_owner_id FROM boards WHERE id = ?1", board.boardId)).toEqual({ pending_owner_id: null });
  });
});

describe("follows of a board that turned secret", () => {
  it("can still be taken back, and the answer tells nothing of the board", async () => {
    const board = await freshCastBoard(false);
    const stranger = await browserFor("stranger");
    await ok(stranger, "BoardFollowResource", "create", { board_id: String(board.boardId) });
    expect(await row("SELECT follower_count FROM boards WHERE id = ?1", board.boardId)).toEqual({ follower_count: 1 });
    await env.DB.prepare("UPDATE boards SET privacy = 'secret' WHERE id = ?1").bind(board.boardId).run();
    const answer = await ok(stranger, "BoardFollowResource", "delete", { board_id: String(board.boardId) });
    expect(answer).toEqual({ board_id: String(board.boardId), followed_by_me: false, explicitly_followed_by_me: false, follower_count: 0 });
    expect(await row("SELECT follower_count FROM boards WHERE id = ?1", board.boardId)).toEqual({ follower_count: 0 });
    expect(await row("SELECT count(*) AS n FROM follows WHERE follower_id = ?1 AND target_type = 'board' AND target_id = ?2", CAST.stranger, board.boardId)).toEqual({ n: 0 });
  });
});

describe("moves never publish someone else's private pins", () => {
  it("keeps the owner's pin born on a secret board hidden when a collaborator moves it to their public board", async () => {
    const secret = await freshCastBoard(true);
    const collaborator = await browserFor("collaborator_delete");
    const publicBoard = freshId();
    await env.DB.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (?1, ?2, 'Open wall', ?3, 'public', 0, 0)").bind(publicBoard, CAST.collaborator_delete, `open-wall-${publicBoard}`).run();
    const pinId = await insertPin(freshId(), { boardId: secret.boardId, title: "Born secret" });
    await insertSave(secret.boardId, pinId, 0);
    await recountAll();
    await ok(collaborator, "BoardBulkResource", "update", { board_id: String(secret.boardId), action: "bulkMove", pin_ids: [String(pinId)], target_board_id: String(publicBoard) });
    expect(await row("SELECT board_id FROM pins WHERE id = ?1", pinId)).toEqual({ board_id: secret.boardId });
    const visitor = await browserFor("signed_out");
    expect((await visitor.fetch(`/pin/${pinId}/`)).status).toBe(404);
    // Its own pinner may still make it public by moving it.
    const ownPin = await insertPin(freshId(), { pinner: CAST.collaborator_delete, boardId: secret.boardId });
    await insertSave(secret.boardId, ownPin, 0, null, CAST.collaborator_delete);
    await ok(collaborator, "BoardBulkResource", "update", { board_id: String(secret.boardId), action: "bulkMove", pin_ids: [String(ownPin)], target_board_id: String(publicBoard) });
    expect(await row("SELECT board_id FROM pins WHERE id = ?1", ownPin)).toEqual({ board_id: publicBoard });
  });

  it("lets a write collaborator undo only their own save", async () => {
    const board = await freshCastBoard(false);
    const writer = await browserFor("collaborator_write");
    const own = await insertPin(freshId());
    await insertSave(board.boardId, own, 0, null, CAST.collaborator_write);
    await recountAll();
    expect((await call(writer, "RepinResource", "delete", { pin_id: String(own), board_id: String(board.boardId) })).status).toBe(200);
    expect((await call(writer, "RepinResource", "delete", { pin_id: String(board.pins[0]), board_id: String(board.boardId) })).status).toBe(403);
    expect(await row("SELECT count(*) AS n FROM board_pins WHERE board_id = ?1 AND pin_id = ?2", board.boardId, board.pins[0])).toEqual({ n: 1 });
  });
});
