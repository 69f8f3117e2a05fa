// Statements that record news for the people a write concerns, for that write's own D1 batch
// (a save, follow, comment, invite, join request, tried-it, bulk copy or publish is never
// applied without its news, nor its news without it). Each INSERT re-checks in SQL, against the
// rows the batch has just written, everything that decides whether the news is told:
//  - the act happened in this batch (the row it made carries this batch's `now`), so a repeated
//    or refused call tells nothing;
//  - the recipient is not the actor (nobody is told about their own acts);
//  - no block stands between them, either way;
//  - the recipient's news setting for the kind is on (a turned-off kind is not recorded).
// Then each recipient's oldest items beyond NEWS_ITEMS_KEPT go. What an item names (the pin, the
// board, the actor) is checked against the recipient again when read (news.server.ts).
import { NEWS_ITEMS_KEPT, NEWS_KINDS, type NewsKind } from "./news.ts";

/** SQL true when no block stands between the two people (SQL expressions), either way. */
const notBlocked = (a: string, b: string) =>
  `NOT EXISTS (SELECT 1 FROM blocks nk WHERE (nk.blocker_id = ${a} AND nk.blocked_id = ${b}) OR (nk.blocker_id = ${b} AND nk.blocked_id = ${a}))`;

/** SQL true when the recipient's news setting for this kind is on (on unless stored false). */
function wants(recipient: string, kind: NewsKind): string {
  const path = `'$.news.${NEWS_KINDS[kind]}'`;
  return `coalesce((SELECT CASE WHEN json_valid(ns.settings) THEN json_extract(ns.settings, ${path}) END FROM users ns WHERE ns.id = ${recipient}), 1) != 0`;
}

/** What an act tells one recipient, as SQL over its `from` clause. */
interface Told {
  kind: NewsKind;
  recipient: string;
  /** Null for news no one did (a scheduled pin published). */
  actor: string | null;
  pin?: string;
  board?: string;
  comment?: string;
  /** The FROM and WHERE the columns above read (every statement here has a WHERE). */
  from: string;
  where: string;
}

function insertSql(told: Told, now: string): string {
  const actor = told.actor ?? "NULL";
  const conditions = [told.where, wants(told.recipient, told.kind)];
  if (told.actor !== null) conditions.push(`${told.recipient} != ${told.actor}`, notBlocked(told.recipient, told.actor));
  return `INSERT INTO news_items (user_id, kind, actor_id, pin_id, board_id, comment_id, created_at)
          SELECT ${told.recipient}, '${told.kind}', ${actor}, ${told.pin ?? "NULL"}, ${told.board ?? "NULL"}, ${told.comment ?? "NULL"}, ${now}
          FROM ${told.from} WHERE ${conditions.map((condition) => `(${condition})`).join(" AND ")}
          ON CONFLICT DO NOTHING
          RETURNING user_id`;
}

/**
 * The statements that record news: once their batch commits, the rows they answer (RETURNING,
 * so only items actually recorded) name whose header counts moved (recipientsOf).
 */
const recording = new WeakSet<D1PreparedStatement>();

/** An INSERT of insertSql, bound and marked as recording news. */
function recorded(statement: D1PreparedStatement): D1PreparedStatement {
  recording.add(statement);
  return statement;
}

/** Who a committed batch told something: the recipients its news statements recorded items for. */
export function recipientsOf(statements: readonly D1PreparedStatement[], results: readonly (D1Result | undefined)[]): number[] {
  const recipients = new Set<number>();
  statements.forEach((statement, at) => {
    if (!recording.has(statement)) return;
    for (const row of (results[at]?.results ?? []) as Array<{ user_id?: unknown }>) if (typeof row.user_id === "number") recipients.add(row.user_id);
  });
  return [...recipients];
}

/** Drops the items beyond the newest NEWS_ITEMS_KEPT of each recipient the SQL list names. */
function pruneSql(recipients: string): string {
  return `DELETE FROM news_items WHERE user_id IN (${recipients})
            AND id <= (SELECT kept.id FROM news_items kept WHERE kept.user_id = news_items.user_id ORDER BY kept.id DESC LIMIT 1 OFFSET ${NEWS_ITEMS_KEPT})`;
}

