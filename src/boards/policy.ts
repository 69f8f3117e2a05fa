// Who may do what to a board and the pins on it (spec 001 §6). One table, read by the server
// before every board, section, pin and collaborator action. The authorization tests run every
// role against every action and compare with their own table written from the spec.
//
// A role is the viewer's relation to one board. An action the role may not take answers 403,
// except that a board the viewer may not see answers 404 whatever was asked, so a secret
// board's existence never leaks through an error either.

export const BOARD_ROLES = ["owner", "collaborator_write", "collaborator_delete", "follower", "stranger", "signed_out"] as const;
export type BoardRole = (typeof BOARD_ROLES)[number];

/** A collaborator's access values (spec 001 §3 Board.access): write adds and moves, delete also removes. */
export type BoardAccess = "write" | "delete";

const OWNER_AND_COLLABORATORS = ["owner", "collaborator_write", "collaborator_delete"] as const;
const DELETERS = ["owner", "collaborator_delete"] as const;
const OWNER = ["owner"] as const;
const COLLABORATORS = ["collaborator_write", "collaborator_delete"] as const;
const SIGNED_IN = ["owner", "collaborator_write", "collaborator_delete", "follower", "stranger"] as const;
const OUTSIDERS = ["follower", "stranger"] as const;

/**
 * Every board action and the roles allowed to take it on a board they can see. Reading a
 * public board is open to everyone; reading a secret or protected one is `view_private`.
 */
const BOARD_POLICY = {
  view_public: BOARD_ROLES,
  view_private: OWNER_AND_COLLABORATORS,
  edit_board: OWNER,
  delete_board: OWNER,
  archive_board: OWNER,
  transfer_ownership: OWNER,
  /** Save, repin or create a pin into the board (or one of its sections). */
  save_pin: OWNER_AND_COLLABORATORS,
  /** Take a pin off the board: unsave, delete, move away, bulkDelete. */
  remove_pin: DELETERS,
  /** Take back one's own save (the save toast's Undo): anyone who could make it. */
  unsave_own: OWNER_AND_COLLABORATORS,
  reorder_pins: OWNER_AND_COLLABORATORS,
  create_section: OWNER_AND_COLLABORATORS,
  rename_section: OWNER_AND_COLLABORATORS,
  reorder_sections: OWNER_AND_COLLABORATORS,
  delete_section: DELETERS,
  list_collaborators: OWNER_AND_COLLABORATORS,
  invite_collaborator: OWNER,
  answer_join_request: OWNER,
  remove_collaborator: OWNER,
  leave_board: COLLABORATORS,
  request_to_join: OUTSIDERS,
  follow_board: ["collaborator_write", "collaborator_delete", "follower", "stranger"],
  /** React to, mark done or comment on a pin of the board: anyone signed in who can see it. */
  react_to_pin: SIGNED_IN,
} as const satisfies Record<string, readonly BoardRole[]>;

export type BoardAction = keyof typeof BOARD_POLICY;
export const BOARD_ACTIONS = Object.keys(BOARD_POLICY) as BoardAction[];

/** The facts a role is derived from: the board, and the viewer's relation to it. */
export interface BoardRoleFacts {
  ownerId: number;
  /** The viewer's accepted collaboration's access values; null when not an accepted collaborator. */
  collaboratorAccess: readonly BoardAccess[] | null;
  /** The viewer follows the board or its owner. */
  follows: boolean;
}

export function roleOf(facts: BoardRoleFacts, viewerId: number | null): BoardRole {
  if (viewerId === null) return "signed_out";
  if (viewerId === facts.ownerId) return "owner";
  if (facts.collaboratorAccess) return facts.collaboratorAccess.includes("delete") ? "collaborator_delete" : "collaborator_write";
  return facts.follows ? "follower" : "stranger";
}

/** The access values stored as a comma list (board_collaborators.access); unknown words dropped. */
export function parseAccess(stored: string | null | undefined): BoardAccess[] {
  if (!stored) return [];
  return stored.split(",").map((word) => word.trim()).filter((word): word is BoardAccess => word === "write" || word === "delete");
}

/** True when the role may take the action (visibility aside: see canSeeBoard). */
export function allows(role: BoardRole, action: BoardAction): boolean {
  return (BOARD_POLICY[action] as readonly BoardRole[]).includes(role);
}

/** Whether the role sees the board at all: private boards (secret, protected, archived) only to its people. */
export function canSeeBoard(role: BoardRole, isPrivate: boolean): boolean {
  return allows(role, isPrivate ? "view_private" : "view_public");
}

export type PolicyAnswer = "ok" | "forbidden" | "not_found" | "unauthorized";

/** Reading actions; every other action changes something. */
export const isReading = (action: BoardAction) => action === "view_public" || action === "view_private";

/**
 * The answer to one action: a signed-out visitor is asked to log in for any change before
 * any board is looked up (the same answer for every board, so it tells nothing); else
 * not_found when the board is hidden from the role (a secret board does not exist for
 * them), forbidden when the role may see but not act, else ok.
 */
export function decide(role: BoardRole, action: BoardAction, isPrivate: boolean): PolicyAnswer {
  if (role === "signed_out" && !isReading(action)) return "unauthorized";
  if (!canSeeBoard(role, isPrivate)) return "not_found";
  if (allows(role, action)) return "ok";
  return role === "signed_out" ? "unauthorized" : "forbidden";
}
