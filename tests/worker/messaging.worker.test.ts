// Conversations and messages: only members read or post (404 for everyone else, on the
// resources, the /v3 calls and the live socket); a block refuses; first messages from strangers
// arrive as contact requests that are accepted, declined or blocked; the messages settings are
// obeyed; attachments follow the visibility rules per reader; bounds, the rate limit and client
// request ids hold; and a socket that drops catches up with nothing lost or doubled.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { Browser } from "./accounts-helpers.ts";
import { call, ok, row, rows } from "./boards-helpers.ts";
import { BASE } from "./fixtures.ts";
import { createSession } from "./session-fixture.ts";

const PEOPLE = { alice: 401, bob: 402, carol: 403, dan: 404, erin: 405, fay: 406, gus: 407 } as const;
type Name = keyof typeof PEOPLE;
const SECRET_BOARD = 4501;
const PUBLIC_BOARD = 4502;
const SECRET_PIN = 4601;
const PUBLIC_PIN = 4602;

const db = () => env.DB;

beforeAll(async () => {
  const users = Object.entries(PEOPLE).map(([name, id]) =>
    db().prepare("INSERT INTO users (id, username, email, full_name, first_name, email_verified, created_at) VALUES (?1, ?2, ?3, ?4, ?4, 1, 0)").bind(id, `msg_${name}`, `${name}@msg.test`, name[0]!.toUpperCase() + name.slice(1)),
  );
  const follow = (follower: Name, target: Name) => db().prepare("INSERT INTO follows (follower_id, target_type, target_id, explicit, created_at) VALUES (?1, 'user', ?2, 1, 0)").bind(PEOPLE[follower], PEOPLE[target]);
  await db().batch([
    ...users,
    follow("bob", "alice"),
    follow("alice", "bob"),
    follow("alice", "fay"),
    // Erin takes no messages at all; Gus takes none from strangers and no requests either.
    db().prepare("UPDATE users SET settings = ?2 WHERE id = ?1").bind(PEOPLE.erin, JSON.stringify({ messages: { from: "off", contact_requests: true, read_receipts: true } })),
    db().prepare("UPDATE users SET settings = ?2 WHERE id = ?1").bind(PEOPLE.gus, JSON.stringify({ messages: { from: "following", contact_requests: false, read_receipts: true } })),
    db().prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (?1, ?2, 'Alice secret', 'alice-secret', 'secret', 0, 0)").bind(SECRET_BOARD, PEOPLE.alice),
    db().prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (?1, ?2, 'Alice public', 'alice-public', 'public', 0, 0)").bind(PUBLIC_BOARD, PEOPLE.alice),
    ...[
      [SECRET_PIN, SECRET_BOARD, "Surprise party plan"],
      [PUBLIC_PIN, PUBLIC_BOARD, "Lemon tart"],
    ].flatMap(([id, board, title]) => [
      db().prepare("INSERT INTO pins (id, pinner_id, board_id, kind, title, image_signature, created_at, updated_at) VALUES (?1, ?2, ?3, 'image', ?4, 'sig', 0, 0)").bind(id, PEOPLE.alice, board, title),
      db().prepare("INSERT INTO pin_images (pin_id, size, url, width, height, dominant_color) VALUES (?1, '236x', ?2, 236, 300, '#abcdef')").bind(id, `/media/pins/${id}/236x.jpg`),
    ]),
  ]);
});

async function as(name: Name): Promise<Browser> {
  const browser = new Browser();
  browser.cookies.set("__Host-pinloom_sess", (await createSession(PEOPLE[name])).token);
  return browser;
}

interface Msg {
  id: string;
  text: string;
  type: string;
  sender: { id: string };
  attachment: Record<string, unknown> | null;
}
interface Conv {
  id: string;
  status: string;
  unread: number;
  users: Array<{ id: string }>;
  last_message: Msg | null;
  messages: Msg[];
}
interface List {
  results: Conv[];
  bookmark: string;
  conversations_unseen_count: number;
}

async function start(from: Browser, to: Name, text: string, extra: Record<string, unknown> = {}): Promise<{ id: string; message: Msg }> {
  return ok(from, "ConversationsResource", "create", { user_ids: [String(PEOPLE[to])], emails: [], text, ...extra });
}

