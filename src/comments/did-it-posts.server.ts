// Tried-it posts (spec 001 §3 "Did-it data"): a did-it with its text and an
// optional photo. One per person per pin (did_its UNIQUE (pin_id, user_id)): posting again
// rewrites the post; pins.did_it_images_count is recounted from the rows in each change's batch. Likes and helpful marks stay DidItLikeResource / DidItHelpfulResource.
import { requireWriteAllowed, type Viewer } from "~/accounts/guards.server.ts";
import { encodeKeyset, keysetPageOf, type Keyset } from "~/feeds/cursor.ts";
import { mediaUrl } from "~/media/media.ts";
import { badRequest, conflict, forbidden, notFound, storageUnavailable } from "~/domain/errors.ts";
import { written, type Written } from "~/domain/written.ts";
import { enforce, RATE_RULES } from "~/server/rate-limit.server.ts";
import { blockedError, loadVisiblePin, requirePinReaction } from "~/social/guard.server.ts";
import { userImageUrl } from "~/users/user.ts";
import { visibleFlagSql } from "~/visibility/visibility.server.ts";
import { didItNews } from "~/news/record.server.ts";
import { ANONYMOUS_USER, type DidItPost } from "./comment.ts";
import { DID_IT_PHOTO_MAX_BYTES, DID_IT_UPLOAD_TTL_MS, IMAGE_SIGNATURE, didItPhotoKey, sniffPhoto } from "./photo.ts";
import { stripPhotoMetadata } from "./strip-metadata.ts";

const POST_COLUMNS = `d.id, d.pin_id, d.user_id, d.details, d.image_key, d.like_count, d.helpful_count, d.comment_count, d.created_at,
  u.username, u.full_name, u.image_key AS user_image_key, ${visibleFlagSql("profile", { user: "u" }, "?2")} AS author_visible,
  EXISTS (SELECT 1 FROM did_it_marks m WHERE m.did_it_id = d.id AND m.user_id = ?2 AND m.kind = 'like') AS liked_by_me,
  EXISTS (SELECT 1 FROM did_it_marks m WHERE m.did_it_id = d.id AND m.user_id = ?2 AND m.kind = 'helpful') AS helpful_by_me`;

interface PostRow {
  id: number;
  pin_id: number;
  user_id: number;
  details: string;
  image_key: string | null;
  like_count: number;
  helpful_count: number;
  comment_count: number;
  created_at: number;
  username: string;
  full_name: string;
  user_image_key: string | null;
  /** 1 when the viewer may see the author's profile; otherwise the author is answered anonymous. */
  author_visible: number;
  liked_by_me: number;
  helpful_by_me: number;
}

function toPost(row: PostRow): DidItPost {
  return {
    id: String(row.id),
    pin_id: String(row.pin_id),
    user: row.author_visible === 1 ? { id: String(row.user_id), username: row.username, full_name: row.full_name, image_medium_url: userImageUrl(row.user_image_key, "medium") } : { ...ANONYMOUS_USER },
    details: row.details,
    image_url: row.image_key === null ? null : mediaUrl(row.image_key),
    like_count: row.like_count,
    liked_by_me: row.liked_by_me === 1,
    helpful_count: row.helpful_count,
    marked_helpful_by_me: row.helpful_by_me === 1,
    comment_count: row.comment_count,
    created_at: row.created_at,
  };
}

/** The pin's did-it count recounted from its rows (it counts every did-it, with or without a photo). */
const recountDidIts = (db: D1Database, pinId: number) =>
  db.prepare("UPDATE pins SET did_it_images_count = (SELECT COUNT(*) FROM did_its WHERE pin_id = ?1) WHERE id = ?1").bind(pinId);

/** An upload signature this viewer may attach to a post on this pin, not yet expired (SQL, ?1 pin, ?2 viewer, ?3 signature, ?4 oldest). */
const UPLOAD_USABLE = "SELECT 1 FROM did_it_uploads up WHERE up.signature = ?3 AND up.user_id = ?2 AND up.pin_id = ?1 AND up.created_at >= ?4";

/** The R2 key of the viewer's own upload for this pin with this signature; 400 when there is none. */
async function ownPhotoKey(db: D1Database, pinId: number, viewerId: number, signature: string, now: number): Promise<string> {
  if (!IMAGE_SIGNATURE.test(signature)) throw badRequest([{ field: "image_signature", reason: "validation.invalidFormat" }]);
  const row = await db
    .prepare(`SELECT r2_key FROM did_it_uploads up WHERE EXISTS (${UPLOAD_USABLE}) AND up.signature = ?3`)
    .bind(pinId, viewerId, signature, now - DID_IT_UPLOAD_TTL_MS)
    .first<{ r2_key: string }>();
  if (!row) throw badRequest([{ field: "image_signature", reason: "comments:validation.unknownPhoto" }]);
  return row.r2_key;
}

/**
 * Posts (or rewrites) the viewer's tried-it on a pin. The INSERT re-checks in SQL what was read
 * first (the pin there, no block with its owner, the upload still the viewer's for this pin),
 * in the one batch that recounts the pin and consumes the upload: a race leaves nothing written.
 */