/** Someone saved a pin to a board (or to their profile, board null): its pinner hears of it. */
export function saveNews(db: D1Database, saverId: number, pinId: number, boardId: number | null, now: number): D1PreparedStatement[] {
  const saved =
    boardId === null
      ? "EXISTS (SELECT 1 FROM profile_saves s WHERE s.user_id = ?1 AND s.pin_id = ?2 AND s.created_at = ?4)"
      : "EXISTS (SELECT 1 FROM board_pins s WHERE s.board_id = ?3 AND s.pin_id = ?2 AND s.saved_by = ?1 AND s.created_at = ?4)";
  const told: Told = { kind: "save", recipient: "p.pinner_id", actor: "?1", pin: "p.id", board: "?3", from: "pins p", where: `p.id = ?2 AND p.is_deleted = 0 AND ${saved}` };
  return [
    recorded(db.prepare(insertSql(told, "?4")).bind(saverId, pinId, boardId, now)),
    db.prepare(pruneSql("SELECT pinner_id FROM pins WHERE id = ?1")).bind(pinId),
  ];
}

/** Someone followed a person (board null) or a board: the person, or the board's owner, hears of it. */
export function followNews(db: D1Database, followerId: number, target: { userId: number } | { boardId: number }, now: number): D1PreparedStatement[] {
  if ("userId" in target) {
    const told: Told = {
      kind: "follow",
      recipient: "u.id",
      actor: "?1",
      from: "users u",
      where: "u.id = ?2 AND EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = ?1 AND f.target_type = 'user' AND f.target_id = ?2 AND f.created_at = ?3)",
    };
    return [recorded(db.prepare(insertSql(told, "?3")).bind(followerId, target.userId, now)), db.prepare(pruneSql("?1")).bind(target.userId)];
  }
  const told: Told = {
    kind: "follow",
    recipient: "b.owner_id",
    actor: "?1",
    board: "b.id",
    from: "boards b",
    where: "b.id = ?2 AND EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = ?1 AND f.target_type = 'board' AND f.target_id = ?2 AND f.created_at = ?3)",
  };
  return [recorded(db.prepare(insertSql(told, "?3")).bind(followerId, target.boardId, now)), db.prepare(pruneSql("SELECT owner_id FROM boards WHERE id = ?1")).bind(target.boardId)];
}

/**
 * A comment posted in this batch (by ?1 on pin ?2 at ?3; its id read back from the row): the
 * pin's owner hears of a comment, the thread's author of a reply, each person it tags of the
 * mention, each once (a tagged owner hears of the mention, not also of the comment). A comment
 * hidden from everyone but its author tells no one.
 */
export function commentNews(db: D1Database, authorId: number, pinId: number, taggedIds: readonly number[], now: number): D1PreparedStatement[] {
  const comment = "(SELECT max(c.id) FROM comments c WHERE c.pin_id = ?2 AND c.user_id = ?1 AND c.created_at = ?3 AND c.is_hidden = 0)";
  const tagged = JSON.stringify([...new Set(taggedIds)]);
  const parentAuthor = "(SELECT q.user_id FROM comments q WHERE q.id = cm.parent_id)";
  const from = `pins p JOIN comments cm ON cm.id = ${comment}`;
  const onComment: Told = {
    kind: "comment",
    recipient: "p.pinner_id",
    actor: "?1",
    pin: "p.id",
    comment: "cm.id",
    from,
    where: `p.id = ?2 AND p.pinner_id NOT IN (SELECT value FROM json_each(?4)) AND (cm.parent_id IS NULL OR ${parentAuthor} != p.pinner_id)`,
  };
  const onReply: Told = {
    kind: "reply",
    recipient: parentAuthor,
    actor: "?1",
    pin: "p.id",
    comment: "cm.id",
    from,
    where: `p.id = ?2 AND cm.parent_id IS NOT NULL AND ${parentAuthor} NOT IN (SELECT value FROM json_each(?4))`,
  };
  const recipients = `SELECT pinner_id FROM pins WHERE id = ?2
                      UNION SELECT q.user_id FROM comments q WHERE q.id = (SELECT parent_id FROM comments WHERE id = ${comment})
                      UNION SELECT value FROM json_each(?4)`;
  return [
    recorded(db.prepare(insertSql(onComment, "?3")).bind(authorId, pinId, now, tagged)),
    recorded(db.prepare(insertSql(onReply, "?3")).bind(authorId, pinId, now, tagged)),
    ...mentionStatements(db, authorId, pinId, taggedIds, comment, now),
    db.prepare(pruneSql(recipients)).bind(authorId, pinId, now, tagged),
  ];
}

