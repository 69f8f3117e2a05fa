// The pin builder's uploads: one file per request, its raw bytes as the body. The type is read
// from the first bytes; an image is read whole (bounded), loses its metadata, is measured and
// cut by the Images binding to every size of spec 000 with its dominant colour; a video streams
// to R2 through a byte counter. Nothing is stored until the file has passed every check.
// An upload is its owner's alone until a pin that shows it publishes (publishUploadStatement).
// While it is unpublished its owner may re-cut an image to one of the spec's ratios
// (cropUpload) and give a video its poster frame (storePoster); the housekeeping cron deletes
// uploads abandoned unpublished (sweepAbandonedUploads).
import { requireWriteAllowed, type Viewer } from "~/accounts/guards.server.ts";
import { stripPhotoMetadata } from "~/comments/strip-metadata.ts";
import { badRequest, conflict, DomainError, notFound, storageUnavailable } from "~/domain/errors.ts";
import { concatBytes } from "~/runtime/bytes.ts";
import type { PublishableUpload } from "~/builder/publish.ts";
import { enforce, RATE_RULES } from "~/server/rate-limit.server.ts";
import { cropBox, type AllowedRatio } from "./aspect-ratio.ts";
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
  jpegOrientation,
  sniffUpload,
  stripGif,
  type Dimensions,
  type UploadImageType,
  type UploadType,
  uprightTransform,
} from "./upload-file.ts";

/** The multipart-free body names no field; refusals name the file itself. */
const FIELD = "file";
/** JPEG quality of the cut sizes: the seeded pins' own. */
const SIZE_QUALITY = 80;
/**
 * JPEG quality of an orig the Worker had to re-encode (turned upright, cropped, or a poster
 * sent as PNG, WebP or GIF): higher than the cut sizes', since every size is cut from it again.
 */
const ORIG_QUALITY = 90;
/** Side of the thumbnail the dominant colour is counted on. */
const DOMINANT_THUMB = 64;
/**
 * An upload still unpublished this long after it arrived, that none of its owner's drafts
 * names, is abandoned: the builder keeps a draft for every upload a person is still working
 * on, and a week outlasts any session and its reload.
 */
export const ABANDONED_UPLOAD_MS = 7 * 24 * 60 * 60 * 1000;
/** Abandoned uploads deleted (and folders emptied) per cron run: a backlog drains over runs. */
const SWEEP_PER_RUN = 100;
/**
 * Old unpublished uploads looked up in their owner's drafts per run (each against at most the
 * per-person draft limit): the window a run examines, so uploads that drafts keep cost a run
 * a bounded amount however many there are.
 */
const SWEEP_SCAN = 1000;
/** R2 list pages read per folder emptied: a folder holds two cuts' objects at most, one page. */
const SWEEP_LIST_PAGES = 3;

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

/**
 * An upload's row: the answer's own fields, its owner, its measured sizes as JSON and the
 * revision its current cut's objects are named by.
 */
type UploadRow = Omit<UploadAnswer, "images" | "video_url"> & { user_id: number; sizes: string | null; revision: string | null; pin_id?: number | null };
type MeasuredSizes = Partial<Record<PinImageSize, [number, number]>>;

const EXTENSIONS: Record<string, UploadType> = Object.fromEntries(Object.entries(UPLOAD_CONTENT_TYPES).map(([type, contentType]) => [contentType, type as UploadType]));

/**
 * R2 keys of an upload: its folder is its owner's, so a key alone says whose it is. An image's
 * cut (every size and its orig) and a video's poster are named by the row's revision: a re-cut
 * writes new names and switches the row to them in one statement, never overwriting what a
 * reader may be fetching. A poster's orig is always a JPEG.
 */
const uploadKeys = {
  folder: (userId: number, id: string) => `uploads/${userId}/${id}/`,
  cut: (userId: number, id: string, revision: string | null, size: PinImageSize, origType: UploadImageType) =>
    `uploads/${userId}/${id}/${revision === null ? "" : `${revision}-`}${size === "orig" ? `orig.${origType}` : `${size}.jpg`}`,
  video: (userId: number, id: string, type: UploadType) => `uploads/${userId}/${id}/video.${type}`,
};

