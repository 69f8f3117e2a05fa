// Publishing a draft: now (the pin is made in one batch with its images, its board place, its
// counts, its search entry and the draft's end) or at a time (the draft becomes a scheduled pin
// in one batch, and the cron trigger publishes it with the same statements). Every batch
// carries a guard: when the draft or its uploads changed since they were read, nothing applies.
import { forgetSessions } from "~/accounts/session.server.ts";
import { decide } from "~/boards/policy.ts";
import { recountBoards, recountUserPins } from "~/boards/counts.server.ts";
import { frontPosition } from "~/boards/positions.ts";
import { boardPath, profilePaths } from "~/boards/write.server.ts";
import { loadBoardSave } from "~/saves/saves.server.ts";
import { badRequest, conflict, DomainError, notFound, type FieldProblem } from "~/domain/errors.ts";
import { escapeHtml } from "~/html/sanitize.server.ts";
import { attachUploadsStatement, firstUploadsOf, publishableUploads, releaseUploadsStatement, UPLOADS_ATTACHED_SQL } from "~/media/uploads.server.ts";
import { isWriteRefused, writeGuard } from "~/server/write-guard.server.ts";
import { scheduledPublishNews, storyMentionNews } from "~/news/record.server.ts";
import { blockedHostsAmong, findDraft, type DraftAnswer } from "./drafts.server.ts";
import { linkHost, linkProblem, readStoredDraft, storedDraftSchema, validateDraft, type PinDraft } from "./drafts.ts";
import { pinTagProblems, pinTagStatements } from "./pin-tags.server.ts";
import { draftUploadIds, planPin, type PinPlan } from "./publish.ts";
import { scheduledInstant, scheduleProblems } from "./schedule.ts";
import { markRemovedStickers, storyLinkFields, validateStory, type StoryDraft } from "~/stories/story-draft.ts";
import { visibleStickerTargets } from "~/stories/story-drafts.server.ts";
import { planStory, storyUploadIds } from "~/stories/story-publish.ts";

/** What a publish answers (the builder's publishing statuses: spec 001 §4). */
export type PublishAnswer =
  | { status: "succeeded"; draft_id: string; pin: { id: string; url: string; type: PinPlan["kind"] } }
  | { status: "scheduled"; draft_id: string; scheduled_pin: { id: string; title: string; scheduled_ts: number } };

/** Where the pin lands and the pages it changes. */
interface Placement {
  boardId: number;
  sectionId: number | null;
  position: number;
  /** The board's signed-out pages: the board and its owner's profile. */
  pages: string[];
  /** The people a story's mention stickers name that the author may name now (none for other pins). */
  mentioned: number[];
}

/**
 * Pin ids are random in [2^52, 2^53): exact as JavaScript numbers, sixteen digits, and not
 * guessable, so a pin's id says nothing about anyone's other pins. A collision is refused by
 * the primary key, never overwritten.
 */
function newPinId(): number {
  const [high, low] = crypto.getRandomValues(new Uint32Array(2)) as unknown as [number, number];
  return 2 ** 52 + (high & 0xfffff) * 2 ** 32 + low;
}

function draftLinks(draft: PinDraft): string[] {
  const storyLinks = draft.story ? storyLinkFields(draft.story).map((each) => each.link) : [];
  return [draft.websiteLink, ...draft.items.map((item) => item.link ?? ""), ...storyLinks].flatMap((link) => {
    const host = link ? linkHost(link) : null;
    return host ? [host] : [];
  });
}

/**
 * Everything that must hold before a draft publishes, with its plan and its board place: the
 * field rules (links against the blocked hosts), the media (planPin), the board (the person
 * may save a pin to it; the section is on it) and, when scheduling, the time.
 */
