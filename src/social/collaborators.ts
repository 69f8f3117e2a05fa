// Collaborator invites as the board page holds them (spec 001 §4 "Collaborator invite
// status" and "Board"). Statuses: not_invited (no record), new, accepted. Pure transitions;
// the board UI and the server's own rules follow the same table.
import type { BoardAccess } from "~/boards/policy.ts";

export type CollaboratorStatus = "not_invited" | "new" | "accepted";
export type CollaboratorType = "invite" | "request";

/** The access a collaborator gets (spec 001 §6: "Collaborator access on invites is delete"). */
export const INVITE_ACCESS: readonly BoardAccess[] = ["write", "delete"];

interface CollaboratorRecord {
  user_id: string;
  status: Exclude<CollaboratorStatus, "not_invited">;
  type: CollaboratorType;
  access: BoardAccess[];
}

export interface CollaborationState {
  viewer_id: string | null;
  collaborator_count: number;
  is_collaborative: boolean;
  collaborated_by_me: boolean;
  /** The viewer's access values on the board. */
  access: BoardAccess[];
  /** Records by invited user id; a missing id is not_invited. */
  records: Record<string, CollaboratorRecord>;
}

export type CollaborationEvent =
  | { type: "add"; user_ids: string[]; status: "new" | "accepted"; record_type?: CollaboratorType }
  | { type: "accept" }
  | { type: "approve"; user_id: string }
  | { type: "deny"; user_id: string }
  | { type: "remove"; user_id: string };

export function statusOf(state: CollaborationState, userId: string): CollaboratorStatus {
  return state.records[userId]?.status ?? "not_invited";
}

/** Additions skip users whose status is other than not_invited (spec 001 §4, §5). */
export function addableUsers(state: CollaborationState, userIds: readonly string[]): string[] {
  return [...new Set(userIds)].filter((id) => statusOf(state, id) === "not_invited");
}

function withoutRecord(records: Record<string, CollaboratorRecord>, userId: string): Record<string, CollaboratorRecord> {
  const { [userId]: _removed, ...rest } = records;
  return rest;
}

export function collaborationReducer(state: CollaborationState, event: CollaborationEvent): CollaborationState {
  switch (event.type) {
    case "add": {
      const added = addableUsers(state, event.user_ids);
      if (added.length === 0) return state;
      const records = { ...state.records };
      for (const id of added) records[id] = { user_id: id, status: event.status, type: event.record_type ?? "invite", access: [...INVITE_ACCESS] };
      if (event.status !== "accepted") return { ...state, records };
      const viewerAdded = state.viewer_id !== null && added.includes(state.viewer_id);
      return {
        ...state,
        records,
        collaborator_count: state.collaborator_count + added.length,
        is_collaborative: true,
        ...(viewerAdded ? { access: [...INVITE_ACCESS], collaborated_by_me: true } : {}),
      };
    }
    case "accept": {
      const viewer = state.viewer_id;
      const record = viewer === null ? undefined : state.records[viewer];
      if (viewer === null || !record || record.status !== "new" || record.type !== "invite") return state;
      return {
        ...state,
        records: { ...state.records, [viewer]: { ...record, status: "accepted" } },
        collaborator_count: state.collaborator_count + 1,
        is_collaborative: true,
        collaborated_by_me: true,
        // Write at least (spec 001 §4), plus whatever the invite granted (delete, §6).
        access: [...new Set<BoardAccess>(["write", ...record.access])],
      };
    }
    case "approve": {
      const record = state.records[event.user_id];
      if (!record || record.status !== "new") return state;
      if (record.type !== "request") return state; // an invite approved stays new
      return {
        ...state,
        records: { ...state.records, [event.user_id]: { ...record, status: "accepted" } },
        collaborator_count: state.collaborator_count + 1,
        is_collaborative: true,
      };
    }
    case "deny":
      return state.records[event.user_id] ? { ...state, records: withoutRecord(state.records, event.user_id) } : state;
    case "remove": {
      const record = state.records[event.user_id];
      if (!record) return state;
      const isViewer = event.user_id === state.viewer_id;
      return {
        ...state,
        records: withoutRecord(state.records, event.user_id),
        collaborator_count: record.status === "accepted" ? Math.max(0, state.collaborator_count - 1) : state.collaborator_count,
        ...(isViewer ? { access: [], collaborated_by_me: false } : {}),
      };
    }
  }
}