const send = (from: Browser, conversationId: string, text: string, extra: Record<string, unknown> = {}) => call<Msg>(from, "ConversationMessageResource", "create", { conversation_id: conversationId, text, ...extra });

/** Clears a person's send counter so one test's sends never reach another's limit. */
const resetRate = (name: Name) => db().prepare("DELETE FROM rate_limits WHERE key = ?1").bind(`message-send:user:${PEOPLE[name]}`).run();

describe("conversations", () => {
  it("starts a conversation that lands in the inbox of someone who follows the sender, unread until opened", async () => {
    const alice = await as("alice");
    const bob = await as("bob");
    const started = await start(alice, "bob", "  Hi Bob <b>there</b>  ");
    expect(started.message.text).toBe("Hi Bob <b>there</b>");
    expect(started.message.type).toBe("message");

    const inbox = await ok<List>(bob, "ConversationsResource", "get", {});
    const mine = inbox.results.find((conversation) => conversation.id === started.id)!;
    expect(mine.status).toBe("active");
    expect(mine.unread).toBe(1);
    expect(mine.last_message?.id).toBe(started.message.id);
    expect(mine.users.map((user) => user.id).sort()).toEqual([String(PEOPLE.alice), String(PEOPLE.bob)]);
    expect(inbox.conversations_unseen_count).toBe(1);

    await ok(bob, "ConversationResource", "update", { conversation_id: started.id, read: true });
    const after = await ok<List>(bob, "ConversationsResource", "get", {});
    expect(after.conversations_unseen_count).toBe(0);
    expect(after.results.find((conversation) => conversation.id === started.id)?.unread).toBe(0);

    // Two people share one conversation: starting again continues it.
    const again = await start(bob, "alice", "Hello back");
    expect(again.id).toBe(started.id);
    const whole = await ok<Conv>(alice, "ConversationResource", "get", { conversation_id: started.id });
    expect(whole.messages.map((message) => message.text)).toEqual(["Hi Bob <b>there</b>", "Hello back"]);
  });

  it("joins an address's account as that person and keeps an address with no account on the conversation", async () => {
    const alice = await as("alice");
    const bob = await as("bob");
    const started = await ok<{ id: string }>(alice, "ConversationsResource", "create", { emails: ["BOB@msg.test", "new.friend@example.com"], text: "Group plans" });
    const seen = await ok<Conv & { emails: string[] }>(bob, "ConversationResource", "get", { conversation_id: started.id });
    expect(seen.users.map((user) => user.id).sort()).toEqual([String(PEOPLE.alice), String(PEOPLE.bob)]);
    expect(seen.emails).toEqual(["new.friend@example.com"]);
    // Not the pair's own conversation: an address makes it a group.
    expect(await row("SELECT pair_key FROM conversations WHERE id = ?1", started.id)).toEqual({ pair_key: null });
    await resetRate("alice");
  });

  it("pages messages by bookmark, newest page first, each in creation order", async () => {
    const alice = await as("alice");
    const fay = await as("fay");
    const { id } = await start(fay, "alice", "m1");
    for (const text of ["m2", "m3", "m4", "m5"]) expect((await send(fay, id, text)).status).toBe(200);
    const first = await ok<{ results: Msg[]; bookmark: string }>(alice, "ConversationMessagesResource", "get", { conversation_id: id, page_size: 2 });
    expect(first.results.map((message) => message.text)).toEqual(["m4", "m5"]);
    const second = await ok<{ results: Msg[]; bookmark: string }>(alice, "ConversationMessagesResource", "get", { conversation_id: id, page_size: 2, bookmark: first.bookmark });
    expect(second.results.map((message) => message.text)).toEqual(["m2", "m3"]);
    const third = await ok<{ results: Msg[]; bookmark: string }>(alice, "ConversationMessagesResource", "get", { conversation_id: id, page_size: 2, bookmark: second.bookmark });
    expect(third.results.map((message) => message.text)).toEqual(["m1"]);
    expect(third.bookmark).toBe("-end-");
    await resetRate("fay");
  });

  it("answers 404 to anyone not in the conversation, on every resource, /v3 call and page", async () => {
    const alice = await as("alice");
    const carol = await as("carol");
    const { id } = await start(alice, "bob", "private words");
    const before = await row<{ n: number }>("SELECT count(*) AS n FROM conversation_messages WHERE conversation_id = ?1", id);
    expect((await call(carol, "ConversationResource", "get", { conversation_id: id })).status).toBe(404);
    expect((await call(carol, "ConversationResource", "update", { conversation_id: id, read: true })).status).toBe(404);
    expect((await call(carol, "ConversationMessagesResource", "get", { conversation_id: id })).status).toBe(404);
    expect((await send(carol, id, "let me in")).status).toBe(404);
    expect((await carol.fetch(`/v3/conversations/${id}/`)).status).toBe(404);
    expect((await carol.fetch(`/v3/conversations/${id}/messages/`)).status).toBe(404);
    expect((await carol.json(`/v3/conversations/${id}/messages/`, { text: "hi" })).status).toBe(404);
    const page = await carol.fetch(`/messages/${id}/`);
    expect(page.status).toBe(404);
    expect(await page.text()).not.toContain("private words");
    expect(await row("SELECT count(*) AS n FROM conversation_messages WHERE conversation_id = ?1", id)).toEqual(before);
    // Signed out: 401 before anything is looked up.
    expect((await call(new Browser(), "ConversationResource", "get", { conversation_id: id })).status).toBe(401);
  });

  it("serves the /v3 calls with the same rules", async () => {
    const alice = await as("alice");
    const created = await alice.json("/v3/conversations/", { user_ids: [String(PEOPLE.fay)], text: "via v3" });
    expect(created.status).toBe(200);
    const body = await created.json<{ data: { id: string } }>();
    const sent = await alice.json(`/v3/conversations/${body.data.id}/messages/`, { text: "second" });
    expect(sent.status).toBe(200);
    const listed = await (await alice.fetch(`/v3/conversations/${body.data.id}/messages/?page_size=10`)).json<{ data: { results: Msg[] } }>();
    expect(listed.data.results.map((message) => message.text).slice(-2)).toEqual(["via v3", "second"]);
    const bad = await alice.json("/v3/conversations/", { user_ids: ["x"], text: "hi" });
    expect(bad.status).toBe(400);
    expect((await bad.json<{ message_detail: string }>()).message_detail).toContain("user_ids.0");
    await resetRate("alice");
  });
});

