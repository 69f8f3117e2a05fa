// Comments and tried-it posts (spec 000 §4
// "Comment changes", §5, §6; spec 001 §3 "Did-it data"): each comment change, who may do what,
// bad input that changes nothing, and comment text that must never become markup on the pin page.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { Comment, DidItPost } from "~/comments/comment.ts";
import { INJECTION_CORPUS } from "~/comments/fixtures/injection-corpus.ts";
import { Browser } from "./accounts-helpers.ts";
import { countElements } from "./fixtures.ts";
import { PNG_2X2 } from "./photo-fixture.ts";
import { browserAs, call, scalar } from "./social-fixture.ts";

const U = { owner: 401, author: 402, other: 403, blocker: 404, mentioned: 405, limited: 406, poster: 407, spammer: 408, quiet: 409, guarded: 410 } as const;
const BOARD = 4100;
const SECRET_BOARD = 4101;
const P = { main: 9001, disabled: 9002, secret: 9003, hide: 9004, counts: 9005, auth: 9006, didIt: 9007, ownerOff: 9008 } as const;
/** One pin per injection-corpus entry, so each is among the close-up's first comments. */
const CORPUS_PIN = (index: number) => 9100 + index;

beforeAll(async () => {
  const db = env.DB;
  const person = (id: number, name: string, loginState = "full") =>
    db.prepare("INSERT INTO users (id, username, email, full_name, first_name, email_verified, login_state, created_at) VALUES (?1, ?2, ?3, ?4, ?2, 1, ?5, 0)").bind(id, name, `${name}@comments.test`, `${name} Full`, loginState);
  const pin = (id: number, boardId: number, disabled = 0, pinner: number = U.owner) =>
    db.prepare("INSERT INTO pins (id, pinner_id, board_id, kind, title, image_signature, comments_disabled, created_at, updated_at) VALUES (?1, ?2, ?3, 'image', ?4, 'sig', ?5, 0, 0)").bind(id, pinner, boardId, `Pin ${id}`, disabled);
  await db.batch([
    ...Object.entries(U).map(([name, id]) => person(id, `c_${name}`, name === "limited" ? "limited" : "full")),
    db.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (?1, ?2, 'Open board', 'open-board', 'public', 0, 0)").bind(BOARD, U.owner),
    db.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (?1, ?2, 'Hush', 'hush', 'secret', 0, 0)").bind(SECRET_BOARD, U.owner),
    pin(P.main, BOARD),
    pin(P.disabled, BOARD, 1),
    pin(P.secret, SECRET_BOARD),
    pin(P.hide, BOARD),
    pin(P.counts, BOARD),
    pin(P.auth, BOARD),
    pin(P.didIt, BOARD),
    db.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (4102, ?1, 'Quiet', 'quiet', 'public', 0, 0)").bind(U.quiet),
    pin(P.ownerOff, 4102, 0, U.quiet),
    ...INJECTION_CORPUS.map((_, index) => pin(CORPUS_PIN(index), BOARD)),
    db.prepare("INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (?1, ?2, 0)").bind(U.blocker, U.owner),
    db.prepare("INSERT INTO link_domains (domain, is_blocked) VALUES ('evil.example', 1)"),
    db.prepare("INSERT INTO comment_features (user_id, feature_map, updated_at) VALUES (?1, '{\"allow_comments\":false}', 0)").bind(U.quiet),
    db.prepare("UPDATE users SET is_parental_control_passcode_enabled = 1, parental_passcode_hash = 'x' WHERE id = ?1").bind(U.guarded),
  ]);
});

type Data<T> = { status: number; data: T; error: { message: string; message_detail: string | null; api_error_code: number } | undefined };

async function resource<T = Comment>(who: number | null, name: string, action: "get" | "create" | "update" | "delete", options: unknown): Promise<Data<T>> {
  const browser = who === null ? new Browser() : await browserAs(who);
  const { status, body } = await call<T>(browser, name, action, options);
  return { status, data: body.resource_response.data, error: body.resource_response.error };
}

async function v3<T = Record<string, unknown>>(who: number | null, method: string, path: string, body?: unknown): Promise<Data<T>> {
  const browser = who === null ? new Browser() : await browserAs(who);
  const response = body === undefined && method === "GET" ? await browser.fetch(path) : await browser.json(path, body ?? {}, method);
  const json = await response.json<{ data: T; error?: Data<T>["error"] }>();
  return { status: response.status, data: json.data, error: json.error };
}

