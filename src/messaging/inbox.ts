// The inbox's state and its transitions (spec 000 §4 "Conversations"): open (clears the
// attachment and the new-message view, and the unread badge), close, the new-message view with
// an optional attachment, temporary messages settled by the server's or dropped on failure,
// messages merged by id and sorted by creation time. Pure; inbox.client.ts runs the effects.
import { dropTemp, mergeMessages, settleTemp, type Conversation, type Message } from "./messaging.ts";

/** What the person is about to send with their next message (the share menu's pin, say). */
export interface DraftAttachment {
  kind: "pin" | "board" | "user" | "did_it";
  id: string;
  /** Words for the chip above the composer. */
  label: string;
}

export interface InboxState {
  conversations: Record<string, Conversation>;
  /** The inbox, most recent first. */
  order: string[];
  /** Contact requests, most recent first. */
  requests: string[];
  /** conversations_unseen_count. */
  unseen: number;
  openId: string | null;
  newMessage: boolean;
  attachment: DraftAttachment | null;
  /** The server's words for the last failed send, per conversation ("new" for the new-message view). */
  errors: Record<string, string>;
  loaded: boolean;
}

export const emptyInbox = (): InboxState => ({ conversations: {}, order: [], requests: [], unseen: 0, openId: null, newMessage: false, attachment: null, errors: {}, loaded: false });

const without = (ids: readonly string[], id: string) => ids.filter((item) => item !== id);
const hasUnread = (conversation: Conversation | undefined) => (conversation?.unread ?? 0) > 0;

function withErrors(state: InboxState, key: string, message: string | null): Record<string, string> {
  const errors = Object.fromEntries(Object.entries(state.errors).filter(([held]) => held !== key));
  return message === null ? errors : { ...errors, [key]: message };
}

/** A page of the inbox or of the requests, as the server answered it (the server's counts win). */
export function loaded(state: InboxState, list: "order" | "requests", conversations: readonly Conversation[], unseen: number, append = false): InboxState {
  const next = { ...state.conversations };
  for (const conversation of conversations) {
    const mine = next[conversation.id];
    next[conversation.id] = mine ? { ...conversation, messages: mergeMessages(mine.messages, conversation.messages) } : conversation;
  }
  const ids = conversations.map((conversation) => conversation.id);
  const kept = append ? state[list].filter((id) => !ids.includes(id)) : [];
  return { ...state, conversations: next, [list]: [...kept, ...ids], unseen, loaded: true };
}

/** One conversation fetched whole (its page of messages merged with what is held). */
export function fetched(state: InboxState, conversation: Conversation): InboxState {
  const mine = state.conversations[conversation.id];
  const merged = { ...conversation, messages: mergeMessages(mine?.messages ?? [], conversation.messages), unread: state.openId === conversation.id ? 0 : conversation.unread };
  const list = conversation.status === "request" ? "requests" : conversation.status === "active" ? "order" : null;
  return {
    ...state,
    conversations: { ...state.conversations, [conversation.id]: merged },
    order: list === "order" && !state.order.includes(conversation.id) ? [conversation.id, ...state.order] : state.order,
    requests: list === "requests" && !state.requests.includes(conversation.id) ? [conversation.id, ...state.requests] : state.requests,
  };
}

/** Opening a conversation: the attachment and the new-message view go, and its unread badge clears. */
export function opened(state: InboxState, id: string): InboxState {
  const conversation = state.conversations[id];
  return {
    ...state,
    openId: id,
    newMessage: false,
    attachment: null,
    unseen: hasUnread(conversation) ? Math.max(0, state.unseen - 1) : state.unseen,
    conversations: conversation ? { ...state.conversations, [id]: { ...conversation, unread: 0 } } : state.conversations,
  };
}

export const closed = (state: InboxState): InboxState => ({ ...state, openId: null });

/** The person's channel told the count as it stands on the server (conversations_unseen_count). */
export const counted = (state: InboxState, unseen: number): InboxState => (state.unseen === unseen ? state : { ...state, unseen });

/**
 * An HTTP answer (`answered`) that was being read while the person's channel told a count: the
 * channel's count stays. Every change to the count sends a frame, so the channel's last word is
 * right once it falls quiet; the answer may have been read before a message the channel
 * already told of, and nothing would ever correct it.
 */
export const channelKept = (answered: InboxState, current: InboxState): InboxState => counted(answered, current.unseen);