export async function createDidItPost(db: D1Database, viewer: Viewer, pinId: number, details: string, signature: string | undefined): Promise<Written<DidItPost & { images_count: number }>> {
  const { viewerId } = await requirePinReaction(db, viewer, pinId);
  const now = Date.now();
  const imageKey = signature === undefined ? null : await ownPhotoKey(db, pinId, viewerId, signature, now);
  await enforce(db, RATE_RULES.didItPostPerUser, viewerId);
  const results = await db.batch([
    // The photo this write replaces, read in the batch itself: a read before it could miss a
    // concurrent rewrite and delete the wrong file (or leave the replaced one in R2 for ever).
    db.prepare("SELECT image_key FROM did_its WHERE pin_id = ?1 AND user_id = ?2").bind(pinId, viewerId),
    db
      .prepare(
        `INSERT INTO did_its (pin_id, user_id, details, image_key, created_at)
         SELECT p.id, ?2, ?5, ?6, ?7 FROM pins p
         WHERE p.id = ?1 AND p.is_deleted = 0
           AND NOT EXISTS (SELECT 1 FROM blocks k WHERE (k.blocker_id = p.pinner_id AND k.blocked_id = ?2) OR (k.blocker_id = ?2 AND k.blocked_id = p.pinner_id))
           AND (?3 IS NULL OR EXISTS (${UPLOAD_USABLE}))
         ON CONFLICT(pin_id, user_id) DO UPDATE SET details = excluded.details, image_key = excluded.image_key`,
      )
      .bind(pinId, viewerId, signature ?? null, now - DID_IT_UPLOAD_TTL_MS, details, imageKey, now),
    recountDidIts(db, pinId),
    // The upload is spent once its post holds it (only then: the post may not have been written).
    db.prepare("DELETE FROM did_it_uploads WHERE signature = ?1 AND EXISTS (SELECT 1 FROM did_its WHERE pin_id = ?2 AND user_id = ?3 AND image_key = ?4)").bind(signature ?? null, pinId, viewerId, imageKey),
    // A new post (not a rewrite) tells the pin's pinner, in this batch.
    ...didItNews(db, viewerId, pinId, now),
    db
      .prepare(`SELECT ${POST_COLUMNS}, (SELECT did_it_images_count FROM pins WHERE id = ?1) AS images_count FROM did_its d JOIN users u ON u.id = d.user_id WHERE d.pin_id = ?1 AND d.user_id = ?2`)
      .bind(pinId, viewerId),
  ]);
  const row = results.at(-1)?.results?.[0] as (PostRow & { images_count: number }) | undefined;
  if ((results[1]?.meta.changes ?? 0) === 0 || !row) {
    // Something changed between the checks and the write: say what, from the rows as they are now.
    await requirePinReaction(db, viewer, pinId);
    if (signature !== undefined) await ownPhotoKey(db, pinId, viewerId, signature, Date.now());
    throw conflict("comments:api.changed");
  }
  // A rewritten post's replaced photo is no longer shown anywhere.
  const replaced = (results[0]?.results?.[0] as { image_key: string | null } | undefined)?.image_key ?? null;
  const orphans = replaced !== null && replaced !== row.image_key ? [replaced] : [];
  // The pin's count after the change rides along, so the page can show it without a reload.
  return written({ ...toPost(row), images_count: row.images_count }, [`/pin/${pinId}/`], orphans);
}

/** Its author or the pin's owner deletes a tried-it post; the pin's count follows in the batch. */
export async function deleteDidItPost(db: D1Database, viewer: Viewer, didItId: number): Promise<Written<{ id: string; images_count: number }>> {
  const viewerId = requireWriteAllowed(viewer).user.id;
  const didIt = await db
    .prepare("SELECT d.pin_id, d.user_id, d.image_key, p.pinner_id FROM did_its d JOIN pins p ON p.id = d.pin_id WHERE d.id = ?1")
    .bind(didItId)
    .first<{ pin_id: number; user_id: number; image_key: string | null; pinner_id: number }>();
  if (!didIt || !(await loadVisiblePin(db, didIt.pin_id, viewerId))) throw notFound("social:api.didItNotFound");
  if (didIt.user_id !== viewerId && didIt.pinner_id !== viewerId) throw forbidden("comments:api.onlyAuthorOrOwner");
  const results = await db.batch([
    db.prepare("DELETE FROM did_its WHERE id = ?1").bind(didItId),
    recountDidIts(db, didIt.pin_id),
    db.prepare("SELECT did_it_images_count AS count FROM pins WHERE id = ?1").bind(didIt.pin_id),
  ]);
  const count = (results.at(-1)?.results?.[0] as { count: number } | undefined)?.count ?? 0;
  // The photo goes with its post, after the answer.
  return written({ id: String(didItId), images_count: count }, [`/pin/${didIt.pin_id}/`], didIt.image_key === null ? [] : [didIt.image_key]);
}

