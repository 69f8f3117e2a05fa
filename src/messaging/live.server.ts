// The Worker's side of the live Durable Objects: a conversation's room (room.server.ts), handed
// a member's socket and each stored message, and each person's channel (channel.server.ts),
// handed their socket and poked when their header counts may have moved. Apart from the
// classes, so the edge functions reach them through their bindings alone and never load the
// Durable Object runtime module themselves.
import { otherMemberIds, type MessageRow } from "./conversations.server.ts";
import { CONVERSATION_HEADER, MEMBER_HEADER } from "./messaging.ts";
import { PERSON_HEADER } from "./channel.ts";
import type { ConversationRoom } from "./room.server.ts";
import type { PersonChannel } from "./channel.server.ts";

/** The room of one conversation. */
function roomOf(env: Env, conversationId: number): DurableObjectStub<ConversationRoom> {
  return env.CONVERSATION_ROOMS.get(env.CONVERSATION_ROOMS.idFromName(String(conversationId)));
}

/** The channel of one person. */
function channelOf(env: Env, userId: number): DurableObjectStub<PersonChannel> {
  return env.PERSON_CHANNELS.get(env.PERSON_CHANNELS.idFromName(String(userId)));
}

/** A fresh Response for a Durable Object's upgrade answer: its headers are immutable, and the app adds its own on the way out. */
const upgraded = (answer: Response) => new Response(null, { status: answer.status, webSocket: answer.webSocket, headers: { "Cache-Control": "no-store" } });

/** Hands a member's socket upgrade to the conversation's room (membership already checked). */
export async function connectToRoom(env: Env, request: Request, conversationId: number, userId: number): Promise<Response> {
  const headers = new Headers({ Upgrade: "websocket", [MEMBER_HEADER]: String(userId), [CONVERSATION_HEADER]: String(conversationId) });
  return upgraded(await roomOf(env, conversationId).fetch(new Request(request.url, { headers })));
}

/** Hands a person's socket upgrade to their own channel (session and origin already checked). */
export async function connectToChannel(env: Env, request: Request, userId: number): Promise<Response> {
  const headers = new Headers({ Upgrade: "websocket", [PERSON_HEADER]: String(userId) });
  return upgraded(await channelOf(env, userId).fetch(new Request(request.url, { headers })));
}

/**
 * Pokes each person's channel: their header counts may have moved. Never fails the write that
 * caused it (it runs after that write committed); a failure is logged as a metric, and the tabs
 * still read the counts on their next reconnect or page.
 */
export async function notifyChannels(env: Env, userIds: readonly number[], cause: "message" | "news" | "seen"): Promise<void> {
  const results = await Promise.allSettled([...new Set(userIds)].map((userId) => channelOf(env, userId).notify(userId)));
  const failed = results.filter((result) => result.status === "rejected").length;
  if (failed > 0) console.error(JSON.stringify({ metric: "person_channel_notify_failed", cause, failed, of: results.length }));
}

/** Live delivery of a stored message to the open conversation, and the new count to the other members' headers; a failure only delays either. */
export async function deliverLive(env: Env, row: MessageRow): Promise<void> {
  try {
    await roomOf(env, row.conversation_id).deliver(row);
  } catch (error) {
    console.error("messaging: live delivery failed; readers catch up on reconnect", error);
  }
  try {
    await notifyChannels(env, await otherMemberIds(env.DB, row.conversation_id, row.sender_id), "message");
  } catch {
    console.error(JSON.stringify({ metric: "person_channel_notify_failed", cause: "message", failed: 1, of: 1 }));
  }
}
