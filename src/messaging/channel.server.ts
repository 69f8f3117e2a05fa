// One Durable Object per person: each of their signed-in tabs holds a hibernating WebSocket to
// it, and whatever changes the header's counts (a message sent to them, news recorded for them,
// a conversation or the news opened in another tab) pokes it; it reads both counts once from D1
// and sends them to every open tab. A socket's hello is answered the same way, so a tab that
// reconnects after a drop misses nothing. Nothing is kept in memory a wake-up would need.
import { DurableObject } from "cloudflare:workers";
import { closeSocket, sendFrame } from "./sockets.server.ts";
import { unseenConversationsCount } from "./conversations.server.ts";
import { unseenNewsCount } from "~/news/news.server.ts";
import { CHANNEL_HELLO, CHANNEL_SOCKETS_MAX, PERSON_HEADER, type CountsFrame } from "./channel.ts";

export class PersonChannel extends DurableObject<Env> {
  /** The person's socket upgrade, sent by the Worker after it checked the session and the origin. */
  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") return new Response(null, { status: 426 });
    const userId = Number(request.headers.get(PERSON_HEADER));
    if (!Number.isSafeInteger(userId) || userId <= 0) return new Response(null, { status: 400 });
    if (this.ctx.getWebSockets().length >= CHANNEL_SOCKETS_MAX) return new Response(null, { status: 429 });
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server);
    server.serializeAttachment({ userId });
    return new Response(null, { status: 101, webSocket: client });
  }

  /** A tab's hello is answered with the counts as they stand; any other frame is ignored. */
  override async webSocketMessage(socket: WebSocket, data: string | ArrayBuffer): Promise<void> {
    const userId = (socket.deserializeAttachment() as { userId?: number } | null)?.userId;
    if (userId === undefined || data !== CHANNEL_HELLO) return;
    sendFrame(socket, await this.counts(userId));
  }

  override async webSocketClose(socket: WebSocket, code: number, reason: string): Promise<void> {
    closeSocket(socket, code, reason);
  }

  override async webSocketError(socket: WebSocket): Promise<void> {
    closeSocket(socket, 1011, "error");
  }

  /**
   * The person's counts may have changed (RPC from the Worker): read once and sent to every open
   * tab. With no tab open nothing is read. Answers how many sockets it reached.
   */
  async notify(userId: number): Promise<number> {
    const sockets = this.ctx.getWebSockets();
    if (sockets.length === 0) return 0;
    const frame = await this.counts(userId);
    return sockets.filter((socket) => sendFrame(socket, frame)).length;
  }

  private async counts(userId: number): Promise<CountsFrame> {
    const [conversations, news] = await Promise.all([unseenConversationsCount(this.env.DB, userId), unseenNewsCount(this.env.DB, userId)]);
    return { type: "counts", conversations_unseen_count: conversations, news_hub_unseen_count: news };
  }
}
