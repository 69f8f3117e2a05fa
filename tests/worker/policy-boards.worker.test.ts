// The board policy (src/boards/policy.ts) against the saving API: every action the boards API
// implements, run by every role on a public and on a secret board, must answer the HTTP status
// written by hand in board-policy-expected.ts, and a refused call must leave D1 exactly as it
// was. Each call gets a fresh board shared like the cast's (roles-fixture.ts), so every role
// meets the same state.
import { beforeAll, describe, expect, it } from "vitest";
import { BOARD_ROLES, type BoardAction, type BoardRole } from "~/boards/policy.ts";
import type { Browser } from "./accounts-helpers.ts";
import { expectedStatus } from "./board-policy-expected.ts";
import { CAST, castBrowsers, freshId, seedCast } from "./roles-fixture.ts";
import { call, freshCastBoard, insertPin, insertSave, snapshot } from "./boards-helpers.ts";

type Fresh = Awaited<ReturnType<typeof freshCastBoard>>;

/** One call per action: resource, action and options for a fresh board. */
const CALLS: Record<string, (board: Fresh, role: BoardRole) => [string, "get" | "create" | "update" | "delete", Record<string, unknown>] | Promise<[string, "get" | "create" | "update" | "delete", Record<string, unknown>]>> = {
  view_public: (b) => ["BoardResource", "get", { board_id: String(b.boardId) }],
  edit_board: (b) => ["BoardResource", "update", { board_id: String(b.boardId), description: "Edited" }],
  archive_board: (b) => ["BoardResource", "update", { board_id: String(b.boardId), archived: true }],
  delete_board: (b) => ["BoardResource", "delete", { board_id: String(b.boardId) }],
  transfer_ownership: (b) => ["BoardOwnershipTransferResource", "create", { board_id: String(b.boardId), user_id: String(CAST.collaborator_write) }],
  save_pin: async (b) => ["RepinResource", "create", { pin_id: String(await insertPin(freshId())), board_id: String(b.boardId) }],
  remove_pin: (b) => ["RepinResource", "delete", { pin_id: String(b.pins[1]), board_id: String(b.boardId) }],
  // The role's own save (as if made while they could), taken back: the save toast's Undo.
  unsave_own: async (b, role) => {
    const pinId = await insertPin(freshId());
    await insertSave(b.boardId, pinId, 0, null, role === "signed_out" ? CAST.owner : CAST[role]);
    return ["RepinResource", "delete", { pin_id: String(pinId), board_id: String(b.boardId) }];
  },
  reorder_pins: (b) => ["BoardFeedResource", "update", { board_id: String(b.boardId), pin_id: String(b.pins[0]), after_pin_id: String(b.pins[1]) }],
  create_section: (b) => ["BoardSectionResource", "create", { board_id: String(b.boardId), title: "Another" }],
  rename_section: (b) => ["BoardSectionResource", "update", { section_id: String(b.sectionId), title: "Renamed" }],
  reorder_sections: (b) => ["BoardSectionsResource", "update", { board_id: String(b.boardId), section_ids: [String(b.sectionId)] }],
  delete_section: (b) => ["BoardSectionResource", "delete", { section_id: String(b.sectionId) }],
};

/** The status the server must give (a signed-out change is a 401 before any board is looked up). */
const served = expectedStatus;

let browsers: Array<[BoardRole, Browser]>;

beforeAll(async () => {
  await seedCast();
  browsers = await castBrowsers();
});

describe("every role against every board action of the saving API", () => {
  for (const action of Object.keys(CALLS) as BoardAction[]) {
    for (const isPrivate of [false, true]) {
      it(`${action} on a ${isPrivate ? "secret" : "public"} board`, async () => {
        const seen: Array<[BoardRole, number]> = [];
        const wanted: Array<[BoardRole, number]> = [];
        for (const [role, browser] of browsers) {
          const board = await freshCastBoard(isPrivate);
          const [name, verb, options] = await CALLS[action]!(board, role);
          const before = await snapshot(board.boardId);
          const answer = await call(browser, name, verb, options);
          seen.push([role, answer.status]);
          wanted.push([role, served(role, action, isPrivate)]);
          if (answer.status !== 200 || verb === "get") expect(await snapshot(board.boardId), `${role} ${action}: D1 changed`).toEqual(before);
          else expect(await snapshot(board.boardId), `${role} ${action}: nothing changed on success`).not.toEqual(before);
        }
        expect(seen).toEqual(wanted);
      }, 60_000);
    }
  }
});

describe("the table itself", () => {
  it("is what the server follows: a signed-out write is 401 everywhere, a stranger never learns of a secret board", () => {
    expect(served("signed_out", "save_pin", true)).toBe(401);
    expect(served("signed_out", "view_public", true)).toBe(404);
    expect(served("stranger", "edit_board", true)).toBe(404);
    expect(served("stranger", "edit_board", false)).toBe(403);
    expect(served("owner", "delete_board", true)).toBe(200);
  });

  it("has a written status for every role and every action called here", () => {
    for (const action of Object.keys(CALLS) as BoardAction[]) {
      for (const role of BOARD_ROLES) for (const isPrivate of [false, true]) expect(() => served(role, action, isPrivate), `${role} ${action}`).not.toThrow();
    }
  });
});
