// The Worker's side of a conversation's room (room.server.ts): handing it a member's socket and
// each stored message. Apart from the room's class, so the edge functions reach the room
// through its binding alone and never load the Durable Object runtime module themselves.
import type { MessageRow } from "./conversations.server.ts";
import { CONVERSATION_HEADER, MEMBER_HEADER } from "./messaging.ts";
import type { ConversationRoom } from "./room.server.ts";

/** The room of one conversation. */
function roomOf(env: Env, conversationId: number): DurableObjectStub<ConversationRoom> {
  return env.CONVERSATION_ROOMS.get(env.CONVERSATION_ROOMS.idFromName(String(conversationId)));
}

/** Hands a member's socket upgrade to the conversation's room (membership already checked). */
export async function connectToRoom(env: Env, request: Request, conversationId: number, userId: number): Promise<Response> {
  const headers = new Headers({ Upgrade: "websocket", [MEMBER_HEADER]: String(userId), [CONVERSATION_HEADER]: String(conversationId) });
  const answer = await roomOf(env, conversationId).fetch(new Request(request.url, { headers }));
  // A fresh Response: the room's has immutable headers, and the app adds its own on the way out.
  return new Response(null, { status: answer.status, webSocket: answer.webSocket, headers: { "Cache-Control": "no-store" } });
}

/** Live delivery of a stored message; a failure only delays it to the next catch-up. */
export async function deliverLive(env: Env, row: MessageRow): Promise<void> {
  try {
    await roomOf(env, row.conversation_id).deliver(row);
  } catch (error) {
    console.error("messaging: live delivery failed; readers catch up on reconnect", error);
  }
}