describe("bounds, bad input and the rate limit", () => {
  it("answers 400 naming the field, and stores nothing", async () => {
    const alice = await as("alice");
    const { id } = await start(alice, "bob", "bounded");
    const count = () => row<{ n: number }>("SELECT count(*) AS n FROM conversation_messages");
    const before = await count();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ conversation_id: id, text: "x".repeat(2001) }, "options.text"],
      [{ conversation_id: id, text: "   " }, "options.text"],
      [{ conversation_id: id, text: "two", pin: String(PUBLIC_PIN), board: String(PUBLIC_BOARD) }, "options.board"],
      [{ conversation_id: id, text: "hi", colour: "red" }, "options.colour"],
      [{ conversation_id: "abc", text: "hi" }, "options.conversation_id"],
    ];
    for (const [options, field] of cases) {
      const answer = await call(alice, "ConversationMessageResource", "create", options);
      expect(answer.status, JSON.stringify(options)).toBe(400);
      expect(answer.error?.message_detail).toContain(field);
    }
    const tooMany = await call(alice, "ConversationsResource", "create", { user_ids: Array.from({ length: 11 }, (_, i) => String(900 + i)), text: "hi" });
    expect(tooMany.status).toBe(400);
    expect(tooMany.error?.message_detail).toContain("options.user_ids");
    const nobody = await call(alice, "ConversationsResource", "create", { text: "hi" });
    expect(nobody.status).toBe(400);
    expect(nobody.error?.message_detail).toContain("options.user_ids");
    const badEmail = await call(alice, "ConversationsResource", "create", { emails: ["not an address"], text: "hi" });
    expect(badEmail.status).toBe(400);
    expect(badEmail.error?.message_detail).toContain("options.emails.0");
    // 2,000 characters is the limit itself.
    expect((await send(alice, id, "y".repeat(2000))).status).toBe(200);
    expect(await count()).toEqual({ n: before!.n + 1 });
    await resetRate("alice");
  });

  it("refuses the send past 120 a minute per person with 429 and Retry-After", async () => {
    const alice = await as("alice");
    const { id } = await start(alice, "bob", "pace");
    const now = Date.now();
    await db().prepare("INSERT OR REPLACE INTO rate_limits (key, window_start, count) VALUES (?1, ?2, 120)").bind(`message-send:user:${PEOPLE.alice}`, now - (now % 60_000)).run();
    const refused = await alice.resource("ConversationMessageResource", "create", { conversation_id: id, text: "one too many" });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await row("SELECT count(*) AS n FROM conversation_messages WHERE text = 'one too many'")).toEqual({ n: 0 });
    await resetRate("alice");
  });

  it("applies a send once however often its client request id is sent", async () => {
    const alice = await as("alice");
    const { id } = await start(alice, "bob", "once");
    const headers = { "x-client-request-id": "msg-retry-0123456789abcdef" };
    const body = JSON.stringify({ options: { conversation_id: id, text: "exactly once" } });
    const first = await alice.fetch("/resource/ConversationMessageResource/create/", { method: "POST", body, headers: { "content-type": "application/json", ...headers } });
    const second = await alice.fetch("/resource/ConversationMessageResource/create/", { method: "POST", body, headers: { "content-type": "application/json", ...headers } });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    const a = (await first.json<{ resource_response: { data: Msg } }>()).resource_response.data;
    const b = (await second.json<{ resource_response: { data: Msg } }>()).resource_response.data;
    expect(b.id).toBe(a.id);
    expect(await row("SELECT count(*) AS n FROM conversation_messages WHERE text = 'exactly once'")).toEqual({ n: 1 });
    await resetRate("alice");
  });
});

