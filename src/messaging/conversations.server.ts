// Conversations and messages in D1 (migration 0025). Only a conversation's members read it or
// post to it: everything here answers "not found" to anyone else, so a stranger cannot tell a
// conversation exists. Every write is one batch; the caller's client-request claim joins it.
import { requireWriteAllowed, type Viewer } from "~/accounts/guards.server.ts";
import { badRequest, conflict, forbidden, notFound } from "~/domain/errors.ts";
import { encodeKeyset, type Keyset } from "~/feeds/cursor.ts";
import { END_MARKER } from "~/feeds/feed.ts";
import { GRID_CELL_COLUMNS, GRID_IMAGE_JOINS, type GridCellRow } from "~/pins/pins.server.ts";
import { assertAllowed, hitResult, hitStatement, RATE_RULES, withinLimitSql } from "~/server/rate-limit.server.ts";
import { parseStoredSettings } from "~/settings/settings.ts";
import { blockedError } from "~/social/guard.server.ts";
import { userImageUrl } from "~/users/user.ts";
import { factColumns, holdsFor } from "~/visibility/visibility.server.ts";
import { deliveryFor } from "./delivery.ts";
import {
  CATCH_UP_MAX,
  SUGGESTIONS_MAX,
  pairKey,
  type Attachment,
  type Conversation,
  type ContactRequestAction,
  type MemberStatus,
  type Message,
  type Paged,
  type PersonRef,
} from "./messaging.ts";

/** What a message may carry: one id of one kind. */
type AttachmentRef = { kind: Attachment["kind"]; id: number } | null;

/** A stored message with its sender, before its attachment is read for a reader. */
export interface MessageRow {
  id: number;
  conversation_id: number;
  text: string;
  created_at: number;
  sender_id: number;
  username: string;
  full_name: string;
  image_key: string | null;
  pin_id: number | null;
  board_id: number | null;
  user_id: number | null;
  did_it_id: number | null;
}

const MESSAGE_COLUMNS = `m.id, m.conversation_id, m.text, m.created_at, m.sender_id, su.username, su.full_name, su.image_key,
       m.pin_id, m.board_id, m.user_id, m.did_it_id`;
const MESSAGE_FROM = "conversation_messages m JOIN users su ON su.id = m.sender_id";

const personOf = (row: { id: number; username: string; full_name: string; image_key: string | null }): PersonRef => ({
  id: String(row.id),
  username: row.username,
  full_name: row.full_name,
  image_medium_url: userImageUrl(row.image_key, "medium"),
});

const PIN_ALIASES = { pin: "p", board: "pb", pinner: "pu" } as const;

