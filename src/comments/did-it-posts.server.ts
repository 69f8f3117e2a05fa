// Tried-it posts (issue 6 contract, spec 001 §3 "Did-it data"): a did-it with its text and an
// optional photo. One per person per pin (did_its UNIQUE (pin_id, user_id)): posting again
// rewrites the post; pins.did_it_images_count moves only when the row appears or goes, in the
// same batch. Likes and helpful marks stay DidItLikeResource / DidItHelpfulResource.
import type { Context } from "hono";
import { requireWriteAllowed } from "../accounts/guards.server.ts";
import { encodeKeyset, keysetPageOf, type Keyset } from "../feeds/cursor.ts";
import { mediaUrl } from "../media/media.ts";
import type { AppEnv } from "../server/context.ts";
import { ApiError, ErrorCode, badRequest, notFound } from "../server/errors.ts";
import { enforce, RATE_RULES } from "../server/rate-limit.server.ts";
import { blockedError, loadVisiblePin, purgeLater, requirePinReaction } from "../social/guard.server.ts";
import { userImageUrl } from "../users/user.ts";
import type { DidItPost } from "./comment.ts";
import { DID_IT_PHOTO_MAX_BYTES, IMAGE_SIGNATURE, PHOTO_EXTENSIONS, didItPhotoKey, sniffPhoto } from "./photo.ts";

