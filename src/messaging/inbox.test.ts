import { describe, expect, it } from "vitest";
import {
  counted,
  dropdownClosed,
  emptyInbox,
  loaded,
  newMessageOpened,
  opened,
  received,
  requestAnswered,
  tempAdded,
  tempFailed,
  tempSettled,
  type InboxState,
} from "./inbox.ts";
import { lastServerId, mergeMessages, parseHello, tempMessage, type Conversation, type Message } from "./messaging.ts";

const me = { id: "1", username: "me", full_name: "Me", image_medium_url: null };
const them = { id: "2", username: "them", full_name: "Them", image_medium_url: null };

const message = (id: string, ms: number, sender = them, text = `m${id}`): Message => ({
  id,
  text,
  sender,
  created_at: new Date(ms).toISOString(),
  created_ms: ms,
  type: "message",
  attachment: null,
});

const conversation = (id: string, messages: Message[], extra: Partial<Conversation> = {}): Conversation => ({
  id,
  created_at: "2026-01-01T00:00:00.000Z",
  name: "Them",
  board: null,
  emails: [],
  unread: 0,
  users: [me, them],
  last_message: messages.at(-1) ?? null,
  messages,
  position: 0,
  status: "active",
  ...extra,
});

const withConversations = (...conversations: Conversation[]): InboxState => loaded(emptyInbox(), "order", conversations, 0);

describe("messages merge by id and sort by creation time", () => {
  it("keeps one copy of each id, the newer copy winning, in creation order", () => {
    const merged = mergeMessages([message("3", 300), message("1", 100)], [message("2", 200), { ...message("3", 300), text: "edited" }]);
    expect(merged.map((item) => item.id)).toEqual(["1", "2", "3"]);
    expect(merged[2]?.text).toBe("edited");
  });

  it("puts a temporary message after a server message of the same millisecond", () => {
    const temp = tempMessage("a", "hi", me, null, 100);
    expect(mergeMessages([temp], [message("9", 100)]).map((item) => item.id)).toEqual(["9", "temp-a"]);
  });

  it("catches up from the newest server id, never a temporary one", () => {
    expect(lastServerId([message("5", 500), tempMessage("x", "t", me, null, 900), message("7", 700)])).toBe("7");
    expect(lastServerId([tempMessage("x", "t", me, null, 900)])).toBeNull();
  });
});

describe("sending", () => {
  it("shows the temporary message at once and replaces it with the server's, which becomes last_message", () => {
    const temp = tempMessage("a", "hello", me, null, 1_000);
    let state = tempAdded(withConversations(conversation("c", [message("1", 500)])), "c", temp);
    expect(state.conversations["c"]?.messages.map((item) => item.type)).toEqual(["message", "tempMessage"]);
    const server = { ...message("2", 1_001, me, "hello") };
    state = tempSettled(state, "c", temp.id, server);
    expect(state.conversations["c"]?.messages.map((item) => item.id)).toEqual(["1", "2"]);
    expect(state.conversations["c"]?.last_message?.id).toBe("2");
  });

  it("removes the temporary message on failure and keeps the server's words", () => {
    const temp = tempMessage("b", "nope", me, null, 1_000);
    const state = tempFailed(tempAdded(withConversations(conversation("c", [])), "c", temp), "c", temp.id, "You can't do that");
    expect(state.conversations["c"]?.messages).toEqual([]);
    expect(state.errors["c"]).toBe("You can't do that");
  });
});

describe("opening and closing", () => {
  it("opening clears the unread badge, the attachment and the new-message view", () => {
    let state = withConversations(conversation("c", [message("1", 1)], { unread: 2 }));
    state = { ...newMessageOpened(state, { kind: "pin", id: "9", label: "Tart" }), unseen: 1 };
    state = opened(state, "c");
    expect(state.conversations["c"]?.unread).toBe(0);
    expect(state.unseen).toBe(0);
    expect(state.attachment).toBeNull();
    expect(state.newMessage).toBe(false);
  });

  it("closing the dropdown clears the attachment and the new-message view", () => {
    const state = dropdownClosed(newMessageOpened(withConversations(), { kind: "pin", id: "9", label: "Tart" }));
    expect(state).toMatchObject({ attachment: null, newMessage: false, openId: null });
  });

  it("opening a new message clears the open conversation", () => {
    const state = newMessageOpened(opened(withConversations(conversation("c", [])), "c"), null);
    expect(state.openId).toBeNull();
    expect(state.newMessage).toBe(true);
  });
});

describe("arrivals", () => {
  it("counts someone else's message as unread in a closed conversation and moves it to the top", () => {
    let state = withConversations(conversation("a", []), conversation("b", []));
    state = received(state, "b", [message("1", 10)], me.id);
    expect(state.order).toEqual(["b", "a"]);
    expect(state.conversations["b"]?.unread).toBe(1);
    expect(state.unseen).toBe(1);
    // The same message again (a catch-up after a live delivery) changes nothing.
    const again = received(state, "b", [message("1", 10)], me.id);
    expect(again.conversations["b"]?.unread).toBe(1);
    expect(again.conversations["b"]?.messages).toHaveLength(1);
  });

  it("lets one's own message arriving live take its temporary copy's place", () => {
    const temp = tempMessage("t", "on my way", me, null, 50);
    let state = tempAdded(opened(withConversations(conversation("a", [])), "a"), "a", temp);
    state = received(state, "a", [message("7", 51, me, "on my way")], me.id);
    expect(state.conversations["a"]?.messages.map((item) => item.id)).toEqual(["7"]);
    // The send's answer then settles onto the same message.
    state = tempSettled(state, "a", temp.id, message("7", 51, me, "on my way"));
    expect(state.conversations["a"]?.messages.map((item) => item.id)).toEqual(["7"]);
  });

  it("does not count messages in the open conversation or one's own", () => {
    let state = opened(withConversations(conversation("a", [])), "a");
    state = received(state, "a", [message("1", 10)], me.id);
    expect(state.conversations["a"]?.unread).toBe(0);
    state = received(state, "a", [message("2", 20, me)], me.id);
    expect(state.unseen).toBe(0);
  });
});

describe("contact requests", () => {
  it("moves an accepted request to the inbox and drops a declined one from both lists", () => {
    const base = loaded(emptyInbox(), "requests", [conversation("r", [], { status: "request" })], 1);
    const accepted = requestAnswered(base, "r", "active");
    expect(accepted.order).toEqual(["r"]);
    expect(accepted.requests).toEqual([]);
    const declined = requestAnswered(base, "r", "declined");
    expect(declined.order).toEqual([]);
    expect(declined.requests).toEqual([]);
    expect(requestAnswered(declined, "r", "request").requests).toEqual(["r"]);
  });
});

describe("the socket's hello", () => {
  it("accepts a last id or none, and nothing else", () => {
    expect(parseHello(JSON.stringify({ type: "hello", after: "42" }))).toEqual({ type: "hello", after: "42" });
    expect(parseHello(JSON.stringify({ type: "hello", after: null }))).toEqual({ type: "hello", after: null });
    expect(parseHello(JSON.stringify({ type: "hello", after: "1; DROP" }))).toBeNull();
    expect(parseHello("not json")).toBeNull();
    expect(parseHello(JSON.stringify({ type: "other" }))).toBeNull();
  });
});

describe("the count the person's channel tells", () => {
  it("replaces the header's count, and leaves the state as it was when nothing changed", () => {
    const state = { ...emptyInbox(), unseen: 3 };
    expect(counted(state, 5).unseen).toBe(5);
    expect(counted(state, 0).unseen).toBe(0);
    expect(counted(state, 3)).toBe(state);
  });
});