/** Each attachment of `rows` as `reader` may see it: the pin, board and profile rules decide, re-checked row by row. */
async function readAttachments(db: D1Database, readerId: number, refs: ReadonlyArray<Exclude<AttachmentRef, null>>): Promise<Map<string, Attachment>> {
  const out = new Map<string, Attachment>();
  if (refs.length === 0) return out;
  const idsOf = (kind: Attachment["kind"]) => JSON.stringify([...new Set(refs.filter((ref) => ref.kind === kind).map((ref) => ref.id))]);
  const statements = [
    db
      .prepare(
        `SELECT ${GRID_CELL_COLUMNS}, ${factColumns("pin", PIN_ALIASES, "?2")}
         FROM pins p LEFT JOIN boards pb ON pb.id = p.board_id JOIN users pu ON pu.id = p.pinner_id ${GRID_IMAGE_JOINS}
         WHERE p.id IN (SELECT value FROM json_each(?1))`,
      )
      .bind(idsOf("pin"), readerId),
    db
      .prepare(
        `SELECT b.id, b.name, b.slug, o.username AS owner_username, ${factColumns("boardPage", { board: "b", owner: "o" }, "?2")}
         FROM boards b JOIN users o ON o.id = b.owner_id WHERE b.id IN (SELECT value FROM json_each(?1))`,
      )
      .bind(idsOf("board"), readerId),
    db
      .prepare(
        `SELECT u.id, u.username, u.full_name, u.image_key, ${factColumns("profile", { user: "u" }, "?2")},
                EXISTS (SELECT 1 FROM blocks k WHERE (k.blocker_id = u.id AND k.blocked_id = ?2) OR (k.blocker_id = ?2 AND k.blocked_id = u.id)) AS blocked
         FROM users u WHERE u.id IN (SELECT value FROM json_each(?1))`,
      )
      .bind(idsOf("user"), readerId),
    db
      .prepare(
        `SELECT d.id AS did_it_id, d.pin_id, du.id, du.username, du.full_name, du.image_key, ${factColumns("pin", PIN_ALIASES, "?2")}
         FROM did_its d JOIN users du ON du.id = d.user_id JOIN pins p ON p.id = d.pin_id
              LEFT JOIN boards pb ON pb.id = p.board_id JOIN users pu ON pu.id = p.pinner_id
         WHERE d.id IN (SELECT value FROM json_each(?1))`,
      )
      .bind(idsOf("did_it"), readerId),
  ];
  const [pins, boards, users, didIts] = await db.batch<Record<string, unknown>>(statements);
  for (const row of (pins?.results ?? []) as Array<GridCellRow & Record<string, unknown>>) {
    if (!holdsFor("pin", row, readerId)) continue;
    out.set(`pin:${row.id}`, { kind: "pin", id: String(row.id), title: row.grid_title || row.title, url: `/pin/${row.id}/`, image_url: row.url, alt: row.alt_text ?? row.auto_alt_text });
  }
  for (const row of (boards?.results ?? []) as Array<{ id: number; name: string; slug: string; owner_username: string } & Record<string, unknown>>) {
    if (!holdsFor("boardPage", row, readerId)) continue;
    out.set(`board:${row.id}`, { kind: "board", id: String(row.id), name: row.name, url: `/${row.owner_username}/${row.slug}/` });
  }
  for (const row of (users?.results ?? []) as Array<{ id: number; username: string; full_name: string; image_key: string | null; blocked: number } & Record<string, unknown>>) {
    if (row.blocked === 1 || !holdsFor("profile", row, readerId)) continue;
    out.set(`user:${row.id}`, { kind: "user", id: String(row.id), username: row.username, full_name: row.full_name, url: `/${row.username}/`, image_medium_url: userImageUrl(row.image_key, "medium") });
  }
  for (const row of (didIts?.results ?? []) as Array<{ did_it_id: number; pin_id: number; id: number; username: string; full_name: string; image_key: string | null } & Record<string, unknown>>) {
    if (!holdsFor("pin", row, readerId)) continue;
    out.set(`did_it:${row.did_it_id}`, { kind: "did_it", id: String(row.did_it_id), pin_id: String(row.pin_id), url: `/pin/${row.pin_id}/`, user: personOf(row) });
  }
  return out;
}

function refOf(row: Pick<MessageRow, "pin_id" | "board_id" | "user_id" | "did_it_id">): AttachmentRef {
  if (row.pin_id !== null) return { kind: "pin", id: row.pin_id };
  if (row.board_id !== null) return { kind: "board", id: row.board_id };
  if (row.user_id !== null) return { kind: "user", id: row.user_id };
  if (row.did_it_id !== null) return { kind: "did_it", id: row.did_it_id };
  return null;
}

/** Messages as `reader` sees them: an attachment they may not see reads as unavailable, nothing of it shown. */
export async function renderMessages(db: D1Database, readerId: number, rows: readonly MessageRow[]): Promise<Message[]> {
  const refs = rows.map(refOf).filter((ref): ref is Exclude<AttachmentRef, null> => ref !== null);
  const seen = await readAttachments(db, readerId, refs);
  return rows.map((row) => {
    const ref = refOf(row);
    const attachment: Attachment | null = ref ? (seen.get(`${ref.kind}:${ref.id}`) ?? { kind: ref.kind, id: String(ref.id), unavailable: true }) : null;
    return {
      id: String(row.id),
      text: row.text,
      sender: personOf({ id: row.sender_id, username: row.username, full_name: row.full_name, image_key: row.image_key }),
      created_at: new Date(row.created_at).toISOString(),
      created_ms: row.created_at,
      type: "message",
      attachment,
    };
  });
}

// ── Membership ───────────────────────────────────────────────────────────────────────────────

interface MemberRow {
  status: MemberStatus;
  last_read_message_id: number;
}

async function memberOf(db: D1Database, conversationId: number, userId: number): Promise<MemberRow | null> {
  return db.prepare("SELECT status, last_read_message_id FROM conversation_members WHERE conversation_id = ?1 AND user_id = ?2").bind(conversationId, userId).first<MemberRow>();
}

const conversationNotFound = () => notFound("messages:api.conversationNotFound");

/** The member's standing, or 404: a conversation someone is not in does not exist for them. */
export async function requireMember(db: D1Database, conversationId: number, userId: number): Promise<MemberRow> {
  const member = await memberOf(db, conversationId, userId);
  if (!member) throw conversationNotFound();
  return member;
}