/** Closing the dropdown also clears the attachment and the new-message view. */
export const dropdownClosed = (state: InboxState): InboxState => ({ ...state, openId: null, newMessage: false, attachment: null });

/** Opening a new message clears the open conversation and sets an optional attachment. */
export const newMessageOpened = (state: InboxState, attachment: DraftAttachment | null): InboxState => ({ ...state, openId: null, newMessage: true, attachment, errors: withErrors(state, "new", null) });

export const attachmentCleared = (state: InboxState): InboxState => ({ ...state, attachment: null });

/**
 * Messages that arrived (sent, live or caught up): merged by id, the newest becomes
 * last_message, and the conversation goes to the top. Someone else's message in a conversation
 * that is not open counts as unread.
 */
export function received(state: InboxState, conversationId: string, messages: readonly Message[], viewerId: string | null): InboxState {
  const conversation = state.conversations[conversationId];
  if (!conversation || messages.length === 0) return state;
  const known = new Set(conversation.messages.map((message) => message.id));
  const fresh = messages.filter((message) => !known.has(message.id) && message.sender.id !== viewerId);
  // One's own message may come back live before its send answers: it takes its temporary
  // copy's place at once (the answer then finds it there), so it never shows twice.
  let held = conversation.messages;
  for (const message of messages) {
    if (message.sender.id !== viewerId || known.has(message.id)) continue;
    const temp = held.find((item) => item.type === "tempMessage" && item.text === message.text);
    if (temp) held = held.filter((item) => item !== temp);
  }
  const merged = mergeMessages(held, messages);
  const last = [...merged].reverse().find((message) => message.type !== "tempMessage") ?? conversation.last_message;
  const counts = state.openId !== conversationId && fresh.length > 0;
  const unread = counts ? conversation.unread + fresh.length : conversation.unread;
  const list = conversation.status === "request" ? "requests" : "order";
  return {
    ...state,
    unseen: counts && !hasUnread(conversation) ? state.unseen + 1 : state.unseen,
    conversations: { ...state.conversations, [conversationId]: { ...conversation, messages: merged, last_message: last, unread } },
    [list]: conversation.status === "declined" ? state[list] : [conversationId, ...without(state[list], conversationId)],
  };
}

/** A send starts: its temporary message shows at once. */
export function tempAdded(state: InboxState, conversationId: string, temp: Message): InboxState {
  const conversation = state.conversations[conversationId];
  if (!conversation) return state;
  return {
    ...state,
    errors: withErrors(state, conversationId, null),
    conversations: { ...state.conversations, [conversationId]: { ...conversation, messages: mergeMessages(conversation.messages, [temp]) } },
  };
}

/** The server's message replaces the temporary one and becomes last_message. */
export function tempSettled(state: InboxState, conversationId: string, tempId: string, sent: Message): InboxState {
  const conversation = state.conversations[conversationId];
  if (!conversation) return state;
  const messages = settleTemp(conversation.messages, tempId, sent);
  const last = conversation.last_message && conversation.last_message.created_ms > sent.created_ms ? conversation.last_message : sent;
  return {
    ...state,
    conversations: { ...state.conversations, [conversationId]: { ...conversation, messages, last_message: last, status: conversation.status === "request" ? "active" : conversation.status } },
    order: [conversationId, ...without(state.order, conversationId)],
    requests: without(state.requests, conversationId),
  };
}

/** A failed send: its temporary message goes and the server's words show. */
export function tempFailed(state: InboxState, conversationId: string, tempId: string, message: string): InboxState {
  const conversation = state.conversations[conversationId];
  return {
    ...state,
    errors: withErrors(state, conversationId, message),
    conversations: conversation ? { ...state.conversations, [conversationId]: { ...conversation, messages: dropTemp(conversation.messages, tempId) } } : state.conversations,
  };
}

export const newMessageFailed = (state: InboxState, message: string): InboxState => ({ ...state, errors: withErrors(state, "new", message) });

/** A contact request answered: accepted ones join the inbox; declined (or blocked) ones leave both lists. */
export function requestAnswered(state: InboxState, id: string, status: Conversation["status"]): InboxState {
  const conversation = state.conversations[id];
  if (!conversation) return state;
  return {
    ...state,
    conversations: { ...state.conversations, [id]: { ...conversation, status } },
    requests: status === "request" ? [id, ...without(state.requests, id)] : without(state.requests, id),
    order: status === "active" ? [id, ...without(state.order, id)] : without(state.order, id),
    openId: status === "declined" && state.openId === id ? null : state.openId,
  };
}