describe("contact requests and blocks", () => {
  it("holds a stranger's first message as a request until it is accepted", async () => {
    const carol = await as("carol");
    const bob = await as("bob");
    const { id } = await start(carol, "bob", "Hi, we met at the fair");
    const inbox = await ok<List>(bob, "ConversationsResource", "get", {});
    expect(inbox.results.map((conversation) => conversation.id)).not.toContain(id);
    const requests = await ok<List>(bob, "ContactRequestsResource", "get", {});
    expect(requests.results.find((conversation) => conversation.id === id)?.status).toBe("request");
    // The sender sees it in their own inbox.
    expect((await ok<List>(carol, "ConversationsResource", "get", {})).results.map((conversation) => conversation.id)).toContain(id);

    const accepted = await ok<{ status: string; hasDeclined: boolean; hasBlocked: boolean }>(bob, "ContactRequestsResource", "update", { contact_request_id: id, action: "accept" });
    expect(accepted).toMatchObject({ status: "active", hasDeclined: false, hasBlocked: false });
    expect((await ok<List>(bob, "ConversationsResource", "get", {})).results.map((conversation) => conversation.id)).toContain(id);
    expect((await ok<List>(bob, "ContactRequestsResource", "get", {})).results.map((conversation) => conversation.id)).not.toContain(id);
    // Accepting twice is not a request any more.
    expect((await call(bob, "ContactRequestsResource", "update", { contact_request_id: id, action: "accept" })).status).toBe(409);
  });

  it("declines (with undo), then blocks: the blocked sender's messages are refused", async () => {
    const dan = await as("dan");
    const bob = await as("bob");
    const { id } = await start(dan, "bob", "Buy my stuff");
    const declined = await ok(bob, "ContactRequestsResource", "update", { contact_request_id: id, action: "decline" });
    expect(declined).toMatchObject({ status: "declined", hasDeclined: true, hasBlocked: false });
    expect((await ok<List>(bob, "ContactRequestsResource", "get", {})).results.map((conversation) => conversation.id)).not.toContain(id);
    const undone = await ok(bob, "ContactRequestsResource", "update", { contact_request_id: id, action: "undo" });
    expect(undone).toMatchObject({ status: "request" });
    expect((await ok<List>(bob, "ContactRequestsResource", "get", {})).results.map((conversation) => conversation.id)).toContain(id);

    const blocked = await ok(bob, "ContactRequestsResource", "update", { contact_request_id: id, action: "block" });
    expect(blocked).toMatchObject({ status: "declined", hasDeclined: true, hasBlocked: true });
    expect(await row("SELECT 1 AS one FROM blocks WHERE blocker_id = ?1 AND blocked_id = ?2", PEOPLE.bob, PEOPLE.dan)).toEqual({ one: 1 });
    const refused = await send(dan, id, "hello?");
    expect(refused.status).toBe(403);
    expect((await call(dan, "ConversationsResource", "create", { user_ids: [String(PEOPLE.bob)], text: "new try" })).status).toBe(403);
    expect(await row("SELECT count(*) AS n FROM conversation_messages WHERE sender_id = ?1 AND text IN ('hello?', 'new try')", PEOPLE.dan)).toEqual({ n: 0 });
    // A stranger cannot answer someone else's request.
    expect((await call(dan, "ContactRequestsResource", "update", { contact_request_id: id, action: "accept" })).status).toBe(409);
    // Undo lifts the block too.
    await ok(bob, "ContactRequestsResource", "update", { contact_request_id: id, action: "undo" });
    expect(await row("SELECT 1 AS one FROM blocks WHERE blocker_id = ?1 AND blocked_id = ?2", PEOPLE.bob, PEOPLE.dan)).toBeNull();
    expect((await send(dan, id, "sorry")).status).toBe(200);
    await resetRate("dan");
  });

  it("refuses sends in a conversation once either person blocks the other, and allows them again after unblocking", async () => {
    const alice = await as("alice");
    const bob = await as("bob");
    const { id } = await start(alice, "bob", "before the block");
    await ok(bob, "UserBlockResource", "create", { user_id: String(PEOPLE.alice) });
    expect((await send(alice, id, "after the block")).status).toBe(403);
    expect((await send(bob, id, "blocker writes")).status).toBe(403);
    await ok(bob, "UserBlockResource", "delete", { user_id: String(PEOPLE.alice) });
    // The block cleared the follows both ways: re-follow for the other tests.
    await db().batch([
      db().prepare("INSERT OR IGNORE INTO follows (follower_id, target_type, target_id, explicit, created_at) VALUES (?1, 'user', ?2, 1, 0)").bind(PEOPLE.bob, PEOPLE.alice),
      db().prepare("INSERT OR IGNORE INTO follows (follower_id, target_type, target_id, explicit, created_at) VALUES (?1, 'user', ?2, 1, 0)").bind(PEOPLE.alice, PEOPLE.bob),
    ]);
    expect((await send(alice, id, "after unblocking")).status).toBe(200);
    await resetRate("alice");
  });

  it("obeys the recipient's messages settings", async () => {
    const alice = await as("alice");
    // Erin takes messages from no one.
    const off = await call(alice, "ConversationsResource", "create", { user_ids: [String(PEOPLE.erin)], text: "hi" });
    expect(off.status).toBe(403);
    // Gus takes them only from people he follows, and no requests.
    expect((await call(alice, "ConversationsResource", "create", { user_ids: [String(PEOPLE.gus)], text: "hi" })).status).toBe(403);
    await db().prepare("INSERT INTO follows (follower_id, target_type, target_id, explicit, created_at) VALUES (?1, 'user', ?2, 1, 0)").bind(PEOPLE.gus, PEOPLE.alice).run();
    const followed = await ok<{ id: string }>(alice, "ConversationsResource", "create", { user_ids: [String(PEOPLE.gus)], text: "hi Gus" });
    expect(await row("SELECT status FROM conversation_members WHERE conversation_id = ?1 AND user_id = ?2", followed.id, PEOPLE.gus)).toEqual({ status: "active" });
    expect(await row("SELECT count(*) AS n FROM conversation_members WHERE user_id = ?1", PEOPLE.erin)).toEqual({ n: 0 });
    await resetRate("alice");
  });
});

