// The messaging calls' options, as spec 000 §3 and §7 name them; strict, so an unknown option is
// a 400 naming it, and every list and text bounded.
import { z } from "zod";
import { idOption } from "~/boards/options.ts";
import { decodeKeyset } from "~/feeds/cursor.ts";
import {
  ACCEPT_ACTIONS,
  CONVERSATIONS_PAGE_DEFAULT,
  CONVERSATIONS_PAGE_MAX,
  EMAIL_MAX,
  MESSAGES_PAGE_DEFAULT,
  MESSAGES_PAGE_MAX,
  MESSAGE_TEXT_MAX,
  RECIPIENTS_MAX,
  SUGGESTION_QUERY_MAX,
} from "./messaging.ts";

const bookmark = z.string().refine((value) => decodeKeyset(value) !== null, "not a bookmark this list wrote");
const conversationsPage = z.number().int().min(1).max(CONVERSATIONS_PAGE_MAX).default(CONVERSATIONS_PAGE_DEFAULT);
const messagesPage = z.number().int().min(1).max(MESSAGES_PAGE_MAX).default(MESSAGES_PAGE_DEFAULT);

/** Text as typed; stored trimmed. Its bound counts characters as people see them (code points). */
const text = z
  .string()
  .transform((value) => value.trim())
  .refine((value) => [...value].length <= MESSAGE_TEXT_MAX, { message: "common:validation.tooLong", params: { values: { maximum: MESSAGE_TEXT_MAX } } });

/** What a message may carry besides its text (spec 000 §3 new-message payload), one at most. */
const attachmentFields = {
  pin: idOption.optional(),
  board: idOption.optional(),
  user: idOption.optional(),
  user_did_it_data: idOption.optional(),
  /** Where the send came from (the share menu, the inbox): kept off the stored message. */
  source: z.string().max(64).optional(),
  client_tracking_params: z.string().max(512).optional(),
};

interface AttachmentInput {
  text: string;
  pin?: number | undefined;
  board?: number | undefined;
  user?: number | undefined;
  user_did_it_data?: number | undefined;
}

/** One attachment at most, and a message says something or carries something. */
function checkMessage(value: AttachmentInput, ctx: z.RefinementCtx): void {
  const named = (["pin", "board", "user", "user_did_it_data"] as const).filter((key) => value[key] !== undefined);
  if (named.length > 1) ctx.addIssue({ code: "custom", path: [named[1]!], message: "messages:validation.oneAttachment" });
  if (value.text === "" && named.length === 0) ctx.addIssue({ code: "custom", path: ["text"], message: "messages:validation.emptyMessage" });
}

/** The attachment named, as the data layer takes it. */
export function attachmentOf(value: AttachmentInput): { kind: "pin" | "board" | "user" | "did_it"; id: number } | null {
  if (value.pin !== undefined) return { kind: "pin", id: value.pin };
  if (value.board !== undefined) return { kind: "board", id: value.board };
  if (value.user !== undefined) return { kind: "user", id: value.user };
  if (value.user_did_it_data !== undefined) return { kind: "did_it", id: value.user_did_it_data };
  return null;
}

export const listConversationsOptions = z.strictObject({ page_size: conversationsPage, bookmark: bookmark.optional() });

/** New conversation (spec 000 §3): user_ids, emails, text, and optionally an attachment. */
export const createConversationOptions = z
  .strictObject({
    user_ids: z.array(idOption).max(RECIPIENTS_MAX).default([]),
    emails: z
      .array(z.email().max(EMAIL_MAX).transform((value) => value.toLowerCase()))
      .max(RECIPIENTS_MAX)
      .default([]),
    text,
    ...attachmentFields,
  })
  .superRefine((value, ctx) => {
    checkMessage(value, ctx);
    if (value.user_ids.length + value.emails.length === 0) ctx.addIssue({ code: "custom", path: ["user_ids"], message: "messages:validation.noRecipient" });
    if (new Set(value.user_ids).size + new Set(value.emails).size > RECIPIENTS_MAX)
      ctx.addIssue({ code: "custom", path: ["user_ids"], message: "messages:validation.tooManyPeople", params: { values: { maximum: RECIPIENTS_MAX } } });
  });

/** New message (spec 000 §3): conversation_id, text, and optionally an attachment. */
export const sendMessageOptions = z.strictObject({ conversation_id: idOption, text, ...attachmentFields }).superRefine(checkMessage);

export const conversationOptions = z.strictObject({ conversation_id: idOption, page_size: messagesPage });
export const markReadOptions = z.strictObject({ conversation_id: idOption, read: z.literal(true) });
export const listMessagesOptions = z.strictObject({ conversation_id: idOption, page_size: messagesPage, bookmark: bookmark.optional() });
export const contactRequestOptions = z.strictObject({ contact_request_id: idOption, action: z.enum(ACCEPT_ACTIONS) });

/** ShareSuggestionsResource get (spec 000 §7): suggestion_type share, hide_group_conversations true. */
export const shareSuggestionsOptions = z.strictObject({
  suggestion_type: z.literal("share"),
  hide_group_conversations: z.literal(true),
  query: z
    .string()
    .max(SUGGESTION_QUERY_MAX)
    .transform((value) => value.trim())
    .optional(),
});
