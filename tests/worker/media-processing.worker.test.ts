// The builder's media processing on top of uploads: a JPEG's EXIF orientation is applied before
// its metadata goes; an unpublished image is re-cut, centred, to one of the spec's ratios; a
// video upload gets a poster frame stored at every size; the cron sweeps abandoned uploads
// with their objects, rows first.
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { decodeSmallPng } from "~/media/dominant-colour.ts";
import { sweepAbandonedUploads, ABANDONED_UPLOAD_MS } from "~/media/uploads.server.ts";
import { Browser } from "./accounts-helpers.ts";
import { Faults } from "./faults.ts";
import { bandedPng, jpegWithOrientation, mp4Bytes } from "./media-fixtures.ts";
import { createSession } from "./session-fixture.ts";
import { browserAs, scalar } from "./social-fixture.ts";

const PEOPLE = { owner: 2301, stranger: 2302 } as const;
const UPLOADS = "/v3/media/uploads/";

beforeAll(async () => {
  await env.DB.batch(
    Object.entries(PEOPLE).map(([name, id]) =>
      env.DB.prepare("INSERT INTO users (id, username, email, full_name, first_name, email_verified, created_at) VALUES (?1, ?2, ?3, ?2, ?2, 1, 0)").bind(id, `processing_${name}`, `${name}@processing.test`),
    ),
  );
});

interface Upload {
  id: string;
  kind: string;
  content_type: string;
  bytes: number;
  width: number | null;
  height: number | null;
  dominant_color: string | null;
  status: string;
  images: Record<string, { url: string; width: number; height: number }> | null;
  video_url: string | null;
}
type Answer = { data: Upload | null; message?: string; message_detail?: string | null };

async function send(browser: Browser, path: string, init: Parameters<Browser["fetch"]>[1]): Promise<{ status: number; json: Answer }> {
  const response = await browser.fetch(path, init);
  return { status: response.status, json: await response.json<Answer>() };
}

async function uploaded(userId: number, bytes: Uint8Array<ArrayBuffer>, name: string): Promise<Upload> {
  const { status, json } = await send(await browserAs(userId), UPLOADS, { method: "POST", body: new File([bytes], name) });
  expect(status, json.message_detail ?? "").toBe(200);
  return json.data!;
}

const crop = async (userId: number, id: string, body: unknown) =>
  send(await browserAs(userId), `${UPLOADS}${id}/crop/`, { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } });
const poster = async (userId: number, id: string, bytes: Uint8Array<ArrayBuffer>, headers: Record<string, string> = {}) =>
  send(await browserAs(userId), `${UPLOADS}${id}/poster/`, { method: "PUT", body: new File([bytes], "frame"), headers });

const keyOf = (url: string) => url.slice("/media/".length);
const folderOf = (userId: number, id: string) => `uploads/${userId}/${id}/`;
const keysUnder = async (prefix: string) => (await env.MEDIA.list({ prefix })).objects.map((object) => object.key).sort();
const sizesOf = (upload: Upload) => Object.fromEntries(Object.entries(upload.images!).map(([size, image]) => [size, [image.width, image.height]]));

/** A stored image's pixels, decoded through a PNG the Images binding makes of it. */
async function pixelsOf(url: string) {
  const object = await env.MEDIA.get(keyOf(url));
  const png = await env.IMAGES.input(object!.body).output({ format: "image/png" });
  const decoded = await decodeSmallPng(new Uint8Array(await new Response(png.image()).arrayBuffer()));
  return {
    width: decoded!.width,
    height: decoded!.height,
    /** "red" or "blue": which of the fixture's two colours the pixel is nearest. */
    at(x: number, y: number): string {
      const i = (y * decoded!.width + x) * 3;
      return decoded!.rgb[i]! > decoded!.rgb[i + 2]! ? "red" : "blue";
    },
  };
}

const latin1 = (bytes: Uint8Array) => new TextDecoder("latin1").decode(bytes);

