// The reads a story draft's checks need: which sticker targets the author may see (the one
// visibility rule), and the measured size of each upload a story names. The drafts themselves
// are pin drafts (pin_drafts, src/builder/drafts.server.ts).
import { publishableUploads } from "~/media/uploads.server.ts";
import type { PublishableUpload } from "~/builder/publish.ts";
import { visibleSql } from "~/visibility/visibility.server.ts";
import { stickerTargets, type StoryDraft } from "./story-draft.ts";
import { storyUploadIds } from "./story-publish.ts";

/**
 * The sticker targets of a story that the viewer may see, named as stickerTarget names them: a
 * person whose profile the viewer may see and with whom no block stands either way (a blocked
 * person cannot be mentioned: their sticker is marked removed, and publishing tells them
 * nothing), a product pin the viewer may open. A missing one, a
 * hidden one and one that is not a product give the same answer, so nothing leaks through a
 * sticker.
 */
export async function visibleStickerTargets(db: D1Database, viewerId: number, story: StoryDraft | null): Promise<Set<string>> {
  if (story === null) return new Set();
  const { userIds, pinIds } = stickerTargets(story);
  const [users, pins] = await Promise.all([
    userIds.length === 0
      ? []
      : db
          .prepare(
            `SELECT u.id FROM users u WHERE u.id IN (SELECT CAST(value AS INTEGER) FROM json_each(?1)) AND ${visibleSql("profile", { user: "u" }, "?2")}
               AND NOT EXISTS (SELECT 1 FROM blocks k WHERE (k.blocker_id = u.id AND k.blocked_id = ?2) OR (k.blocker_id = ?2 AND k.blocked_id = u.id))`,
          )
          .bind(JSON.stringify(userIds), viewerId)
          .all<{ id: number }>()
          .then((answer) => answer.results),
    pinIds.length === 0
      ? []
      : db
          .prepare(
            `SELECT p.id FROM pins p
             JOIN users pu ON pu.id = p.pinner_id
             LEFT JOIN boards b ON b.id = p.board_id
             WHERE p.id IN (SELECT CAST(value AS INTEGER) FROM json_each(?1)) AND p.kind = 'product'
               AND ${visibleSql("pin", { pin: "p", board: "b", pinner: "pu" }, "?2")}`,
          )
          .bind(JSON.stringify(pinIds), viewerId)
          .all<{ id: number }>()
          .then((answer) => answer.results),
  ]);
  return new Set([...users.map((row) => `user:${row.id}`), ...pins.map((row) => `pin:${row.id}`)]);
}

/** The author's uploads a story names, with their measured sizes; another person's are absent. */
export async function storyUploads(db: D1Database, userId: number, story: StoryDraft | null): Promise<Map<string, PublishableUpload>> {
  return publishableUploads(db, userId, storyUploadIds(story));
}
