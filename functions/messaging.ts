// The messaging calls at their /v3 paths (mounted at /v3), answering {status, code, message, data}
// with the same data layer as the Conversation* resources, and the live socket:
//   GET  /v3/conversations/                      ?bookmark=&page_size=   the inbox
//   POST /v3/conversations/                      {user_ids, emails, text, pin?|board?|user?|user_did_it_data?}
//   GET  /v3/conversations/{id}/                 one conversation with its newest messages
//   GET  /v3/conversations/{id}/messages/        ?bookmark=&page_size=   older messages
//   POST /v3/conversations/{id}/messages/        {text, pin?|board?|user?|user_did_it_data?}
//   GET  /v3/conversations/{id}/socket/          WebSocket upgrade: live messages (members only)
//   GET  /v3/channel/{userId}/socket/            WebSocket upgrade: the header's live counts (that person only)
import { Hono, type Context } from "hono";
import { z } from "zod";
import { requireFullViewer } from "~/accounts/guards.server.ts";
import { success } from "~/server/answer.ts";
import { readFields } from "~/server/body.ts";
import { answerOnce, claimOf } from "~/server/client-request.ts";
import type { AppEnv } from "~/server/context.ts";
import { ApiError, ErrorCode } from "~/server/errors.ts";
import { badRequest, notFound, zodProblems } from "~/domain/errors.ts";
import { idSchema } from "~/social/guard.server.ts";
import { createConversation, getConversation, listConversations, listMessages, requireMember, sendMessage } from "~/messaging/conversations.server.ts";
import { attachmentOf, conversationOptions, createConversationOptions, listConversationsOptions, listMessagesOptions, sendMessageOptions } from "~/messaging/options.ts";
import { connectToChannel, connectToRoom, deliverLive } from "~/messaging/live.server.ts";
import { bookmarkKeyset } from "./resources/paging.ts";

export const messagingRoutes = new Hono<AppEnv>();

/** A path id as the API spells ids; anything else is a 404 like a conversation one is not in. */
function pathId(value: string | undefined): number {
  const parsed = idSchema.safeParse(value);
  if (!parsed.success) throw notFound("messages:api.conversationNotFound");
  return parsed.data;
}

function parse<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw badRequest(zodProblems(parsed.error, "", input));
  return parsed.data;
}

/** Query values are text; page_size is the one number. */
function queryInput(c: Context<AppEnv>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const input: Record<string, unknown> = { ...extra };
  for (const [name, value] of Object.entries(c.req.query())) input[name] = name === "page_size" && /^\d{1,4}$/.test(value) ? Number(value) : value;
  return input;
}

const viewerIdOf = (c: Context<AppEnv>) => requireFullViewer(c.var.ctx).user.id;

messagingRoutes.get("/conversations/", async (c) => {
  const o = parse(listConversationsOptions, queryInput(c));
  return success(c, await listConversations(c.env.DB, viewerIdOf(c), { status: "active", after: bookmarkKeyset(o.bookmark), size: o.page_size }));
});

messagingRoutes.post("/conversations/", async (c) => {
  const o = parse(createConversationOptions, await readFields(c));
  const answer = await answerOnce(c, async () => {
    const sent = await createConversation(c.env.DB, c.var.ctx, { userIds: o.user_ids, emails: o.emails, text: o.text, attachment: attachmentOf(o) }, claimOf(c));
    c.executionCtx.waitUntil(deliverLive(c.env, sent.row));
    return { id: sent.conversation_id, message: sent.message };
  });
  return success(c, answer);
});

messagingRoutes.get("/conversations/:id{[0-9]+}/", async (c) => {
  const o = parse(conversationOptions, queryInput(c, { conversation_id: c.req.param("id") }));
  return success(c, await getConversation(c.env.DB, viewerIdOf(c), o.conversation_id, o.page_size));
});

messagingRoutes.get("/conversations/:id{[0-9]+}/messages/", async (c) => {
  const o = parse(listMessagesOptions, queryInput(c, { conversation_id: c.req.param("id") }));
  return success(c, await listMessages(c.env.DB, viewerIdOf(c), o.conversation_id, { before: bookmarkKeyset(o.bookmark), size: o.page_size }));
});

messagingRoutes.post("/conversations/:id{[0-9]+}/messages/", async (c) => {
  const o = parse(sendMessageOptions, { ...(await readFields(c)), conversation_id: c.req.param("id") });
  const answer = await answerOnce(c, async () => {
    const sent = await sendMessage(c.env.DB, c.var.ctx, { conversationId: o.conversation_id, text: o.text, attachment: attachmentOf(o) }, claimOf(c));
    c.executionCtx.waitUntil(deliverLive(c.env, sent.row));
    return sent.message;
  });
  return success(c, answer);
});

/**
 * The live socket. Signed in, from one of our own pages (a WebSocket carries cookies across
 * sites, so its Origin must be ours), and a member (404 otherwise, as the page and the
 * resources answer); then the conversation's room takes it.
 */
messagingRoutes.get("/conversations/:id{[0-9]+}/socket/", async (c) => {
  const conversationId = pathId(c.req.param("id"));
  const viewerId = viewerIdOf(c);
  if (c.req.header("Upgrade")?.toLowerCase() !== "websocket") throw new ApiError(426, ErrorCode.InvalidParameters, { message: "messages:api.upgradeRequired", headers: { Upgrade: "websocket" } });
  if (c.req.header("Origin") !== c.var.ctx.origin) throw new ApiError(403, ErrorCode.Forbidden, { message: "api.forbidden" });
  await requireMember(c.env.DB, conversationId, viewerId);
  return connectToRoom(c.env, c.req.raw, conversationId, viewerId);
});

/**
 * A person's own channel: the header's unseen counts, live in every tab. The same door as a
 * conversation's socket: signed in with a full login, a WebSocket upgrade, from one of our own
 * pages (the Origin check stands in for CSRF, which a socket upgrade does not carry), and only
 * the person's own channel (404 for anyone else's, and for crawlers, which get no script).
 */
messagingRoutes.get("/channel/:id{[0-9]+}/socket/", async (c) => {
  const userId = pathId(c.req.param("id"));
  const viewerId = viewerIdOf(c);
  if (c.req.header("Upgrade")?.toLowerCase() !== "websocket") throw new ApiError(426, ErrorCode.InvalidParameters, { message: "messages:api.upgradeRequired", headers: { Upgrade: "websocket" } });
  if (c.req.header("Origin") !== c.var.ctx.origin) throw new ApiError(403, ErrorCode.Forbidden, { message: "api.forbidden" });
  if (userId !== viewerId || c.var.ctx.isBot) throw notFound("api.notFound");
  return connectToChannel(c.env, c.req.raw, viewerId);
});