/** Mentions in comment `commentSql` (SQL over ?1 author, ?2 pin, ?3 now): each tagged person hears of theirs. */
function mentionStatements(db: D1Database, authorId: number, pinId: number, taggedIds: readonly number[], commentSql: string, now: number): D1PreparedStatement[] {
  if (taggedIds.length === 0) return [];
  const told: Told = {
    kind: "mention",
    recipient: "CAST(t.value AS INTEGER)",
    actor: "?1",
    pin: "p.id",
    comment: "cm.id",
    from: `pins p JOIN comments cm ON cm.id = ${commentSql} JOIN json_each(?4) t`,
    where: "p.id = ?2 AND EXISTS (SELECT 1 FROM users tu WHERE tu.id = t.value)",
  };
  return [recorded(db.prepare(insertSql(told, "?3")).bind(authorId, pinId, now, JSON.stringify([...new Set(taggedIds)])))];
}

/** The people an edit of comment `commentId` tags (new ones hear of it; someone told already is not told twice). */
export function editedMentionNews(db: D1Database, authorId: number, commentId: number, pinId: number, taggedIds: readonly number[], now: number): D1PreparedStatement[] {
  if (taggedIds.length === 0) return [];
  const comment = `(SELECT c.id FROM comments c WHERE c.id = ${Number(commentId)} AND c.pin_id = ?2 AND c.user_id = ?1 AND c.updated_at = ?3 AND c.is_hidden = 0)`;
  return [...mentionStatements(db, authorId, pinId, taggedIds, comment, now), db.prepare(pruneSql("SELECT value FROM json_each(?1)")).bind(JSON.stringify([...new Set(taggedIds)]))];
}

/** People invited to a board in this batch (rows made at ?3 by ?1): each hears of their invite. */
export function inviteNews(db: D1Database, inviterId: number, boardId: number, invitedIds: readonly number[], now: number): D1PreparedStatement[] {
  if (invitedIds.length === 0) return [];
  const told: Told = {
    kind: "board_invite",
    recipient: "bc.user_id",
    actor: "?1",
    board: "bc.board_id",
    from: "board_collaborators bc",
    where: "bc.board_id = ?2 AND bc.user_id IN (SELECT value FROM json_each(?4)) AND bc.status = 'new' AND bc.type = 'invite' AND bc.invited_by = ?1 AND bc.created_at = ?3",
  };
  const invited = JSON.stringify([...new Set(invitedIds)]);
  return [recorded(db.prepare(insertSql(told, "?3")).bind(inviterId, boardId, now, invited)), db.prepare(pruneSql("SELECT value FROM json_each(?1)")).bind(invited)];
}

/** A scheduled pin published in this batch: its pinner hears that it is live (no one acted, so no actor). */
export function scheduledPublishNews(db: D1Database, pinnerId: number, pinId: number, now: number): D1PreparedStatement[] {
  const told: Told = { kind: "scheduled_pin", recipient: "p.pinner_id", actor: null, pin: "p.id", board: "p.board_id", from: "pins p", where: "p.id = ?1 AND p.pinner_id = ?2 AND p.is_deleted = 0" };
  return [recorded(db.prepare(insertSql(told, "?3")).bind(pinId, pinnerId, now)), db.prepare(pruneSql("?1")).bind(pinnerId)];
}