// ── Reading ──────────────────────────────────────────────────────────────────────────────────

/** Messages before `beforeId` (newest first, a page), or after `afterId` (oldest first, a catch-up). */
async function messageRows(db: D1Database, conversationId: number, window: { beforeId?: number | null; afterId?: number | null; limit: number }): Promise<MessageRow[]> {
  const ascending = window.afterId !== undefined && window.afterId !== null;
  const rows = await db
    .prepare(
      `SELECT ${MESSAGE_COLUMNS} FROM ${MESSAGE_FROM}
       WHERE m.conversation_id = ?1 AND (?2 IS NULL OR m.id < ?2) AND (?3 IS NULL OR m.id > ?3)
       ORDER BY m.id ${ascending ? "ASC" : "DESC"} LIMIT ?4`,
    )
    .bind(conversationId, window.beforeId ?? null, window.afterId ?? null, window.limit)
    .all<MessageRow>();
  return rows.results;
}

/** A page of a conversation's messages, newest page first, each page in creation order; paged by bookmark. */
export async function listMessages(db: D1Database, viewerId: number, conversationId: number, page: { before: Keyset | null; size: number }): Promise<Paged<Message>> {
  await requireMember(db, conversationId, viewerId);
  const rows = await messageRows(db, conversationId, { beforeId: page.before?.id ?? null, limit: page.size + 1 });
  const more = rows.length > page.size;
  const kept = rows.slice(0, page.size);
  const oldest = kept[kept.length - 1];
  const messages = await renderMessages(db, viewerId, kept.reverse());
  return { results: messages, bookmark: more && oldest ? encodeKeyset(oldest.id, oldest.id) : END_MARKER };
}

/**
 * What a socket that reconnects has missed: the messages after `afterId`, oldest first, at most
 * CATCH_UP_MAX; `complete` false when more were left (the island reloads the conversation).
 */
export async function catchUp(db: D1Database, readerId: number, conversationId: number, afterId: number | null): Promise<{ messages: Message[]; complete: boolean }> {
  if (afterId === null) {
    const rows = await messageRows(db, conversationId, { limit: CATCH_UP_MAX });
    return { messages: await renderMessages(db, readerId, rows.reverse()), complete: true };
  }
  const rows = await messageRows(db, conversationId, { afterId, limit: CATCH_UP_MAX + 1 });
  return { messages: await renderMessages(db, readerId, rows.slice(0, CATCH_UP_MAX)), complete: rows.length <= CATCH_UP_MAX };
}

interface ConversationRow {
  id: number;
  created_at: number;
  updated_at: number;
  emails: string;
  last_message_id: number | null;
  status: MemberStatus;
  unread: number;
}

/** Unread counts stop here: a badge reads "99+" past it, and the count stays a bounded scan. */
const UNREAD_CAP = 100;

const CONVERSATION_COLUMNS = `c.id, c.created_at, c.updated_at, c.emails, c.last_message_id, me.status,
       (SELECT count(*) FROM (SELECT 1 FROM conversation_messages x
         WHERE x.conversation_id = c.id AND x.id > me.last_read_message_id AND x.sender_id != me.user_id LIMIT ${UNREAD_CAP})) AS unread`;

function parseEmails(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
  } catch {
    return [];
  }
}

/** Conversations with their people and last message, as `viewerId` sees them. */
async function assemble(db: D1Database, viewerId: number, rows: readonly ConversationRow[], messagesOf: Map<number, Message[]> = new Map()): Promise<Conversation[]> {
  if (rows.length === 0) return [];
  const ids = JSON.stringify(rows.map((row) => row.id));
  const lastIds = JSON.stringify(rows.flatMap((row) => (row.last_message_id === null ? [] : [row.last_message_id])));
  const [people, lasts] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `SELECT cm.conversation_id, u.id, u.username, u.full_name, u.image_key FROM conversation_members cm JOIN users u ON u.id = cm.user_id
         WHERE cm.conversation_id IN (SELECT value FROM json_each(?1)) ORDER BY cm.joined_at, u.id`,
      )
      .bind(ids),
    db.prepare(`SELECT ${MESSAGE_COLUMNS} FROM ${MESSAGE_FROM} WHERE m.id IN (SELECT value FROM json_each(?1))`).bind(lastIds),
  ]);
  const usersOf = new Map<number, PersonRef[]>();
  for (const row of (people?.results ?? []) as Array<{ conversation_id: number; id: number; username: string; full_name: string; image_key: string | null }>) {
    const list = usersOf.get(row.conversation_id) ?? [];
    list.push(personOf(row));
    usersOf.set(row.conversation_id, list);
  }
  const lastMessages = new Map((await renderMessages(db, viewerId, (lasts?.results ?? []) as unknown as MessageRow[])).map((message) => [message.id, message]));
  return rows.map((row, position) => {
    const users = usersOf.get(row.id) ?? [];
    const others = users.filter((user) => user.id !== String(viewerId));
    return {
      id: String(row.id),
      created_at: new Date(row.created_at).toISOString(),
      name: others.map((user) => user.full_name.trim() || user.username).join(", "),
      board: null,
      emails: parseEmails(row.emails),
      unread: row.unread,
      users,
      last_message: row.last_message_id === null ? null : (lastMessages.get(String(row.last_message_id)) ?? null),
      messages: messagesOf.get(row.id) ?? [],
      position,
      status: row.status,
    };
  });
}

