// The comments island's state (spec 000 §3 "Aggregated comment", §4 "Comment changes", spec 001
// §4 resource lists) as pure transitions over one value: the pin's top-level list (newest first:
// a new comment goes to the front), each opened comment's replies (oldest first: a reply is
// appended), translations, the viewer's comment features and the pin's comment count. The list
// rules (fetching flag, error cleared on refetch, replace on refresh, append on paging, end at
// the end marker) are src/feeds/feed.ts's; these only say which list they apply to.
import { atom } from "nanostores";
import { emptyList, fetchFailed, fetchStarted, fetchSucceeded, type ResourceList } from "~/feeds/feed.ts";
import type { Comment, Tag } from "./comment.ts";

export interface CommentsState {
  pinId: string;
  top: ResourceList<Comment>;
  /** Replies by parent comment id, once opened or replied to. */
  replies: Record<string, ResourceList<Comment>>;
  /** Machine translations by comment id; "" when translation failed or is not configured. */
  translations: Record<string, string>;
  /** The viewer's comment feature map (AggregatedCommentFeaturesResource). */
  features: Record<string, boolean>;
  /** The pin's comment count, as shown in the heading. */
  commentCount: number;
  /** Comments and replies sent and not yet answered, oldest first: shown at once, marked "Posting…". */
  pending: PendingComment[];
}

/** A comment in flight: what the person wrote, until the server's comment or error replaces it. */
export interface PendingComment {
  key: string;
  parent_id: string | null;
  text: string;
  tags: Tag[];
  user: Comment["user"];
}

export type CommentChange =
  | { type: "pendingAdded"; pending: PendingComment }
  | { type: "pendingSettled"; key: string; comment: Comment }
  | { type: "pendingFailed"; key: string }
  | { type: "created"; comment: Comment }
  | { type: "deleted"; id: string }
  | { type: "hidden"; ids: string[] }
  | { type: "hiddenForUser"; userId: string }
  | { type: "updated"; comment: Comment }
  | { type: "likeToggled"; id: string; liked: boolean }
  | { type: "helpfulToggled"; id: string; helpful: boolean }
  | { type: "highlightToggled"; id: string; highlighted: boolean }
  | { type: "featuresUpdated"; featureMap: Record<string, boolean> }
  | { type: "commentCountIncremented"; id: string; by: number }
  | { type: "mentionRemoved"; id: string; userId: string }
  | { type: "translationSet"; id: string; text: string }
  | { type: "fetchStarted"; parentId: string | null }
  | { type: "fetchSucceeded"; parentId: string | null; results: Comment[]; bookmark: string | null; refresh: boolean }
  | { type: "fetchFailed"; parentId: string | null; status: number | null };

/** The island's first state: the server-rendered first page is the top list's first page. */
export function initialState(pinId: string, first: { results: Comment[]; bookmark: string | null }, commentCount: number): CommentsState {
  return {
    pinId,
    top: fetchSucceeded(emptyList<Comment>(), { items: first.results, bookmark: first.bookmark }, true),
    replies: {},
    translations: {},
    features: {},
    commentCount,
    pending: [],
  };
}

const floor0 = (n: number) => Math.max(0, n);

/** Applies `edit` to the comment with this id, wherever it is listed. */
function mapComment(state: CommentsState, id: string, edit: (comment: Comment) => Comment): CommentsState {
  const apply = (list: ResourceList<Comment>) => (list.items.some((c) => c.id === id) ? { ...list, items: list.items.map((c) => (c.id === id ? edit(c) : c)) } : list);
  return { ...state, top: apply(state.top), replies: Object.fromEntries(Object.entries(state.replies).map(([parent, list]) => [parent, apply(list)])) };
}

/** Every listed comment, top-level and replies. */
export function allComments(state: CommentsState): Comment[] {
  return [...state.top.items, ...Object.values(state.replies).flatMap((list) => list.items)];
}

export function findComment(state: CommentsState, id: string): Comment | null {
  return allComments(state).find((c) => c.id === id) ?? null;
}

/**
 * Takes the matching comments off every list. A removed top-level comment takes its replies
 * with it; a removed reply lowers its parent's reply count; the pin's count drops by every
 * comment removed (replies included, as the server counts them).
 */