const post = (who: number | null, options: Record<string, unknown>) => resource(who, "AggregatedCommentResource", "create", options);
const list = (who: number | null, options: Record<string, unknown>) => resource<{ results: Comment[]; bookmark: string }>(who, "UnifiedCommentsResource", "get", options);
const pinCount = (pinId: number) => scalar<number>("SELECT comment_count FROM pins WHERE id = ?1", pinId);
const replyCount = (id: string) => scalar<number>("SELECT reply_count FROM comments WHERE id = ?1", Number(id));

/** A comment inserted directly (no rate limit, no counts), for the authorization table. */
async function seedComment(pinId: number, userId: number, text = "seeded", tags = "[]"): Promise<string> {
  const row = await env.DB.prepare("INSERT INTO comments (pin_id, user_id, text, tags, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?5) RETURNING id").bind(pinId, userId, text, tags, Date.now()).first<{ id: number }>();
  return String(row!.id);
}

describe("comment changes (spec 000 §4)", () => {
  it.each<[string, () => Promise<void>]>([
    [
      "created: the Comment JSON, newest first, and the pin's count up by one",
      async () => {
        const before = (await pinCount(P.main)) ?? 0;
        const made = await post(U.author, { pin_id: String(P.main), text: "  Lovely colours  " });
        expect(made.status).toBe(200);
        expect(made.data).toMatchObject({
          pin_id: String(P.main),
          parent_id: null,
          user: { id: String(U.author), username: "c_author" },
          text: "Lovely colours",
          tags: [],
          tagged_users: [],
          reaction_counts: { "1": 0 },
          reaction_by_me: 0,
          helpful_count: 0,
          marked_helpful_by_me: false,
          highlighted_by_pin_owner: false,
          comment_count: 0,
          can_edit: true,
          can_delete: true,
          can_highlight: false,
        });
        expect(await pinCount(P.main)).toBe(before + 1);
        const page = await list(null, { pin_id: String(P.main) });
        expect(page.data.results[0]?.id).toBe(made.data.id);
        expect(page.data.results[0]?.can_edit).toBe(false);
      },
    ],
    [
      "comment count incremented: a reply counts on its parent and the pin; a reply to a reply joins the thread",
      async () => {
        const parent = await post(U.author, { pin_id: String(P.counts), text: "Question?" });
        const reply = await post(U.other, { pin_id: String(P.counts), text: "Answer", parent_id: parent.data.id });
        expect(reply.data.parent_id).toBe(parent.data.id);
        const nested = await post(U.owner, { pin_id: String(P.counts), text: "Thanks both", parent_id: reply.data.id });
        expect(nested.data.parent_id).toBe(parent.data.id);
        expect(await replyCount(parent.data.id)).toBe(2);
        expect(await pinCount(P.counts)).toBe(3);
        const replies = await list(null, { pin_id: String(P.counts), parent_id: parent.data.id });
        expect(replies.data.results.map((r) => r.id)).toEqual([reply.data.id, nested.data.id]);
        const top = await list(null, { pin_id: String(P.counts) });
        expect(top.data.results.map((r) => r.id)).toEqual([parent.data.id]);
        expect(top.data.results[0]?.comment_count).toBe(2);
      },
    ],
    [
      "updated: the author's new text and tags",
      async () => {
        const made = await post(U.author, { pin_id: String(P.main), text: "Frist" });
        const edited = await resource(U.author, "AggregatedCommentResource", "update", { commentId: made.data.id, text: "First, @c_mentioned", tags: [{ user_id: String(U.mentioned), offset: 7, length: 12 }], force: true });
        expect(edited.status).toBe(200);
        expect(edited.data.text).toBe("First, @c_mentioned");
        expect(edited.data.tagged_users).toEqual([{ id: String(U.mentioned), username: "c_mentioned", full_name: "c_mentioned Full" }]);
        expect(edited.data.updated_at).toBeGreaterThanOrEqual(made.data.updated_at);
      },
    ],
    [
      "like toggled: type-1 count up and down by one, never twice, never below 0",
      async () => {
        const made = await post(U.author, { pin_id: String(P.main), text: "Like me" });
        const path = `/v3/aggregated_comments/${made.data.id}/react/`;
        expect((await v3(U.other, "POST", path, { reaction_type: 1 })).data).toEqual({ reaction_counts: { "1": 1 }, reaction_by_me: 1 });
        expect((await v3(U.other, "POST", path, { reaction_type: 1 })).data).toEqual({ reaction_counts: { "1": 1 }, reaction_by_me: 1 });
        expect((await v3(U.owner, "POST", path, { reaction_type: 1 })).data).toEqual({ reaction_counts: { "1": 2 }, reaction_by_me: 1 });
        expect((await v3(U.other, "DELETE", path, { reaction_type: 1 })).data).toEqual({ reaction_counts: { "1": 1 }, reaction_by_me: 0 });
        expect((await v3(U.other, "DELETE", path, { reaction_type: 1 })).data).toEqual({ reaction_counts: { "1": 1 }, reaction_by_me: 0 });
        expect((await v3(U.other, "POST", path, { reaction_type: 2 })).status).toBe(400);
        // Taking a like back needs no body at all.
        await v3(U.other, "POST", path, { reaction_type: 1 });
        const bare = await (await browserAs(U.other)).fetch(path, { method: "DELETE" });
        expect(bare.status).toBe(200);
        expect((await bare.json<{ data: unknown }>()).data).toEqual({ reaction_counts: { "1": 1 }, reaction_by_me: 0 });
      },
    ],
    [
      "helpful toggled: count up and down by one",
      async () => {
        const made = await post(U.author, { pin_id: String(P.main), text: "Useful tip" });
        const path = `/v3/helpful/1/${made.data.id}/`;
        expect((await v3(U.other, "POST", path)).data).toEqual({ helpful_count: 1, marked_helpful_by_me: true });
        expect((await v3(U.other, "POST", path)).data).toEqual({ helpful_count: 1, marked_helpful_by_me: true });
        expect((await v3(U.other, "DELETE", path)).data).toEqual({ helpful_count: 0, marked_helpful_by_me: false });
        expect((await v3(U.other, "DELETE", path)).data).toEqual({ helpful_count: 0, marked_helpful_by_me: false });
      },
    ],
    [
      "highlight toggled by the pin owner",
      async () => {
        const made = await post(U.author, { pin_id: String(P.main), text: "Highlight me" });
        const on = await v3<Comment>(U.owner, "PUT", "/v3/aggregated_comments/pin/highlight/", { aggregated_comment: made.data.id, pin: String(P.main), highlight: true });
        expect(on.status).toBe(200);
        expect(on.data.highlighted_by_pin_owner).toBe(true);
        expect(on.data.can_highlight).toBe(true);
        const off = await v3<Comment>(U.owner, "PUT", "/v3/aggregated_comments/pin/highlight/", { aggregated_comment: made.data.id, pin: String(P.main), highlight: false });
        expect(off.data.highlighted_by_pin_owner).toBe(false);
        const wrongPin = await v3(U.owner, "PUT", "/v3/aggregated_comments/pin/highlight/", { aggregated_comment: made.data.id, pin: String(P.counts), highlight: true });
        expect(wrongPin.status).toBe(404);
      },
    ],
    [
      "hidden: gone for everyone but its author, and out of the pin's count",
      async () => {
        const made = await post(U.author, { pin_id: String(P.hide), text: "Hide me" });
        const before = (await pinCount(P.hide)) ?? 0;
        const hidden = await resource<{ hidden_ids: string[] }>(U.owner, "AggregatedCommentHideResource", "create", { commentId: made.data.id });
        expect(hidden.data).toEqual({ hidden_ids: [made.data.id] });
        expect(await pinCount(P.hide)).toBe(before - 1);
        expect((await list(null, { pin_id: String(P.hide) })).data.results.map((r) => r.id)).not.toContain(made.data.id);
        expect((await list(U.other, { pin_id: String(P.hide) })).data.results.map((r) => r.id)).not.toContain(made.data.id);
        expect((await list(U.author, { pin_id: String(P.hide) })).data.results.map((r) => r.id)).toContain(made.data.id);
        expect((await v3(U.other, "POST", `/v3/aggregated_comments/${made.data.id}/react/`, { reaction_type: 1 })).status).toBe(404);
      },
    ],
    [
      "hidden for a user: every comment of theirs on the pin, and the ones they post later",
      async () => {
        const first = await post(U.other, { pin_id: String(P.hide), text: "One" });
        const second = await post(U.other, { pin_id: String(P.hide), text: "Two" });
        const kept = await post(U.author, { pin_id: String(P.hide), text: "Stays" });
        const before = (await pinCount(P.hide)) ?? 0;
        const hidden = await resource<{ hidden_ids: string[] }>(U.owner, "AggregatedCommentHideResource", "create", { commentId: first.data.id, for_user: true });
        expect(hidden.data.hidden_ids.sort()).toEqual([first.data.id, second.data.id].sort());
        expect(await pinCount(P.hide)).toBe(before - 2);
        const later = await post(U.other, { pin_id: String(P.hide), text: "Three" });
        expect(later.status).toBe(200);
        expect(await pinCount(P.hide)).toBe(before - 2);
        const visible = (await list(null, { pin_id: String(P.hide) })).data.results.map((r) => r.id);
        expect(visible).toContain(kept.data.id);
        expect(visible).not.toContain(later.data.id);
        expect((await list(U.other, { pin_id: String(P.hide) })).data.results.map((r) => r.id)).toContain(later.data.id);
        // An author hiding all their own comments hides those, not the ones they post next.
        const own = await post(U.author, { pin_id: String(P.hide), text: "Mine" });
        expect((await resource<{ hidden_ids: string[] }>(U.author, "AggregatedCommentHideResource", "create", { commentId: own.data.id, for_user: true })).data.hidden_ids).toContain(own.data.id);
        const next = await post(U.author, { pin_id: String(P.hide), text: "Still seen" });
        expect((await list(null, { pin_id: String(P.hide) })).data.results.map((r) => r.id)).toContain(next.data.id);
      },
    ],
    [
      "deleted: by its author with its replies, or by the pin's owner, counts exact",
      async () => {
        const before = (await pinCount(P.counts)) ?? 0;
        const parent = await post(U.author, { pin_id: String(P.counts), text: "Delete me" });
        await post(U.other, { pin_id: String(P.counts), text: "Reply", parent_id: parent.data.id });
        expect(await pinCount(P.counts)).toBe(before + 2);
        const gone = await resource<{ id: string }>(U.author, "AggregatedCommentResource", "delete", { commentId: parent.data.id });
        expect(gone.data).toEqual({ id: parent.data.id });
        expect(await pinCount(P.counts)).toBe(before);
        const other = await post(U.other, { pin_id: String(P.counts), text: "Owner removes this" });
        const reply = await post(U.author, { pin_id: String(P.counts), text: "reply", parent_id: other.data.id });
        expect((await resource(U.owner, "AggregatedCommentResource", "delete", { commentId: reply.data.id })).status).toBe(200);
        expect(await replyCount(other.data.id)).toBe(0);
        expect((await resource(U.owner, "AggregatedCommentResource", "delete", { commentId: other.data.id })).status).toBe(200);
        expect(await pinCount(P.counts)).toBe(before);
        expect((await resource(U.owner, "AggregatedCommentResource", "delete", { commentId: other.data.id })).status).toBe(404);
      },
    ],
    [
      "features updated: own map only, and a person who turned mentions off cannot be tagged",
      async () => {
        expect((await resource(U.mentioned, "AggregatedCommentFeaturesResource", "get", { userId: String(U.mentioned) })).data).toEqual({ featureMap: { allow_comments: true, allow_mentions: true } });
        const updated = await resource(U.mentioned, "AggregatedCommentFeaturesResource", "update", { userId: String(U.mentioned), featureMap: { allow_mentions: false } });
        expect(updated.data).toEqual({ featureMap: { allow_comments: true, allow_mentions: false } });
        const tagged = await post(U.author, { pin_id: String(P.main), text: "@c_mentioned look", tags: [{ user_id: String(U.mentioned), offset: 0, length: 12 }] });
        expect(tagged.status).toBe(400);
        expect(tagged.error?.message_detail).toContain("tags");
        await resource(U.mentioned, "AggregatedCommentFeaturesResource", "update", { userId: String(U.mentioned), featureMap: { allow_mentions: true } });
        expect((await resource(U.other, "AggregatedCommentFeaturesResource", "update", { userId: String(U.mentioned), featureMap: { allow_mentions: false } })).status).toBe(403);
        expect((await resource(U.other, "AggregatedCommentFeaturesResource", "get", { userId: String(U.mentioned) })).status).toBe(403);
        expect((await resource(U.mentioned, "AggregatedCommentFeaturesResource", "update", { userId: String(U.mentioned), featureMap: { nonsense: true } })).status).toBe(400);
        const guarded = await resource(U.guarded, "AggregatedCommentFeaturesResource", "update", { userId: String(U.guarded), featureMap: { allow_mentions: false } });
        expect(guarded.status).toBe(403);
        expect(guarded.error?.api_error_code).toBe(14);
        expect(await scalar("SELECT COUNT(*) FROM comment_features WHERE user_id = ?1", U.guarded)).toBe(0);
      },
    ],
    [
      "mention removed: by the mentioned person only; the text stays and an edit cannot tag them again",
      async () => {
        const made = await post(U.author, { pin_id: String(P.main), text: "hey @c_mentioned", tags: [{ user_id: String(U.mentioned), offset: 4, length: 12 }] });
        expect(made.data.tags).toEqual([{ user_id: String(U.mentioned), offset: 4, length: 12 }]);
        expect((await v3(U.other, "DELETE", `/v3/aggregated_comments/${made.data.id}/mentions/`)).status).toBe(403);
        const removed = await v3<Comment>(U.mentioned, "DELETE", `/v3/aggregated_comments/${made.data.id}/mentions/`);
        expect(removed.status).toBe(200);
        expect(removed.data).toMatchObject({ text: "hey @c_mentioned", tags: [], tagged_users: [] });
        const retag = await resource(U.author, "AggregatedCommentResource", "update", { commentId: made.data.id, text: "hey @c_mentioned", tags: [{ user_id: String(U.mentioned), offset: 4, length: 12 }] });
        expect(retag.status).toBe(400);
      },
    ],
    [
      "translation set: an empty text when no translation service is bound",
      async () => {
        const made = await post(U.author, { pin_id: String(P.main), text: "Bonjour" });
        const translated = await v3(null, "GET", `/v3/aggregated_comments/${made.data.id}/translate/`);
        expect(translated.status).toBe(200);
        expect(translated.data).toEqual({ text: "" });
      },
    ],
    [
      "flagged: a reason and detailed reasons, one report per person",
      async () => {
        const made = await post(U.author, { pin_id: String(P.main), text: "Flag me" });
        const path = `/v3/aggregated_comments/${made.data.id}/flag/`;
        expect((await v3(U.other, "PUT", path, { reason: "spam", detailedReasons: ["links"] })).data).toEqual({ flagged: true });
        expect((await v3(U.other, "PUT", path, { reason: "harassment" })).data).toEqual({ flagged: true });
        expect(await scalar("SELECT reason FROM comment_flags WHERE comment_id = ?1", Number(made.data.id))).toBe("harassment");
        expect((await v3(U.other, "PUT", path, { reason: "x".repeat(51) })).status).toBe(400);
      },
    ],
  ])("%s", async (_, run) => {
    await run();
  });
});