/** The inbox (active conversations) or the contact requests, most recent first, by bookmark. */
export async function listConversations(
  db: D1Database,
  viewerId: number,
  page: { status: "active" | "request"; after: Keyset | null; size: number },
): Promise<Paged<Conversation> & { conversations_unseen_count: number }> {
  const [rows, unseen] = await Promise.all([
    db
      .prepare(
        `SELECT ${CONVERSATION_COLUMNS}
         FROM conversation_members me JOIN conversations c ON c.id = me.conversation_id
         WHERE me.user_id = ?1 AND me.status = ?2
           AND (?3 IS NULL OR c.updated_at < ?3 OR (c.updated_at = ?3 AND c.id < ?4))
         ORDER BY c.updated_at DESC, c.id DESC LIMIT ?5`,
      )
      .bind(viewerId, page.status, page.after?.key ?? null, page.after?.id ?? null, page.size + 1)
      .all<ConversationRow>(),
    unseenConversationsCount(db, viewerId),
  ]);
  const more = rows.results.length > page.size;
  const kept = rows.results.slice(0, page.size);
  const last = kept[kept.length - 1];
  return { results: await assemble(db, viewerId, kept), bookmark: more && last ? encodeKeyset(last.updated_at, last.id) : END_MARKER, conversations_unseen_count: unseen };
}

/** One conversation with its newest page of messages. 404 for anyone not in it. */
export async function getConversation(db: D1Database, viewerId: number, conversationId: number, size: number): Promise<Conversation> {
  const row = await db
    .prepare(`SELECT ${CONVERSATION_COLUMNS} FROM conversation_members me JOIN conversations c ON c.id = me.conversation_id WHERE me.user_id = ?1 AND c.id = ?2`)
    .bind(viewerId, conversationId)
    .first<ConversationRow>();
  if (!row) throw conversationNotFound();
  const rows = await messageRows(db, conversationId, { limit: size });
  const messages = await renderMessages(db, viewerId, rows.reverse());
  const [conversation] = await assemble(db, viewerId, [row], new Map([[row.id, messages]]));
  return conversation!;
}

/**
 * conversations_unseen_count: the conversations (inbox and requests) holding a message from
 * someone else that the viewer has not seen.
 */
