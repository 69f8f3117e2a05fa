// The status every board role gets for every board action, written out by hand from the rules
// rather than computed by the policy under test (src/boards/policy.ts), so a slip in its table
// or in decide() shows up as a disagreement. Where the rules come from:
//  - spec 001 §6: collaborators hold write or delete access; invites carry delete (so write too).
//  - docs/decisions.md "Saving and organising": write adds, moves in and reorders; delete also
//    removes others' pins and deletes sections; a write collaborator may take back their own
//    save; only the owner changes the board itself and its collaborators; a board the role may
//    not see answers 404 whatever was asked; a signed-out change is 401 before any board is
//    looked up. A secret board is seen only by its owner and accepted collaborators.
// Reading a secret board is view_public asked of a secret board (the same BoardResource get).
import type { BoardAction, BoardRole } from "~/boards/policy.ts";

type ExercisedAction = Exclude<BoardAction, "view_private">;

/** [action, role, status on a public board, status on a secret board] */
export const EXPECTED_BOARD_STATUS: ReadonlyArray<readonly [ExercisedAction, BoardRole, number, number]> = [
  ["view_public", "owner", 200, 200],
  ["view_public", "collaborator_write", 200, 200],
  ["view_public", "collaborator_delete", 200, 200],
  ["view_public", "follower", 200, 404],
  ["view_public", "stranger", 200, 404],
  ["view_public", "signed_out", 200, 404],

  ["edit_board", "owner", 200, 200],
  ["edit_board", "collaborator_write", 403, 403],
  ["edit_board", "collaborator_delete", 403, 403],
  ["edit_board", "follower", 403, 404],
  ["edit_board", "stranger", 403, 404],
  ["edit_board", "signed_out", 401, 401],

  ["delete_board", "owner", 200, 200],
  ["delete_board", "collaborator_write", 403, 403],
  ["delete_board", "collaborator_delete", 403, 403],
  ["delete_board", "follower", 403, 404],
  ["delete_board", "stranger", 403, 404],
  ["delete_board", "signed_out", 401, 401],

  ["archive_board", "owner", 200, 200],
  ["archive_board", "collaborator_write", 403, 403],
  ["archive_board", "collaborator_delete", 403, 403],
  ["archive_board", "follower", 403, 404],
  ["archive_board", "stranger", 403, 404],
  ["archive_board", "signed_out", 401, 401],

  ["transfer_ownership", "owner", 200, 200],
  ["transfer_ownership", "collaborator_write", 403, 403],
  ["transfer_ownership", "collaborator_delete", 403, 403],
  ["transfer_ownership", "follower", 403, 404],
  ["transfer_ownership", "stranger", 403, 404],
  ["transfer_ownership", "signed_out", 401, 401],

  ["save_pin", "owner", 200, 200],
  ["save_pin", "collaborator_write", 200, 200],
  ["save_pin", "collaborator_delete", 200, 200],
  ["save_pin", "follower", 403, 404],
  ["save_pin", "stranger", 403, 404],
  ["save_pin", "signed_out", 401, 401],

  ["remove_pin", "owner", 200, 200],
  ["remove_pin", "collaborator_write", 403, 403],
  ["remove_pin", "collaborator_delete", 200, 200],
  ["remove_pin", "follower", 403, 404],
  ["remove_pin", "stranger", 403, 404],
  ["remove_pin", "signed_out", 401, 401],

  ["unsave_own", "owner", 200, 200],
  ["unsave_own", "collaborator_write", 200, 200],
  ["unsave_own", "collaborator_delete", 200, 200],
  ["unsave_own", "follower", 403, 404],
  ["unsave_own", "stranger", 403, 404],
  ["unsave_own", "signed_out", 401, 401],

  ["reorder_pins", "owner", 200, 200],
  ["reorder_pins", "collaborator_write", 200, 200],
  ["reorder_pins", "collaborator_delete", 200, 200],
  ["reorder_pins", "follower", 403, 404],
  ["reorder_pins", "stranger", 403, 404],
  ["reorder_pins", "signed_out", 401, 401],

  ["create_section", "owner", 200, 200],
  ["create_section", "collaborator_write", 200, 200],
  ["create_section", "collaborator_delete", 200, 200],
  ["create_section", "follower", 403, 404],
  ["create_section", "stranger", 403, 404],
  ["create_section", "signed_out", 401, 401],

  ["rename_section", "owner", 200, 200],
  ["rename_section", "collaborator_write", 200, 200],
  ["rename_section", "collaborator_delete", 200, 200],
  ["rename_section", "follower", 403, 404],
  ["rename_section", "stranger", 403, 404],
  ["rename_section", "signed_out", 401, 401],

  ["reorder_sections", "owner", 200, 200],
  ["reorder_sections", "collaborator_write", 200, 200],
  ["reorder_sections", "collaborator_delete", 200, 200],
  ["reorder_sections", "follower", 403, 404],
  ["reorder_sections", "stranger", 403, 404],
  ["reorder_sections", "signed_out", 401, 401],

  ["delete_section", "owner", 200, 200],
  ["delete_section", "collaborator_write", 403, 403],
  ["delete_section", "collaborator_delete", 200, 200],
  ["delete_section", "follower", 403, 404],
  ["delete_section", "stranger", 403, 404],
  ["delete_section", "signed_out", 401, 401],

  ["list_collaborators", "owner", 200, 200],
  ["list_collaborators", "collaborator_write", 200, 200],
  ["list_collaborators", "collaborator_delete", 200, 200],
  ["list_collaborators", "follower", 403, 404],
  ["list_collaborators", "stranger", 403, 404],
  ["list_collaborators", "signed_out", 401, 401],

  ["invite_collaborator", "owner", 200, 200],
  ["invite_collaborator", "collaborator_write", 403, 403],
  ["invite_collaborator", "collaborator_delete", 403, 403],
  ["invite_collaborator", "follower", 403, 404],
  ["invite_collaborator", "stranger", 403, 404],
  ["invite_collaborator", "signed_out", 401, 401],

  ["answer_join_request", "owner", 200, 200],
  ["answer_join_request", "collaborator_write", 403, 403],
  ["answer_join_request", "collaborator_delete", 403, 403],
  ["answer_join_request", "follower", 403, 404],
  ["answer_join_request", "stranger", 403, 404],
  ["answer_join_request", "signed_out", 401, 401],

  ["remove_collaborator", "owner", 200, 200],
  ["remove_collaborator", "collaborator_write", 403, 403],
  ["remove_collaborator", "collaborator_delete", 403, 403],
  ["remove_collaborator", "follower", 403, 404],
  ["remove_collaborator", "stranger", 403, 404],
  ["remove_collaborator", "signed_out", 401, 401],

  // Only a collaborator can leave; the owner hands the board over instead.
  ["leave_board", "owner", 403, 403],
  ["leave_board", "collaborator_write", 200, 200],
  ["leave_board", "collaborator_delete", 200, 200],
  ["leave_board", "follower", 403, 404],
  ["leave_board", "stranger", 403, 404],
  ["leave_board", "signed_out", 401, 401],

  // Only someone outside the board asks to join it; its people are already in.
  ["request_to_join", "owner", 403, 403],
  ["request_to_join", "collaborator_write", 403, 403],
  ["request_to_join", "collaborator_delete", 403, 403],
  ["request_to_join", "follower", 200, 404],
  ["request_to_join", "stranger", 200, 404],
  ["request_to_join", "signed_out", 401, 401],

  // The owner does not follow their own board.
  ["follow_board", "owner", 403, 403],
  ["follow_board", "collaborator_write", 200, 200],
  ["follow_board", "collaborator_delete", 200, 200],
  ["follow_board", "follower", 200, 404],
  ["follow_board", "stranger", 200, 404],
  ["follow_board", "signed_out", 401, 401],

  // React, mark done or comment: anyone signed in who can see the pin's board.
  ["react_to_pin", "owner", 200, 200],
  ["react_to_pin", "collaborator_write", 200, 200],
  ["react_to_pin", "collaborator_delete", 200, 200],
  ["react_to_pin", "follower", 200, 404],
  ["react_to_pin", "stranger", 200, 404],
  ["react_to_pin", "signed_out", 401, 401],
];

/** The hand-written status for one role, action and board; throws for a pair the table lacks. */
export function expectedStatus(role: BoardRole, action: BoardAction, isPrivate: boolean): number {
  const row = EXPECTED_BOARD_STATUS.find(([rowAction, rowRole]) => rowAction === action && rowRole === role);
  if (!row) throw new Error(`no expected status written for ${role} ${action}`);
  return isPrivate ? row[3] : row[2];
}