describe("who may do what", () => {
  type Role = "author" | "owner" | "other" | "signedOut" | "blocker";
  const ROLE_USER: Record<Role, number | null> = { author: U.author, owner: U.owner, other: U.other, signedOut: null, blocker: U.blocker };
  const ACTIONS: Record<string, { expected: Record<Role, number>; run: (who: number | null, id: string) => Promise<Data<unknown>> }> = {
    edit: {
      expected: { author: 200, owner: 403, other: 403, signedOut: 401, blocker: 403 },
      run: (who, id) => resource(who, "AggregatedCommentResource", "update", { commentId: id, text: "edited" }),
    },
    delete: {
      expected: { author: 200, owner: 200, other: 403, signedOut: 401, blocker: 403 },
      run: (who, id) => resource(who, "AggregatedCommentResource", "delete", { commentId: id }),
    },
    hide: {
      expected: { author: 200, owner: 200, other: 403, signedOut: 401, blocker: 403 },
      run: (who, id) => resource(who, "AggregatedCommentHideResource", "create", { commentId: id }),
    },
    highlight: {
      expected: { author: 403, owner: 200, other: 403, signedOut: 401, blocker: 403 },
      run: (who, id) => v3(who, "PUT", "/v3/aggregated_comments/pin/highlight/", { aggregated_comment: id, pin: String(P.auth), highlight: true }),
    },
    like: {
      expected: { author: 200, owner: 200, other: 200, signedOut: 401, blocker: 403 },
      run: (who, id) => v3(who, "POST", `/v3/aggregated_comments/${id}/react/`, { reaction_type: 1 }),
    },
    helpful: {
      expected: { author: 200, owner: 200, other: 200, signedOut: 401, blocker: 403 },
      run: (who, id) => v3(who, "POST", `/v3/helpful/1/${id}/`),
    },
    flag: {
      expected: { author: 200, owner: 200, other: 200, signedOut: 401, blocker: 403 },
      run: (who, id) => v3(who, "PUT", `/v3/aggregated_comments/${id}/flag/`, { reason: "spam" }),
    },
    reply: {
      expected: { author: 200, owner: 200, other: 200, signedOut: 401, blocker: 403 },
      run: (who, id) => post(who, { pin_id: String(P.auth), text: "a reply", parent_id: id }),
    },
  };
  const rows = Object.entries(ACTIONS).flatMap(([action, spec]) => (Object.keys(ROLE_USER) as Role[]).map((role) => [action, role, spec.expected[role]] as const));

  it.each(rows)("%s by %s → %i", async (action, role, expected) => {
    const id = await seedComment(P.auth, U.author);
    const answer = await ACTIONS[action]!.run(ROLE_USER[role], id);
    expect(answer.status).toBe(expected);
    if (expected !== 200) {
      // Refused means unchanged.
      expect(await scalar("SELECT text || '|' || is_hidden || '|' || like_count || '|' || helpful_count || '|' || highlighted_by_pin_owner || '|' || reply_count FROM comments WHERE id = ?1", Number(id))).toBe("seeded|0|0|0|0|0");
    }
  });

  it("a limited login is 403 code 17", async () => {
    const answer = await post(U.limited, { pin_id: String(P.auth), text: "hi" });
    expect(answer.status).toBe(403);
    expect(answer.error?.api_error_code).toBe(17);
  });

  it("comments on a pin the viewer cannot see are 404, for reading and writing", async () => {
    const id = await seedComment(P.secret, U.owner);
    expect((await list(U.other, { pin_id: String(P.secret) })).status).toBe(404);
    expect((await list(null, { pin_id: String(P.secret) })).status).toBe(404);
    expect((await post(U.other, { pin_id: String(P.secret), text: "hi" })).status).toBe(404);
    expect((await v3(U.other, "POST", `/v3/aggregated_comments/${id}/react/`, { reaction_type: 1 })).status).toBe(404);
    expect((await v3(null, "GET", `/v3/aggregated_comments/${id}/translate/`)).status).toBe(404);
    expect((await list(U.owner, { pin_id: String(P.secret) })).data.results.map((r) => r.id)).toEqual([id]);
  });

  it("commentsDisabled, or an owner who turned comments off, refuses creation", async () => {
    const disabled = await post(U.other, { pin_id: String(P.disabled), text: "hi" });
    expect(disabled.status).toBe(403);
    expect(disabled.error?.message).toBe("Comments are turned off for this Pin");
    expect((await post(U.other, { pin_id: String(P.ownerOff), text: "hi" })).status).toBe(403);
    expect((await post(U.quiet, { pin_id: String(P.ownerOff), text: "my own pin" })).status).toBe(200);
    expect(await pinCount(P.disabled)).toBe(0);
  });

  it("a block between a viewer and a comment's author refuses, and hides the author's comments from them", async () => {
    await env.DB.prepare("INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (?1, ?2, 0)").bind(U.mentioned, U.author).run();
    const id = await seedComment(P.auth, U.author, "by the author");
    expect((await v3(U.mentioned, "POST", `/v3/aggregated_comments/${id}/react/`, { reaction_type: 1 })).status).toBe(403);
    expect((await post(U.mentioned, { pin_id: String(P.auth), text: "reply", parent_id: id })).status).toBe(403);
    expect((await list(U.mentioned, { pin_id: String(P.auth) })).data.results.some((r) => r.user.id === String(U.author))).toBe(false);
    await env.DB.prepare("DELETE FROM blocks WHERE blocker_id = ?1 AND blocked_id = ?2").bind(U.mentioned, U.author).run();
  });

  it("creation is rate limited per person (429), and the refused comment is not stored", async () => {
    let last = 0;
    for (let i = 0; i < 31; i++) last = (await post(U.spammer, { pin_id: String(P.counts), text: `note ${i}` })).status;
    expect(last).toBe(429);
    expect(await scalar("SELECT COUNT(*) FROM comments WHERE user_id = ?1", U.spammer)).toBe(30);
  }, 20_000); // 31 real posts in a row: ~5 s on a loaded 2-core machine
});