export async function unseenConversationsCount(db: D1Database, viewerId: number): Promise<number> {
  const row = await db
    .prepare(
      `SELECT count(*) AS n FROM conversation_members me JOIN conversations c ON c.id = me.conversation_id
       WHERE me.user_id = ?1 AND me.status != 'declined' AND c.last_message_id > me.last_read_message_id
         AND EXISTS (SELECT 1 FROM conversation_messages x WHERE x.conversation_id = c.id AND x.id > me.last_read_message_id AND x.sender_id != ?1)`,
    )
    .bind(viewerId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** Opening a conversation clears its unread badge: everything in it up to now is seen. */
export async function markRead(db: D1Database, viewer: Viewer, conversationId: number): Promise<{ conversation_id: string; unread: number }> {
  const viewerId = requireWriteAllowed(viewer).user.id;
  await requireMember(db, conversationId, viewerId);
  await db
    .prepare(
      `UPDATE conversation_members SET last_read_message_id = max(last_read_message_id, coalesce((SELECT last_message_id FROM conversations WHERE id = ?1), 0))
       WHERE conversation_id = ?1 AND user_id = ?2`,
    )
    .bind(conversationId, viewerId)
    .run();
  return { conversation_id: String(conversationId), unread: 0 };
}

// ── Writing ──────────────────────────────────────────────────────────────────────────────────

/** A random conversation id: not guessable, so ids say nothing about how many conversations exist. */
function newConversationId(): number {
  const bytes = crypto.getRandomValues(new Uint32Array(2));
  // 52 bits: a safe integer the API's id rule (1 to 18 digits) accepts.
  return (bytes[0]! & 0xfffff) * 0x100000000 + bytes[1]! + 1;
}

const BLOCK_WITH_OTHERS = `EXISTS (SELECT 1 FROM conversation_members o JOIN blocks k
    ON (k.blocker_id = o.user_id AND k.blocked_id = ?2) OR (k.blocker_id = ?2 AND k.blocked_id = o.user_id)
    WHERE o.conversation_id = ?1 AND o.user_id != ?2)`;

/** The attachment the sender names, when they may see it themselves; 404 naming it otherwise. */
async function checkAttachment(db: D1Database, senderId: number, ref: AttachmentRef): Promise<void> {
  if (!ref) return;
  const seen = await readAttachments(db, senderId, [ref]);
  if (!seen.has(`${ref.kind}:${ref.id}`)) throw notFound(`messages:api.attachmentNotFound.${ref.kind}`);
}

const attachmentColumns = (ref: AttachmentRef) => [ref?.kind === "pin" ? ref.id : null, ref?.kind === "board" ? ref.id : null, ref?.kind === "user" ? ref.id : null, ref?.kind === "did_it" ? ref.id : null];

const SEND_RULE = RATE_RULES.messageSendPerUser;

/**
 * The send's count and its guard, for one batch: the counting statement goes first, and the
 * first write of the batch is limited by it (`LIMIT …`: 1 within the limit, 0 over it), so an
 * over-limit send writes nothing and a counted one is never applied without its count.
 */
function sendGuard(db: D1Database, senderId: number, now: number, firstParam: number) {
  const { statement, windowStart } = hitStatement(db, SEND_RULE, senderId, now);
  const values: unknown[] = [];
  const within = withinLimitSql(SEND_RULE, senderId, (value) => {
    values.push(value);
    return `?${firstParam + values.length - 1}`;
  });
  return { count: statement, limit: `LIMIT CASE WHEN ${within} THEN 1 ELSE 0 END`, values, windowStart };
}

/** 429 when the batch's count went over the limit. */
function assertSendAllowed(results: ReadonlyArray<D1Result>, windowStart: number, now: number): void {
  const count = (results[0]?.results?.[0] as { count: number } | undefined)?.count ?? 0;
  assertAllowed(hitResult(SEND_RULE, count, windowStart, now));
}

/**
 * The statements that append a message (guarded: a member, no block with anyone in it, and
 * `limit` when given) and move the conversation on. The two updates run only when the insert
 * did (`changes()` reads the statement before, in the batch's one connection).
 */
function appendStatements(db: D1Database, conversationId: number, senderId: number, text: string, ref: AttachmentRef, now: number, guard?: { limit: string; values: unknown[] }): D1PreparedStatement[] {
  return [
    db
      .prepare(
        `INSERT INTO conversation_messages (conversation_id, sender_id, text, created_at, pin_id, board_id, user_id, did_it_id)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8
         WHERE EXISTS (SELECT 1 FROM conversation_members WHERE conversation_id = ?1 AND user_id = ?2) AND NOT ${BLOCK_WITH_OTHERS}
         ${guard?.limit ?? ""}
         RETURNING id`,
      )
      .bind(conversationId, senderId, text, now, ...attachmentColumns(ref), ...(guard?.values ?? [])),
    db
      .prepare("UPDATE conversations SET last_message_id = (SELECT max(id) FROM conversation_messages WHERE conversation_id = ?1), updated_at = ?2 WHERE id = ?1 AND changes() = 1")
      .bind(conversationId, now),
    // Sending reads everything before it; a reply to a contact request accepts it.
    db
      .prepare(
        `UPDATE conversation_members SET last_read_message_id = (SELECT max(id) FROM conversation_messages WHERE conversation_id = ?1),
                status = CASE WHEN status = 'request' THEN 'active' ELSE status END
         WHERE conversation_id = ?1 AND user_id = ?2 AND changes() = 1`,
      )
      .bind(conversationId, senderId),
  ];
}

export interface Sent {
  conversation_id: string;
  message: Message;
  /** The stored row, for live delivery (each reader's copy is read from it). */
  row: MessageRow;
}

async function readSent(db: D1Database, senderId: number, messageId: number): Promise<Sent> {
  const row = await db.prepare(`SELECT ${MESSAGE_COLUMNS} FROM ${MESSAGE_FROM} WHERE m.id = ?1`).bind(messageId).first<MessageRow>();
  if (!row) throw conflict("messages:api.changed");
  const [message] = await renderMessages(db, senderId, [row]);
  return { conversation_id: String(row.conversation_id), message: message!, row };
}

/** Sends a message to a conversation the viewer is in. */
export async function sendMessage(
  db: D1Database,
  viewer: Viewer,
  input: { conversationId: number; text: string; attachment: AttachmentRef },
  claim: readonly D1PreparedStatement[],
): Promise<Sent> {
  const senderId = requireWriteAllowed(viewer).user.id;
  await requireMember(db, input.conversationId, senderId);
  await assertNoBlockInConversation(db, input.conversationId, senderId);
  await checkAttachment(db, senderId, input.attachment);
  const now = Date.now();
  const guard = sendGuard(db, senderId, now, 9);
  const results = await db.batch([guard.count, ...appendStatements(db, input.conversationId, senderId, input.text, input.attachment, now, guard), ...claim]);
  const id = (results[1]?.results?.[0] as { id: number } | undefined)?.id;
  if (id === undefined) {
    assertSendAllowed(results, guard.windowStart, now);
    // A block or a departure landed between the checks and the write: say which.
    await requireMember(db, input.conversationId, senderId);
    await assertNoBlockInConversation(db, input.conversationId, senderId);
    throw conflict("messages:api.changed");
  }
  return readSent(db, senderId, id);
}

async function assertNoBlockInConversation(db: D1Database, conversationId: number, userId: number): Promise<void> {
  const blocked = await db.prepare(`SELECT ${BLOCK_WITH_OTHERS} AS blocked`).bind(conversationId, userId).first<{ blocked: number }>();
  if (blocked?.blocked === 1) throw blockedError();
}

interface RecipientRow {
  id: number;
  settings: string;
  should_show_messaging: number;
  follows_sender: number;
  blocked: number;
}

/**
 * Starts a conversation (or, between two people who have one, continues it) with its first
 * message. Each recipient's messages settings decide: in their inbox, as a contact request,
 * or refused; a block either way refuses.
 */
export async function createConversation(
  db: D1Database,
  viewer: Viewer,
  input: { userIds: number[]; emails: string[]; text: string; attachment: AttachmentRef },
  claim: readonly D1PreparedStatement[],
): Promise<Sent> {
  const senderId = requireWriteAllowed(viewer).user.id;
  if (input.userIds.includes(senderId)) throw badRequest([{ field: "user_ids", reason: "social:validation.notYourself" }]);
  // Addresses of accounts join as those accounts; the rest stay addresses on the conversation.
  const byEmail =
    input.emails.length === 0
      ? []
      : (await db.prepare("SELECT id, lower(email) AS email FROM users WHERE email IN (SELECT value FROM json_each(?1))").bind(JSON.stringify(input.emails)).all<{ id: number; email: string }>())
          .results;
  const known = new Set(byEmail.map((row) => row.email));
  const emails = input.emails.filter((email) => !known.has(email));
  const recipientIds = [...new Set([...input.userIds, ...byEmail.map((row) => row.id)])].filter((id) => id !== senderId);
  if (recipientIds.length === 0) throw badRequest([{ field: "user_ids", reason: "messages:validation.noRecipient" }]);

  const recipients = (
    await db
      .prepare(
        `SELECT u.id, u.settings, u.should_show_messaging,
                EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = u.id AND f.target_type = 'user' AND f.target_id = ?2) AS follows_sender,
                EXISTS (SELECT 1 FROM blocks k WHERE (k.blocker_id = u.id AND k.blocked_id = ?2) OR (k.blocker_id = ?2 AND k.blocked_id = u.id)) AS blocked
         FROM users u WHERE u.id IN (SELECT value FROM json_each(?1))`,
      )
      .bind(JSON.stringify(recipientIds), senderId)
      .all<RecipientRow>()
  ).results;
  if (recipients.length !== recipientIds.length) throw notFound("social:api.userNotFound");
  if (recipients.some((row) => row.blocked === 1)) throw blockedError();
  await checkAttachment(db, senderId, input.attachment);

  const pair = recipientIds.length === 1 && emails.length === 0 ? pairKey(senderId, recipientIds[0]!) : null;
  if (pair) {
    const existing = await db.prepare("SELECT id FROM conversations WHERE pair_key = ?1").bind(pair).first<{ id: number }>();
    if (existing) return sendMessage(db, viewer, { conversationId: existing.id, text: input.text, attachment: input.attachment }, claim);
  }
  const statuses = recipients.map((row) => ({
    id: row.id,
    status: row.should_show_messaging === 1 ? deliveryFor(parseStoredSettings(row.settings).messages, row.follows_sender === 1) : ("refused" as const),
  }));
  if (statuses.some((entry) => entry.status === "refused")) throw forbidden("messages:api.notAccepting");

  const now = Date.now();
  const conversationId = newConversationId();
  // The conversation row is the batch's first write: the send's count limits it, and every
  // later statement needs it.
  const guard = sendGuard(db, senderId, now, 6);
  const results = await db.batch([
    guard.count,
    db
      .prepare(`INSERT INTO conversations (id, created_by, created_at, pair_key, emails, updated_at) SELECT ?1, ?2, ?3, ?4, ?5, ?3 ${guard.limit}`)
      .bind(conversationId, senderId, now, pair, JSON.stringify(emails), ...guard.values),
    db
      .prepare("INSERT INTO conversation_members (conversation_id, user_id, status, joined_at) SELECT ?1, ?2, 'active', ?3 WHERE EXISTS (SELECT 1 FROM conversations WHERE id = ?1)")
      .bind(conversationId, senderId, now),
    ...statuses.map((entry) =>
      db
        .prepare(
          `INSERT INTO conversation_members (conversation_id, user_id, status, joined_at)
           SELECT ?1, ?2, ?3, ?4 WHERE EXISTS (SELECT 1 FROM conversations WHERE id = ?1)
             AND NOT EXISTS (SELECT 1 FROM blocks k WHERE (k.blocker_id = ?2 AND k.blocked_id = ?5) OR (k.blocker_id = ?5 AND k.blocked_id = ?2))`,
        )
        .bind(conversationId, entry.id, entry.status, now, senderId),
    ),
    ...appendStatements(db, conversationId, senderId, input.text, input.attachment, now).slice(0, 2),
    ...claim,
  ]);
  const inserted = results[3 + statuses.length]?.results?.[0] as { id: number } | undefined;
  if (inserted === undefined) {
    assertSendAllowed(results, guard.windowStart, now);
    throw blockedError();
  }
  return readSent(db, senderId, inserted.id);
}

/**
 * A contact request answered (spec 001 §3, §4): accept moves it to the inbox; decline sets it
 * aside (hasDeclined); block declines and blocks its sender (hasBlocked); undo takes back a
 * decline or a block (the undo toast), unblocking too.
 */
export async function answerContactRequest(
  db: D1Database,
  viewer: Viewer,
  conversationId: number,
  action: ContactRequestAction,
): Promise<{ id: string; status: MemberStatus; hasDeclined: boolean; hasBlocked: boolean }> {
  const viewerId = requireWriteAllowed(viewer).user.id;
  const member = await requireMember(db, conversationId, viewerId);
  const starter = await db.prepare("SELECT created_by FROM conversations WHERE id = ?1").bind(conversationId).first<{ created_by: number }>();
  const senderId = starter?.created_by ?? null;
  const allowed: Record<ContactRequestAction, readonly MemberStatus[]> = { accept: ["request", "declined"], decline: ["request"], block: ["request", "declined"], undo: ["declined"] };
  if (!allowed[action].includes(member.status) || senderId === null || senderId === viewerId) throw conflict("messages:api.notARequest");
  const next: MemberStatus = action === "accept" ? "active" : action === "undo" ? "request" : "declined";
  const now = Date.now();
  const statements = [db.prepare("UPDATE conversation_members SET status = ?3 WHERE conversation_id = ?1 AND user_id = ?2").bind(conversationId, viewerId, next)];
  if (action === "block") {
    // Blocking also ends follows both ways, as the block everywhere else does.
    statements.push(
      db.prepare("DELETE FROM follows WHERE (follower_id = ?1 AND target_type = 'user' AND target_id = ?2) OR (follower_id = ?2 AND target_type = 'user' AND target_id = ?1)").bind(viewerId, senderId),
      db.prepare("INSERT OR IGNORE INTO blocks (blocker_id, blocked_id, created_at) VALUES (?1, ?2, ?3)").bind(viewerId, senderId, now),
    );
  }
  if (action === "undo") statements.push(db.prepare("DELETE FROM blocks WHERE blocker_id = ?1 AND blocked_id = ?2").bind(viewerId, senderId));
  await db.batch(statements);
  return { id: String(conversationId), status: next, hasDeclined: action === "decline" || action === "block", hasBlocked: action === "block" };
}

// ── Share suggestions ────────────────────────────────────────────────────────────────────────

/**
 * People to send a pin to (ShareSuggestionsResource, suggestion_type share): with no term, the
 * people the viewer has two-person conversations with, most recent first, then people they
 * follow; with a term, people whose name or username starts with it. Never anyone blocked
 * either way, nor a profile the viewer may not see. Group conversations are never suggested
 * (hide_group_conversations).
 */
export async function shareSuggestions(db: D1Database, viewerId: number, query: string | null): Promise<PersonRef[]> {
  const profile = factColumns("profile", { user: "u" }, "?1");
  const notBlocked = "NOT EXISTS (SELECT 1 FROM blocks k WHERE (k.blocker_id = u.id AND k.blocked_id = ?1) OR (k.blocker_id = ?1 AND k.blocked_id = u.id))";
  const statement = query
    ? db
        .prepare(
          `SELECT u.id, u.username, u.full_name, u.image_key, ${profile} FROM users u
           WHERE u.id != ?1 AND (u.username LIKE ?2 ESCAPE '\\' OR u.full_name LIKE ?2 ESCAPE '\\') AND ${notBlocked}
           ORDER BY u.follower_count DESC, u.id LIMIT ?3`,
        )
        .bind(viewerId, `${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`, SUGGESTIONS_MAX * 2)
    : db
        .prepare(
          `WITH talked AS (
             SELECT o.user_id AS id, max(c.updated_at) AS at FROM conversation_members me
             JOIN conversations c ON c.id = me.conversation_id AND c.pair_key IS NOT NULL
             JOIN conversation_members o ON o.conversation_id = c.id AND o.user_id != ?1
             WHERE me.user_id = ?1 AND me.status = 'active' GROUP BY o.user_id ORDER BY at DESC LIMIT ?2),
           followed AS (SELECT f.target_id AS id, f.created_at AS at FROM follows f WHERE f.follower_id = ?1 AND f.target_type = 'user' ORDER BY f.created_at DESC LIMIT ?2),
           picked AS (SELECT id, 0 AS pick_rank, at FROM talked UNION ALL SELECT id, 1, at FROM followed)
           SELECT u.id, u.username, u.full_name, u.image_key, ${profile}, min(p.pick_rank) AS pick_rank, max(p.at) AS picked_at
           FROM picked p JOIN users u ON u.id = p.id
           WHERE ${notBlocked}
           GROUP BY u.id ORDER BY pick_rank, picked_at DESC LIMIT ?2`,
        )
        .bind(viewerId, SUGGESTIONS_MAX * 2);
  const rows = await statement.all<{ id: number; username: string; full_name: string; image_key: string | null } & Record<string, unknown>>();
  return rows.results
    .filter((row) => holdsFor("profile", row, viewerId))
    .slice(0, SUGGESTIONS_MAX)
    .map(personOf);
}

/** The members of a conversation (for the socket's door). */
export async function isMember(db: D1Database, conversationId: number, userId: number): Promise<boolean> {
  return (await memberOf(db, conversationId, userId)) !== null;
}

/** A pin the viewer may see, as the new-message view's attachment (/messages/?pin={id}); null otherwise. */
export async function draftPin(db: D1Database, viewerId: number, pinId: number): Promise<{ id: string; title: string } | null> {
  const seen = (await readAttachments(db, viewerId, [{ kind: "pin", id: pinId }])).get(`pin:${pinId}`);
  return seen && seen.kind === "pin" && !seen.unavailable ? { id: seen.id, title: seen.title } : null;
}

/** A person the viewer may write to, as the new-message view's first recipient (/messages/?to={id}); null otherwise. */
export async function draftRecipient(db: D1Database, viewerId: number, userId: number): Promise<PersonRef | null> {
  if (userId === viewerId) return null;
  const seen = (await readAttachments(db, viewerId, [{ kind: "user", id: userId }])).get(`user:${userId}`);
  return seen && seen.kind === "user" && !seen.unavailable ? { id: seen.id, username: seen.username, full_name: seen.full_name, image_medium_url: seen.image_medium_url } : null;
}

/** Members a conversation has at most (the sender and RECIPIENTS_MAX others): the bound on the channels a send pokes. */
const MEMBERS_TOLD_MAX = 64;

/** The conversation's other members (not declined): whose header counts a stored message from `senderId` moves. */
export async function otherMemberIds(db: D1Database, conversationId: number, senderId: number): Promise<number[]> {
  const { results } = await db
    .prepare("SELECT user_id FROM conversation_members WHERE conversation_id = ?1 AND user_id != ?2 AND status != 'declined' LIMIT ?3")
    .bind(conversationId, senderId, MEMBERS_TOLD_MAX)
    .all<{ user_id: number }>();
  return results.map((row) => row.user_id);
}
