import { describe, expect, it } from "vitest";
import { END_MARKER } from "~/feeds/feed.ts";
import type { Comment } from "./comment.ts";
import { allComments, commentsReducer, findComment, initialState, type CommentChange, type CommentsState } from "./state.ts";

function comment(id: string, over: Partial<Comment> = {}): Comment {
  return {
    id,
    pin_id: "10",
    parent_id: null,
    user: { id: "1", username: "ada", full_name: "Ada", image_medium_url: null },
    text: `comment ${id}`,
    tags: [],
    tagged_users: [],
    reaction_counts: { "1": 0 },
    reaction_by_me: 0,
    helpful_count: 0,
    marked_helpful_by_me: false,
    highlighted_by_pin_owner: false,
    comment_count: 0,
    created_at: 1,
    updated_at: 1,
    can_edit: true,
    can_delete: true,
    can_highlight: false,
    ...over,
  } as Comment;
}

const bob = { id: "2", username: "bob", full_name: "Bob", image_medium_url: null };

/** Two top-level comments (a has one loaded reply r1 by bob; b is bob's), and the pin counts 3. */
function world(): CommentsState {
  const base = initialState("10", { results: [comment("a", { comment_count: 1 }), comment("b", { user: bob })], bookmark: "next" }, 3);
  return commentsReducer(commentsReducer(base, { type: "fetchStarted", parentId: "a" }), {
    type: "fetchSucceeded",
    parentId: "a",
    results: [comment("r1", { parent_id: "a", user: bob })],
    bookmark: END_MARKER,
    refresh: true,
  });
}

const ids = (state: CommentsState, parent: string | null = null) => (parent === null ? state.top : state.replies[parent])?.items.map((c) => c.id);

