// Deleting an account: ONE D1 batch (one transaction) that
//  - keeps the ids of the person's pins in gone_pins, so their pages answer 410 afterwards;
//  - takes the person's part out of other people's counters (followers, following, board
//    followers, reactions, tried-it posts) while the rows that say what to take are there;
//  - drops the rows no foreign key reaches (follows of the person and of their boards, their
//    analytics events) and keeps ad reporting whole without them (their pings lose the id);
//  - records their upload folders for the media sweep, which empties them from R2;
//  - hands each conversation they started to another of its members, so the others keep it;
//  - deletes the users row, which cascades to everything else they own: sessions, tokens,
//    boards, sections, pins, saves, comments, reactions, drafts, uploads;
//  - recounts what the cascade changed elsewhere (other people's boards, pins' saves and
//    comments, conversations' last messages), from the ids read just before the batch.
// An account that a business's records name is refused first (see refuseIfInBusinessRecords).
import { forgetSessions } from "~/accounts/session.server.ts";
import { recountBoards, recountPinSaves } from "~/boards/counts.server.ts";
import { DomainError } from "~/domain/errors.ts";

/** Bound on the ids read for recounts (boards and pins of other people the account touched). */
const MAX_TOUCHED = 5_000;

/** Bound on the account's own pages purged from the edge cache at once (the rest age out). */
const MAX_PURGED = 200;

interface Touched {
  boards: number[];
  savedPins: number[];
  commentedPins: number[];
  conversations: number[];
}

/** What the caller purges from the edge cache: the account's own pins and boards (slugs). */
interface DeletedAccount {
  existed: boolean;
  pinIds: number[];
  boardSlugs: string[];
}

async function touched(db: D1Database, userId: number): Promise<Touched & Omit<DeletedAccount, "existed">> {
  const [boards, savedPins, commentedPins, ownPins, ownBoards, conversations] = await db.batch<{ id: number; slug?: string }>([
    db
      .prepare(
        `SELECT DISTINCT bp.board_id AS id FROM board_pins bp JOIN boards b ON b.id = bp.board_id
         WHERE b.owner_id != ?1 AND (bp.saved_by = ?1 OR bp.pin_id IN (SELECT id FROM pins WHERE pinner_id = ?1)) LIMIT ?2`,
      )
      .bind(userId, MAX_TOUCHED),
    db
      .prepare(
        `SELECT DISTINCT bp.pin_id AS id FROM board_pins bp JOIN pins p ON p.id = bp.pin_id
         WHERE p.pinner_id != ?1 AND (bp.saved_by = ?1 OR bp.board_id IN (SELECT id FROM boards WHERE owner_id = ?1)) LIMIT ?2`,
      )
      .bind(userId, MAX_TOUCHED),
    db
      .prepare("SELECT DISTINCT c.pin_id AS id FROM comments c JOIN pins p ON p.id = c.pin_id WHERE c.user_id = ?1 AND p.pinner_id != ?1 LIMIT ?2")
      .bind(userId, MAX_TOUCHED),
    db.prepare("SELECT id FROM pins WHERE pinner_id = ?1 AND is_deleted = 0 ORDER BY id DESC LIMIT ?2").bind(userId, MAX_PURGED),
    db.prepare("SELECT id, slug FROM boards WHERE owner_id = ?1 LIMIT ?2").bind(userId, MAX_PURGED),
    db.prepare("SELECT conversation_id AS id FROM conversation_members WHERE user_id = ?1 LIMIT ?2").bind(userId, MAX_TOUCHED),
  ]);
  const ids = (result: D1Result<{ id: number }> | undefined) => (result?.results ?? []).map((row) => row.id);
  return {
    boards: ids(boards),
    savedPins: ids(savedPins),
    commentedPins: ids(commentedPins),
    conversations: ids(conversations),
    pinIds: ids(ownPins),
    boardSlugs: (ownBoards?.results ?? []).map((row) => String(row.slug)),
  };
}

/**
 * A business keeps who did what in it (its history, campaigns, invoices, invites): those records
 * name people and outlive a membership, so an account that runs a business, belongs to one or
 * acted in one is not deleted from under them. The refusal says which, so the person knows what
 * to do first; nothing is deleted.
 */
async function refuseIfInBusinessRecords(db: D1Database, userId: number): Promise<void> {
  const tie = await db
    .prepare(
      `SELECT (SELECT name FROM businesses WHERE owner_id = ?1 OR profile_id = ?1 LIMIT 1) AS owns,
         EXISTS (SELECT 1 FROM business_members WHERE user_id = ?1) AS member,
         EXISTS (SELECT 1 FROM business_history WHERE actor_id = ?1) AS acted`,
    )
    .bind(userId)
    .first<{ owns: string | null; member: number; acted: number }>();
  if (tie?.owns) throw new DomainError("conflict", { message: "personal:data.ownsBusiness", values: { name: tie.owns } });
  if (tie?.member) throw new DomainError("conflict", { message: "personal:data.inBusiness" });
  if (tie?.acted) throw new DomainError("conflict", { message: "personal:data.inBusinessRecords" });
}

