// The pin builder's uploads: one file per request, its raw bytes as the body. The type is read
// from the first bytes; an image is read whole (bounded), loses its metadata, is measured and
// cut by the Images binding to every size of spec 000 with its dominant colour; a video streams
// to R2 through a byte counter. Nothing is stored until the file has passed every check.
// An upload is its owner's alone until a pin that shows it publishes (publishUploadStatement).
import { requireWriteAllowed, type Viewer } from "~/accounts/guards.server.ts";
import { stripPhotoMetadata } from "~/comments/strip-metadata.ts";
import { badRequest, DomainError, notFound, storageUnavailable } from "~/domain/errors.ts";
import { concatBytes } from "~/runtime/bytes.ts";
import type { PublishableUpload } from "~/builder/publish.ts";
import { enforce, RATE_RULES } from "~/server/rate-limit.server.ts";
import { countedStream, readAtMost, readHead, TooManyBytes } from "./byte-limit.ts";
import { decodeSmallPng, dominantColourOf } from "./dominant-colour.ts";
import { mediaUrl, PIN_IMAGE_SIZES, sizeBox, type PinImageSize } from "./media.ts";
import {
  MEDIA_IMAGE_MAX_BYTES,
  MEDIA_UPLOAD_MAX_BYTES,
  SNIFF_BYTES,
  UPLOAD_CONTENT_TYPES,
  imageDimensions,
  isImageType,
  isWholeImage,
  sniffUpload,
  stripGif,
  type Dimensions,
  type UploadImageType,
  type UploadType,
} from "./upload-file.ts";

/** The multipart-free body names no field; refusals name the file itself. */
const FIELD = "file";
/** JPEG quality of the cut sizes: the seeded pins' own. */
const SIZE_QUALITY = 80;
/** Side of the thumbnail the dominant colour is counted on. */
const DOMINANT_THUMB = 64;

interface UploadStores {
  db: D1Database;
  media: R2Bucket;
  images: ImagesBinding;
}

export interface UploadAnswer {
  id: string;
  kind: "image" | "video";
  content_type: string;
  bytes: number;
  width: number | null;
  height: number | null;
  dominant_color: string | null;
  status: "uploaded" | "published";
  /** Images: every size of spec 000 with its URL and measured size. */
  images: Partial<Record<PinImageSize, { url: string; width: number; height: number }>> | null;
  video_url: string | null;
  created_at: number;
}

/** An upload's row: the answer's own fields, its owner and its measured sizes as JSON. */
type UploadRow = Omit<UploadAnswer, "images" | "video_url"> & { user_id: number; sizes: string | null };

const EXTENSIONS: Record<string, UploadType> = Object.fromEntries(Object.entries(UPLOAD_CONTENT_TYPES).map(([type, contentType]) => [contentType, type as UploadType]));

/** R2 keys of an upload: its folder is its owner's, so a key alone says whose it is. */
const uploadKeys = {
  folder: (userId: number, id: string) => `uploads/${userId}/${id}/`,
  size: (userId: number, id: string, size: Exclude<PinImageSize, "orig">) => `uploads/${userId}/${id}/${size}.jpg`,
  orig: (userId: number, id: string, type: UploadType) => `uploads/${userId}/${id}/${isImageType(type) ? "orig" : "video"}.${type}`,
};

const tooLarge = (maximumBytes: number) =>
  new DomainError("too_large", {
    message: "media:api.fileTooLarge",
    values: { maximum: Math.round(maximumBytes / (1024 * 1024)) },
    detail: [{ field: FIELD, reason: "media:validation.fileTooBig", values: { maximum: Math.round(maximumBytes / (1024 * 1024)) } }],
  });
const wrongType = () => badRequest([{ field: FIELD, reason: "media:validation.fileType" }], "media:api.fileRefused");
const corrupt = () => badRequest([{ field: FIELD, reason: "media:validation.corrupt" }], "media:api.fileRefused");

