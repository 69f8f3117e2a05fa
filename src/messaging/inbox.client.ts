// The inbox's one store and the calls behind it: the header button, the dropdown, the
// /messages/ pages and the close-up's share menu all move this store, so a message sent from
// one shows in the others. Sends show a temporary message at once and settle on the server's
// answer; the open conversation listens on its live socket (live.client.ts).
import { atom } from "nanostores";
import { ApiCallError, resource } from "~/api/api.client.ts";
import { showToast } from "~/shell/toast-event.ts";
import {
  attachmentCleared,
  channelKept,
  counted,
  closed,
  dropdownClosed,
  emptyInbox,
  fetched,
  loaded,
  newMessageFailed,
  newMessageOpened,
  opened,
  received,
  requestAnswered,
  tempAdded,
  tempFailed,
  tempSettled,
  type DraftAttachment,
  type InboxState,
} from "./inbox.ts";
import { LiveConversation, socketUrl } from "./live.client.ts";
import { lastServerId, tempMessage, type ContactRequestAction, type Conversation, type Message, type Paged, type PersonRef } from "./messaging.ts";

export const $inbox = atom<InboxState>(emptyInbox());
const update = (change: (state: InboxState) => InboxState) => $inbox.set(change($inbox.get()));

/** The signed-in viewer, from the page's embedded context (every signed-in render carries it). */
export function viewerOfPage(doc: Pick<Document, "getElementById"> = document): PersonRef | null {
  try {
    const context = JSON.parse(doc.getElementById("pinloom-context")?.textContent ?? "{}") as { viewer?: Partial<PersonRef> & { id?: unknown } | null };
    const viewer = context.viewer;
    if (!viewer || typeof viewer.id !== "string") return null;
    return { id: viewer.id, username: viewer.username ?? "", full_name: viewer.full_name ?? "", image_medium_url: viewer.image_medium_url ?? null };
  } catch {
    return null;
  }
}

/** The words a failed call shows: the server's detail, else its message (spec 000 §8). */
export function failureText(error: unknown, fallback: string): string {
  if (error instanceof ApiCallError) return error.detail || error.message || fallback;
  return fallback;
}

type ListAnswer = Paged<Conversation> & { conversations_unseen_count: number };

/** Counts heard on the person's channel in this tab (channel.client.ts). */
let countsHeard = 0;

/** The person's channel told the messages count as it stands now. */
export function channelCounted(unseen: number): void {
  countsHeard += 1;
  update((state) => counted(state, unseen));
}

export async function loadInbox(): Promise<void> {
  const heard = countsHeard;
  const [inbox, requests] = await Promise.all([resource<ListAnswer>("ConversationsResource", "get", {}), resource<ListAnswer>("ContactRequestsResource", "get", {})]);
  update((state) => {
    const answered = loaded(loaded(state, "order", inbox.results, inbox.conversations_unseen_count), "requests", requests.results, requests.conversations_unseen_count);
    // The header asks both at once on every page: a frame heard meanwhile is the newer count.
    return countsHeard === heard ? answered : channelKept(answered, state);
  });
}

let live: LiveConversation | null = null;
let liveId: string | null = null;

function listen(conversationId: string, viewerId: string | null): void {
  if (liveId === conversationId && live) return;
  live?.stop();
  liveId = conversationId;
  live = new LiveConversation(socketUrl(location.origin, conversationId), {
    lastId: () => lastServerId($inbox.get().conversations[conversationId]?.messages ?? []),
    onMessages: (messages, complete) => {
      update((state) => received(state, conversationId, messages, viewerId));
      // Read while open: the badge stays clear.
      if ($inbox.get().openId === conversationId && messages.some((message) => message.sender.id !== viewerId)) void markRead(conversationId);
      if (!complete) void refresh(conversationId);
    },
    onGone: () => stopListening(),
  });
  live.start();
}

function stopListening(): void {
  live?.stop();
  live = null;
  liveId = null;
}

if (typeof window !== "undefined") addEventListener("online", () => live?.nudge());

async function markRead(conversationId: string): Promise<void> {
  try {
    await resource("ConversationResource", "update", { conversation_id: conversationId, read: true });
  } catch {
    // The badge clears again on the next opening.
  }
}

async function refresh(conversationId: string): Promise<Conversation> {
  const conversation = await resource<Conversation>("ConversationResource", "get", { conversation_id: conversationId });
  update((state) => fetched(state, conversation));
  return conversation;
}