async function prepare(db: D1Database, userId: number, draft: PinDraft, now: number, reserved: number | null): Promise<{ plan: PinPlan; placement: Placement }> {
  const story = draft.type === "story";
  const [blocked, uploads, board, tagProblems, visibleTargets] = await Promise.all([
    blockedHostsAmong(db, draftLinks(draft)),
    publishableUploads(db, userId, story ? storyUploadIds(draft.story) : draftUploadIds(draft)),
    draft.boardId === null ? null : loadBoardSave(db, userId, Number(draft.boardId), 0, draft.sectionId === null ? null : Number(draft.sectionId)),
    pinTagProblems(db, userId, draft),
    story ? visibleStickerTargets(db, userId, draft.story) : new Set<string>(),
  ]);
  const problems: FieldProblem[] = [...validateDraft(draft, blocked), ...tagProblems, ...(story && draft.story ? validateStory(draft.story) : [])];
  // A story's links were checked when saved; a host blocked since (or while it waited to publish) stops it now.
  for (const { field, link } of story && draft.story ? storyLinkFields(draft.story) : []) {
    const reason = linkProblem(link, blocked);
    if (reason) problems.push({ field, reason });
  }
  const planned = story ? planStory(draft, uploads, visibleTargets, reserved) : planPin(draft, uploads, reserved);
  if ("problems" in planned) problems.push(...planned.problems);
  if (draft.boardId !== null && (!board || decide(board.role, "save_pin", board.isPrivate) !== "ok")) problems.push({ field: "boardId", reason: "builder:validation.boardNotWritable" });
  else if (draft.sectionId !== null && board?.sectionBoardId !== board?.board.id) problems.push({ field: "sectionId", reason: "builder:validation.sectionNotOnBoard" });
  if (draft.publishOption === "schedule" && reserved === null) problems.push(...scheduleProblems(draft, now));
  if (problems.length > 0 || "problems" in planned || !board) throw badRequest(problems);
  return {
    plan: planned.plan,
    placement: {
      boardId: board.board.id,
      sectionId: draft.sectionId === null ? null : Number(draft.sectionId),
      position: frontPosition(board.head),
      pages: [boardPath(board.ownerUsername, board.board.slug), ...profilePaths(board.ownerUsername)],
      mentioned: story && draft.story ? mentionedPeople(markRemovedStickers(draft.story, visibleTargets)) : [],
    },
  };
}

/** The people a story's live mention stickers name (a removed one tells no one), once each. */
function mentionedPeople(story: StoryDraft): number[] {
  const ids = story.pages.flatMap((page) => page.blocks).flatMap((block) => (block.type === "mention_sticker" && !block.isRemoved && block.userId !== null ? [Number(block.userId)] : []));
  return [...new Set(ids)];
}

