// Spec 001 §4 "Collaborator invite status" and "Board", §5 (additions skip), §6 (invite access).
import { describe, expect, it } from "vitest";
import { addableUsers, collaborationReducer, statusOf, type CollaborationEvent, type CollaborationState } from "./collaborators.ts";

const base: CollaborationState = {
  viewer_id: "7",
  collaborator_count: 1,
  is_collaborative: true,
  collaborated_by_me: false,
  access: [],
  records: {
    "2": { user_id: "2", status: "accepted", type: "invite", access: ["write", "delete"] },
    "3": { user_id: "3", status: "new", type: "invite", access: ["write", "delete"] },
    "4": { user_id: "4", status: "new", type: "request", access: ["write", "delete"] },
  },
};

describe("collaborationReducer", () => {
  it.each<[string, CollaborationState, CollaborationEvent, (after: CollaborationState) => void]>([
    ["adding sets the given status for not_invited users and skips the others", base, { type: "add", user_ids: ["2", "3", "5"], status: "new" }, (after) => {
      expect(statusOf(after, "5")).toBe("new");
      expect(after.records["2"]!.status).toBe("accepted");
      expect(after.records["3"]!.type).toBe("invite");
      expect(after.collaborator_count).toBe(1);
    }],
    ["adding with accepted adds to the count", base, { type: "add", user_ids: ["5", "6"], status: "accepted" }, (after) => {
      expect(after.collaborator_count).toBe(3);
      expect(after.access).toEqual([]);
    }],
    ["adding the viewer with accepted gives them write and delete", base, { type: "add", user_ids: ["7"], status: "accepted" }, (after) => {
      expect(after.collaborator_count).toBe(2);
      expect(after.access).toEqual(["write", "delete"]);
      expect(after.collaborated_by_me).toBe(true);
    }],
    ["accepting by the viewer sets accepted, write access, collaborative, count +1", { ...base, is_collaborative: false, records: { ...base.records, "7": { user_id: "7", status: "new", type: "invite", access: ["write"] } } }, { type: "accept" }, (after) => {
      expect(statusOf(after, "7")).toBe("accepted");
      expect(after.access).toEqual(["write"]);
      expect(after.is_collaborative).toBe(true);
      expect(after.collaborator_count).toBe(2);
    }],
    ["accepting without an invite changes nothing", base, { type: "accept" }, (after) => expect(after).toBe(base)],
    ["approving a request sets accepted (count +1)", base, { type: "approve", user_id: "4" }, (after) => {
      expect(statusOf(after, "4")).toBe("accepted");
      expect(after.collaborator_count).toBe(2);
    }],
    ["approving an invite sets new", base, { type: "approve", user_id: "3" }, (after) => {
      expect(statusOf(after, "3")).toBe("new");
      expect(after.collaborator_count).toBe(1);
    }],
    ["denying removes the record", base, { type: "deny", user_id: "4" }, (after) => {
      expect(statusOf(after, "4")).toBe("not_invited");
      expect(after.records["4"]).toBeUndefined();
    }],
    ["removing a collaborator sets not_invited and lowers the count", base, { type: "remove", user_id: "2" }, (after) => {
      expect(statusOf(after, "2")).toBe("not_invited");
      expect(after.collaborator_count).toBe(0);
    }],
    ["removing a pending invite keeps the count", base, { type: "remove", user_id: "3" }, (after) => expect(after.collaborator_count).toBe(1)],
    ["removing the viewer clears their access", { ...base, collaborator_count: 2, collaborated_by_me: true, access: ["write", "delete"], records: { ...base.records, "7": { user_id: "7", status: "accepted", type: "invite", access: ["write", "delete"] } } }, { type: "remove", user_id: "7" }, (after) => {
      expect(after.access).toEqual([]);
      expect(after.collaborated_by_me).toBe(false);
      expect(after.collaborator_count).toBe(1);
    }],
    ["the count never falls below 0", { ...base, collaborator_count: 0 }, { type: "remove", user_id: "2" }, (after) => expect(after.collaborator_count).toBe(0)],
  ])("%s", (_, before, event, check) => {
    check(collaborationReducer(before, event));
  });

  it("addableUsers keeps only not_invited users, once each", () => {
    expect(addableUsers(base, ["2", "3", "4", "9", "9"])).toEqual(["9"]);
  });
});