describe("a JPEG's EXIF orientation is applied before its metadata is stripped", () => {
  // The fixture's stored pixels are 60×40 with a red block at their top-left corner.
  it.each([
    [1, 60, 40, { topLeft: "red", topRight: "blue", bottomLeft: "blue", bottomRight: "blue" }],
    [3, 60, 40, { topLeft: "blue", topRight: "blue", bottomLeft: "blue", bottomRight: "red" }],
    [6, 40, 60, { topLeft: "blue", topRight: "red", bottomLeft: "blue", bottomRight: "blue" }],
    [8, 40, 60, { topLeft: "blue", topRight: "blue", bottomLeft: "red", bottomRight: "blue" }],
  ])("orientation %d is stored upright at %d×%d", async (orientation, width, height, corners) => {
    const upload = await uploaded(PEOPLE.owner, jpegWithOrientation(orientation), "turned.jpg");
    expect(upload).toMatchObject({ kind: "image", content_type: "image/jpeg", width, height });
    expect(upload.images!.orig).toMatchObject({ width, height });
    expect(upload.images!["236x"]).toMatchObject({ width, height });
    expect(upload.images!["60x60"]).toMatchObject({ width: 60, height: 60 });

    const orig = await env.MEDIA.get(keyOf(upload.images!.orig!.url));
    expect(latin1(new Uint8Array(await orig!.arrayBuffer()))).not.toContain("Exif\0\0");
    const pixels = await pixelsOf(upload.images!.orig!.url);
    expect([pixels.width, pixels.height]).toEqual([width, height]);
    expect({
      topLeft: pixels.at(2, 2),
      topRight: pixels.at(width - 3, 2),
      bottomLeft: pixels.at(2, height - 3),
      bottomRight: pixels.at(width - 3, height - 3),
    }).toEqual(corners);
  });
});

