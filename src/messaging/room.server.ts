// One Durable Object per conversation: the open tabs of its members hold WebSockets to it, and
// every message stored in D1 is handed to it for delivery. Sockets are accepted with the
// hibernation API, so an idle conversation costs nothing while its sockets stay open; nothing
// is kept in memory that a wake-up would need (each socket's reader is in its attachment).
//
// D1 stays the record: a socket that (re)connects says the last message id it has, and the
// room answers what came after it from D1. A message stored while the socket was away is
// caught up; one delivered live and caught up too has the same id, and the island merges by
// id, so nothing is lost or shown twice.
import { DurableObject } from "cloudflare:workers";
import { closeSocket, sendFrame } from "./sockets.server.ts";
import { catchUp, isMember, renderMessages, type MessageRow } from "./conversations.server.ts";
import { CONVERSATION_HEADER, MEMBER_HEADER, parseHello, type RoomFrame } from "./messaging.ts";

interface SocketTag {
  userId: number;
  conversationId: number;
}


/** Open sockets per conversation: a family's worth of tabs, not a flood. */
const SOCKETS_MAX = 64;

export class ConversationRoom extends DurableObject<Env> {
  /** A member's socket upgrade, sent by the Worker after it checked the session and the membership. */
  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") return new Response(null, { status: 426 });
    const userId = Number(request.headers.get(MEMBER_HEADER));
    const conversationId = Number(request.headers.get(CONVERSATION_HEADER));
    if (!Number.isSafeInteger(userId) || !Number.isSafeInteger(conversationId)) return new Response(null, { status: 400 });
    if (this.ctx.getWebSockets().length >= SOCKETS_MAX) return new Response(null, { status: 429 });
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server, [String(userId)]);
    server.serializeAttachment({ userId, conversationId } satisfies SocketTag);
    return new Response(null, { status: 101, webSocket: client });
  }

  /** The client's hello: the last message id it holds; the answer is everything after it. */
  override async webSocketMessage(socket: WebSocket, data: string | ArrayBuffer): Promise<void> {
    const hello = typeof data === "string" ? parseHello(data) : null;
    const tag = socket.deserializeAttachment() as SocketTag | null;
    if (!hello || !tag) {
      sendFrame<RoomFrame>(socket, { type: "error", code: "bad_frame" });
      return;
    }
    // A member who left since connecting hears nothing more.
    if (!(await isMember(this.env.DB, tag.conversationId, tag.userId))) {
      socket.close(4404, "not found");
      return;
    }
    const { messages, complete } = await catchUp(this.env.DB, tag.userId, tag.conversationId, hello.after === null ? null : Number(hello.after));
    sendFrame<RoomFrame>(socket, { type: "messages", conversation_id: String(tag.conversationId), messages, complete });
  }

  override async webSocketClose(socket: WebSocket, code: number, reason: string): Promise<void> {
    closeSocket(socket, code, reason);
  }

  override async webSocketError(socket: WebSocket): Promise<void> {
    closeSocket(socket, 1011, "error");
  }

  /**
   * Delivers a stored message to every open socket of the conversation (RPC from the Worker).
   * Each reader gets their own copy: an attachment is read with their visibility. Answers how
   * many sockets it reached.
   */
  async deliver(row: MessageRow): Promise<number> {
    const byReader = new Map<number, WebSocket[]>();
    for (const socket of this.ctx.getWebSockets()) {
      const tag = socket.deserializeAttachment() as SocketTag | null;
      if (!tag || tag.conversationId !== row.conversation_id) continue;
      byReader.set(tag.userId, [...(byReader.get(tag.userId) ?? []), socket]);
    }
    let reached = 0;
    const conversationId = String(row.conversation_id);
    await Promise.all(
      [...byReader].map(async ([readerId, sockets]) => {
        const messages = await renderMessages(this.env.DB, readerId, [row]);
        for (const socket of sockets) if (sendFrame<RoomFrame>(socket, { type: "messages", conversation_id: conversationId, messages, complete: true })) reached++;
      }),
    );
    return reached;
  }
}