/** A pin's tried-it posts, newest first: those with text or a photo, none from a blocked person. */
export async function listDidItPosts(db: D1Database, viewerId: number | null, pinId: number, bookmark: Keyset | null, size: number) {
  const pin = await loadVisiblePin(db, pinId, viewerId);
  if (!pin) throw notFound("api.pinNotFound");
  if (pin.blocked === 1) throw blockedError();
  const rows = await db
    .prepare(
      `SELECT ${POST_COLUMNS} FROM did_its d JOIN users u ON u.id = d.user_id
       WHERE d.pin_id = ?1 AND (d.details != '' OR d.image_key IS NOT NULL)
         AND NOT EXISTS (SELECT 1 FROM blocks k WHERE (k.blocker_id = d.user_id AND k.blocked_id = ?2) OR (k.blocker_id = ?2 AND k.blocked_id = d.user_id))
         ${bookmark ? "AND (d.created_at, d.id) < (?3, ?4)" : ""}
       ORDER BY d.created_at DESC, d.id DESC LIMIT ?5`,
    )
    .bind(pinId, viewerId, bookmark ? Number(bookmark.key) : null, bookmark?.id ?? null, size + 1)
    .all<PostRow>();
  return keysetPageOf(rows.results, size, (row) => encodeKeyset(row.created_at, row.id), toPost);
}

function randomSignature(): string {
  return [...crypto.getRandomValues(new Uint8Array(16))].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * Stores one tried-it photo (the multipart `photo` field: JPEG, PNG or WebP by its bytes, at
 * most 5 MB) for a pin the viewer may react to. Its metadata (EXIF with GPS, XMP, text) is
 * stripped before it is stored; the signature answered is good only for this viewer on this
 * pin, and only until DID_IT_UPLOAD_TTL_MS (then the housekeeping deletes the file).
 */
export async function storeDidItPhoto(db: D1Database, media: R2Bucket, viewer: Viewer, pinId: number, photo: unknown): Promise<{ image_signature: string }> {
  const { viewerId } = await requirePinReaction(db, viewer, pinId);
  if (!(photo instanceof File)) throw badRequest([{ field: "photo", reason: "validation.required" }]);
  if (photo.size > DID_IT_PHOTO_MAX_BYTES) throw badRequest([{ field: "photo", reason: "comments:validation.photoTooBig", values: { maximum: 5 } }]);
  const bytes = new Uint8Array(await photo.arrayBuffer());
  const extension = sniffPhoto(bytes);
  if (extension === null) throw badRequest([{ field: "photo", reason: "comments:validation.photoType" }]);
  const stripped = stripPhotoMetadata(bytes, extension);
  if (stripped === null) throw badRequest([{ field: "photo", reason: "comments:validation.photoType" }]);
  const signature = randomSignature();
  const key = didItPhotoKey(signature, extension);
  // The row first: a file in R2 is never without the row that lets housekeeping delete it.
  await db.prepare("INSERT INTO did_it_uploads (signature, user_id, pin_id, r2_key, created_at) VALUES (?1, ?2, ?3, ?4, ?5)")
    .bind(signature, viewerId, pinId, key, Date.now())
    .run();
  try {
    await media.put(key, stripped, {
      httpMetadata: { contentType: extension === "jpg" ? "image/jpeg" : `image/${extension}` },
      customMetadata: { user_id: String(viewerId), pin_id: String(pinId) },
    });
  } catch (error) {
    // No row may name a file that is not there. Its signature was never answered, so nothing
    // can attach it meanwhile; should this delete fail too, housekeeping deletes the row (a
    // missing file deletes cleanly) once it is past DID_IT_UPLOAD_TTL_MS.
    await db.prepare("DELETE FROM did_it_uploads WHERE signature = ?1").bind(signature).run().catch(() => undefined);
    throw storageUnavailable(error);
  }
  return { image_signature: signature };
}

/**
 * Housekeeping: uploads never attached to a post within DID_IT_UPLOAD_TTL_MS go, R2 files and
 * rows, at most `limit` per run. The files go first and only then their rows: a failed R2
 * delete leaves the rows for the next run to retry, where deleting the rows first would leave
 * files no row points at any more. A post cannot attach an upload in between: it only takes
 * uploads younger than the same TTL (UPLOAD_USABLE), and these are older.
 */
export async function purgeStaleUploads(db: D1Database, media: R2Bucket, now = Date.now(), limit = 500): Promise<number> {
  const cutoff = now - DID_IT_UPLOAD_TTL_MS;
  const stale = await db
    .prepare("SELECT signature, r2_key FROM did_it_uploads WHERE created_at < ?1 ORDER BY created_at LIMIT ?2")
    .bind(cutoff, limit)
    .all<{ signature: string; r2_key: string }>();
  if (stale.results.length === 0) return 0;
  await media.delete(stale.results.map((row) => row.r2_key));
  const gone = await db
    .prepare("DELETE FROM did_it_uploads WHERE created_at < ?1 AND signature IN (SELECT value FROM json_each(?2))")
    .bind(cutoff, JSON.stringify(stale.results.map((row) => row.signature)))
    .run();
  return gone.meta.changes ?? 0;
}