/** Deletes the account and everything it owns in one batch. */
export async function deleteAccount(db: D1Database, userId: number, now = Date.now()): Promise<DeletedAccount> {
  await refuseIfInBusinessRecords(db, userId);
  const touchedIds = await touched(db, userId);
  const deleteUser = db.prepare("DELETE FROM users WHERE id = ?1").bind(userId);
  const statements = [
    db.prepare("INSERT OR IGNORE INTO gone_pins (pin_id, gone_at) SELECT id, ?2 FROM pins WHERE pinner_id = ?1").bind(userId, now),
    db
      .prepare("UPDATE users SET follower_count = MAX(follower_count - 1, 0) WHERE id IN (SELECT target_id FROM follows WHERE follower_id = ?1 AND target_type = 'user') AND id != ?1")
      .bind(userId),
    db
      .prepare("UPDATE users SET following_count = MAX(following_count - 1, 0) WHERE id IN (SELECT follower_id FROM follows WHERE target_type = 'user' AND target_id = ?1) AND id != ?1")
      .bind(userId),
    db
      .prepare(
        `UPDATE boards SET follower_count = MAX(follower_count - 1, 0)
         WHERE id IN (SELECT target_id FROM follows WHERE follower_id = ?1 AND target_type = 'board') AND owner_id != ?1`,
      )
      .bind(userId),
    // A count of 1 goes with the reaction; larger ones drop by one (count > 0 is a CHECK).
    db
      .prepare("DELETE FROM pin_reaction_counts WHERE count <= 1 AND (pin_id, reaction_type) IN (SELECT pin_id, reaction_type FROM reactions WHERE user_id = ?1)")
      .bind(userId),
    db
      .prepare("UPDATE pin_reaction_counts SET count = count - 1 WHERE (pin_id, reaction_type) IN (SELECT pin_id, reaction_type FROM reactions WHERE user_id = ?1)")
      .bind(userId),
    db
      .prepare(
        `UPDATE pins SET did_it_images_count = (SELECT COUNT(*) FROM did_its d WHERE d.pin_id = pins.id AND d.user_id != ?1)
         WHERE id IN (SELECT pin_id FROM did_its WHERE user_id = ?1) AND pinner_id != ?1`,
      )
      .bind(userId),
    db.prepare("DELETE FROM follows WHERE target_type = 'user' AND target_id = ?1").bind(userId),
    db.prepare("DELETE FROM follows WHERE target_type = 'board' AND target_id IN (SELECT id FROM boards WHERE owner_id = ?1)").bind(userId),
    db.prepare("DELETE FROM events WHERE user_id = ?1").bind(userId),
    db.prepare("UPDATE attribution_pings SET user_id = NULL WHERE user_id = ?1").bind(userId),
    // A promoted pin's daily view key names the viewer; the counts it guarded stay in ad_spend_daily.
    db.prepare("DELETE FROM ad_delivery_counts WHERE kind = 'view' AND dedupe_key = 'u' || ?1").bind(userId),
    // So does a promoted pin's save key; the saves it counted stay in ad_spend_daily.
    db.prepare("DELETE FROM ad_save_counts WHERE user_id = ?1").bind(userId),
    db
      .prepare("INSERT OR IGNORE INTO media_upload_purges (folder, created_at) SELECT 'uploads/' || user_id || '/' || id || '/', ?2 FROM media_uploads WHERE user_id = ?1")
      .bind(userId, now),
    // A conversation the person started stays with the others in it (their messages are theirs):
    // it passes to its longest-standing other member before the account's rows cascade.
    db
      .prepare(
        `UPDATE conversations SET created_by = (SELECT m.user_id FROM conversation_members m WHERE m.conversation_id = conversations.id AND m.user_id != ?1 ORDER BY m.joined_at, m.user_id LIMIT 1)
         WHERE created_by = ?1 AND EXISTS (SELECT 1 FROM conversation_members m WHERE m.conversation_id = conversations.id AND m.user_id != ?1)`,
      )
      .bind(userId),
    deleteUser,
    // Their messages went with them: each conversation's last message is the newest one left.
    db
      .prepare("UPDATE conversations SET last_message_id = (SELECT max(id) FROM conversation_messages WHERE conversation_id = conversations.id) WHERE id IN (SELECT value FROM json_each(?1))")
      .bind(JSON.stringify(touchedIds.conversations)),
    ...recountBoards(db, touchedIds.boards),
    recountPinSaves(db, touchedIds.savedPins),
    db
      .prepare(
        `UPDATE pins SET comment_count = (SELECT COUNT(*) FROM comments c WHERE c.pin_id = pins.id AND c.is_hidden = 0
           AND (c.parent_id IS NULL OR EXISTS (SELECT 1 FROM comments q WHERE q.id = c.parent_id AND q.is_hidden = 0)))
         WHERE id IN (SELECT value FROM json_each(?1))`,
      )
      .bind(JSON.stringify(touchedIds.commentedPins)),
  ];
  let results: D1Result[];
  try {
    results = await db.batch(statements);
  } catch (error) {
    // A record elsewhere still names the account (a business's, written after the check above):
    // the batch is one transaction, so nothing was deleted.
    if (error instanceof Error && /FOREIGN KEY constraint failed/.test(error.message)) throw new DomainError("conflict", { message: "personal:data.inBusinessRecords", cause: error });
    throw error;
  }
  // Their sessions are gone from D1; this isolate's copies go now (others' within seconds).
  forgetSessions({ userIds: [userId] });
  return { existed: (results[statements.indexOf(deleteUser)]?.meta.changes ?? 0) > 0, pinIds: touchedIds.pinIds, boardSlugs: touchedIds.boardSlugs };
}
