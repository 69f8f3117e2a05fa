// Tried-it photos: stored without their metadata, bound to the pin they were uploaded for and
// to their uploader, spent once attached, throttled before their body is read, deleted when a
// rewritten post replaces them, and swept (files first) when left unattached past their time.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { DidItPost } from "~/comments/comment.ts";
import { purgeStaleUploads } from "~/comments/did-it-posts.server.ts";
import { DID_IT_UPLOAD_TTL_MS } from "~/comments/photo.ts";
import { RATE_RULES } from "~/server/rate-limit.server.ts";
import { Browser, fillCounter } from "./accounts-helpers.ts";
import { GPS_SECRET, pngBytes } from "./photo-fixture.ts";
import { browserAs, call, scalar } from "./social-fixture.ts";

/** People who post tried-its with photos on one board's pins. */
const POSTERS = { owner: 501, uploader: 506, thief: 507 } as const;
/** People whose uploads are throttled, replaced and swept, on another board's pins. */
const UPLOADERS = { owner: 801, uploader: 802, sweeper: 803 } as const;
const P = { photoA: 9505, photoB: 9506, throttled: 9801, replaced: 9802, swept: 9803 } as const;

beforeAll(async () => {
  const db = env.DB;
  const person = (prefix: string) => ([name, id]: [string, number]) =>
    db.prepare("INSERT INTO users (id, username, email, full_name, first_name, email_verified, created_at) VALUES (?1, ?2, ?3, ?2, ?2, 1, 0)").bind(id, `${prefix}_${name}`, `${prefix}_${name}@photos.test`);
  const pin = (id: number, board: number, owner: number) =>
    db.prepare("INSERT INTO pins (id, pinner_id, board_id, kind, title, image_signature, created_at, updated_at) VALUES (?1, ?2, ?3, 'image', ?4, 'sig', 0, 0)").bind(id, owner, board, `Pin ${id}`);
  await db.batch([
    ...Object.entries(POSTERS).map(person("poster")),
    ...Object.entries(UPLOADERS).map(person("uploader")),
    db.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (5100, ?1, 'Tried', 'tried', 'public', 0, 0)").bind(POSTERS.owner),
    db.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (8100, ?1, 'Uploads', 'uploads', 'public', 0, 0)").bind(UPLOADERS.owner),
    pin(P.photoA, 5100, POSTERS.owner),
    pin(P.photoB, 5100, POSTERS.owner),
    pin(P.throttled, 8100, UPLOADERS.owner),
    pin(P.replaced, 8100, UPLOADERS.owner),
    pin(P.swept, 8100, UPLOADERS.owner),
  ]);
});

type Data<T> = { status: number; data: T; error: { message: string; message_detail: string | null; api_error_code: number } | undefined };

async function resource<T>(who: number, name: string, action: "get" | "create" | "update" | "delete", options: unknown): Promise<Data<T>> {
  const { status, body } = await call<T>(await browserAs(who), name, action, options);
  return { status, data: body.resource_response.data, error: body.resource_response.error };
}
const as = async (who: number | null) => (who === null ? new Browser() : browserAs(who));

async function uploadWith(browser: Browser, pinId: number, bytes: Uint8Array<ArrayBuffer> = pngBytes()): Promise<{ status: number; signature: string }> {
  const form = new FormData();
  form.append("pin_id", String(pinId));
  form.append("photo", new File([bytes], "photo.png", { type: "image/png" }));
  const response = await browser.fetch("/v3/did_it/photos/", { method: "POST", body: form });
  const json = await response.json<{ data: { image_signature: string } | null }>();
  return { status: response.status, signature: json.data?.image_signature ?? "" };
}

/** Waits for a condition the Worker meets after its answer (waitUntil). */
async function eventually(check: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 50; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
  throw new Error(`never happened: ${what}`);
}

