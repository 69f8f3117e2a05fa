import { describe, expect, it } from "vitest";
import { EXPECTED_BOARD_STATUS } from "../../tests/worker/board-policy-expected.ts";
import { BOARD_ACTIONS, BOARD_ROLES, decide, parseAccess, roleOf, type BoardRole, type PolicyAnswer } from "./policy.ts";

describe("roleOf", () => {
  const board = { ownerId: 1, collaboratorAccess: null, follows: false };
  it.each<[string, Parameters<typeof roleOf>[0], number | null, BoardRole]>([
    ["signed out", board, null, "signed_out"],
    ["the owner", board, 1, "owner"],
    ["the owner, even listed as a collaborator", { ...board, collaboratorAccess: ["write"] }, 1, "owner"],
    ["a write collaborator", { ...board, collaboratorAccess: ["write"] }, 2, "collaborator_write"],
    ["a delete collaborator", { ...board, collaboratorAccess: ["write", "delete"] }, 2, "collaborator_delete"],
    ["a collaborator who also follows", { ...board, collaboratorAccess: ["write"], follows: true }, 2, "collaborator_write"],
    ["a follower", { ...board, follows: true }, 2, "follower"],
    ["anyone else signed in", board, 2, "stranger"],
  ])("%s", (_, facts, viewer, role) => {
    expect(roleOf(facts, viewer)).toBe(role);
  });
});

describe("parseAccess", () => {
  it.each([
    ["write,delete", ["write", "delete"]],
    ["write", ["write"]],
    [" delete ", ["delete"]],
    ["admin,write", ["write"]],
    ["", []],
    [null, []],
  ])("%j", (stored, access) => {
    expect(parseAccess(stored)).toEqual(access);
  });
});

describe("decide", () => {
  it("hides a private board from everyone but its people, whatever the action", () => {
    for (const action of BOARD_ACTIONS) {
      for (const role of ["follower", "stranger"] as const) expect(decide(role, action, true)).toBe("not_found");
    }
    expect(decide("signed_out", "view_public", true)).toBe("not_found");
  });
  it("asks a signed-out visitor to log in for any change, before looking at the board", () => {
    for (const action of BOARD_ACTIONS.filter((action) => !action.startsWith("view_"))) expect(decide("signed_out", action, true)).toBe("unauthorized");
  });
  it("asks a signed-out visitor of a public board to log in for anything but reading", () => {
    for (const action of BOARD_ACTIONS) expect(decide("signed_out", action, false)).toBe(action === "view_public" ? "ok" : "unauthorized");
  });
  it("lets only the owner change the board itself", () => {
    for (const action of ["edit_board", "delete_board", "archive_board", "transfer_ownership", "invite_collaborator", "remove_collaborator"] as const) {
      expect(BOARD_ROLES.filter((role) => decide(role, action, false) === "ok")).toEqual(["owner"]);
    }
  });
  it("lets write collaborators add but not remove", () => {
    expect(decide("collaborator_write", "save_pin", true)).toBe("ok");
    expect(decide("collaborator_write", "remove_pin", true)).toBe("forbidden");
    expect(decide("collaborator_delete", "remove_pin", true)).toBe("ok");
    expect(decide("collaborator_write", "delete_section", false)).toBe("forbidden");
  });
  it("keeps the owner from following, joining or leaving their own board", () => {
    for (const action of ["follow_board", "request_to_join", "leave_board"] as const) expect(decide("owner", action, false)).toBe("forbidden");
  });
});

describe("decide against the hand-written table of expected statuses", () => {
  const STATUS: Record<PolicyAnswer, number> = { ok: 200, forbidden: 403, not_found: 404, unauthorized: 401 };

  it("has six rows, one per role, for every action but view_private", () => {
    for (const action of BOARD_ACTIONS.filter((action) => action !== "view_private")) {
      expect(EXPECTED_BOARD_STATUS.filter(([rowAction]) => rowAction === action).map(([, role]) => role), action).toEqual([...BOARD_ROLES]);
    }
  });

  it.each(EXPECTED_BOARD_STATUS)("%s by %s: %i on a public board, %i on a secret one", (action, role, onPublic, onSecret) => {
    expect(STATUS[decide(role, action, false)]).toBe(onPublic);
    expect(STATUS[decide(role, action, true)]).toBe(onSecret);
  });
});