function removeWhere(state: CommentsState, gone: (comment: Comment) => boolean): CommentsState {
  const removedTop = state.top.items.filter(gone);
  const removedTopIds = new Set(removedTop.map((c) => c.id));
  let removed = removedTop.length;
  // Replies of a removed comment go with it (counted by its reply count: not all may be loaded).
  for (const comment of removedTop) removed += comment.comment_count;
  const lostReplies: Record<string, number> = {};
  const replies: Record<string, ResourceList<Comment>> = {};
  for (const [parent, list] of Object.entries(state.replies)) {
    if (removedTopIds.has(parent)) continue;
    const kept = list.items.filter((c) => !gone(c));
    const lost = list.items.length - kept.length;
    if (lost > 0) lostReplies[parent] = lost;
    removed += lost;
    replies[parent] = lost > 0 ? { ...list, items: kept } : list;
  }
  const top = state.top.items
    .filter((c) => !removedTopIds.has(c.id))
    .map((c) => (lostReplies[c.id] ? { ...c, comment_count: floor0(c.comment_count - (lostReplies[c.id] ?? 0)) } : c));
  return { ...state, top: { ...state.top, items: top }, replies, commentCount: floor0(state.commentCount - removed) };
}

export function commentsReducer(state: CommentsState, change: CommentChange): CommentsState {
  switch (change.type) {
    case "pendingAdded":
      return state.pending.some((p) => p.key === change.pending.key) ? state : { ...state, pending: [...state.pending, change.pending] };
    case "pendingSettled": {
      // The server's comment takes the pending one's place (and counts, as any created comment).
      const without = { ...state, pending: state.pending.filter((p) => p.key !== change.key) };
      return commentsReducer(without, { type: "created", comment: change.comment });
    }
    case "pendingFailed":
      return { ...state, pending: state.pending.filter((p) => p.key !== change.key) };
    case "created": {
      const comment = change.comment;
      if (findComment(state, comment.id)) return state;
      const counted = { ...state, commentCount: state.commentCount + 1 };
      if (comment.parent_id === null) return { ...counted, top: { ...state.top, items: [comment, ...state.top.items] } };
      // A reply is appended to its comment's replies, and the comment counts one more.
      const list = state.replies[comment.parent_id] ?? emptyList<Comment>();
      const withReply = { ...counted, replies: { ...state.replies, [comment.parent_id]: { ...list, items: [...list.items, comment] } } };
      return commentsReducer(withReply, { type: "commentCountIncremented", id: comment.parent_id, by: 1 });
    }
    case "deleted":
      return removeWhere(state, (c) => c.id === change.id);
    case "hidden": {
      const ids = new Set(change.ids);
      return removeWhere(state, (c) => ids.has(c.id));
    }
    case "hiddenForUser":
      return removeWhere(state, (c) => c.user.id === change.userId);
    case "updated":
      return mapComment(state, change.comment.id, () => change.comment);
    case "likeToggled":
      return mapComment(state, change.id, (c) => {
        if (Boolean(c.reaction_by_me) === change.liked) return c;
        const likes = c.reaction_counts["1"] ?? 0;
        return { ...c, reaction_by_me: change.liked ? 1 : 0, reaction_counts: { ...c.reaction_counts, "1": floor0(likes + (change.liked ? 1 : -1)) } };
      });
    case "helpfulToggled":
      return mapComment(state, change.id, (c) =>
        Boolean(c.marked_helpful_by_me) === change.helpful ? c : { ...c, marked_helpful_by_me: change.helpful, helpful_count: floor0(c.helpful_count + (change.helpful ? 1 : -1)) },
      );
    case "highlightToggled":
      return mapComment(state, change.id, (c) => ({ ...c, highlighted_by_pin_owner: change.highlighted }));
    case "featuresUpdated":
      return { ...state, features: { ...state.features, ...change.featureMap } };
    case "commentCountIncremented":
      return mapComment(state, change.id, (c) => ({ ...c, comment_count: floor0(c.comment_count + change.by) }));
    case "mentionRemoved":
      return mapComment(state, change.id, (c) => ({
        ...c,
        tags: c.tags.filter((tag) => tag.user_id !== change.userId),
        tagged_users: c.tagged_users.filter((user) => user.id !== change.userId),
      }));
    case "translationSet":
      return { ...state, translations: { ...state.translations, [change.id]: change.text } };
    case "fetchStarted":
      return withList(state, change.parentId, fetchStarted);
    case "fetchSucceeded":
      // A comment made here before the page that holds it arrived is listed once, where it already is.
      return withList(state, change.parentId, (list) => {
        const known = new Set(change.refresh ? [] : list.items.map((c) => c.id));
        return fetchSucceeded(list, { items: change.results.filter((c) => !known.has(c.id)), bookmark: change.bookmark }, change.refresh);
      });
    case "fetchFailed":
      return withList(state, change.parentId, (list) => fetchFailed(list, change.status).list);
  }
}

function withList(state: CommentsState, parentId: string | null, edit: (list: ResourceList<Comment>) => ResourceList<Comment>): CommentsState {
  if (parentId === null) return { ...state, top: edit(state.top) };
  return { ...state, replies: { ...state.replies, [parentId]: edit(state.replies[parentId] ?? emptyList<Comment>()) } };
}

/** The island's one store; moved only through commentsReducer. */
export const $comments = atom<CommentsState | null>(null);
