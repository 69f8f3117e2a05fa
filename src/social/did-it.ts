// "I tried this" (spec 001 §3 "Did-it data", §4 "Reactions, follows and did-it"): the pin's
// done_by_me toggle moves aggregated images_count by ±1; a like or helpful toggle on a did-it
// moves its count by one; a comment adds to comment_count. Pure, never below 0.

export interface PinDidItState {
  done_by_me: boolean;
  images_count: number;
  /** The viewer's own did-it, when they have one. */
  did_it_id: string | null;
}

export type PinDidItEvent = { type: "done"; did_it_id: string | null } | { type: "undone" };

export function pinDidItReducer(state: PinDidItState, event: PinDidItEvent): PinDidItState {
  if (event.type === "done") {
    return state.done_by_me ? state : { done_by_me: true, images_count: state.images_count + 1, did_it_id: event.did_it_id };
  }
  return state.done_by_me ? { done_by_me: false, images_count: Math.max(0, state.images_count - 1), did_it_id: null } : state;
}

export interface DidItData {
  id: string;
  comment_count: number;
  like_count: number;
  liked_by_me: boolean;
  helpful_count: number;
  marked_helpful_by_me: boolean;
}

export type DidItEvent =
  | { type: "like" }
  | { type: "unlike" }
  | { type: "mark_helpful" }
  | { type: "unmark_helpful" }
  | { type: "comment"; increment: number };

export function didItReducer(state: DidItData, event: DidItEvent): DidItData {
  switch (event.type) {
    case "like":
      return state.liked_by_me ? state : { ...state, liked_by_me: true, like_count: state.like_count + 1 };
    case "unlike":
      return state.liked_by_me ? { ...state, liked_by_me: false, like_count: Math.max(0, state.like_count - 1) } : state;
    case "mark_helpful":
      return state.marked_helpful_by_me ? state : { ...state, marked_helpful_by_me: true, helpful_count: state.helpful_count + 1 };
    case "unmark_helpful":
      return state.marked_helpful_by_me ? { ...state, marked_helpful_by_me: false, helpful_count: Math.max(0, state.helpful_count - 1) } : state;
    case "comment":
      return { ...state, comment_count: Math.max(0, state.comment_count + event.increment) };
  }
}
