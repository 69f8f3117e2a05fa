// The comments island's actions: each applies its change to $comments at once (optimistic),
// makes the call, settles on the server's answer and, when the call fails, puts the state back
// and says why in a toast (src/shell/toast-event.ts). A new comment or reply is the exception:
// it needs the server's id, so it is listed when the answer comes (the composer shows it is busy).
import { ApiCallError, NetworkError } from "~/api/api.client.ts";
import type { Comment, Tag } from "./comment.ts";
import { commentsApi } from "./api.client.ts";
import { emptyList, fetchFailed } from "~/feeds/feed.ts";
import { $comments, commentsReducer, findComment, type CommentChange, type CommentsState } from "./state.ts";
import { runtimeGlobal } from "~/runtime/global.ts";
import { showToast } from "~/shell/toast-event.ts";

export type CommentsApi = typeof commentsApi;

export interface Io {
  api: CommentsApi;
  notify: (message: string) => void;
}

/** Messages the actions may show; the island passes its translated strings. */
export interface ActionMessages {
  failed: string;
  offline: string;
  flagged: string;
  translateFailed: string;
}

let toastCount = 0;
let pendingCount = 0;
export const browserIo = (): Io => ({
  api: commentsApi,
  notify: (message) => showToast({ id: `comments-${++toastCount}`, message }),
});

/**
 * What to tell the person about a failed call: offline, the server's own (translated) message
 * for a refusal it explains (4xx), else the generic failure.
 */
export function failureMessage(error: unknown, messages: ActionMessages): string {
  if (error instanceof NetworkError) return messages.offline;
  if (error instanceof ApiCallError && error.httpStatus >= 400 && error.httpStatus < 500 && error.message && !error.message.startsWith("HTTP ")) return error.message;
  return messages.failed;
}

const statusOf = (error: unknown) => (error instanceof ApiCallError ? error.httpStatus : null);