/** The declared body length, which every upload must carry (a browser sends it for any File). */
function declaredLength(header: string | undefined): number {
  if (header === undefined) throw badRequest([{ field: "content-length", reason: "validation.required" }], "media:api.fileRefused");
  if (!/^[0-9]{1,15}$/.test(header)) throw badRequest([{ field: "content-length", reason: "validation.invalidFormat" }], "media:api.fileRefused");
  const length = Number(header);
  if (length === 0) throw badRequest([{ field: FIELD, reason: "validation.required" }], "media:api.fileRefused");
  return length;
}

function randomId(): string {
  return [...crypto.getRandomValues(new Uint8Array(16))].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

const bytesOf = (stream: ReadableStream<Uint8Array>) => new Response(stream).arrayBuffer().then((buffer) => new Uint8Array(buffer));

/**
 * The Images binding's refusal of the bytes (an ImagesError carries a numeric code) means the
 * image does not decode; anything else is the service out of reach, said as such.
 */
function imageRefusal(error: unknown): DomainError {
  return error instanceof Error && typeof (error as { code?: unknown }).code === "number" ? corrupt() : storageUnavailable(error);
}

interface CutImage {
  objects: Array<{ key: string; body: Uint8Array; contentType: string }>;
  sizes: Partial<Record<PinImageSize, [number, number]>>;
  dominant: string;
}

/**
 * Every size of spec 000 from the stripped image: boxes ("60x60", "600x315") cropped to cover,
 * "NNNx" widths keeping the ratio and never enlarged; each measured from its own bytes.
 */
async function cutSizes(images: ImagesBinding, userId: number, id: string, image: Uint8Array<ArrayBuffer>, type: UploadImageType, size: Dimensions): Promise<CutImage> {
  const input = () => new Blob([image]).stream();
  const cuts = PIN_IMAGE_SIZES.filter((name): name is Exclude<PinImageSize, "orig"> => name !== "orig");
  let outputs: Uint8Array[];
  let thumb: Uint8Array;
  try {
    [thumb, ...outputs] = await Promise.all([
      images
        .input(input())
        .transform({ width: DOMINANT_THUMB, height: DOMINANT_THUMB, fit: "squeeze" })
        .output({ format: "image/png" })
        .then((result) => bytesOf(result.image())),
      ...cuts.map((name) => {
        const box = sizeBox(name)!;
        const transform: ImageTransform = box.height === undefined ? { width: box.width, fit: "scale-down" } : { width: box.width, height: box.height, fit: "cover" };
        return images.input(input()).transform(transform).output({ format: "image/jpeg", quality: SIZE_QUALITY }).then((result) => bytesOf(result.image()));
      }),
    ]);
  } catch (error) {
    throw imageRefusal(error);
  }
  const pixels = await decodeSmallPng(thumb);
  if (!pixels) throw corrupt();
  const sizes: CutImage["sizes"] = { orig: [size.width, size.height] };
  const objects: CutImage["objects"] = [{ key: uploadKeys.orig(userId, id, type), body: image, contentType: UPLOAD_CONTENT_TYPES[type] }];
  for (const [index, name] of cuts.entries()) {
    const body = outputs[index]!;
    const measured = imageDimensions(body, "jpg");
    if (!measured) throw corrupt();
    sizes[name] = [measured.width, measured.height];
    objects.push({ key: uploadKeys.size(userId, id, name), body, contentType: "image/jpeg" });
  }
  return { objects, sizes, dominant: dominantColourOf(pixels.rgb) };
}

/** The image read whole (bounded), without its metadata, whole and measurable; else the refusal. */
async function readImage(stream: ReadableStream<Uint8Array>, type: UploadImageType, limit: number): Promise<{ image: Uint8Array<ArrayBuffer>; size: Dimensions }> {
  const bytes = await readAtMost(stream, limit);
  const stripped = type === "gif" ? stripGif(bytes) : stripPhotoMetadata(bytes, type);
  if (stripped === null || !isWholeImage(stripped, type)) throw corrupt();
  const size = imageDimensions(stripped, type);
  if (!size) throw corrupt();
  return { image: concatBytes([stripped]), size };
}

function toAnswer(row: UploadRow): UploadAnswer {
  const sizes = row.sizes === null ? null : (JSON.parse(row.sizes) as Partial<Record<PinImageSize, [number, number]>>);
  const type = EXTENSIONS[row.content_type]!;
  const images =
    sizes === null
      ? null
      : Object.fromEntries(
          PIN_IMAGE_SIZES.flatMap((name) => {
            const measured = sizes[name];
            if (!measured) return [];
            const key = name === "orig" ? uploadKeys.orig(row.user_id, row.id, type) : uploadKeys.size(row.user_id, row.id, name);
            return [[name, { url: mediaUrl(key), width: measured[0], height: measured[1] }]];
          }),
        );
  return {
    id: row.id,
    kind: row.kind,
    content_type: row.content_type,
    bytes: row.bytes,
    width: row.width,
    height: row.height,
    dominant_color: row.dominant_color,
    status: row.status,
    images,
    video_url: row.kind === "video" ? mediaUrl(uploadKeys.orig(row.user_id, row.id, type)) : null,
    created_at: row.created_at,
  };
}

/**
 * Stores one file sent as the raw request body. Refused before a byte is read: signed out, a
 * write-banned account, over the hourly upload count, a body whose declared length passes
 * MEDIA_UPLOAD_MAX_BYTES. Refused while reading, with nothing stored: a type the first bytes
 * do not name, an image over MEDIA_IMAGE_MAX_BYTES, a body that runs past its declared length,
 * an image that does not parse or decode.
 */
export async function storeUpload(stores: UploadStores, viewer: Viewer, body: ReadableStream<Uint8Array> | null, lengthHeader: string | undefined): Promise<UploadAnswer> {
  const userId = requireWriteAllowed(viewer).user.id;
  const length = declaredLength(lengthHeader);
  if (length > MEDIA_UPLOAD_MAX_BYTES) throw tooLarge(MEDIA_UPLOAD_MAX_BYTES);
  if (body === null) throw badRequest([{ field: FIELD, reason: "validation.required" }], "media:api.fileRefused");
  await enforce(stores.db, RATE_RULES.mediaUploadPerUser, userId);

  const reader = body.getReader();
  const { head } = await readHead(reader, SNIFF_BYTES);
  const type = sniffUpload(concatBytes(head));
  const isImage = type !== null && isImageType(type);
  if (type === null || (isImage && length > MEDIA_IMAGE_MAX_BYTES)) {
    await reader.cancel().catch(() => undefined);
    throw type === null ? wrongType() : tooLarge(MEDIA_IMAGE_MAX_BYTES);
  }
  // Never more than the body said it holds (nor than the limits, which it was checked against).
  const stream = countedStream(head, reader, length);
  const id = randomId();
  const now = Date.now();

  /** Image objects still to write; a video is in R2 already, under `keys`. */
  let objects: CutImage["objects"];
  let keys: string[];
  let row: UploadRow;
  try {
    if (isImage) {
      const { image, size } = await readImage(stream, type, length);
      const cut = await cutSizes(stores.images, userId, id, image, type, size);
      objects = cut.objects;
      keys = objects.map((object) => object.key);
      row = { id, user_id: userId, kind: "image", content_type: UPLOAD_CONTENT_TYPES[type], bytes: image.length, width: size.width, height: size.height, dominant_color: cut.dominant, sizes: JSON.stringify(cut.sizes), status: "uploaded", created_at: now };
    } else {
      // A video streams straight to R2: R2 keeps an object only once its stream ended whole, so a
      // body that runs past its length (the counter errors the stream) leaves nothing behind.
      const key = uploadKeys.orig(userId, id, type);
      objects = [];
      keys = [key];
      const fixed = new FixedLengthStream(length);
      await Promise.all([stream.pipeTo(fixed.writable), stores.media.put(key, fixed.readable, { httpMetadata: { contentType: UPLOAD_CONTENT_TYPES[type] }, customMetadata: { user_id: String(userId) } })]).catch(async (error: unknown) => {
        await stores.media.delete(key).catch(() => undefined);
        throw error;
      });
      row = { id, user_id: userId, kind: "video", content_type: UPLOAD_CONTENT_TYPES[type], bytes: length, width: null, height: null, dominant_color: null, sizes: null, status: "uploaded", created_at: now };
    }
  } catch (error) {
    if (error instanceof TooManyBytes) throw tooLarge(MEDIA_UPLOAD_MAX_BYTES);
    throw error;
  }

  try {
    if (objects.length > 0) {
      await Promise.all(objects.map((object) => stores.media.put(object.key, object.body, { httpMetadata: { contentType: object.contentType }, customMetadata: { user_id: String(userId) } })));
    }
    await stores.db
      .prepare(
        `INSERT INTO media_uploads (id, user_id, kind, content_type, bytes, width, height, dominant_color, sizes, status, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 'uploaded', ?10)`,
      )
      .bind(row.id, row.user_id, row.kind, row.content_type, row.bytes, row.width, row.height, row.dominant_color, row.sizes, row.created_at)
      .run();
  } catch (error) {
    // No object stays without the row that names it.
    await stores.media.delete(keys).catch(() => undefined);
    throw storageUnavailable(error);
  }
  return toAnswer(row);
}

/** The viewer's own upload; another person's answers exactly as a missing one. */
export async function readUpload(db: D1Database, viewer: Viewer, id: string): Promise<UploadAnswer> {
  const userId = requireWriteAllowed(viewer).user.id;
  const row = /^[0-9a-f]{32}$/.test(id) ? await db.prepare("SELECT * FROM media_uploads WHERE id = ?1 AND user_id = ?2").bind(id, userId).first<UploadRow>() : null;
  if (!row) throw notFound("media:api.uploadNotFound");
  return toAnswer(row);
}

/** The person's uploads among `ids`, as publishing reads them; another person's are absent. */
export async function publishableUploads(db: D1Database, userId: number, ids: readonly string[]): Promise<Map<string, PublishableUpload>> {
  if (ids.length === 0) return new Map();
  const { results } = await db
    .prepare("SELECT * FROM media_uploads WHERE user_id = ?1 AND id IN (SELECT value FROM json_each(?2))")
    .bind(userId, JSON.stringify(ids))
    .all<UploadRow & { pin_id: number | null }>();
  return new Map(results.map((row) => [row.id, { ...toAnswer(row), pin_id: row.pin_id }]));
}

/**
 * For the batch that publishes (or schedules) pin `pinId`: the person's uploads among `ids`
 * that are free, or already reserved for this pin, become its own. Their bytes reach others
 * only once the pin exists and only as its visibility rule allows (src/media/access.server.ts).
 * The batch's guard (uploadsAttachedSql) refuses it when fewer than all were.
 */
export function attachUploadsStatement(db: D1Database, userId: number, ids: readonly string[], pinId: number, status: "uploaded" | "published"): D1PreparedStatement {
  return db
    .prepare("UPDATE media_uploads SET pin_id = ?3, status = ?4 WHERE user_id = ?1 AND id IN (SELECT value FROM json_each(?2)) AND (pin_id IS NULL OR pin_id = ?3)")
    .bind(userId, JSON.stringify(ids), pinId, status);
}

/** A guard condition: pin ?2 owns exactly ?3 uploads (all those it names). */
export const UPLOADS_ATTACHED_SQL = "(SELECT count(*) FROM media_uploads WHERE pin_id = ?2) = ?3";

/** Frees the uploads a scheduled pin reserved (it was cancelled): they are drafts' again, or swept. */
export function releaseUploadsStatement(db: D1Database, userId: number, pinId: number): D1PreparedStatement {
  return db.prepare("UPDATE media_uploads SET pin_id = NULL WHERE user_id = ?1 AND pin_id = ?2 AND status = 'uploaded'").bind(userId, pinId);
}