describe("comment changes (spec 000 §4), one row per change", () => {
  const rows: Array<{ name: string; change: CommentChange; from?: (s: CommentsState) => CommentsState; expect: (s: CommentsState) => void }> = [
    {
      name: "created: a new comment goes to the front and the pin counts one more",
      change: { type: "created", comment: comment("c") },
      expect: (s) => {
        expect(ids(s)).toEqual(["c", "a", "b"]);
        expect(s.commentCount).toBe(4);
      },
    },
    {
      name: "created reply: appended to its comment's replies; the comment's count goes up",
      change: { type: "created", comment: comment("r2", { parent_id: "a" }) },
      expect: (s) => {
        expect(ids(s, "a")).toEqual(["r1", "r2"]);
        expect(findComment(s, "a")?.comment_count).toBe(2);
        expect(s.commentCount).toBe(4);
      },
    },
    {
      name: "created reply to a comment whose replies were never opened starts its list",
      change: { type: "created", comment: comment("r3", { parent_id: "b" }) },
      expect: (s) => {
        expect(ids(s, "b")).toEqual(["r3"]);
        expect(findComment(s, "b")?.comment_count).toBe(1);
      },
    },
    {
      name: "created twice (an answer and a refetch) is listed once",
      from: (s) => commentsReducer(s, { type: "created", comment: comment("c") }),
      change: { type: "created", comment: comment("c") },
      expect: (s) => expect(ids(s)).toEqual(["c", "a", "b"]),
    },
    {
      name: "deleted top-level: goes with its replies; the pin loses both",
      change: { type: "deleted", id: "a" },
      expect: (s) => {
        expect(ids(s)).toEqual(["b"]);
        expect(s.replies["a"]).toBeUndefined();
        expect(s.commentCount).toBe(1);
      },
    },
    {
      name: "deleted reply: its comment counts one fewer",
      change: { type: "deleted", id: "r1" },
      expect: (s) => {
        expect(ids(s, "a")).toEqual([]);
        expect(findComment(s, "a")?.comment_count).toBe(0);
        expect(s.commentCount).toBe(2);
      },
    },
    {
      name: "hidden: the server's hidden ids leave every list",
      change: { type: "hidden", ids: ["b", "r1"] },
      expect: (s) => {
        expect(ids(s)).toEqual(["a"]);
        expect(ids(s, "a")).toEqual([]);
      },
    },
    {
      name: "hidden for a user: all that user's comments are removed locally",
      change: { type: "hiddenForUser", userId: "2" },
      expect: (s) => {
        expect(allComments(s).map((c) => c.id)).toEqual(["a"]);
        expect(s.commentCount).toBe(1);
      },
    },
    {
      name: "updated: the server's comment replaces the listed one in place",
      change: { type: "updated", comment: comment("b", { user: bob, text: "edited" }) },
      expect: (s) => {
        expect(ids(s)).toEqual(["a", "b"]);
        expect(findComment(s, "b")?.text).toBe("edited");
      },
    },
    {
      name: "like toggled on: type-1 count up by one",
      change: { type: "likeToggled", id: "a", liked: true },
      expect: (s) => {
        expect(findComment(s, "a")?.reaction_counts["1"]).toBe(1);
        expect(findComment(s, "a")?.reaction_by_me).toBe(1);
      },
    },
    {
      name: "like toggled off: down by one, never below 0",
      from: (s) => ({ ...s, top: { ...s.top, items: s.top.items.map((c) => (c.id === "a" ? { ...c, reaction_by_me: 1 } : c)) } }),
      change: { type: "likeToggled", id: "a", liked: false },
      expect: (s) => {
        expect(findComment(s, "a")?.reaction_counts["1"]).toBe(0);
        expect(findComment(s, "a")?.reaction_by_me).toBe(0);
      },
    },
    {
      name: "like toggled to what it already is: no change",
      change: { type: "likeToggled", id: "a", liked: false },
      expect: (s) => expect(findComment(s, "a")?.reaction_counts["1"]).toBe(0),
    },
    {
      name: "helpful toggled on: count up by one (replies too)",
      change: { type: "helpfulToggled", id: "r1", helpful: true },
      expect: (s) => {
        expect(findComment(s, "r1")?.helpful_count).toBe(1);
        expect(findComment(s, "r1")?.marked_helpful_by_me).toBe(true);
      },
    },
    {
      name: "helpful toggled off: down by one",
      from: (s) => commentsReducer(s, { type: "helpfulToggled", id: "a", helpful: true }),
      change: { type: "helpfulToggled", id: "a", helpful: false },
      expect: (s) => expect(findComment(s, "a")?.helpful_count).toBe(0),
    },
    {
      name: "highlight toggled by the pin owner",
      change: { type: "highlightToggled", id: "b", highlighted: true },
      expect: (s) => expect(findComment(s, "b")?.highlighted_by_pin_owner).toBe(true),
    },
    {
      name: "features updated: merged into the viewer's feature map",
      from: (s) => commentsReducer(s, { type: "featuresUpdated", featureMap: { mentions: true } }),
      change: { type: "featuresUpdated", featureMap: { translate: false } },
      expect: (s) => expect(s.features).toEqual({ mentions: true, translate: false }),
    },
    {
      name: "comment count incremented",
      change: { type: "commentCountIncremented", id: "b", by: 2 },
      expect: (s) => expect(findComment(s, "b")?.comment_count).toBe(2),
    },
    {
      name: "mention removed: the viewer's tag and tagged user go; the text stays",
      from: (s) =>
        commentsReducer(s, {
          type: "updated",
          comment: comment("a", { text: "hi @bob", tags: [{ user_id: "2", offset: 3, length: 4 }], tagged_users: [{ id: "2", username: "bob", full_name: "Bob" }] }),
        }),
      change: { type: "mentionRemoved", id: "a", userId: "2" },
      expect: (s) => {
        expect(findComment(s, "a")?.tags).toEqual([]);
        expect(findComment(s, "a")?.tagged_users).toEqual([]);
        expect(findComment(s, "a")?.text).toBe("hi @bob");
      },
    },
    {
      name: "translation set",
      change: { type: "translationSet", id: "a", text: "bonjour" },
      expect: (s) => expect(s.translations["a"]).toBe("bonjour"),
    },
    {
      name: "translation set empty on failure",
      change: { type: "translationSet", id: "a", text: "" },
      expect: (s) => expect(s.translations["a"]).toBe(""),
    },
  ];

  it.each(rows)("$name", ({ change, from, expect: check }) => {
    const before = (from ?? ((s) => s))(world());
    const snapshot = structuredClone(before);
    check(commentsReducer(before, change));
    // Pure: the state it was given is untouched.
    expect(before).toEqual(snapshot);
  });
});

