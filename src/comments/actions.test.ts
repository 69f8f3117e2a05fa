import { atom } from "nanostores";
import { describe, expect, it, vi } from "vitest";
import { ApiCallError, NetworkError } from "~/api/api.client.ts";
import { commentActions, failureMessage, type CommentsApi } from "./actions.ts";
import type { Comment } from "./comment.ts";
import { runtimeGlobal } from "~/runtime/global.ts";
import { findComment, initialState, type CommentsState } from "./state.ts";

const messages = { failed: "failed", offline: "offline", flagged: "flagged", translateFailed: "no translation" };

function comment(id: string, over: Partial<Comment> = {}): Comment {
  return {
    id, pin_id: "10", parent_id: null, user: { id: "2", username: "bob", full_name: "Bob", image_medium_url: null }, text: "hi", tags: [], tagged_users: [],
    reaction_counts: { "1": 2 }, reaction_by_me: 0, helpful_count: 0, marked_helpful_by_me: false, highlighted_by_pin_owner: false, comment_count: 0,
    created_at: 1, updated_at: 1, can_edit: false, can_delete: true, can_highlight: true, ...over,
  };
}

function setup(api: Partial<CommentsApi>) {
  const store = atom<CommentsState | null>(initialState("10", { results: [comment("a"), comment("b", { user: { id: "3", username: "cy", full_name: "", image_medium_url: null } })], bookmark: null }, 2));
  const notify = vi.fn();
  const actions = commentActions({ api: api as CommentsApi, notify }, messages, store);
  return { store, notify, actions };
}

const refused = () => Promise.reject(new ApiCallError(403, { status: "failure", code: 17, message: "Not allowed" }));

describe("optimistic comment actions", () => {
  it("like shows at once, then settles on the server's counts", async () => {
    let resolve!: (value: { reaction_counts: Record<string, number>; reaction_by_me: 0 | 1 }) => void;
    const { store, actions } = setup({ react: () => new Promise((r) => (resolve = r)) });
    const done = actions.like("a", true);
    expect(findComment(store.get()!, "a")?.reaction_counts["1"]).toBe(3);
    resolve({ reaction_counts: { "1": 7 }, reaction_by_me: 1 });
    await done;
    expect(findComment(store.get()!, "a")?.reaction_counts["1"]).toBe(7);
  });

  it.each([
    { name: "like", run: (a: ReturnType<typeof setup>["actions"]) => a.like("a", true), api: { react: refused } },
    { name: "helpful", run: (a: ReturnType<typeof setup>["actions"]) => a.helpful("a", true), api: { helpful: refused } },
    { name: "highlight", run: (a: ReturnType<typeof setup>["actions"]) => a.highlight("a", true), api: { highlight: refused } },
    { name: "delete", run: (a: ReturnType<typeof setup>["actions"]) => a.remove("a"), api: { remove: refused } },
    { name: "hide for user", run: (a: ReturnType<typeof setup>["actions"]) => a.hide("b", true), api: { hide: refused } },
    { name: "edit", run: (a: ReturnType<typeof setup>["actions"]) => a.update("a", "changed", []), api: { update: refused } },
  ])("a refused $name is put back and the server's message is shown", async ({ run, api }) => {
    const { store, notify, actions } = setup(api);
    const before = structuredClone(store.get());
    expect(await run(actions)).toBe(false);
    expect(store.get()).toEqual(before);
    expect(notify).toHaveBeenCalledWith("Not allowed");
  });

  it("hide for a user removes that user's comments and keeps the server's hidden ids out", async () => {
    const { store, actions } = setup({ hide: () => Promise.resolve({ hidden_ids: ["b"] }) });
    await actions.hide("b", true);
    expect(store.get()!.top.items.map((c) => c.id)).toEqual(["a"]);
  });

  it("a new comment is listed at the front when the server answers, and not on failure", async () => {
    const { store, notify, actions } = setup({ create: () => Promise.resolve(comment("c")) });
    await actions.create("hello", [], null);
    expect(store.get()!.top.items.map((c) => c.id)).toEqual(["c", "a", "b"]);
    const failing = setup({ create: () => Promise.reject(new NetworkError(new Error("down"))) });
    expect(await failing.actions.create("hello", [], null)).toBeNull();
    expect(failing.notify).toHaveBeenCalledWith("offline");
    expect(notify).not.toHaveBeenCalled();
  });

  it("translation failure sets an empty translation (the comment says none is available, in place, not in a toast)", async () => {
    const { store, notify, actions } = setup({ translate: () => Promise.reject(new ApiCallError(500, null)) });
    expect(await actions.translate("a")).toBe("");
    expect(store.get()!.translations["a"]).toBe("");
    expect(notify).not.toHaveBeenCalled();
  });

  it("a translation's use is reported to the sampled text-usage logger; no translation, no report", async () => {
    const used: string[] = [];
    runtimeGlobal().textUsage = (key) => used.push(key);
    try {
      const translated = setup({ translate: () => Promise.resolve({ text: "hola" }) });
      expect(await translated.actions.translate("a")).toBe("hola");
      const empty = setup({ translate: () => Promise.resolve({ text: "" }) });
      expect(await empty.actions.translate("b")).toBe("");
      expect(used).toEqual(["comment:a"]);
    } finally {
      runtimeGlobal().textUsage = null;
    }
  });

  it("a comment with its author is pending while in flight, then the server's; on refusal it goes with the server's message", async () => {
    const author = { id: "1", username: "ada", full_name: "Ada", image_medium_url: null };
    let answer!: (value: Comment) => void;
    const { store, actions } = setup({ create: () => new Promise<Comment>((resolve) => (answer = resolve)) });
    const made = actions.create(" hello ", [], null, author);
    expect(store.get()!.pending).toMatchObject([{ text: "hello", parent_id: null, user: author }]);
    answer(comment("c"));
    await made;
    expect(store.get()!.pending).toEqual([]);
    expect(store.get()!.top.items.map((c) => c.id)).toEqual(["c", "a", "b"]);

    const refused = setup({ create: () => Promise.reject(new ApiCallError(403, { message: "Comments are turned off for this Pin" })) });
    const before = refused.store.get()!;
    expect(await refused.actions.create("hello", [], null, author)).toBeNull();
    expect(refused.store.get()!.pending).toEqual([]);
    expect(refused.store.get()!.top).toEqual(before.top);
    expect(refused.notify).toHaveBeenCalledWith("Comments are turned off for this Pin");
  });

  it("a first load that fails with a server error is retried exactly once", async () => {
    const list = vi.fn().mockRejectedValue(new ApiCallError(503, null));
    const { store, actions } = setup({ list });
    store.set({ ...store.get()!, top: { ...store.get()!.top, loaded: false, items: [] } });
    await actions.load(null, true);
    expect(list).toHaveBeenCalledTimes(2);
    expect(store.get()!.top.error).toEqual({ status: 503 });
  });
});

describe("failureMessage", () => {
  it.each([
    { error: new NetworkError(null), expected: "offline" },
    { error: new ApiCallError(400, { message: "Write something first" }), expected: "Write something first" },
    { error: new ApiCallError(500, { message: "Sorry! Something went wrong on our end!" }), expected: "failed" },
    { error: new ApiCallError(404, null), expected: "failed" },
  ])("$expected", ({ error, expected }) => expect(failureMessage(error, messages)).toBe(expected));
});