/** The statements that make pin `pinId` from its plan: the pin, its images and video, its interests, its tags, its board place and the counts. */
function pinStatements(db: D1Database, userId: number, pinId: number, draft: PinDraft, plan: PinPlan, placement: Placement, now: number): D1PreparedStatement[] {
  const statements = [
    db
      .prepare(
        `INSERT INTO pins (id, pinner_id, native_creator_id, board_id, section_id, kind, title, grid_title, description, description_html, alt_text,
                           dominant_color, domain, link, image_signature, comments_disabled, carousel_data, is_shopping_rec_allowed, pin_item_shareable,
                           created_at, updated_at, story_pin_data, category)
         -- A made pin takes its board's category: what related pins and topic feeds go by.
         VALUES (?1, ?2, ?2, ?3, ?4, ?5, ?6, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?18, ?19, (SELECT category FROM boards WHERE id = ?3))`,
      )
      .bind(
        pinId,
        userId,
        placement.boardId,
        placement.sectionId,
        plan.kind,
        plan.title,
        plan.description,
        escapeHtml(plan.description),
        plan.altText,
        plan.dominantColor,
        plan.link === null ? null : linkHost(plan.link),
        plan.link,
        plan.imageSignature,
        plan.commentsDisabled ? 1 : 0,
        plan.carouselData === null ? null : JSON.stringify(plan.carouselData),
        plan.isShoppingRecAllowed ? 1 : 0,
        plan.pinItemShareable ? 1 : 0,
        now,
        plan.storyPinData === null ? null : JSON.stringify(plan.storyPinData),
      ),
    db
      .prepare(
        `INSERT INTO pin_images (pin_id, size, url, width, height, dominant_color)
         SELECT ?1, json_extract(value, '$.size'), json_extract(value, '$.url'), json_extract(value, '$.width'), json_extract(value, '$.height'), ?3
         FROM json_each(?2)`,
      )
      .bind(pinId, JSON.stringify(plan.images), plan.dominantColor),
    db
      .prepare("INSERT INTO pin_interests (pin_id, interest_id) SELECT ?1, i.id FROM interests i WHERE i.id IN (SELECT value FROM json_each(?2))")
      .bind(pinId, JSON.stringify(plan.interestIds)),
    db
      .prepare(
        `INSERT INTO board_pins (board_id, pin_id, section_id, saved_by, position, created_at)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6 WHERE ?3 IS NULL OR EXISTS (SELECT 1 FROM board_sections s WHERE s.id = ?3 AND s.board_id = ?1)`,
      )
      .bind(placement.boardId, pinId, placement.sectionId, userId, placement.position, now),
    db
      .prepare("INSERT INTO recent_boards (user_id, board_id, saved_at) VALUES (?1, ?2, ?3) ON CONFLICT (user_id, board_id) DO UPDATE SET saved_at = excluded.saved_at")
      .bind(userId, placement.boardId, now),
    db.prepare("UPDATE boards SET updated_at = ?2 WHERE id = ?1").bind(placement.boardId, now),
    ...pinTagStatements(db, pinId, draft, now),
    ...recountBoards(db, [placement.boardId]),
    recountUserPins(db, [userId]),
    // Publishing (now, or when a scheduled story goes live) tells each mentioned person, in this batch.
    ...storyMentionNews(db, userId, pinId, placement.mentioned, now),
  ];
  if (plan.video) {
    const video = plan.video;
    statements.splice(
      2,
      0,
      db
        .prepare("INSERT INTO pin_video_formats (pin_id, format, url, mime_type, width, height, duration_ms, thumbnail) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)")
        .bind(pinId, video.format, video.url, video.mimeType, video.width, video.height, video.durationMs, video.thumbnail),
    );
  }
  return statements;
}

/** Scheduled pins one person may keep at once: as many as their list shows. */
const MAX_SCHEDULED_PER_PERSON = 100;
const tooManyScheduled = () => new DomainError("conflict", { message: "builder:api.tooManyScheduled", values: { maximum: MAX_SCHEDULED_PER_PERSON } });

async function scheduledCount(db: D1Database, userId: number): Promise<number> {
  return (await db.prepare("SELECT count(*) AS n FROM scheduled_pins WHERE user_id = ?1").bind(userId).first<{ n: number }>())?.n ?? 0;
}

/** users.scheduled_pin_count is part of the viewer a session carries: this isolate's cached sessions of the person go. */
function recountScheduled(db: D1Database, userId: number): D1PreparedStatement {
  forgetSessions({ userIds: [userId] });
  return db.prepare("UPDATE users SET scheduled_pin_count = (SELECT count(*) FROM scheduled_pins s WHERE s.user_id = users.id) WHERE id = ?1").bind(userId);
}

/** After a refused batch: the draft changed or went (409), else its uploads were taken meanwhile (400). */
async function refusal(db: D1Database, userId: number, stored: { draft: DraftAnswer; version: number }, placement: Placement): Promise<Error> {
  const now = await findDraft(db, userId, Number(stored.draft.id));
  if (!now || now.version !== stored.version) return conflict("builder:api.draftChanged");
  if (!(await db.prepare("SELECT 1 FROM boards WHERE id = ?1").bind(placement.boardId).first())) return badRequest([{ field: "boardId", reason: "builder:validation.boardNotWritable" }]);
  if (stored.draft.publishOption === "schedule" && (await scheduledCount(db, userId)) >= MAX_SCHEDULED_PER_PERSON) return tooManyScheduled();
  if (stored.draft.type === "story") return badRequest([{ field: "story.pages", reason: "builder:validation.mediaNotReady" }]);
  return badRequest(stored.draft.items.map((_, at) => ({ field: `items.${at}.media`, reason: "builder:validation.mediaNotReady" })));
}