describe("resource-list rules (spec 001 §4) on comments and replies", () => {
  it("a refetch sets fetching and clears the last error", () => {
    const failed = commentsReducer(commentsReducer(world(), { type: "fetchStarted", parentId: null }), { type: "fetchFailed", parentId: null, status: 404 });
    expect(failed.top.error).toEqual({ status: 404 });
    const again = commentsReducer(failed, { type: "fetchStarted", parentId: null });
    expect(again.top.fetching).toBe(true);
    expect(again.top.error).toBeNull();
  });

  it("paging appends; refresh replaces; the end marker ends the list", () => {
    const paged = commentsReducer(world(), { type: "fetchSucceeded", parentId: null, results: [comment("z")], bookmark: END_MARKER, refresh: false });
    expect(ids(paged)).toEqual(["a", "b", "z"]);
    expect(paged.top.ended).toBe(true);
    const refreshed = commentsReducer(paged, { type: "fetchSucceeded", parentId: null, results: [comment("y")], bookmark: "more", refresh: true });
    expect(ids(refreshed)).toEqual(["y"]);
    expect(refreshed.top.ended).toBe(false);
  });

  it("a page holding a comment already made here lists it once", () => {
    const made = commentsReducer(world(), { type: "created", comment: comment("r2", { parent_id: "b" }) });
    const page = commentsReducer(made, { type: "fetchSucceeded", parentId: "b", results: [comment("r0", { parent_id: "b" }), comment("r2", { parent_id: "b" })], bookmark: END_MARKER, refresh: false });
    expect(ids(page, "b")).toEqual(["r2", "r0"]);
  });

  it("replies are their own list: a failed replies fetch leaves the comments alone", () => {
    const failed = commentsReducer(world(), { type: "fetchFailed", parentId: "b", status: 500 });
    expect(failed.replies["b"]?.error).toEqual({ status: 500 });
    expect(failed.top.error).toBeNull();
  });
});

describe("a comment in flight (pending)", () => {
  const ada = { id: "1", username: "ada", full_name: "Ada", image_medium_url: null };
  const pending = (key: string, parent_id: string | null = null) => ({ key, parent_id, text: `sending ${key}`, tags: [], user: ada });

  it("is listed at once, not yet counted, then replaced by the server's comment, counted once", () => {
    const start = world();
    const sent = commentsReducer(start, { type: "pendingAdded", pending: pending("p1") });
    expect(sent.pending).toEqual([pending("p1")]);
    expect(sent.commentCount).toBe(start.commentCount);
    expect(sent.top.items).toEqual(start.top.items);
    const settled = commentsReducer(sent, { type: "pendingSettled", key: "p1", comment: comment("new") });
    expect(settled.pending).toEqual([]);
    expect(settled.top.items.map((c) => c.id)).toEqual(["new", "a", "b"]);
    expect(settled.commentCount).toBe(start.commentCount + 1);
  });

  it("a pending reply settles under its comment, which counts one more reply", () => {
    const sent = commentsReducer(world(), { type: "pendingAdded", pending: pending("p2", "a") });
    const settled = commentsReducer(sent, { type: "pendingSettled", key: "p2", comment: comment("r2", { parent_id: "a" }) });
    expect(settled.pending).toEqual([]);
    expect(settled.replies.a?.items.map((c) => c.id)).toEqual(["r1", "r2"]);
    expect(findComment(settled, "a")?.comment_count).toBe(2);
  });

  it("is removed on failure, leaving lists and counts as they were", () => {
    const start = world();
    const failed = commentsReducer(commentsReducer(start, { type: "pendingAdded", pending: pending("p3") }), { type: "pendingFailed", key: "p3" });
    expect(failed).toEqual(start);
  });

  it("several in flight settle independently, and adding one twice lists it once", () => {
    let state = commentsReducer(world(), { type: "pendingAdded", pending: pending("x") });
    state = commentsReducer(state, { type: "pendingAdded", pending: pending("x") });
    state = commentsReducer(state, { type: "pendingAdded", pending: pending("y") });
    expect(state.pending.map((p) => p.key)).toEqual(["x", "y"]);
    state = commentsReducer(state, { type: "pendingFailed", key: "x" });
    state = commentsReducer(state, { type: "pendingSettled", key: "y", comment: comment("yy") });
    expect(state.pending).toEqual([]);
    expect(state.top.items[0]?.id).toBe("yy");
  });
});
