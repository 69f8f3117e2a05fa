// What a block ends: an accepted collaboration on the blocker's board (access and count), an
// unanswered invite (which the blocked person can no longer accept), and reactions and
// did-its on the blocker's pins.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { CAST, browserFor, freshId, seedCast } from "./roles-fixture.ts";
import { call, freshCastBoard, insertPin, ok, row } from "./boards-helpers.ts";

beforeAll(async () => {
  await seedCast();
});

describe("a block ends what a collaboration gave", () => {
  it("removes an accepted collaborator and their access, and lowers the count", async () => {
    const board = await freshCastBoard(true);
    const owner = await browserFor("owner");
    const collaborator = await browserFor("collaborator_delete");
    expect((await call(collaborator, "BoardResource", "get", { board_id: String(board.boardId) })).status).toBe(200);
    await ok(owner, "UserBlockResource", "create", { user_id: String(CAST.collaborator_delete) });
    expect((await call(collaborator, "BoardResource", "get", { board_id: String(board.boardId) })).status).toBe(404);
    expect(await row("SELECT collaborator_count FROM boards WHERE id = ?1", board.boardId)).toEqual({ collaborator_count: 1 });
    await ok(owner, "UserBlockResource", "delete", { user_id: String(CAST.collaborator_delete) });
  });

  it("drops an unanswered invite, and a blocked invitee cannot accept one", async () => {
    const board = await freshCastBoard(true);
    const owner = await browserFor("owner");
    const stranger = await browserFor("stranger");
    await ok(owner, "BoardCollaboratorResource", "create", { board_id: String(board.boardId), user_ids: [String(CAST.stranger)] });
    await ok(owner, "UserBlockResource", "create", { user_id: String(CAST.stranger) });
    expect(await row("SELECT status FROM board_collaborators WHERE board_id = ?1 AND user_id = ?2", board.boardId, CAST.stranger)).toBeNull();
    // Even an invite row that survived (a race with the block) cannot be accepted.
    await env.DB.prepare("INSERT INTO board_collaborators (board_id, user_id, status, access, type, invited_by, created_at) VALUES (?1, ?2, 'new', 'write,delete', 'invite', ?3, 0)")
      .bind(board.boardId, CAST.stranger, CAST.owner)
      .run();
    const accepted = await call(stranger, "BoardCollaboratorResource", "update", { board_id: String(board.boardId), user_id: String(CAST.stranger), action: "accept" });
    expect(accepted.status).toBe(404);
    expect(await row("SELECT status FROM board_collaborators WHERE board_id = ?1 AND user_id = ?2", board.boardId, CAST.stranger)).toEqual({ status: "new" });
    await ok(owner, "UserBlockResource", "delete", { user_id: String(CAST.stranger) });
  });

  it("refuses reactions and did-its on the blocker's pins", async () => {
    const pinId = await insertPin(freshId());
    const owner = await browserFor("owner");
    const follower = await browserFor("follower");
    await ok(owner, "UserBlockResource", "create", { user_id: String(CAST.follower) });
    expect((await call(follower, "PinReactionResource", "create", { pin_id: String(pinId), reaction_type: 1 })).status).toBe(403);
    expect((await call(follower, "DidItResource", "create", { pin_id: String(pinId) })).status).toBe(403);
    expect(await row("SELECT count(*) AS n FROM reactions WHERE pin_id = ?1", pinId)).toEqual({ n: 0 });
    await ok(owner, "UserBlockResource", "delete", { user_id: String(CAST.follower) });
    expect((await call(follower, "PinReactionResource", "create", { pin_id: String(pinId), reaction_type: 1 })).status).toBe(200);
  });
});