describe("cropping an upload to an allowed ratio", () => {
  let upload: Upload;
  beforeAll(async () => {
    upload = await uploaded(PEOPLE.owner, bandedPng(), "banded.png");
  });

  it("re-cuts the orig and every size, centred, and drops the old cut's objects", async () => {
    expect(upload).toMatchObject({ content_type: "image/png", width: 300, height: 200 });
    const before = await keysUnder(folderOf(PEOPLE.owner, upload.id));
    expect(before).toHaveLength(9);

    const { status, json } = await crop(PEOPLE.owner, upload.id, { ratio: "1:1" });
    expect(status).toBe(200);
    const cropped = json.data!;
    // The centred 200×200 box leaves both red bands out: all that is left is the blue middle.
    expect(cropped).toMatchObject({ id: upload.id, content_type: "image/png", width: 200, height: 200, dominant_color: "#2828c8", status: "uploaded" });
    expect(sizesOf(cropped)).toEqual({
      "60x60": [60, 60],
      "136x136": [136, 136],
      "170x": [170, 170],
      "236x": [200, 200],
      "474x": [200, 200],
      "564x": [200, 200],
      "736x": [200, 200],
      "600x315": [600, 315],
      orig: [200, 200],
    });
    const pixels = await pixelsOf(cropped.images!.orig!.url);
    expect([pixels.at(0, 0), pixels.at(199, 199), pixels.at(100, 100)]).toEqual(["blue", "blue", "blue"]);

    const after = await keysUnder(folderOf(PEOPLE.owner, upload.id));
    expect(after).toEqual(Object.values(cropped.images!).map((image) => keyOf(image.url)).sort());
    expect(after.filter((key) => before.includes(key))).toEqual([]);
    const row = await env.DB.prepare("SELECT width, height, dominant_color, content_type FROM media_uploads WHERE id = ?1").bind(upload.id).first();
    expect(row).toEqual({ width: 200, height: 200, dominant_color: "#2828c8", content_type: "image/png" });
    // Reading it back answers the new cut.
    const read = await send(await browserAs(PEOPLE.owner), `${UPLOADS}${upload.id}/`, { method: "GET" });
    expect(read.json.data!.images).toEqual(cropped.images);
  });

  it("cuts a crop again from the cropped orig", async () => {
    const { status, json } = await crop(PEOPLE.owner, upload.id, { ratio: "2:3" });
    expect(status).toBe(200);
    expect(json.data).toMatchObject({ width: 133, height: 200 });
    expect(json.data!.images!.orig).toMatchObject({ width: 133, height: 200 });
    expect(await keysUnder(folderOf(PEOPLE.owner, upload.id))).toHaveLength(9);
  });

  it("refuses a ratio the spec does not list, naming ratio, and changes nothing", async () => {
    const before = await keysUnder(folderOf(PEOPLE.owner, upload.id));
    const wrong = await crop(PEOPLE.owner, upload.id, { ratio: "4:5" });
    expect(wrong.status).toBe(400);
    expect(wrong.json.message_detail).toBe("ratio: must be one of: 2:3, 3:4, 1:1, 9:16");
    const missing = await crop(PEOPLE.owner, upload.id, {});
    expect(missing.status).toBe(400);
    expect(missing.json.message_detail).toMatch(/^ratio: /);
    expect(await keysUnder(folderOf(PEOPLE.owner, upload.id))).toEqual(before);
  });

  it("answers another person's upload as missing", async () => {
    const { status } = await crop(PEOPLE.stranger, upload.id, { ratio: "1:1" });
    expect(status).toBe(404);
  });

  it("refuses a video with a 400 naming the upload", async () => {
    const video = await uploaded(PEOPLE.owner, mp4Bytes(), "clip.mp4");
    const { status, json } = await crop(PEOPLE.owner, video.id, { ratio: "1:1" });
    expect(status).toBe(400);
    expect(json.message_detail).toBe("id: must be an image: only images can be cropped");
  });

  it("refuses a published upload with a 409 that says why", async () => {
    const other = await uploaded(PEOPLE.owner, bandedPng(), "banded.png");
    // As the batch that publishes a pin showing it leaves it.
    await env.DB.prepare("UPDATE media_uploads SET status = 'published' WHERE id = ?1").bind(other.id).run();
    const before = await keysUnder(folderOf(PEOPLE.owner, other.id));
    const { status, json } = await crop(PEOPLE.owner, other.id, { ratio: "1:1" });
    expect(status).toBe(409);
    expect(json.message).toBe("This upload is in a published Pin and can't be changed any more");
    expect(await keysUnder(folderOf(PEOPLE.owner, other.id))).toEqual(before);
  });

  it("needs the CSRF token", async () => {
    const browser = await browserAs(PEOPLE.owner);
    browser.cookies.delete("csrftoken");
    const response = await browser.fetch(`${UPLOADS}${upload.id}/crop/`, { method: "POST", body: JSON.stringify({ ratio: "1:1" }), headers: { "content-type": "application/json", "x-csrftoken": "" } });
    expect(response.status).toBe(403);
  });
});

