// The board-management calls of the saving API, typed.
// Every write goes through api/api.client.ts (CSRF header, X-Requested-With); reads are
// GET /resource/{Name}/get/?data={"options":…}. The server decides what is allowed: these only
// carry the person's request.
import { call, resource, type Transport } from "~/api/api.client.ts";
import type { BoardPrivacy } from "./board.ts";
import type { BoardJson, SectionJson } from "./board-json.ts";

export type { BoardJson, SectionJson };

type CollaboratorStatus = "new" | "accepted";

export interface CollaboratorJson {
  user: { id: string; username: string; full_name: string; image_medium_url: string | null };
  status: CollaboratorStatus;
  access: Array<"write" | "delete">;
  type: "invite" | "request";
  invited_by_user_id: string | null;
}

export interface FeedPinJson {
  id: string;
  title?: string;
  grid_title?: string;
  kind?: string;
  image?: { url: string } | null;
  images?: Record<string, { url: string }>;
}

export type BulkAction = "bulkMove" | "bulkCopy" | "bulkCreateSection" | "bulkDelete";

function getPath(name: string, options: Record<string, unknown>): string {
  return `/resource/${name}/get/?data=${encodeURIComponent(JSON.stringify({ options }))}`;
}

const get = <T>(name: string, options: Record<string, unknown>, transport?: Transport) => call<T>(getPath(name, options), { method: "GET" }, transport);

export const organizeApi = {
  board: (boardId: string, transport?: Transport) => get<BoardJson>("BoardResource", { board_id: boardId }, transport),
  createBoard: (options: { name: string; description?: string; privacy: BoardPrivacy }, transport?: Transport) => resource<BoardJson>("BoardResource", "create", options, transport),
  updateBoard: (
    options: { board_id: string; name?: string; description?: string; privacy?: BoardPrivacy; cover_pin_id?: string | null; archived?: boolean },
    transport?: Transport,
  ) => resource<BoardJson>("BoardResource", "update", options, transport),
  deleteBoard: (boardId: string, transport?: Transport) => resource<{ board_id: string }>("BoardResource", "delete", { board_id: boardId }, transport),
  /** The viewer's recent and writable boards (name-filtered) and their sections: the move/copy target picker. */
  picker: (filter: string, transport?: Transport) =>
    get<{ recent: BoardJson[]; boards: BoardJson[]; sections: Record<string, SectionJson[]> }>(
      "BoardPickerResource",
      filter.trim() ? { page_size: 50, filter: filter.trim().slice(0, 50) } : { page_size: 50 },
      transport,
    ),

  createSection: (boardId: string, title: string, transport?: Transport) => resource<SectionJson>("BoardSectionResource", "create", { board_id: boardId, title }, transport),
  renameSection: (sectionId: string, title: string, transport?: Transport) => resource<SectionJson>("BoardSectionResource", "update", { section_id: sectionId, title }, transport),
  deleteSection: (sectionId: string, transport?: Transport) => resource<unknown>("BoardSectionResource", "delete", { section_id: sectionId }, transport),
  reorderSections: (boardId: string, sectionIds: string[], transport?: Transport) =>
    resource<unknown>("BoardSectionsResource", "update", { board_id: boardId, section_ids: sectionIds }, transport),

  boardFeed: (boardId: string, bookmark: string | null, transport?: Transport) =>
    get<{ results: FeedPinJson[]; bookmark: string | null } | FeedPinJson[]>("BoardFeedResource", bookmark ? { board_id: boardId, bookmark } : { board_id: boardId }, transport),
  reorderPin: (boardId: string, pinId: string, afterPinId: string | null, transport?: Transport) =>
    resource<unknown>("BoardFeedResource", "update", { board_id: boardId, pin_id: pinId, after_pin_id: afterPinId }, transport),
  /** Moves this board's save of the pin (from_board_id: a pin may be saved on several boards). */
  movePin: (pinId: string, fromBoardId: string, boardId: string, sectionId: string | null, transport?: Transport) =>
    resource<{ pin_id: string; board_id: string; section_id: string | null }>(
      "PinResource",
      "update",
      { id: pinId, from_board_id: fromBoardId, board_id: boardId, section_id: sectionId },
      transport,
    ),
  bulk: (
    options: {
      board_id: string;
      action: BulkAction;
      pin_ids?: string[];
      all?: boolean;
      excluded_pin_ids?: string[];
      target_board_id?: string;
      target_section_id?: string;
      section_title?: string;
    },
    transport?: Transport,
  ) => resource<{ moved?: number; copied?: number; deleted?: number; section?: SectionJson }>("BoardBulkResource", "update", options, transport),

  requestTransfer: (boardId: string, userId: string, transport?: Transport) =>
    resource<BoardJson>("BoardOwnershipTransferResource", "create", { board_id: boardId, user_id: userId }, transport),
  cancelTransfer: (boardId: string, transport?: Transport) => resource<BoardJson>("BoardOwnershipTransferResource", "delete", { board_id: boardId }, transport),

  /** One person by username (to invite them); 404 when there is no one the viewer may see by that name. */
  lookupUser: (username: string, transport?: Transport) =>
    get<{ id: string; username: string; full_name: string; image_medium_url: string | null }>("UserLookupResource", { username }, transport),
  collaborators: (boardId: string, transport?: Transport) => get<{ results: CollaboratorJson[] }>("BoardCollaboratorsResource", { board_id: boardId }, transport),
  invite: (boardId: string, userIds: string[], transport?: Transport) =>
    resource<{ invited: string[]; skipped: string[] }>("BoardCollaboratorResource", "create", { board_id: boardId, user_ids: userIds }, transport),
  requestToJoin: (boardId: string, transport?: Transport) => resource<{ requested: boolean }>("BoardCollaboratorResource", "create", { board_id: boardId, request: true }, transport),
  answer: (boardId: string, userId: string, action: "approve" | "deny" | "accept", transport?: Transport) =>
    resource<unknown>("BoardCollaboratorResource", "update", { board_id: boardId, user_id: userId, action }, transport),
  /** Remove a collaborator (owner), leave (self), or decline one's own invite (deletes the record). */
  removeCollaborator: (boardId: string, userId: string, transport?: Transport) =>
    resource<unknown>("BoardCollaboratorResource", "delete", { board_id: boardId, user_id: userId }, transport),
};