/** The type a row's cut orig is stored as: the image's own, or JPEG for a video's poster. */
const origTypeOf = (row: Pick<UploadRow, "kind" | "content_type">): UploadImageType => (row.kind === "image" ? (EXTENSIONS[row.content_type] as UploadImageType) : "jpg");

/** Every object of the row's current cut (none for a video without its poster). */
function cutKeysOf(row: UploadRow): string[] {
  if (row.sizes === null) return [];
  const sizes = JSON.parse(row.sizes) as MeasuredSizes;
  return PIN_IMAGE_SIZES.filter((name) => sizes[name]).map((name) => uploadKeys.cut(row.user_id, row.id, row.revision, name, origTypeOf(row)));
}

const tooLarge = (maximumBytes: number) =>
  new DomainError("too_large", {
    message: "media:api.fileTooLarge",
    values: { maximum: Math.round(maximumBytes / (1024 * 1024)) },
    detail: [{ field: FIELD, reason: "media:validation.fileTooBig", values: { maximum: Math.round(maximumBytes / (1024 * 1024)) } }],
  });
const wrongType = () => badRequest([{ field: FIELD, reason: "media:validation.fileType" }], "media:api.fileRefused");
const corrupt = () => badRequest([{ field: FIELD, reason: "media:validation.corrupt" }], "media:api.fileRefused");
const published = () => conflict("media:api.uploadPublished");

/** The declared body length, which every upload must carry (a browser sends it for any File). */
function declaredLength(header: string | undefined): number {
  if (header === undefined) throw badRequest([{ field: "content-length", reason: "validation.required" }], "media:api.fileRefused");
  if (!/^[0-9]{1,15}$/.test(header)) throw badRequest([{ field: "content-length", reason: "validation.invalidFormat" }], "media:api.fileRefused");
  const length = Number(header);
  if (length === 0) throw badRequest([{ field: FIELD, reason: "validation.required" }], "media:api.fileRefused");
  return length;
}

function randomHex(bytes: number): string {
  return [...crypto.getRandomValues(new Uint8Array(bytes))].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}
const randomId = () => randomHex(16);
const randomRevision = () => randomHex(4);

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
  sizes: MeasuredSizes;
  dominant: string;
}

/** The stored name of each size of one cut. */
type KeyOf = (size: PinImageSize) => string;

/**
 * Every size of spec 000 from the stripped image: boxes ("60x60", "600x315") cropped to cover,
 * "NNNx" widths keeping the ratio and never enlarged; each measured from its own bytes.
 */
async function cutSizes(images: ImagesBinding, keyOf: KeyOf, image: Uint8Array<ArrayBuffer>, type: UploadImageType, size: Dimensions): Promise<CutImage> {
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
  const objects: CutImage["objects"] = [{ key: keyOf("orig"), body: image, contentType: UPLOAD_CONTENT_TYPES[type] }];
  for (const [index, name] of cuts.entries()) {
    const body = outputs[index]!;
    const measured = imageDimensions(body, "jpg");
    if (!measured) throw corrupt();
    sizes[name] = [measured.width, measured.height];
    objects.push({ key: keyOf(name), body, contentType: "image/jpeg" });
  }
  return { objects, sizes, dominant: dominantColourOf(pixels.rgb) };
}

/** The Images binding's output as bytes; a refusal is the image's (corrupt) or the service's. */
async function encode(images: ImagesBinding, image: Uint8Array<ArrayBuffer>, transform: ImageTransform | null, output: ImageOutputOptions): Promise<Uint8Array<ArrayBuffer>> {
  try {
    const input = images.input(new Blob([image]).stream());
    const result = await (transform === null ? input : input.transform(transform)).output(output);
    return concatBytes([await bytesOf(result.image())]);
  } catch (error) {
    throw imageRefusal(error);
  }
}

/** Bytes the Worker made (an encoder's output): stripped again, whole, measured. */
function checked(bytes: Uint8Array, type: UploadImageType): { image: Uint8Array<ArrayBuffer>; size: Dimensions } {
  const stripped = type === "gif" ? stripGif(bytes) : stripPhotoMetadata(bytes, type);
  if (stripped === null || !isWholeImage(stripped, type)) throw corrupt();
  const size = imageDimensions(stripped, type);
  if (!size) throw corrupt();
  return { image: concatBytes([stripped]), size };
}