describe("attachments", () => {
  it("shows a secret board's pin to its owner and as unavailable to someone outside, and refuses a pin the sender cannot see", async () => {
    const alice = await as("alice");
    const bob = await as("bob");
    const { id } = await start(alice, "bob", "look", { pin: String(SECRET_PIN) });
    await send(alice, id, "and this", { pin: String(PUBLIC_PIN) });
    const own = await ok<Conv>(alice, "ConversationResource", "get", { conversation_id: id });
    const bobs = await ok<Conv>(bob, "ConversationResource", "get", { conversation_id: id });
    const secretFor = (conversation: Conv) => conversation.messages.find((message) => message.attachment?.["id"] === String(SECRET_PIN))!.attachment!;
    expect(secretFor(own)).toMatchObject({ kind: "pin", title: "Surprise party plan", url: `/pin/${SECRET_PIN}/` });
    expect(secretFor(bobs)).toEqual({ kind: "pin", id: String(SECRET_PIN), unavailable: true });
    expect(JSON.stringify(bobs)).not.toContain("Surprise party plan");
    expect(bobs.messages.find((message) => message.attachment?.["id"] === String(PUBLIC_PIN))?.attachment).toMatchObject({ kind: "pin", title: "Lemon tart" });
    // Bob cannot send what he cannot see.
    const refused = await send(bob, id, "fwd", { pin: String(SECRET_PIN) });
    expect(refused.status).toBe(404);
    // A board and a person carry the same rule.
    const boardSent = await send(alice, id, "", { board: String(SECRET_BOARD) });
    expect(boardSent.status).toBe(200);
    const latest = await ok<Conv>(bob, "ConversationResource", "get", { conversation_id: id });
    expect(latest.messages.at(-1)?.attachment).toEqual({ kind: "board", id: String(SECRET_BOARD), unavailable: true });
    await resetRate("alice");
  });
});