/**
 * Publishes the person's draft as its publish option says: now, or at its scheduled time.
 * `also` joins the batch (a client request's claim). A draft of someone else is missing.
 */
export async function publishDraft(db: D1Database, userId: number, draftId: number, also: readonly D1PreparedStatement[] = [], now = Date.now()): Promise<{ answer: PublishAnswer; stale: string[] }> {
  const stored = await findDraft(db, userId, draftId);
  if (!stored) throw notFound("builder:api.draftNotFound");
  const draft = stored.draft;
  const { plan, placement } = await prepare(db, userId, draft, now, null);
  const pinId = newPinId();
  const scheduling = draft.publishOption === "schedule";
  if (scheduling && (await scheduledCount(db, userId)) >= MAX_SCHEDULED_PER_PERSON) throw tooManyScheduled();
  // The one guard: the uploads all taken, the draft ended at the version read, the board still
  // there, and (scheduling) room left under the per-person limit.
  const guard = `${UPLOADS_ATTACHED_SQL} AND NOT EXISTS (SELECT 1 FROM pin_drafts WHERE id = ?4) AND EXISTS (SELECT 1 FROM boards WHERE id = ?5)
                 AND (?6 = 0 OR (SELECT count(*) FROM scheduled_pins WHERE user_id = ?7) < ?8)`;
  const ends = [
    ...also,
    attachUploadsStatement(db, userId, plan.uploadIds, pinId, scheduling ? "uploaded" : "published"),
    db.prepare("DELETE FROM pin_drafts WHERE id = ?1 AND user_id = ?2 AND version = ?3").bind(draftId, userId, stored.version),
    writeGuard(db, "draft-or-uploads-changed", guard, pinId, plan.uploadIds.length, draftId, placement.boardId, scheduling ? 1 : 0, userId, MAX_SCHEDULED_PER_PERSON),
  ];
  const scheduledTs = scheduling ? scheduledInstant(draft) : 0;
  const statements = scheduling
    ? [
        ...ends,
        db
          .prepare("INSERT INTO scheduled_pins (user_id, pin_id, board_id, title, draft, scheduled_ts, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) RETURNING id")
          .bind(userId, pinId, placement.boardId, plan.title, JSON.stringify(storedDraftSchema.parse(draft)), scheduledTs, now),
        recountScheduled(db, userId),
      ]
    : [...ends, ...pinStatements(db, userId, pinId, draft, plan, placement, now)];
  let results: D1Result[];
  try {
    results = await db.batch(statements);
  } catch (error) {
    if (isWriteRefused(error)) throw await refusal(db, userId, stored, placement);
    throw error;
  }
  if (scheduling) {
    const scheduled = results[ends.length]?.results[0] as { id: number } | undefined;
    return {
      answer: { status: "scheduled", draft_id: draft.id, scheduled_pin: { id: String(scheduled?.id), title: plan.title, scheduled_ts: scheduledTs } },
      stale: [],
    };
  }
  return { answer: { status: "succeeded", draft_id: draft.id, pin: { id: String(pinId), url: `/pin/${pinId}/`, type: plan.kind } }, stale: placement.pages };
}

// --- Scheduled pins ----------------------------------------------------------------------------

export interface ScheduledPinAnswer {
  id: string;
  title: string;
  scheduled_ts: number;
  board: { id: string; name: string };
  image_url: string | null;
}

interface ScheduledRow {
  id: number;
  user_id: number;
  pin_id: number;
  board_id: number;
  title: string;
  draft: string;
  scheduled_ts: number;
}