/** Opens a conversation: clears the attachment, the new-message view and its unread badge; listens live. */
export async function openConversation(conversationId: string, viewerId: string | null): Promise<void> {
  update((state) => opened(state, conversationId));
  await refresh(conversationId);
  // The person may have moved on while it loaded.
  if ($inbox.get().openId !== conversationId) return;
  update((state) => opened(state, conversationId));
  // After the fetch: the socket's hello names the newest message held, so whatever was stored
  // since the fetch read comes in the catch-up and nothing falls between the two.
  listen(conversationId, viewerId);
  await markRead(conversationId);
}

export function closeConversation(): void {
  stopListening();
  update(closed);
}

/** The dropdown closed: the attachment and the new-message view go too. */
export function closeDropdown(): void {
  stopListening();
  update(dropdownClosed);
}

export function openNewMessage(attachment: DraftAttachment | null): void {
  stopListening();
  update((state) => newMessageOpened(state, attachment));
}

export const clearAttachment = () => update(attachmentCleared);

const attachmentOptions = (attachment: DraftAttachment | null): Record<string, string> => {
  if (!attachment) return {};
  return { [attachment.kind === "did_it" ? "user_did_it_data" : attachment.kind]: attachment.id };
};

let localIds = 0;

/** Sends into an open conversation: a temporary message at once, the server's on success, removed with the server's words on failure. */
export async function sendToConversation(conversationId: string, text: string, sender: PersonRef, fallback: string): Promise<boolean> {
  const attachment = $inbox.get().attachment;
  // The attachment shows once the server's copy (read with the reader's visibility) replaces it.
  const temp = tempMessage(`${Date.now()}-${++localIds}`, text, sender, null, Date.now());
  update((state) => attachmentCleared(tempAdded(state, conversationId, temp)));
  try {
    const sent = await resource<Message>("ConversationMessageResource", "create", { conversation_id: conversationId, text, ...attachmentOptions(attachment), source: "inbox" });
    update((state) => tempSettled(state, conversationId, temp.id, sent));
    return true;
  } catch (error) {
    update((state) => tempFailed(state, conversationId, temp.id, failureText(error, fallback)));
    return false;
  }
}

/** Starts a conversation (or continues the one two people have) and opens it. */
export async function startConversation(userIds: string[], text: string, viewerId: string | null, fallback: string, source = "inbox"): Promise<string | null> {
  const attachment = $inbox.get().attachment;
  try {
    const answer = await resource<{ id: string; message: Message }>("ConversationsResource", "create", { user_ids: userIds, text, ...attachmentOptions(attachment), source });
    await openConversation(answer.id, viewerId);
    return answer.id;
  } catch (error) {
    update((state) => newMessageFailed(state, failureText(error, fallback)));
    return null;
  }
}

/** Sends one message to one person at once (the share menu): no conversation opens. */
export async function sendTo(userId: string, text: string, attachment: DraftAttachment, source: string): Promise<void> {
  await resource("ConversationsResource", "create", { user_ids: [userId], text, ...attachmentOptions(attachment), source });
}

interface RequestLabels {
  declined: string;
  blocked: string;
  undo: string;
  failed: string;
}

/**
 * Accept, decline or block a contact request; a decline or block offers Undo in a toast
 * (spec 001 §4 "Contact requests").
 */
export async function answerRequest(conversationId: string, action: ContactRequestAction, labels: RequestLabels): Promise<void> {
  try {
    const answer = await resource<{ status: Conversation["status"] }>("ContactRequestsResource", "update", { contact_request_id: conversationId, action });
    update((state) => requestAnswered(state, conversationId, answer.status));
    if (action === "decline" || action === "block") {
      if ($inbox.get().openId === conversationId) stopListening();
      showToast({
        id: `contact-request-${conversationId}`,
        message: action === "block" ? labels.blocked : labels.declined,
        durationMs: 8_000,
        action: { label: labels.undo, run: () => void answerRequest(conversationId, "undo", labels) },
      });
    }
  } catch (error) {
    showToast({ id: `contact-request-${conversationId}`, message: failureText(error, labels.failed), tone: "error" });
  }
}

/** For the island's rendering of a person. */
export const displayNameOf = (person: Pick<PersonRef, "full_name" | "username">) => person.full_name.trim() || person.username;