describe("a video upload's poster frame", () => {
  let video: Upload;
  beforeAll(async () => {
    video = await uploaded(PEOPLE.owner, mp4Bytes(), "clip.mp4");
  });

  it("is stored at every size, upright, and fills the upload's measures", async () => {
    expect(video).toMatchObject({ kind: "video", width: null, images: null });
    const { status, json } = await poster(PEOPLE.owner, video.id, jpegWithOrientation(6));
    expect(status, json.message_detail ?? "").toBe(200);
    const answer = json.data!;
    expect(answer).toMatchObject({ id: video.id, kind: "video", content_type: "video/mp4", bytes: 4032, width: 40, height: 60, status: "uploaded" });
    expect(answer.video_url).toBe(`/media/${folderOf(PEOPLE.owner, video.id)}video.mp4`);
    expect(answer.dominant_color).toMatch(/^#[0-9a-f]{6}$/);
    expect(sizesOf(answer)).toMatchObject({ "60x60": [60, 60], "236x": [40, 60], "600x315": [600, 315], orig: [40, 60] });
    expect(Object.keys(answer.images!)).toHaveLength(9);
    expect(answer.images!.orig!.url).toMatch(/-orig\.jpg$/);
    const pixels = await pixelsOf(answer.images!.orig!.url);
    expect([pixels.at(2, 2), pixels.at(37, 2)]).toEqual(["blue", "red"]);
    expect(await keysUnder(folderOf(PEOPLE.owner, video.id))).toEqual([`${folderOf(PEOPLE.owner, video.id)}video.mp4`, ...Object.values(answer.images!).map((image) => keyOf(image.url))].sort());
    // The owner reads it through the media route; nobody else does.
    expect((await (await browserAs(PEOPLE.owner)).fetch(answer.images!["236x"]!.url)).status).toBe(200);
    expect((await (await browserAs(PEOPLE.stranger)).fetch(answer.images!["236x"]!.url)).status).toBe(404);
  });

  it("replaces the previous poster's objects, and takes a PNG as a JPEG orig", async () => {
    const before = (await keysUnder(folderOf(PEOPLE.owner, video.id))).filter((key) => !key.endsWith("video.mp4"));
    const { status, json } = await poster(PEOPLE.owner, video.id, bandedPng());
    expect(status).toBe(200);
    expect(json.data).toMatchObject({ width: 300, height: 200 });
    const after = await keysUnder(folderOf(PEOPLE.owner, video.id));
    expect(after).toHaveLength(10);
    expect(after.filter((key) => before.includes(key))).toEqual([]);
    const orig = await env.MEDIA.get(keyOf(json.data!.images!.orig!.url));
    expect(orig!.httpMetadata?.contentType).toBe("image/jpeg");
    expect([...new Uint8Array(await orig!.arrayBuffer()).subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  });

  it("takes a poster larger than the general 1 MB body limit", async () => {
    // The fixture JPEG followed by 1.2 MB after its end marker: a whole image (the bytes past
    // its end are dropped with the metadata) in a body no JSON call could send.
    const jpeg = jpegWithOrientation(1);
    const big = new Uint8Array(jpeg.length + 1_200_000);
    big.set(jpeg);
    const { status, json } = await poster(PEOPLE.owner, video.id, big);
    expect(status, json.message_detail ?? "").toBe(200);
    expect(json.data).toMatchObject({ width: 60, height: 40 });
  });

  it("refuses a file that is not an image, another person's video and an image upload, changing nothing", async () => {
    const before = await keysUnder(folderOf(PEOPLE.owner, video.id));
    const notImage = await poster(PEOPLE.owner, video.id, new TextEncoder().encode("<html>not a frame</html>"));
    expect(notImage.status).toBe(400);
    expect(notImage.json.message_detail).toBe("file: must be a JPEG, PNG, WebP or GIF image");
    const aVideo = await poster(PEOPLE.owner, video.id, mp4Bytes());
    expect(aVideo.status).toBe(400);
    expect((await poster(PEOPLE.stranger, video.id, jpegWithOrientation(1))).status).toBe(404);
    const image = await uploaded(PEOPLE.owner, bandedPng(), "still.png");
    const onImage = await poster(PEOPLE.owner, image.id, jpegWithOrientation(1));
    expect(onImage.status).toBe(400);
    expect(onImage.json.message_detail).toBe("id: must be a video: only videos take a cover image");
    expect(await keysUnder(folderOf(PEOPLE.owner, video.id))).toEqual(before);
  });

  it("refuses a poster whose declared length passes the image limit before reading it", async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 65_536;
        controller.enqueue(new Uint8Array(65_536));
        if (pulled > 21 * 1024 * 1024) controller.close();
      },
    });
    const response = await (await browserAs(PEOPLE.owner)).fetch(`${UPLOADS}${video.id}/poster/`, { method: "PUT", body, headers: { "content-length": String(20 * 1024 * 1024 + 1) } });
    expect(response.status).toBe(413);
    expect(pulled).toBeLessThan(1_048_576);
  });

  it("needs a session and the CSRF token", async () => {
    expect((await new Browser().fetch(`${UPLOADS}${video.id}/poster/`, { method: "PUT", body: new File([jpegWithOrientation(1)], "f") })).status).toBe(401);
    const browser = await browserAs(PEOPLE.owner);
    browser.cookies.delete("csrftoken");
    expect((await browser.fetch(`${UPLOADS}${video.id}/poster/`, { method: "PUT", body: new File([jpegWithOrientation(1)], "f"), headers: { "x-csrftoken": "" } })).status).toBe(403);
  });
});