/**
 * The image read whole (bounded), without its metadata, whole, measured and upright: a JPEG
 * whose EXIF orientation turns or mirrors it (which stripping throws away) is turned by the
 * Images binding first, and its width and height are the upright ones; else the refusal.
 */
async function readImage(images: ImagesBinding, stream: ReadableStream<Uint8Array>, type: UploadImageType, limit: number): Promise<{ image: Uint8Array<ArrayBuffer>; size: Dimensions }> {
  const bytes = await readAtMost(stream, limit);
  const upright = type === "jpg" ? uprightTransform(jpegOrientation(bytes)) : null;
  const stored = checked(bytes, type);
  if (upright === null) return stored;
  return checked(await encode(images, stored.image, upright, { format: "image/jpeg", quality: ORIG_QUALITY }), "jpg");
}

function toAnswer(row: UploadRow): UploadAnswer {
  const sizes = row.sizes === null ? null : (JSON.parse(row.sizes) as MeasuredSizes);
  const type = EXTENSIONS[row.content_type]!;
  const images =
    sizes === null
      ? null
      : Object.fromEntries(
          PIN_IMAGE_SIZES.flatMap((name) => {
            const measured = sizes[name];
            if (!measured) return [];
            return [[name, { url: mediaUrl(uploadKeys.cut(row.user_id, row.id, row.revision, name, origTypeOf(row))), width: measured[0], height: measured[1] }]];
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
    video_url: row.kind === "video" ? mediaUrl(uploadKeys.video(row.user_id, row.id, type)) : null,
    created_at: row.created_at,
  };
}

function putObjects(media: R2Bucket, userId: number, objects: CutImage["objects"]): Promise<unknown> {
  return Promise.all(objects.map((object) => media.put(object.key, object.body, { httpMetadata: { contentType: object.contentType }, customMetadata: { user_id: String(userId) } })));
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
      const { image, size } = await readImage(stores.images, stream, type, length);
      const cut = await cutSizes(stores.images, (name) => uploadKeys.cut(userId, id, null, name, type), image, type, size);
      objects = cut.objects;
      keys = objects.map((object) => object.key);
      row = { id, user_id: userId, kind: "image", content_type: UPLOAD_CONTENT_TYPES[type], bytes: image.length, width: size.width, height: size.height, dominant_color: cut.dominant, sizes: JSON.stringify(cut.sizes), status: "uploaded", created_at: now, revision: null };
    } else {
      // A video streams straight to R2: R2 keeps an object only once its stream ended whole, so a
      // body that runs past its length (the counter errors the stream) leaves nothing behind.
      const key = uploadKeys.video(userId, id, type);
      objects = [];
      keys = [key];
      const fixed = new FixedLengthStream(length);
      await Promise.all([stream.pipeTo(fixed.writable), stores.media.put(key, fixed.readable, { httpMetadata: { contentType: UPLOAD_CONTENT_TYPES[type] }, customMetadata: { user_id: String(userId) } })]).catch(async (error: unknown) => {
        await stores.media.delete(key).catch(() => undefined);
        throw error;
      });
      row = { id, user_id: userId, kind: "video", content_type: UPLOAD_CONTENT_TYPES[type], bytes: length, width: null, height: null, dominant_color: null, sizes: null, status: "uploaded", created_at: now, revision: null };
    }
  } catch (error) {
    if (error instanceof TooManyBytes) throw tooLarge(MEDIA_UPLOAD_MAX_BYTES);
    throw error;
  }

  try {
    await putObjects(stores.media, userId, objects);
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
  return toAnswer(await ownRow(db, requireWriteAllowed(viewer).user.id, id));
}

async function ownRow(db: D1Database, userId: number, id: string): Promise<UploadRow> {
  const row = /^[0-9a-f]{32}$/.test(id) ? await db.prepare("SELECT * FROM media_uploads WHERE id = ?1 AND user_id = ?2").bind(id, userId).first<UploadRow>() : null;
  if (!row) throw notFound("media:api.uploadNotFound");
  return row;
}

interface NextCut {
  revision: string;
  cut: CutImage;
  /** The upload's own type and size: a crop may change them (a GIF's crop is a PNG), a poster never. */
  contentType: string;
  bytes: number;
  size: Dimensions;
}

/**
 * Puts a re-cut's objects under their new revision, then switches the row to them in one
 * statement that applies only to the row as it was read (its owner's, unpublished, at the
 * revision the cut started from); the old cut's objects go only after that. A failure or a
 * lost race deletes the new objects, so none outlives the attempt that wrote it, and the row
 * never names an object that is not there.
 */
async function switchCut(stores: UploadStores, row: UploadRow, next: NextCut): Promise<UploadAnswer> {
  const keys = next.cut.objects.map((object) => object.key);
  const sizes = JSON.stringify(next.cut.sizes);
  let changed: number;
  try {
    await putObjects(stores.media, row.user_id, next.cut.objects);
    const result = await stores.db
      .prepare(
        `UPDATE media_uploads SET content_type = ?1, bytes = ?2, width = ?3, height = ?4, dominant_color = ?5, sizes = ?6, revision = ?7
         WHERE id = ?8 AND user_id = ?9 AND status = 'uploaded' AND pin_id IS NULL AND revision IS ?10`,
      )
      .bind(next.contentType, next.bytes, next.size.width, next.size.height, next.cut.dominant, sizes, next.revision, row.id, row.user_id, row.revision)
      .run();
    changed = result.meta.changes;
  } catch (error) {
    await stores.media.delete(keys).catch(() => undefined);
    throw storageUnavailable(error);
  }
  if (changed === 0) {
    await stores.media.delete(keys).catch(() => undefined);
    // Published, swept or re-cut while this cut was made: say which.
    const now = await stores.db.prepare("SELECT status FROM media_uploads WHERE id = ?1 AND user_id = ?2").bind(row.id, row.user_id).first<{ status: string }>();
    if (!now) throw notFound("media:api.uploadNotFound");
    throw now.status === "published" ? published() : conflict("media:api.uploadChanged");
  }
  // Nothing names the old cut any more; a failed delete leaves objects only the owner can read,
  // and they go with the folder when the upload does.
  const old = cutKeysOf(row);
  if (old.length > 0) await stores.media.delete(old).catch(() => undefined);
  return toAnswer({ ...row, content_type: next.contentType, bytes: next.bytes, width: next.size.width, height: next.size.height, dominant_color: next.cut.dominant, sizes, revision: next.revision });
}

/** The output of a crop of an image of `type`: its own format, but a GIF's (the binding writes no GIF) is a PNG. */
const CROP_OUTPUT: Record<UploadImageType, { type: UploadImageType; options: ImageOutputOptions }> = {
  jpg: { type: "jpg", options: { format: "image/jpeg", quality: ORIG_QUALITY } },
  png: { type: "png", options: { format: "image/png" } },
  webp: { type: "webp", options: { format: "image/webp", quality: ORIG_QUALITY } },
  gif: { type: "png", options: { format: "image/png" } },
};

/**
 * Re-cuts the owner's unpublished image upload to `ratio`: the largest box of that ratio,
 * centred, cut from its orig (never enlarged), then every size again with its dominant colour.
 * Another person's upload is missing; a video is a 400; a published one a 409.
 */
export async function cropUpload(stores: UploadStores, viewer: Viewer, id: string, ratio: AllowedRatio): Promise<UploadAnswer> {
  const userId = requireWriteAllowed(viewer).user.id;
  const row = await ownRow(stores.db, userId, id);
  if (row.kind !== "image") throw badRequest([{ field: "id", reason: "media:validation.cropNeedsImage" }], "media:api.cropRefused");
  // Published, or reserved by a scheduled pin: its cut is the pin's now.
  if (row.status !== "uploaded" || (row.pin_id ?? null) !== null) throw published();
  // A crop costs the Images binding as much as an upload does, and counts as one.
  await enforce(stores.db, RATE_RULES.mediaUploadPerUser, userId);

  const type = origTypeOf(row);
  let source: Uint8Array<ArrayBuffer>;
  try {
    const object = await stores.media.get(uploadKeys.cut(userId, row.id, row.revision, "orig", type));
    if (!object) throw new Error(`upload ${row.id} has no orig`);
    source = await readAtMost(object.body, MEDIA_IMAGE_MAX_BYTES);
  } catch (error) {
    throw storageUnavailable(error);
  }
  const measured = imageDimensions(source, type);
  if (!measured) throw corrupt();
  const box = cropBox(measured.width, measured.height, ratio);
  const output = CROP_OUTPUT[type];
  // "cover" at a box no larger than the image, with one side equal to it, scales by 1: a pure centred cut.
  const { image, size } = checked(await encode(stores.images, source, { width: box.width, height: box.height, fit: "cover", gravity: "center" }, output.options), output.type);
  const revision = randomRevision();
  const cut = await cutSizes(stores.images, (name) => uploadKeys.cut(userId, row.id, revision, name, output.type), image, output.type, size);
  return switchCut(stores, row, { revision, cut, contentType: UPLOAD_CONTENT_TYPES[output.type], bytes: image.length, size });
}

/**
 * Gives the owner's unpublished video upload its poster: an image sent as the raw body (the
 * builder draws a frame of the video in the browser; a Worker decodes no video), checked as an
 * image upload is (type by its bytes, size, decoding, metadata stripped, turned upright) and
 * stored at every size, its orig as a JPEG. A new poster replaces the previous one's objects.
 */
export async function storePoster(stores: UploadStores, viewer: Viewer, id: string, body: ReadableStream<Uint8Array> | null, lengthHeader: string | undefined): Promise<UploadAnswer> {
  const userId = requireWriteAllowed(viewer).user.id;
  const length = declaredLength(lengthHeader);
  if (length > MEDIA_IMAGE_MAX_BYTES) throw tooLarge(MEDIA_IMAGE_MAX_BYTES);
  if (body === null) throw badRequest([{ field: FIELD, reason: "validation.required" }], "media:api.fileRefused");
  const row = await ownRow(stores.db, userId, id);
  if (row.kind !== "video") throw badRequest([{ field: "id", reason: "media:validation.posterNeedsVideo" }], "media:api.posterRefused");
  // Published, or reserved by a scheduled pin: its cut is the pin's now.
  if (row.status !== "uploaded" || (row.pin_id ?? null) !== null) throw published();
  await enforce(stores.db, RATE_RULES.mediaUploadPerUser, userId);

  const reader = body.getReader();
  const { head } = await readHead(reader, SNIFF_BYTES);
  const type = sniffUpload(concatBytes(head));
  if (type === null || !isImageType(type)) {
    await reader.cancel().catch(() => undefined);
    throw badRequest([{ field: FIELD, reason: "media:validation.posterType" }], "media:api.posterRefused");
  }
  let poster: { image: Uint8Array<ArrayBuffer>; size: Dimensions };
  try {
    poster = await readImage(stores.images, countedStream(head, reader, length), type, length);
  } catch (error) {
    if (error instanceof TooManyBytes) throw tooLarge(MEDIA_IMAGE_MAX_BYTES);
    throw error;
  }
  // readImage answers a JPEG for any JPEG (turned or not); other types are encoded as one.
  if (type !== "jpg") poster = checked(await encode(stores.images, poster.image, null, { format: "image/jpeg", quality: ORIG_QUALITY }), "jpg");
  const revision = randomRevision();
  const cut = await cutSizes(stores.images, (name) => uploadKeys.cut(userId, row.id, revision, name, "jpg"), poster.image, "jpg", poster.size);
  return switchCut(stores, row, { revision, cut, contentType: row.content_type, bytes: row.bytes, size: poster.size });
}

/**
 * The housekeeping cron's sweep of abandoned uploads: unpublished, older than
 * ABANDONED_UPLOAD_MS, and named by none of their owner's drafts (the upload's id anywhere in
 * a draft's JSON keeps it: an id is 32 random hex digits, so a match is never by chance, and a
 * draft that names it by URL keeps it too). At most SWEEP_PER_RUN a run, from a window of
 * SWEEP_SCAN candidates.
 *
 * Rows go first, in the batch that records their folders in media_upload_purges; the folders
 * are emptied after. The batch is the decision: an upload a draft names by then, or published,
 * stays whole. Deleting objects first could leave a row (and a draft saved meanwhile) naming
 * objects that are gone; rows first leaves, at worst, objects nobody can read (the media route
 * serves an upload's folder only while its row exists), which the next run retries from the
 * purge record. Answers the uploads deleted.
 */
export async function sweepAbandonedUploads(db: D1Database, media: R2Bucket, now = Date.now(), limit = SWEEP_PER_RUN): Promise<number> {
  const cutoff = now - ABANDONED_UPLOAD_MS;
  // More old uploads than one window: each run examines a window at a random place in them, so
  // a long run of uploads that drafts keep (one person's many drafts) never stalls the rest.
  const old = (await db.prepare("SELECT COUNT(*) AS n FROM media_uploads WHERE status = 'uploaded' AND pin_id IS NULL AND created_at < ?1").bind(cutoff).first<{ n: number }>())?.n ?? 0;
  const offset = old > SWEEP_SCAN ? Math.max(0, Math.floor(Math.random() * (old + SWEEP_SCAN - 1)) - (SWEEP_SCAN - 1)) : 0;
  const folderSql = "'uploads/' || u.user_id || '/' || u.id || '/'";
  const [, deleted] = await db.batch([
    db
      .prepare(
        `INSERT OR IGNORE INTO media_upload_purges (folder, created_at)
         SELECT ${folderSql}, ?1 FROM (
           SELECT id, user_id, created_at FROM media_uploads WHERE status = 'uploaded' AND pin_id IS NULL AND created_at < ?2 ORDER BY created_at LIMIT ?4 OFFSET ?5
         ) u
         WHERE NOT EXISTS (SELECT 1 FROM pin_drafts d WHERE d.user_id = u.user_id AND instr(d.draft, u.id) > 0)
         ORDER BY u.created_at LIMIT ?3`,
      )
      .bind(now, cutoff, limit, SWEEP_SCAN, offset),
    db
      // The folder's last 33 characters are the upload's id and its closing slash.
      .prepare("DELETE FROM media_uploads WHERE id IN (SELECT substr(folder, -33, 32) FROM media_upload_purges) AND status = 'uploaded' AND pin_id IS NULL AND created_at < ?1")
      .bind(cutoff),
  ]);
  const pending = await db.prepare("SELECT folder FROM media_upload_purges ORDER BY created_at LIMIT ?1").bind(limit).all<{ folder: string }>();
  const emptied: string[] = [];
  for (const { folder } of pending.results) {
    try {
      let cursor: string | undefined;
      for (let page = 0; page < SWEEP_LIST_PAGES; page++) {
        const listed = await media.list({ prefix: folder, ...(cursor === undefined ? {} : { cursor }) });
        if (listed.objects.length > 0) await media.delete(listed.objects.map((object) => object.key));
        if (!listed.truncated) {
          emptied.push(folder);
          break;
        }
        cursor = listed.cursor;
      }
    } catch (error) {
      // R2 out of reach: the purge record stays for the next run.
      console.error(error);
    }
  }
  if (emptied.length > 0) await db.prepare("DELETE FROM media_upload_purges WHERE folder IN (SELECT value FROM json_each(?1))").bind(JSON.stringify(emptied)).run();
  return deleted!.meta.changes;
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

/** The first upload each of these (scheduled) pins shows, by pin id: what a list of them pictures. */
export async function firstUploadsOf(db: D1Database, userId: number, pinIds: readonly number[]): Promise<Map<number, UploadAnswer>> {
  if (pinIds.length === 0) return new Map();
  const { results } = await db
    .prepare("SELECT * FROM media_uploads WHERE user_id = ?1 AND pin_id IN (SELECT value FROM json_each(?2)) ORDER BY created_at DESC")
    .bind(userId, JSON.stringify(pinIds))
    .all<UploadRow & { pin_id: number }>();
  // Newest first, so the oldest (the first item's, uploaded first) is the one kept.
  return new Map(results.map((row) => [row.pin_id, toAnswer(row)]));
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