/** The person's scheduled pins, soonest first (spec 001 §4: kept ordered by scheduled_ts). */
export async function listScheduledPins(db: D1Database, userId: number): Promise<ScheduledPinAnswer[]> {
  const { results } = await db
    .prepare(
      `SELECT s.id, s.pin_id, s.title, s.scheduled_ts, b.id AS board_id, b.name AS board_name
       FROM scheduled_pins s JOIN boards b ON b.id = s.board_id
       WHERE s.user_id = ?1 ORDER BY s.scheduled_ts, s.id LIMIT ?2`,
    )
    .bind(userId, MAX_SCHEDULED_PER_PERSON)
    .all<{ id: number; pin_id: number; title: string; scheduled_ts: number; board_id: number; board_name: string }>();
  const uploads = await firstUploadsOf(db, userId, results.map((row) => row.pin_id));
  return results.map((row) => ({
    id: String(row.id),
    title: row.title,
    scheduled_ts: row.scheduled_ts,
    board: { id: String(row.board_id), name: row.board_name },
    image_url: uploads.get(row.pin_id)?.images?.["236x"]?.url ?? null,
  }));
}

/** Moves a scheduled pin to another time (it takes its new place in the order); null when it is not the person's. */
export async function rescheduleScheduledPin(db: D1Database, userId: number, id: number, when: { scheduledDate: string; scheduledTime: string; timeZone: string }, now = Date.now()): Promise<ScheduledPinAnswer | null> {
  const problems = [...validateDraft({ ...readStoredDraft("{}"), ...when }, new Set()), ...scheduleProblems(when, now)];
  if (problems.length > 0) throw badRequest(problems);
  const at = scheduledInstant(when);
  const row = await db
    .prepare(
      `UPDATE scheduled_pins SET scheduled_ts = ?3, failed_at = NULL,
              draft = json_set(draft, '$.scheduledDate', ?4, '$.scheduledTime', ?5, '$.timeZone', ?6)
       WHERE id = ?1 AND user_id = ?2 RETURNING id`,
    )
    .bind(id, userId, at, when.scheduledDate, when.scheduledTime, when.timeZone)
    .first<{ id: number }>();
  if (!row) return null;
  return (await listScheduledPins(db, userId)).find((each) => each.id === String(id)) ?? null;
}

/** Cancels a scheduled pin: it goes, and its uploads are free again. False when it is not the person's. */
export async function cancelScheduledPin(db: D1Database, userId: number, id: number): Promise<boolean> {
  const row = await db.prepare("SELECT pin_id FROM scheduled_pins WHERE id = ?1 AND user_id = ?2").bind(id, userId).first<{ pin_id: number }>();
  if (!row) return false;
  const [deleted] = await db.batch([
    db.prepare("DELETE FROM scheduled_pins WHERE id = ?1 AND user_id = ?2").bind(id, userId),
    releaseUploadsStatement(db, userId, row.pin_id),
    recountScheduled(db, userId),
  ]);
  return (deleted?.meta.changes ?? 0) > 0;
}

/** Scheduled pins one cron run publishes at most; the rest wait a minute. */
const DUE_PER_RUN = 50;
/** A pin storage keeps failing to publish is given back to its person's drafts after this long. */
const GIVE_UP_AFTER_MS = 60 * 60 * 1000;

export interface ScheduledRun {
  published: number;
  /** Could not publish (the board or the media went, the account may no longer write, or it kept failing): back in the person's drafts. */
  returned: number;
  /** Published by an overlapping run first, or cancelled meanwhile. */
  skipped: number;
  /** Storage failed; tried again on a later run, after the pins that have not failed. */
  failed: number;
}

/**
 * Publishes the scheduled pins that are due. Each pin's batch inserts it under the id chosen
 * when it was scheduled and deletes its scheduled row, guarded on that row: two runs that
 * overlap cannot both publish it (the later batch meets the earlier's pin and rolls back
 * whole). A pin that can no longer publish goes back to the person's drafts with its uploads,
 * rather than vanishing. While pin creation is switched off nothing publishes; the pins wait.
 */