// Runs first: its counts of attached photos are of the whole table.
describe("tried-it photos attached to a post", () => {
  async function upload(who: number, pinId: number | null, bytes = pngBytes()): Promise<Data<{ image_signature: string }>> {
    const form = new FormData();
    if (pinId !== null) form.append("pin_id", String(pinId));
    form.append("photo", new File([bytes], "photo.png", { type: "image/png" }));
    const response = await (await as(who)).fetch("/v3/did_it/photos/", { method: "POST", body: form });
    const json = await response.json<{ data: { image_signature: string }; error?: Data<unknown>["error"] }>();
    return { status: response.status, data: json.data, error: json.error };
  }
  const createPost = (who: number, pinId: number, signature: string) =>
    resource<DidItPost>(who, "DidItActivityResource", "create", { pin_id: String(pinId), details: "with a photo", image_signature: signature });

  it("are stored without their GPS EXIF and still a PNG", async () => {
    const original = pngBytes();
    expect(new TextDecoder("latin1").decode(original)).toContain(GPS_SECRET);
    const uploaded = await upload(POSTERS.uploader, P.photoA, original);
    expect(uploaded.status).toBe(200);
    const stored = await env.MEDIA.get(`did-it/${uploaded.data.image_signature}.png`);
    const bytes = new Uint8Array(await stored!.arrayBuffer());
    const text = new TextDecoder("latin1").decode(bytes);
    expect(text).not.toContain(GPS_SECRET);
    expect(text).not.toContain("eXIf");
    expect(text).not.toContain("Exif Owner");
    expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(text).toContain("IDAT");
    expect([...bytes.subarray(-8)]).toEqual([0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);
  });

  it("need the pin they are for: 400 naming pin_id without it, 404 for a pin the uploader cannot see", async () => {
    const missing = await upload(POSTERS.uploader, null);
    expect(missing.status).toBe(400);
    expect(missing.error?.message_detail ?? "").toContain("pin_id");
    expect((await upload(POSTERS.uploader, 999_999)).status).toBe(404);
  });

  it("attach only to the pin they were uploaded for and only by their uploader, once", async () => {
    const uploaded = await upload(POSTERS.uploader, P.photoA);
    const signature = uploaded.data.image_signature;
    expect((await createPost(POSTERS.uploader, P.photoB, signature)).status).toBe(400);
    expect((await createPost(POSTERS.thief, P.photoA, signature)).status).toBe(400);
    expect(await scalar("SELECT count(*) FROM did_its WHERE image_key IS NOT NULL")).toBe(0);
    const made = await createPost(POSTERS.uploader, P.photoA, signature);
    expect(made.status).toBe(200);
    expect(made.data.image_url).toBe(`/media/did-it/${signature}.png`);
    // Spent: the upload row is gone, so the signature cannot be attached again elsewhere.
    expect(await scalar("SELECT count(*) FROM did_it_uploads WHERE signature = ?1", signature)).toBe(0);
    expect((await createPost(POSTERS.uploader, P.photoB, signature)).status).toBe(400);
  });

  it("left unattached past their time are refused and swept by housekeeping, rows and files; fresh ones stay", async () => {
    const stale = (await upload(POSTERS.uploader, P.photoB)).data.image_signature;
    const fresh = (await upload(POSTERS.uploader, P.photoB)).data.image_signature;
    await env.DB.prepare("UPDATE did_it_uploads SET created_at = ?2 WHERE signature = ?1").bind(stale, Date.now() - DID_IT_UPLOAD_TTL_MS - 1000).run();
    expect((await createPost(POSTERS.uploader, P.photoB, stale)).status).toBe(400);
    expect(await purgeStaleUploads(env.DB, env.MEDIA)).toBe(1);
    expect(await env.MEDIA.head(`did-it/${stale}.png`)).toBeNull();
    expect(await scalar("SELECT count(*) FROM did_it_uploads WHERE signature = ?1", stale)).toBe(0);
    expect(await env.MEDIA.head(`did-it/${fresh}.png`)).not.toBeNull();
    expect(await scalar("SELECT count(*) FROM did_it_uploads WHERE signature = ?1", fresh)).toBe(1);
  });
});

describe("tried-it photo uploads", () => {
  it("are throttled before the body is read: past the limit even a body that is not a photo is a 429", async () => {
    const browser = await browserAs(UPLOADERS.uploader);
    expect((await uploadWith(browser, P.throttled, new Uint8Array(new ArrayBuffer(64)))).status).toBe(400);
    await fillCounter(`did-it-post:user:${UPLOADERS.uploader}`, RATE_RULES.didItPostPerUser.limit, RATE_RULES.didItPostPerUser.windowMs);
    const refused = await uploadWith(browser, P.throttled, new Uint8Array(new ArrayBuffer(64)));
    expect(refused.status).toBe(429);
    expect(await scalar("SELECT count(*) FROM did_it_uploads WHERE user_id = ?1", UPLOADERS.uploader)).toBe(0);
    await env.DB.prepare("DELETE FROM rate_limits WHERE key = ?1").bind(`did-it-post:user:${UPLOADERS.uploader}`).run();
  });

  it("a post rewritten with a new photo deletes the photo it replaced, and keeps the new one", async () => {
    const browser = await browserAs(UPLOADERS.uploader);
    const first = (await uploadWith(browser, P.replaced)).signature;
    const post = (signature: string) => call<DidItPost>(browser, "DidItActivityResource", "create", { pin_id: String(P.replaced), details: "again", image_signature: signature });
    expect((await post(first)).status).toBe(200);
    expect(await env.MEDIA.head(`did-it/${first}.png`)).not.toBeNull();
    const second = (await uploadWith(browser, P.replaced)).signature;
    const rewritten = await post(second);
    expect(rewritten.status).toBe(200);
    expect(rewritten.body.resource_response.data.image_url).toBe(`/media/did-it/${second}.png`);
    await eventually(async () => (await env.MEDIA.head(`did-it/${first}.png`)) === null, "the replaced photo deleted");
    expect(await env.MEDIA.head(`did-it/${second}.png`)).not.toBeNull();
  });

  it("stale ones are swept files first: when R2 fails the rows stay for the next run, which then removes both", async () => {
    const browser = await browserAs(UPLOADERS.sweeper);
    const stale = (await uploadWith(browser, P.swept)).signature;
    await env.DB.prepare("UPDATE did_it_uploads SET created_at = ?2 WHERE signature = ?1").bind(stale, Date.now() - DID_IT_UPLOAD_TTL_MS - 1000).run();
    const failing = { delete: () => Promise.reject(new Error("R2 unavailable")) } as unknown as R2Bucket;
    await expect(purgeStaleUploads(env.DB, failing)).rejects.toThrow("R2 unavailable");
    expect(await scalar("SELECT count(*) FROM did_it_uploads WHERE signature = ?1", stale)).toBe(1);
    expect(await purgeStaleUploads(env.DB, env.MEDIA)).toBe(1);
    expect(await scalar("SELECT count(*) FROM did_it_uploads WHERE signature = ?1", stale)).toBe(0);
    expect(await env.MEDIA.head(`did-it/${stale}.png`)).toBeNull();
  });
});
