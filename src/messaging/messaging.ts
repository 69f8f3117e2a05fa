// Conversations and messages (spec 000 §3, §4 "Conversations", §7, §8; spec 001 §3 "Contact
// request"): the bounds, the shapes the API answers, and the rules the inbox applies to them
// (temporary messages, merge by id, order by creation time). Pure: the browser and the server
// share it.

/** A message's text, in characters (the table's CHECK says the same). */
export const MESSAGE_TEXT_MAX = 2000;
/** People a conversation is started with at once, besides the sender (user ids and emails together). */
export const RECIPIENTS_MAX = 10;
/** An e-mail address as the account tables bound it. */
export const EMAIL_MAX = 254;
/** Messages per page, and the default page. */
export const MESSAGES_PAGE_MAX = 50;
export const MESSAGES_PAGE_DEFAULT = 25;
/** Conversations per page of the inbox. */
export const CONVERSATIONS_PAGE_MAX = 50;
export const CONVERSATIONS_PAGE_DEFAULT = 20;
/** Messages a reconnecting socket catches up at most; past that it reloads the conversation. */
export const CATCH_UP_MAX = 200;
/** People a share-suggestions answer lists. */
export const SUGGESTIONS_MAX = 12;
/** A share-suggestion search term, in characters. */
export const SUGGESTION_QUERY_MAX = 50;

/** The type an unsent message has until the server's copy replaces it (spec 000 §3). */
const TEMP_MESSAGE = "tempMessage";

export interface PersonRef {
  id: string;
  username: string;
  full_name: string;
  image_medium_url: string | null;
}

/** A pin, board, person or tried-it a message carries; `unavailable` when the reader may not see it. */
export type Attachment =
  | { kind: "pin"; id: string; unavailable: true }
  | { kind: "pin"; id: string; unavailable?: false; title: string; url: string; image_url: string; alt: string | null }
  | { kind: "board"; id: string; unavailable: true }
  | { kind: "board"; id: string; unavailable?: false; name: string; url: string }
  | { kind: "user"; id: string; unavailable: true }
  | { kind: "user"; id: string; unavailable?: false; username: string; full_name: string; url: string; image_medium_url: string | null }
  | { kind: "did_it"; id: string; unavailable: true }
  | { kind: "did_it"; id: string; unavailable?: false; pin_id: string; url: string; user: PersonRef };

export interface Message {
  id: string;
  text: string;
  sender: PersonRef;
  /** ISO 8601. */
  created_at: string;
  created_ms: number;
  type: "message" | typeof TEMP_MESSAGE;
  attachment: Attachment | null;
}

export type MemberStatus = "active" | "request" | "declined";

export interface Conversation {
  id: string;
  created_at: string;
  /** The other people's names, joined (conversations have no name of their own). */
  name: string;
  board: null;
  emails: string[];
  /** Messages from others the viewer has not seen. */
  unread: number;
  /** Everyone in it, the viewer too. */
  users: PersonRef[];
  last_message: Message | null;
  messages: Message[];
  /** Its place in the viewer's inbox, newest first (0 when fetched alone). */
  position: number;
  /** The viewer's own standing: a contact request (its id is the conversation's) or declined. */
  status: MemberStatus;
}

/** A list answer of the resource cache (spec 000 §4): results and the next bookmark, "-end-" at the end. */
export interface Paged<T> {
  results: T[];
  bookmark: string;
}

export const ACCEPT_ACTIONS = ["accept", "decline", "block", "undo"] as const;
export type ContactRequestAction = (typeof ACCEPT_ACTIONS)[number];

/** Creation time first, then id: two messages in one millisecond keep the server's order. */
function compareMessages(a: Message, b: Message): number {
  if (a.created_ms !== b.created_ms) return a.created_ms - b.created_ms;
  if (a.type !== b.type) return a.type === TEMP_MESSAGE ? 1 : -1;
  return a.id.length !== b.id.length ? a.id.length - b.id.length : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Spec 000 §4: messages merge by id (the newer copy wins) and sort by creation time. */
export function mergeMessages(current: readonly Message[], incoming: readonly Message[]): Message[] {
  const byId = new Map<string, Message>();
  for (const message of current) byId.set(message.id, message);
  for (const message of incoming) byId.set(message.id, message);
  return [...byId.values()].sort(compareMessages);
}

/** A temporary message shown at once while its send runs (spec 000 §4). */
export function tempMessage(localId: string, text: string, sender: PersonRef, attachment: Attachment | null, now: number): Message {
  return { id: `temp-${localId}`, text, sender, created_at: new Date(now).toISOString(), created_ms: now, type: TEMP_MESSAGE, attachment };
}

/** On success the server's message takes the temporary one's place. */
export function settleTemp(messages: readonly Message[], tempId: string, sent: Message): Message[] {
  return mergeMessages(
    messages.filter((message) => message.id !== tempId),
    [sent],
  );
}

/** On failure the temporary message goes. */
export function dropTemp(messages: readonly Message[], tempId: string): Message[] {
  return messages.filter((message) => message.id !== tempId);
}

/** The newest message id the server gave (temporary ones excluded): where a reconnect catches up from. */
export function lastServerId(messages: readonly Message[]): string | null {
  let last: Message | null = null;
  for (const message of messages) {
    if (message.type === TEMP_MESSAGE) continue;
    if (!last || compareMessages(last, message) < 0) last = message;
  }
  return last?.id ?? null;
}

/** The canonical pair key of a two-person conversation. */
export function pairKey(a: number, b: number): string {
  return a < b ? `${a}:${b}` : `${b}:${a}`;
}

/** The headers the Worker names a socket's (already checked) member with when it hands the upgrade to the room. */
export const MEMBER_HEADER = "X-Pinloom-Member";
export const CONVERSATION_HEADER = "X-Pinloom-Conversation";

/** The socket frames a conversation's room sends. */
export type RoomFrame = { type: "messages"; conversation_id: string; messages: Message[]; complete: boolean } | { type: "error"; code: string };

/** The one frame a client sends: where to catch up from. */
interface HelloFrame {
  type: "hello";
  after: string | null;
}

export function parseHello(text: string): HelloFrame | null {
  if (text.length > 200) return null;
  try {
    const value = JSON.parse(text) as { type?: unknown; after?: unknown };
    if (value?.type !== "hello") return null;
    if (value.after === null || value.after === undefined) return { type: "hello", after: null };
    return typeof value.after === "string" && /^\d{1,16}$/.test(value.after) ? { type: "hello", after: value.after } : null;
  } catch {
    return null;
  }
}