describe("a crop or a poster while storage fails", () => {
  const faults = new Faults();
  async function throughFaults(path: string, init: Parameters<Browser["fetch"]>[1]): Promise<number> {
    const browser = new Browser(undefined, faults.fetch);
    browser.cookies.set("__Host-pinloom_sess", (await createSession(PEOPLE.owner)).token);
    const response = await browser.fetch(path, init);
    await response.arrayBuffer();
    return response.status;
  }
  const row = (id: string) => env.DB.prepare("SELECT width, height, sizes, revision, dominant_color FROM media_uploads WHERE id = ?1").bind(id).first();

  it.each([
    ["R2 refusing the new cut", () => faults.failR2(["put"])],
    ["D1 refusing the switch to it", () => faults.failD1({ when: /UPDATE media_uploads SET/ })],
  ])("%s: a 503, the old cut whole and no new object left", async (_name, arm) => {
    const image = await uploaded(PEOPLE.owner, bandedPng(), "banded.png");
    const video = await uploaded(PEOPLE.owner, mp4Bytes(), "clip.mp4");
    const before = { image: await row(image.id), video: await row(video.id), imageKeys: await keysUnder(folderOf(PEOPLE.owner, image.id)), videoKeys: await keysUnder(folderOf(PEOPLE.owner, video.id)) };
    arm();
    try {
      expect(await throughFaults(`${UPLOADS}${image.id}/crop/`, { method: "POST", body: JSON.stringify({ ratio: "1:1" }), headers: { "content-type": "application/json" } })).toBe(503);
      // Called in-process, the request carries only the headers it is given.
      const frame = jpegWithOrientation(1);
      expect(await throughFaults(`${UPLOADS}${video.id}/poster/`, { method: "PUT", body: frame, headers: { "content-length": String(frame.length) } })).toBe(503);
    } finally {
      faults.heal();
    }
    expect({ image: await row(image.id), video: await row(video.id), imageKeys: await keysUnder(folderOf(PEOPLE.owner, image.id)), videoKeys: await keysUnder(folderOf(PEOPLE.owner, video.id)) }).toEqual(before);
  });
});

