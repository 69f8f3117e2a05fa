// The messaging resources (spec 000 §7 "Conversations", "ShareSuggestionsResource"; spec 001
// ContactRequestsResource). Only a conversation's members read it or post to it (404 for
// anyone else); sends are applied once per client request id and rate-limited per person;
// each stored message is handed to its conversation's room for live delivery.
import type { Context } from "hono";
import { requireFullViewer } from "~/accounts/guards.server.ts";
import type { AppEnv } from "~/server/context.ts";
import { claimOf } from "~/server/client-request.ts";
import {
  answerContactRequest,
  createConversation,
  getConversation,
  listConversations,
  listMessages,
  markRead,
  sendMessage,
  shareSuggestions,
  type Sent,
} from "~/messaging/conversations.server.ts";
import {
  attachmentOf,
  contactRequestOptions,
  conversationOptions,
  createConversationOptions,
  listConversationsOptions,
  listMessagesOptions,
  markReadOptions,
  sendMessageOptions,
  shareSuggestionsOptions,
} from "~/messaging/options.ts";
import { deliverLive, notifyChannels } from "~/messaging/live.server.ts";
import { bookmarkKeyset } from "./paging.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";

/** The stored message goes to the open tabs once the answer is on its way. */
function delivered(c: Context<AppEnv>, sent: Sent): Sent {
  c.executionCtx.waitUntil(deliverLive(c.env, sent.row));
  return sent;
}

const viewerIdOf = (c: Context<AppEnv>) => requireFullViewer(c.var.ctx).user.id;

export const conversationsResource: ResourceDefinition = {
  get: defineHandler({
    options: listConversationsOptions,
    handle: (c, o) => listConversations(c.env.DB, viewerIdOf(c), { status: "active", after: bookmarkKeyset(o.bookmark), size: o.page_size }),
  }),
  create: defineHandler({
    options: createConversationOptions,
    appliesOnce: true,
    async handle(c, o) {
      const sent = delivered(c, await createConversation(c.env.DB, c.var.ctx, { userIds: o.user_ids, emails: o.emails, text: o.text, attachment: attachmentOf(o) }, claimOf(c)));
      return { id: sent.conversation_id, message: sent.message };
    },
  }),
};

export const conversationResource: ResourceDefinition = {
  get: defineHandler({ options: conversationOptions, handle: (c, o) => getConversation(c.env.DB, viewerIdOf(c), o.conversation_id, o.page_size) }),
  /** Opening a conversation clears its unread badge. */
  update: defineHandler({
    options: markReadOptions,
    async handle(c, o) {
      const read = await markRead(c.env.DB, c.var.ctx, o.conversation_id);
      // The person's other tabs clear their messages count too.
      c.executionCtx.waitUntil(notifyChannels(c.env, [viewerIdOf(c)], "seen"));
      return read;
    },
  }),
};

export const conversationMessagesResource: ResourceDefinition = {
  get: defineHandler({
    options: listMessagesOptions,
    handle: (c, o) => listMessages(c.env.DB, viewerIdOf(c), o.conversation_id, { before: bookmarkKeyset(o.bookmark), size: o.page_size }),
  }),
};

export const conversationMessageResource: ResourceDefinition = {
  create: defineHandler({
    options: sendMessageOptions,
    appliesOnce: true,
    async handle(c, o) {
      const sent = delivered(c, await sendMessage(c.env.DB, c.var.ctx, { conversationId: o.conversation_id, text: o.text, attachment: attachmentOf(o) }, claimOf(c)));
      return sent.message;
    },
  }),
};

export const contactRequestsResource: ResourceDefinition = {
  get: defineHandler({
    options: listConversationsOptions,
    handle: (c, o) => listConversations(c.env.DB, viewerIdOf(c), { status: "request", after: bookmarkKeyset(o.bookmark), size: o.page_size }),
  }),
  update: defineHandler({
    options: contactRequestOptions,
    async handle(c, o) {
      const answered = await answerContactRequest(c.env.DB, c.var.ctx, o.contact_request_id, o.action);
      // A declined request leaves the count in the person's other tabs too.
      c.executionCtx.waitUntil(notifyChannels(c.env, [viewerIdOf(c)], "seen"));
      return answered;
    },
  }),
};

export const shareSuggestionsResource: ResourceDefinition = {
  get: defineHandler({
    options: shareSuggestionsOptions,
    handle: async (c, o) => ({ results: await shareSuggestions(c.env.DB, viewerIdOf(c), o.query ? o.query : null) }),
  }),
};