const POST_COLUMNS = `d.id, d.pin_id, d.user_id, d.details, d.image_key, d.like_count, d.helpful_count, d.comment_count, d.created_at,
  u.username, u.full_name, u.image_key AS user_image_key,
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
  liked_by_me: number;
  helpful_by_me: number;
}

function toPost(row: PostRow): DidItPost {
  return {
    id: String(row.id),
    pin_id: String(row.pin_id),
    user: { id: String(row.user_id), username: row.username, full_name: row.full_name, image_medium_url: userImageUrl(row.user_image_key, "medium") },
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

/** The R2 key of the viewer's own uploaded photo with this signature; 400 when there is none. */
async function ownPhotoKey(c: Context<AppEnv>, signature: string, viewerId: number): Promise<string> {
  if (!IMAGE_SIGNATURE.test(signature)) throw badRequest([{ field: "image_signature", reason: "validation.invalidFormat" }]);
  for (const extension of PHOTO_EXTENSIONS) {
    const key = didItPhotoKey(signature, extension);
    const head = await c.env.MEDIA.head(key);
    if (head) {
      if (head.customMetadata?.user_id !== String(viewerId)) break;
      return key;
    }
  }
  throw badRequest([{ field: "image_signature", reason: "comments:validation.unknownPhoto" }]);
}

export async function createDidItPost(c: Context<AppEnv>, pinId: number, details: string, signature: string | undefined): Promise<DidItPost> {
  const db = c.env.DB;
  const { viewerId } = await requirePinReaction(c, pinId);
  const imageKey = signature === undefined ? null : await ownPhotoKey(c, signature, viewerId);
  await enforce(db, RATE_RULES.didItPostPerUser, viewerId);
  const previous = await db.prepare("SELECT image_key FROM did_its WHERE pin_id = ?1 AND user_id = ?2").bind(pinId, viewerId).first<{ image_key: string | null }>();
  const now = Date.now();
  const results = await db.batch([
    db.prepare("UPDATE pins SET did_it_images_count = did_it_images_count + 1 WHERE id = ?1 AND NOT EXISTS (SELECT 1 FROM did_its WHERE pin_id = ?1 AND user_id = ?2)").bind(pinId, viewerId),
    db
      .prepare(
        `INSERT INTO did_its (pin_id, user_id, details, image_key, created_at) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT(pin_id, user_id) DO UPDATE SET details = excluded.details, image_key = excluded.image_key`,
      )
      .bind(pinId, viewerId, details, imageKey, now),
    db.prepare(`SELECT ${POST_COLUMNS} FROM did_its d JOIN users u ON u.id = d.user_id WHERE d.pin_id = ?1 AND d.user_id = ?2`).bind(pinId, viewerId),
  ]);
  const row = results.at(-1)?.results?.[0] as PostRow | undefined;
  if (!row) throw notFound("social:api.didItNotFound");
  purgeLater(c, [`/pin/${pinId}/`]);
  // A rewritten post's replaced photo is no longer shown anywhere.
  const replaced = previous?.image_key ?? null;
  if (replaced !== null && replaced !== row.image_key) c.executionCtx.waitUntil(c.env.MEDIA.delete(replaced).catch(() => undefined));
  return toPost(row);
}

/** Its author or the pin's owner deletes a tried-it post; the pin's count follows in the batch. */
export async function deleteDidItPost(c: Context<AppEnv>, didItId: number): Promise<{ id: string }> {
  const db = c.env.DB;
  const viewerId = requireWriteAllowed(c).user.id;
  const didIt = await db
    .prepare("SELECT d.pin_id, d.user_id, d.image_key, p.pinner_id FROM did_its d JOIN pins p ON p.id = d.pin_id WHERE d.id = ?1")
    .bind(didItId)
    .first<{ pin_id: number; user_id: number; image_key: string | null; pinner_id: number }>();
  if (!didIt || !(await loadVisiblePin(db, didIt.pin_id, viewerId))) throw notFound("social:api.didItNotFound");
  if (didIt.user_id !== viewerId && didIt.pinner_id !== viewerId) throw new ApiError(403, ErrorCode.Forbidden, { message: "comments:api.onlyAuthorOrOwner" });
  await db.batch([
    db.prepare("UPDATE pins SET did_it_images_count = MAX(did_it_images_count - 1, 0) WHERE id = ?1 AND EXISTS (SELECT 1 FROM did_its WHERE id = ?2)").bind(didIt.pin_id, didItId),
    db.prepare("DELETE FROM did_its WHERE id = ?1").bind(didItId),
  ]);
  purgeLater(c, [`/pin/${didIt.pin_id}/`]);
  // The photo goes with its post, after the answer.
  const photoKey = didIt.image_key;
  if (photoKey !== null) c.executionCtx.waitUntil(c.env.MEDIA.delete(photoKey).catch(() => undefined));
  return { id: String(didItId) };
}

/** A pin's tried-it posts, newest first: those with text or a photo, none from a blocked person. */
export async function listDidItPosts(c: Context<AppEnv>, pinId: number, bookmark: Keyset | null, size: number) {
  const db = c.env.DB;
  const viewerId = c.var.ctx.session?.user.id ?? null;
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

/** POST /v3/did_it/photos/: one multipart `photo`, JPEG, PNG or WebP by its bytes, at most 5 MB. */
export async function uploadDidItPhoto(c: Context<AppEnv>): Promise<{ image_signature: string }> {
  const viewerId = requireWriteAllowed(c).user.id;
  const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "multipart/form-data") throw badRequest([{ field: "content-type", reason: "validation.invalidValue", values: { values: "multipart/form-data" } }]);
  const form = await c.req.parseBody();
  const photo = form.photo;
  if (!(photo instanceof File)) throw badRequest([{ field: "photo", reason: "validation.required" }]);
  if (photo.size > DID_IT_PHOTO_MAX_BYTES) throw badRequest([{ field: "photo", reason: "comments:validation.photoTooBig", values: { maximum: 5 } }]);
  const bytes = new Uint8Array(await photo.arrayBuffer());
  const extension = sniffPhoto(bytes);
  if (extension === null) throw badRequest([{ field: "photo", reason: "comments:validation.photoType" }]);
  await enforce(c.env.DB, RATE_RULES.didItPostPerUser, viewerId);
  const signature = randomSignature();
  await c.env.MEDIA.put(didItPhotoKey(signature, extension), bytes, {
    httpMetadata: { contentType: extension === "jpg" ? "image/jpeg" : `image/${extension}` },
    customMetadata: { user_id: String(viewerId) },
  });
  return { image_signature: signature };
}