describe("the sweep of abandoned uploads", () => {
  // Uploads the tests above made just now are recent at this time, so they stay.
  const NOW = Date.now();
  const OLD = NOW - ABANDONED_UPLOAD_MS - 60_000;
  const RECENT = NOW - ABANDONED_UPLOAD_MS + 60_000;
  const id = (n: number) => `5eed${String(n).padStart(28, "0")}`;

  /** An upload row with two objects in its folder, as the upload route leaves one. */
  async function seedUpload(n: number, userId: number, createdAt: number, status = "uploaded"): Promise<string> {
    await env.DB.prepare(
      "INSERT INTO media_uploads (id, user_id, kind, content_type, bytes, width, height, dominant_color, sizes, status, created_at) VALUES (?1, ?2, 'image', 'image/jpeg', 10, 1, 1, '#000000', '{\"orig\":[1,1]}', ?3, ?4)",
    )
      .bind(id(n), userId, status, createdAt)
      .run();
    await env.MEDIA.put(`${folderOf(userId, id(n))}orig.jpg`, "x");
    await env.MEDIA.put(`${folderOf(userId, id(n))}236x.jpg`, "x");
    return id(n);
  }
  const exists = async (uploadId: string) => (await scalar("SELECT COUNT(*) FROM media_uploads WHERE id = ?1", uploadId)) === 1;
  const draftNaming = (userId: number, uploadId: string) =>
    env.DB.prepare("INSERT INTO pin_drafts (user_id, draft, version, created_at, updated_at) VALUES (?1, ?2, 1, 0, 0)")
      .bind(userId, JSON.stringify({ items: [{ id: "a", media: { type: "image", source: "uploaded", ref: uploadId } }] }))
      .run();

  it("deletes old unpublished uploads no draft of their owner names, with their objects, and keeps the rest", async () => {
    const abandoned = await seedUpload(1, PEOPLE.owner, OLD);
    const inOwnDraft = await seedUpload(2, PEOPLE.owner, OLD);
    const inStrangersDraft = await seedUpload(3, PEOPLE.owner, OLD);
    const publishedOne = await seedUpload(4, PEOPLE.owner, OLD, "published");
    const recent = await seedUpload(5, PEOPLE.owner, RECENT);
    await draftNaming(PEOPLE.owner, inOwnDraft);
    await draftNaming(PEOPLE.stranger, inStrangersDraft);

    expect(await sweepAbandonedUploads(env.DB, env.MEDIA, NOW)).toBe(2);

    expect(await exists(abandoned)).toBe(false);
    expect(await exists(inStrangersDraft)).toBe(false);
    expect(await keysUnder(folderOf(PEOPLE.owner, abandoned))).toEqual([]);
    expect(await keysUnder(folderOf(PEOPLE.owner, inStrangersDraft))).toEqual([]);
    for (const kept of [inOwnDraft, publishedOne, recent]) {
      expect(await exists(kept), kept).toBe(true);
      expect(await keysUnder(folderOf(PEOPLE.owner, kept)), kept).toHaveLength(2);
    }
    expect(await scalar("SELECT COUNT(*) FROM media_upload_purges")).toBe(0);
  });

  it("runs on the housekeeping cron", async () => {
    const BUILT_WORKER = "../../dist/server/entry.mjs";
    const worker = ((await import(/* @vite-ignore */ BUILT_WORKER)) as { default: ExportedHandler<Env> }).default;
    const uploadId = await seedUpload(31, PEOPLE.owner, Date.now() - ABANDONED_UPLOAD_MS - 60_000);
    const ctx = createExecutionContext();
    await worker.scheduled!(createScheduledController({ cron: "*/30 * * * *", scheduledTime: Date.now() }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(await exists(uploadId)).toBe(false);
    expect(await keysUnder(folderOf(PEOPLE.owner, uploadId))).toEqual([]);
  });

  it("deletes at most its bound in one run", async () => {
    await seedUpload(11, PEOPLE.owner, OLD);
    await seedUpload(12, PEOPLE.owner, OLD - 1);
    await seedUpload(13, PEOPLE.owner, OLD - 2);
    expect(await sweepAbandonedUploads(env.DB, env.MEDIA, NOW, 2)).toBe(2);
    // Oldest first.
    expect([await exists(id(11)), await exists(id(12)), await exists(id(13))]).toEqual([true, false, false]);
    expect(await sweepAbandonedUploads(env.DB, env.MEDIA, NOW, 2)).toBe(1);
    expect(await exists(id(11))).toBe(false);
  });

  it("when R2 fails, leaves the row gone, the objects unreadable, and empties the folder on the next run", async () => {
    const uploadId = await seedUpload(21, PEOPLE.owner, OLD);
    const failing = new Proxy(env.MEDIA, {
      get(target, property) {
        if (property === "delete" || property === "list") return () => Promise.reject(new Error("R2 is out of reach"));
        const value = Reflect.get(target, property) as unknown;
        return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    expect(await sweepAbandonedUploads(env.DB, failing, NOW)).toBe(1);
    expect(await exists(uploadId)).toBe(false);
    expect(await keysUnder(folderOf(PEOPLE.owner, uploadId))).toHaveLength(2);
    expect((await (await browserAs(PEOPLE.owner)).fetch(`/media/${folderOf(PEOPLE.owner, uploadId)}orig.jpg`)).status).toBe(404);
    expect(await scalar("SELECT COUNT(*) FROM media_upload_purges")).toBe(1);

    expect(await sweepAbandonedUploads(env.DB, env.MEDIA, NOW)).toBe(0);
    expect(await keysUnder(folderOf(PEOPLE.owner, uploadId))).toEqual([]);
    expect(await scalar("SELECT COUNT(*) FROM media_upload_purges")).toBe(0);
  });
});