export function commentActions(io: Io, messages: ActionMessages, store = $comments) {
  const apply = (change: CommentChange) => {
    const state = store.get();
    if (state) store.set(commentsReducer(state, change));
  };
  const get = (): CommentsState | null => store.get();
  const fail = (error: unknown) => io.notify(failureMessage(error, messages));

  /** Runs a call after an optimistic change; `undo` puts it back on failure. */
  async function optimistic<T>(change: CommentChange | null, send: () => Promise<T>, undo: () => void, settle?: (answer: T) => void): Promise<boolean> {
    if (change) apply(change);
    try {
      const answer = await send();
      settle?.(answer);
      return true;
    } catch (error) {
      undo();
      fail(error);
      return false;
    }
  }

  /** A page of comments (parentId null) or of one comment's replies; refresh replaces the list. */
  async function load(parentId: string | null, refresh = false): Promise<void> {
      const state = get();
      if (!state) return;
      const list = parentId === null ? state.top : state.replies[parentId];
      if (list?.fetching) return;
      apply({ type: "fetchStarted", parentId });
      try {
        const page = await io.api.list(state.pinId, parentId, refresh ? null : (list?.bookmark ?? null));
        apply({ type: "fetchSucceeded", parentId, results: page.results, bookmark: page.bookmark, refresh: refresh || !list?.loaded });
      } catch (error) {
        const current = get();
        const now = (current && (parentId === null ? current.top : current.replies[parentId])) ?? emptyList<Comment>();
        // The list rules ask for exactly one refetch after a first-load server error.
        const { refetch } = fetchFailed(now, statusOf(error));
        apply({ type: "fetchFailed", parentId, status: statusOf(error) });
        if (refetch) await load(parentId, true);
      }
    }

  return {
    load,

    /**
     * Posts a comment or a reply. It is listed at once as pending ("Posting…"), then replaced
     * by the server's comment, or removed with the server's message in a toast when refused.
     * Resolves with the comment, or null when refused.
     */
    async create(text: string, tags: Tag[], parentId: string | null, author?: Comment["user"]): Promise<Comment | null> {
      const state = get();
      if (!state) return null;
      const key = `pending-${++pendingCount}`;
      if (author) apply({ type: "pendingAdded", pending: { key, parent_id: parentId, text: text.trim(), tags, user: author } });
      try {
        const comment = await io.api.create({ pin_id: state.pinId, text, tags, ...(parentId ? { parent_id: parentId } : {}) });
        apply(author ? { type: "pendingSettled", key, comment } : { type: "created", comment });
        return comment;
      } catch (error) {
        if (author) apply({ type: "pendingFailed", key });
        fail(error);
        return null;
      }
    },

    async update(id: string, text: string, tags: Tag[]): Promise<boolean> {
      const before = get() && findComment(get()!, id);
      if (!before) return false;
      return optimistic(
        { type: "updated", comment: { ...before, text, tags, tagged_users: before.tagged_users.filter((u) => tags.some((t) => t.user_id === u.id)) } },
        () => io.api.update(id, text, tags),
        () => apply({ type: "updated", comment: before }),
        (comment) => apply({ type: "updated", comment }),
      );
    },

    /** Delete and hide take comments off the lists; on failure the lists are as they were. */
    async remove(id: string): Promise<boolean> {
      const before = get();
      return optimistic({ type: "deleted", id }, () => io.api.remove(id), () => before && store.set(before));
    },

    async hide(id: string, forUser: boolean): Promise<boolean> {
      const before = get();
      const target = before && findComment(before, id);
      if (!before || !target) return false;
      return optimistic(
        forUser ? { type: "hiddenForUser", userId: target.user.id } : { type: "hidden", ids: [id] },
        () => io.api.hide(id, forUser),
        () => store.set(before),
        (answer) => apply({ type: "hidden", ids: answer.hidden_ids }),
      );
    },

    async like(id: string, liked: boolean): Promise<boolean> {
      return optimistic(
        { type: "likeToggled", id, liked },
        () => io.api.react(id, liked),
        () => apply({ type: "likeToggled", id, liked: !liked }),
        (answer) => {
          const comment = get() && findComment(get()!, id);
          if (comment) apply({ type: "updated", comment: { ...comment, reaction_counts: answer.reaction_counts, reaction_by_me: answer.reaction_by_me } });
        },
      );
    },

    async helpful(id: string, helpful: boolean): Promise<boolean> {
      return optimistic(
        { type: "helpfulToggled", id, helpful },
        () => io.api.helpful(id, helpful),
        () => apply({ type: "helpfulToggled", id, helpful: !helpful }),
        (answer) => {
          const comment = get() && findComment(get()!, id);
          if (comment) apply({ type: "updated", comment: { ...comment, helpful_count: answer.helpful_count, marked_helpful_by_me: answer.marked_helpful_by_me } });
        },
      );
    },

    async highlight(id: string, highlighted: boolean): Promise<boolean> {
      const state = get();
      if (!state) return false;
      return optimistic(
        { type: "highlightToggled", id, highlighted },
        () => io.api.highlight(id, state.pinId, highlighted),
        () => apply({ type: "highlightToggled", id, highlighted: !highlighted }),
        (comment) => apply({ type: "updated", comment }),
      );
    },

    async flag(id: string, reason: string, detailedReasons: string[]): Promise<boolean> {
      const done = await optimistic(null, () => io.api.flag(id, reason, detailedReasons), () => undefined);
      if (done) io.notify(messages.flagged);
      return done;
    },

    async removeMention(id: string, viewerId: string): Promise<boolean> {
      const before = get() && findComment(get()!, id);
      if (!before) return false;
      return optimistic(
        { type: "mentionRemoved", id, userId: viewerId },
        () => io.api.removeMention(id),
        () => apply({ type: "updated", comment: before }),
        (comment) => apply({ type: "updated", comment }),
      );
    },

    /** The translation, "" when the server has none (the comment then says, in place, that none is available). */
    async translate(id: string): Promise<string> {
      let text: string;
      try {
        text = (await io.api.translate(id)).text;
      } catch {
        text = "";
      }
      apply({ type: "translationSet", id, text });
      // Spec 000 §9: a machine translation's use is logged, sampled (the events script's logger).
      if (text !== "") runtimeGlobal().textUsage?.(`comment:${id}`);
      return text;
    },
  };
}

export type CommentActions = ReturnType<typeof commentActions>;