export async function publishDueScheduledPins(db: D1Database, now = Date.now(), options: { creationDisabled?: boolean } = {}): Promise<ScheduledRun> {
  const run: ScheduledRun = { published: 0, returned: 0, skipped: 0, failed: 0 };
  if (options.creationDisabled) return run;
  // Pins that failed before go after the rest, so a few that keep failing never hold up the others.
  const { results } = await db
    .prepare(
      `SELECT s.id, s.user_id, s.pin_id, s.board_id, s.title, s.draft, s.scheduled_ts, s.failed_at, u.is_write_banned
       FROM scheduled_pins s JOIN users u ON u.id = s.user_id
       WHERE s.scheduled_ts <= ?1 ORDER BY s.failed_at IS NOT NULL, s.scheduled_ts, s.id LIMIT ?2`,
    )
    .bind(now, DUE_PER_RUN)
    .all<ScheduledRow & { failed_at: number | null; is_write_banned: number }>();
  for (const row of results) {
    const draft = readStoredDraft(row.draft);
    const givenUp = row.failed_at !== null && now - row.scheduled_ts > GIVE_UP_AFTER_MS;
    let prepared: { plan: PinPlan; placement: Placement } | null = null;
    if (row.is_write_banned !== 1 && !givenUp) {
      try {
        prepared = await prepare(db, row.user_id, draft, now, row.pin_id);
      } catch (error) {
        // Refused by the rules: it cannot publish as it stands. Anything else (storage away) is
        // tried again on a later run.
        if (!(error instanceof DomainError)) {
          await markFailed(db, row.id, now);
          run.failed++;
          continue;
        }
      }
    }
    const stillScheduled = writeGuard(db, "scheduled-pin-gone", "EXISTS (SELECT 1 FROM scheduled_pins WHERE id = ?2)", row.id);
    try {
      if (prepared) {
        const { plan, placement } = prepared;
        await db.batch([
          stillScheduled,
          attachUploadsStatement(db, row.user_id, plan.uploadIds, row.pin_id, "published"),
          writeGuard(db, "uploads-or-board-changed", `${UPLOADS_ATTACHED_SQL} AND EXISTS (SELECT 1 FROM boards WHERE id = ?4)`, row.pin_id, plan.uploadIds.length, placement.boardId),
          db.prepare("DELETE FROM scheduled_pins WHERE id = ?1").bind(row.id),
          ...pinStatements(db, row.user_id, row.pin_id, draft, plan, placement, now),
          recountScheduled(db, row.user_id),
          // Its person hears that it is live, in the batch that publishes it.
          ...scheduledPublishNews(db, row.user_id, row.pin_id, now),
        ]);
        run.published++;
      } else {
        // Back to the drafts even past the per-person draft limit: losing the pin would be worse.
        await db.batch([
          stillScheduled,
          db.prepare("DELETE FROM scheduled_pins WHERE id = ?1").bind(row.id),
          releaseUploadsStatement(db, row.user_id, row.pin_id),
          db
            .prepare("INSERT INTO pin_drafts (user_id, draft, version, created_at, updated_at) VALUES (?1, ?2, 1, ?3, ?3)")
            .bind(row.user_id, JSON.stringify({ ...storedDraftSchema.parse(draft), status: "edited", publishingStatus: "attempted", lastSavedTime: null }), now),
          recountScheduled(db, row.user_id),
        ]);
        run.returned++;
      }
    } catch (error) {
      if (isWriteRefused(error) || isPrimaryKeyClash(error)) run.skipped++;
      else {
        await markFailed(db, row.id, now);
        run.failed++;
      }
    }
  }
  return run;
}

/** Notes a failed try, so later runs take the pins that have not failed first (best effort: storage may be away). */
async function markFailed(db: D1Database, id: number, now: number): Promise<void> {
  await db.prepare("UPDATE scheduled_pins SET failed_at = ?2 WHERE id = ?1").bind(id, now).run().catch(() => undefined);
}

const isPrimaryKeyClash = (error: unknown) => error instanceof Error && /UNIQUE constraint failed: pins\.id|PRIMARY KEY/i.test(error.message);