describe("bad input is a 400 naming the field, with nothing changed", () => {
  it.each<[string, Record<string, unknown>, string, string]>([
    ["empty text", { text: "" }, "text", "can't be empty"],
    ["whitespace-only text", { text: " \n\t  " }, "text", "can't be empty"],
    ["501 characters", { text: "a".repeat(501) }, "text", "at most 500"],
    ["a tag past the end", { text: "hi @c_other", tags: [{ user_id: String(U.other), offset: 3, length: 20 }] }, "tags", "inside the text"],
    ["a tag in trimmed whitespace", { text: "hi   ", tags: [{ user_id: String(U.other), offset: 3, length: 2 }] }, "tags", "inside the text"],
    ["overlapping tags", { text: "@c_other", tags: [{ user_id: String(U.other), offset: 0, length: 8 }, { user_id: String(U.owner), offset: 2, length: 3 }] }, "tags", "overlapping"],
    ["a tag naming nobody", { text: "@ghost", tags: [{ user_id: "999999", offset: 0, length: 6 }] }, "tags", "can't be mentioned"],
    ["21 tags", { text: "x".repeat(30), tags: Array.from({ length: 21 }, (_, i) => ({ user_id: String(U.other), offset: i, length: 1 })) }, "tags", ""],
    ["an unknown option", { text: "hi", colour: "red" }, "colour", ""],
    ["a parent on another pin", { text: "hi", parent_id: "__OTHER_PIN__" }, "parent_id", ""],
  ])("%s", async (_, options, field, words) => {
    const parentElsewhere = await seedComment(P.counts, U.owner);
    const resolved = Object.fromEntries(Object.entries(options).map(([key, value]) => [key, value === "__OTHER_PIN__" ? parentElsewhere : value]));
    const before = await scalar("SELECT COUNT(*) FROM comments WHERE pin_id = ?1", P.main);
    const countBefore = await pinCount(P.main);
    const answer = await post(U.author, { pin_id: String(P.main), ...resolved });
    expect(answer.status).toBe(400);
    expect(answer.error?.message_detail).toContain(`${field}`);
    expect(answer.error?.message_detail ?? "").toContain(words);
    expect(await scalar("SELECT COUNT(*) FROM comments WHERE pin_id = ?1", P.main)).toBe(before);
    expect(await pinCount(P.main)).toBe(countBefore);
  });

  it("a bad edit leaves the comment as it was", async () => {
    const id = await seedComment(P.main, U.author, "original");
    for (const text of ["", "   ", "b".repeat(501)]) {
      expect((await resource(U.author, "AggregatedCommentResource", "update", { commentId: id, text })).status).toBe(400);
    }
    expect(await scalar("SELECT text FROM comments WHERE id = ?1", Number(id))).toBe("original");
  });

  it("the empty-text message is translated (French)", async () => {
    const browser = await browserAs(U.author);
    const response = await browser.fetch("/resource/AggregatedCommentResource/create/", {
      method: "POST",
      body: JSON.stringify({ options: { pin_id: String(P.main), text: "   " } }),
      headers: { "content-type": "application/json", "accept-language": "fr" },
    });
    const body = await response.json<{ resource_response: { error: { message_detail: string } } }>();
    expect(body.resource_response.error.message_detail).toContain("vide");
  });
});