describe("share suggestions", () => {
  it("lists the people one talks to and follows, never anyone blocked, and refuses other suggestion types", async () => {
    const alice = await as("alice");
    await start(alice, "fay", "suggest me");
    const answer = await ok<{ results: Array<{ id: string }> }>(alice, "ShareSuggestionsResource", "get", { suggestion_type: "share", hide_group_conversations: true });
    const ids = answer.results.map((person) => person.id);
    expect(ids).toContain(String(PEOPLE.fay));
    expect(ids).toContain(String(PEOPLE.bob));
    expect(ids).not.toContain(String(PEOPLE.alice));
    await ok(alice, "UserBlockResource", "create", { user_id: String(PEOPLE.fay) });
    const afterBlock = await ok<{ results: Array<{ id: string }> }>(alice, "ShareSuggestionsResource", "get", { suggestion_type: "share", hide_group_conversations: true });
    expect(afterBlock.results.map((person) => person.id)).not.toContain(String(PEOPLE.fay));
    await ok(alice, "UserBlockResource", "delete", { user_id: String(PEOPLE.fay) });
    const searched = await ok<{ results: Array<{ id: string }> }>(alice, "ShareSuggestionsResource", "get", { suggestion_type: "share", hide_group_conversations: true, query: "Car" });
    expect(searched.results.map((person) => person.id)).toEqual([String(PEOPLE.carol)]);
    const wrong = await call(alice, "ShareSuggestionsResource", "get", { suggestion_type: "other", hide_group_conversations: true });
    expect(wrong.status).toBe(400);
    expect(wrong.error?.message_detail).toContain("options.suggestion_type");
    await resetRate("alice");
  });
});

// ── The live socket ──────────────────────────────────────────────────────────────────────────

interface Frame {
  type: string;
  messages: Msg[];
  complete: boolean;
}