/**
 * A story pin published in this batch (pin ?2 by ?1 at ?3): each person its mention stickers
 * name hears of it once (the item names the pin and no comment). Drafts never reach this, and a
 * person the author may no longer name was marked removed before publishing (story-drafts.server.ts).
 */
export function storyMentionNews(db: D1Database, authorId: number, pinId: number, mentionedIds: readonly number[], now: number): D1PreparedStatement[] {
  if (mentionedIds.length === 0) return [];
  const mentioned = JSON.stringify([...new Set(mentionedIds)]);
  const told: Told = {
    kind: "mention",
    recipient: "CAST(t.value AS INTEGER)",
    actor: "?1",
    pin: "p.id",
    from: "pins p JOIN json_each(?4) t",
    where: "p.id = ?2 AND p.pinner_id = ?1 AND p.kind = 'story' AND p.created_at = ?3 AND p.is_deleted = 0 AND EXISTS (SELECT 1 FROM users tu WHERE tu.id = t.value)",
  };
  return [recorded(db.prepare(insertSql(told, "?3")).bind(authorId, pinId, now, mentioned)), db.prepare(pruneSql("SELECT value FROM json_each(?1)")).bind(mentioned)];
}

/** Someone asked to join board ?2 in this batch (their request row made at ?3 by ?1): its owner hears of it. */
export function joinRequestNews(db: D1Database, askerId: number, boardId: number, now: number): D1PreparedStatement[] {
  const told: Told = {
    kind: "join_request",
    recipient: "b.owner_id",
    actor: "?1",
    board: "b.id",
    from: "boards b",
    where: "b.id = ?2 AND EXISTS (SELECT 1 FROM board_collaborators bc WHERE bc.board_id = ?2 AND bc.user_id = ?1 AND bc.type = 'request' AND bc.status = 'new' AND bc.created_at = ?3)",
  };
  return [recorded(db.prepare(insertSql(told, "?3")).bind(askerId, boardId, now)), db.prepare(pruneSql("SELECT owner_id FROM boards WHERE id = ?1")).bind(boardId)];
}

/** Someone posted a tried-it on pin ?2 in this batch (a new post, made at ?3 by ?1; a rewrite tells no one again): its pinner hears of it. */
export function didItNews(db: D1Database, posterId: number, pinId: number, now: number): D1PreparedStatement[] {
  const told: Told = {
    kind: "did_it",
    recipient: "p.pinner_id",
    actor: "?1",
    pin: "p.id",
    from: "pins p",
    where: "p.id = ?2 AND p.is_deleted = 0 AND EXISTS (SELECT 1 FROM did_its d WHERE d.pin_id = ?2 AND d.user_id = ?1 AND d.created_at = ?3)",
  };
  return [recorded(db.prepare(insertSql(told, "?3")).bind(posterId, pinId, now)), db.prepare(pruneSql("SELECT pinner_id FROM pins WHERE id = ?1")).bind(pinId)];
}

/** The pins someone (?1) copied to board ?2 in this batch (saves made at ?3): each of their pinners hears of it once, naming the board. */
export function boardCopyNews(db: D1Database, copierId: number, boardId: number, now: number): D1PreparedStatement[] {
  const copied = "SELECT cp.pinner_id FROM board_pins cbp JOIN pins cp ON cp.id = cbp.pin_id WHERE cbp.board_id = ?2 AND cbp.saved_by = ?1 AND cbp.created_at = ?3 AND cp.is_deleted = 0";
  const told: Told = { kind: "board_copy", recipient: "u.id", actor: "?1", board: "?2", from: "users u", where: `u.id IN (${copied})` };
  return [recorded(db.prepare(insertSql(told, "?3")).bind(copierId, boardId, now)), db.prepare(pruneSql(copied)).bind(copierId, boardId, now)];
}