/** Entities Astro writes for text, back to characters. */
function decodeEntities(html: string): string {
  return html
    .replace(/&#x([0-9a-f]+);/giu, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/gu, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&quot;/gu, '"')
    .replace(/&lt;/gu, "<")
    .replace(/&gt;/gu, ">")
    .replace(/&amp;/gu, "&");
}

describe("injection corpus posted through the API never reaches the pin page as markup", () => {
  it.each(INJECTION_CORPUS.map((text, index) => [index, text] as const))("#%i %j", async (index, text) => {
    const made = await post(U.poster, { pin_id: String(CORPUS_PIN(index)), text });
    expect(made.status).toBe(200);
    const page = await new Browser().fetch(`/pin/${CORPUS_PIN(index)}/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    let inner = "";
    const elements: Array<{ tag: string; href: string | null; rel: string | null }> = [];
    let depth = 0;
    await new HTMLRewriter()
      .on("p.comment-text", {
        element(element) {
          depth++;
          element.onEndTag(() => {
            depth--;
          });
        },
        text(chunk) {
          inner += chunk.text;
        },
      })
      .on("p.comment-text *", {
        element(element) {
          elements.push({ tag: element.tagName, href: element.getAttribute("href"), rel: element.getAttribute("rel") });
        },
      })
      .transform(new Response(html))
      .text();
    expect(depth).toBe(0);
    // The visible text is the comment exactly (trimmed as stored), and the only elements are links.
    expect(decodeEntities(inner)).toBe(text.trim());
    for (const element of elements) {
      expect(element.tag).toBe("a");
      expect(element.href ?? "").toMatch(/^https?:\/\/[^/"'<>\s]+\//u);
      expect(element.href ?? "").not.toMatch(/evil\.example/u);
      expect(element.rel).toBe("nofollow ugc noopener");
    }
    // Anywhere on the page, parsed: no element the corpus tried to inject.
    expect(html).not.toMatch(/<script>alert|<img src=x|<svg\/onload|href="javascript:|href="data:/iu);
    // The page's own icons are svg too; an injected one would carry none of their classes.
    expect(await countElements(html, "svg:not(.logo-mark):not(.search-box-submit-icon)"), "svg").toBe(0);
    for (const selector of ['img[src="x"]', "[onerror]", "[onmouseover]", "[onclick]", "[onload]", 'a[href^="javascript:" i]', 'a[href^="data:" i]', "b"]) {
      expect(await countElements(html, selector), selector).toBe(0);
    }
  });

  it("a mention renders as a link to the profile, a plain @name stays text", async () => {
    const made = await post(U.poster, { pin_id: String(CORPUS_PIN(0)), text: "@c_mentioned and @c_other", tags: [{ user_id: String(U.mentioned), offset: 0, length: 12 }] });
    expect(made.status).toBe(200);
    const html = await (await new Browser().fetch(`/pin/${CORPUS_PIN(0)}/`)).text();
    const hrefs: string[] = [];
    await new HTMLRewriter()
      .on("p.comment-text a", { element: (element) => void hrefs.push(element.getAttribute("href") ?? "") })
      .transform(new Response(html))
      .text();
    expect(hrefs).toContain("/c_mentioned/");
    expect(hrefs).not.toContain("/c_other/");
  });
});

describe("tried-it posts", () => {
  const pngBytes = Uint8Array.from(atob(PNG_2X2), (char) => char.charCodeAt(0));
  async function upload(who: number, bytes: Uint8Array<ArrayBuffer>, name = "photo.png"): Promise<Data<{ image_signature: string }>> {
    const browser = await browserAs(who);
    const form = new FormData();
    form.append("pin_id", String(P.didIt));
    form.append("photo", new File([bytes], name, { type: "image/png" }));
    const response = await browser.fetch("/v3/did_it/photos/", { method: "POST", body: form });
    const json = await response.json<{ data: { image_signature: string }; error?: Data<unknown>["error"] }>();
    return { status: response.status, data: json.data, error: json.error };
  }
  const images = () => scalar<number>("SELECT did_it_images_count FROM pins WHERE id = ?1", P.didIt);

  it("posts with a sniffed photo, rewrites on a second post, lists, and deletes with the count in step", async () => {
    const photo = await upload(U.other, pngBytes);
    expect(photo.status).toBe(200);
    expect(await env.MEDIA.head(`did-it/${photo.data.image_signature}.png`)).not.toBeNull();
    expect(photo.data.image_signature).toMatch(/^[0-9a-f]{32}$/);
    const made = await resource<DidItPost>(U.other, "DidItActivityResource", "create", { pin_id: String(P.didIt), details: " Made it tonight ", image_signature: photo.data.image_signature });
    expect(made.status).toBe(200);
    expect(made.data).toMatchObject({ pin_id: String(P.didIt), details: "Made it tonight", image_url: `/media/did-it/${photo.data.image_signature}.png`, like_count: 0, liked_by_me: false, comment_count: 0 });
    expect(await images()).toBe(1);
    const again = await resource<DidItPost>(U.other, "DidItActivityResource", "create", { pin_id: String(P.didIt), details: "Second try" });
    expect(again.data).toMatchObject({ id: made.data.id, details: "Second try", image_url: null });
    expect(await images()).toBe(1);
    await expect.poll(() => env.MEDIA.head(`did-it/${photo.data.image_signature}.png`)).toBeNull();
    const liked = await resource(U.author, "DidItLikeResource", "create", { did_it_id: made.data.id });
    expect(liked.status).toBe(200);
    const feed = await resource<{ results: DidItPost[]; bookmark: string }>(U.author, "DidItUserFeedResource", "get", { pin_id: String(P.didIt) });
    expect(feed.data.results).toHaveLength(1);
    expect(feed.data.results[0]).toMatchObject({ id: made.data.id, like_count: 1, liked_by_me: true });
    expect((await resource(U.author, "DidItActivityResource", "delete", { did_it_id: made.data.id })).status).toBe(403);
    expect((await resource(U.owner, "DidItActivityResource", "delete", { did_it_id: made.data.id })).status).toBe(200);
    expect(await images()).toBe(0);
  });

  it("refuses a file that is not an image, someone else's photo, and empty details", async () => {
    expect((await upload(U.other, new TextEncoder().encode("<script>alert(1)</script>"), "x.png")).status).toBe(400);
    const photo = await upload(U.other, pngBytes);
    expect((await resource(U.author, "DidItActivityResource", "create", { pin_id: String(P.didIt), details: "mine now", image_signature: photo.data.image_signature })).status).toBe(400);
    expect((await resource(U.author, "DidItActivityResource", "create", { pin_id: String(P.didIt), details: "   " })).status).toBe(400);
    expect((await resource(U.author, "DidItActivityResource", "create", { pin_id: String(P.didIt), details: "x".repeat(501) })).status).toBe(400);
    expect(await images()).toBe(0);
    expect((await resource(null, "DidItActivityResource", "create", { pin_id: String(P.didIt), details: "hi" })).status).toBe(401);
    expect((await resource(U.other, "DidItActivityResource", "create", { pin_id: String(P.secret), details: "hi" })).status).toBe(404);
  });
});