/** A socket's frames as a queue the test awaits. */
function framesOf(socket: WebSocket) {
  const queue: Frame[] = [];
  const waiting: Array<(frame: Frame) => void> = [];
  socket.addEventListener("message", (event) => {
    const frame = JSON.parse(String(event.data)) as Frame;
    const waiter = waiting.shift();
    if (waiter) waiter(frame);
    else queue.push(frame);
  });
  return {
    next(timeoutMs = 5_000): Promise<Frame> {
      const queued = queue.shift();
      if (queued) return Promise.resolve(queued);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("no frame in time")), timeoutMs);
        waiting.push((frame) => {
          clearTimeout(timer);
          resolve(frame);
        });
      });
    },
  };
}

async function connect(browser: Browser, conversationId: string): Promise<Response> {
  return browser.fetch(`/v3/conversations/${conversationId}/socket/`, { headers: { upgrade: "websocket", origin: BASE } });
}

async function openSocket(browser: Browser, conversationId: string, after: string | null) {
  const response = await connect(browser, conversationId);
  expect(response.status).toBe(101);
  const socket = response.webSocket!;
  socket.accept();
  const frames = framesOf(socket);
  socket.send(JSON.stringify({ type: "hello", after }));
  return { socket, frames };
}

describe("the live socket", () => {
  it("lets only members in: 404 for anyone else, 401 signed out, 403 from another site", async () => {
    const alice = await as("alice");
    const { id } = await start(alice, "bob", "socket door");
    expect((await connect(await as("carol"), id)).status).toBe(404);
    expect((await connect(new Browser(), id)).status).toBe(401);
    expect((await alice.fetch(`/v3/conversations/${id}/socket/`, { headers: { upgrade: "websocket", origin: "https://evil.example" } })).status).toBe(403);
    expect((await alice.fetch(`/v3/conversations/${id}/socket/`)).status).toBe(426);
    await resetRate("alice");
  });

  it("delivers a message live, and after a dropped socket catches up with nothing lost or doubled", async () => {
    const alice = await as("alice");
    const bob = await as("bob");
    const { id, message: first } = await start(alice, "bob", "live one");

    const live = await openSocket(bob, id, null);
    const caught = await live.frames.next();
    expect(caught.messages.map((message) => message.id)).toContain(first.id);

    const sent = await send(alice, id, "arrives live");
    expect(sent.status).toBe(200);
    const pushed = await live.frames.next();
    expect(pushed.messages.map((message) => message.id)).toEqual([sent.data.id]);
    expect(pushed.messages[0]?.text).toBe("arrives live");

    // The socket drops; two messages are stored while it is away.
    live.socket.close(1000, "gone");
    const missed = [];
    for (const text of ["while away 1", "while away 2"]) missed.push((await send(alice, id, text)).data.id);

    const back = await openSocket(bob, id, sent.data.id);
    const caughtUp = await back.frames.next();
    expect(caughtUp.messages.map((message) => message.id)).toEqual(missed);
    expect(caughtUp.complete).toBe(true);

    // And live again after the catch-up.
    const later = await send(alice, id, "after reconnect");
    const again = await back.frames.next();
    expect(again.messages.map((message) => message.id)).toEqual([later.data.id]);
    back.socket.close(1000, "done");
    await resetRate("alice");
  });

  it("gives each reader their own copy of an attachment", async () => {
    const alice = await as("alice");
    const bob = await as("bob");
    const { id } = await start(alice, "bob", "pins coming");
    const bobs = await openSocket(bob, id, null);
    await bobs.frames.next();
    const alices = await openSocket(alice, id, null);
    await alices.frames.next();
    await send(alice, id, "secret", { pin: String(SECRET_PIN) });
    expect((await bobs.frames.next()).messages[0]?.attachment).toEqual({ kind: "pin", id: String(SECRET_PIN), unavailable: true });
    expect((await alices.frames.next()).messages[0]?.attachment).toMatchObject({ kind: "pin", title: "Surprise party plan" });
    bobs.socket.close(1000, "done");
    alices.socket.close(1000, "done");
    await resetRate("alice");
  });
});

describe("storage", () => {
  it("keeps one conversation per pair of people", async () => {
    const pairs = await rows<{ pair_key: string; n: number }>("SELECT pair_key, count(*) AS n FROM conversations WHERE pair_key IS NOT NULL GROUP BY pair_key HAVING n > 1");
    expect(pairs).toEqual([]);
  });
});
