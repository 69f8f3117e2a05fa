// Follows and blocks as the client holds them (spec 001 §4 "Reactions, follows and did-it",
// "Board"; spec 000 §4 "Topic follow"). Pure transitions, shared by the islands' stores and
// their tests.

export interface UserFollowState {
  explicitly_followed_by_me: boolean;
  follower_count: number;
  blocked_by_me: boolean;
}

export type UserFollowEvent = { type: "follow" } | { type: "unfollow" } | { type: "block" } | { type: "unblock" };

/**
 * Following toggles explicitly_followed_by_me and moves follower_count by ±1 (never below 0).
 * Blocking sets blocked_by_me and clears following; a blocked person cannot be followed.
 */
export function userFollowReducer(state: UserFollowState, event: UserFollowEvent): UserFollowState {
  switch (event.type) {
    case "follow":
      if (state.explicitly_followed_by_me || state.blocked_by_me) return state;
      return { ...state, explicitly_followed_by_me: true, follower_count: state.follower_count + 1 };
    case "unfollow":
      if (!state.explicitly_followed_by_me) return state;
      return { ...state, explicitly_followed_by_me: false, follower_count: Math.max(0, state.follower_count - 1) };
    case "block":
      if (state.blocked_by_me) return state;
      return {
        blocked_by_me: true,
        explicitly_followed_by_me: false,
        follower_count: state.explicitly_followed_by_me ? Math.max(0, state.follower_count - 1) : state.follower_count,
      };
    case "unblock":
      return state.blocked_by_me ? { ...state, blocked_by_me: false } : state;
  }
}

export interface BoardFollowState {
  followed_by_me: boolean;
  follower_count: number;
}

export type BoardFollowEvent = { type: "follow" } | { type: "unfollow" };

export function boardFollowReducer(state: BoardFollowState, event: BoardFollowEvent): BoardFollowState {
  if (event.type === "follow") {
    return state.followed_by_me ? state : { followed_by_me: true, follower_count: state.follower_count + 1 };
  }
  return state.followed_by_me ? { followed_by_me: false, follower_count: Math.max(0, state.follower_count - 1) } : state;
}

/** A board as far as its owner's follow matters. */
export interface OwnedBoardFollow {
  id: string;
  owner_id: string;
  followed_by_me: boolean;
}

/**
 * Following a user sets followed_by_me on the boards that user owns; blocking (or unfollowing)
 * clears it, except on boards the viewer follows on their own (`explicitBoardIds`).
 */
export function applyOwnerFollow<T extends OwnedBoardFollow>(boards: readonly T[], ownerId: string, following: boolean, explicitBoardIds: ReadonlySet<string> = new Set()): T[] {
  return boards.map((board) => {
    if (board.owner_id !== ownerId) return board;
    const followed = following || explicitBoardIds.has(board.id);
    return board.followed_by_me === followed ? board : { ...board, followed_by_me: followed };
  });
}

export interface TopicState {
  id: string;
  is_followed: boolean;
}

export type TopicEvent = { type: "follow" } | { type: "unfollow" } | { type: "revert"; previous: TopicState };

/** Topic follow is optimistic (spec 000 §4): the toggle applies first; a failed call reverts it silently (§8). */
export function topicReducer(state: TopicState, event: TopicEvent): TopicState {
  if (event.type === "revert") return event.previous;
  const is_followed = event.type === "follow";
  return state.is_followed === is_followed ? state : { ...state, is_followed };
}
