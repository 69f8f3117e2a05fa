// Every byte under /media/ is authorized by the object that owns its key, with the close-up's
// and the profile's rules: a pin's images, video and captions (pins/<id>/...), pooled pin
// images (pool/...), avatars (users/...) and tried-it photos (did-it/...). What a viewer may not
// see answers exactly as a missing object does: same status, headers and body, so a 404 never
// tells a stranger that a private pin exists. Public objects are cached publicly for a short,
// bounded time with ETag revalidation; objects only their people may see, privately and never
// stored.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { DEVICE_COOKIE } from "~/accounts/session.server.ts";
import { hashToken, newToken } from "~/accounts/tokens.ts";
import { fetchWorker } from "./fixtures.ts";
import { PINS, USERS, T0, seedPrivacyWorld, sessionCookie } from "./privacy-world.ts";

const BYTES = new Uint8Array(1000).map((_, i) => i % 251);
const PUBLIC_CACHE = "public, max-age=300, must-revalidate";
const PRIVATE_CACHE = "private, no-store";
const cookies: Record<number, string> = {};

const DID_IT = (letter: string, extension = "jpg") => `did-it/${letter.repeat(32)}.${extension}`;
const PIN_KEYS = (id: number) => [`pins/${id}/236x.jpg`, `pins/${id}/slot-1/474x.jpg`, `pins/${id}/page-0/236x.jpg`, `pins/${id}/video.mp4`, `pins/${id}/captions.en_US.vtt`];

beforeAll(async () => {
  await seedPrivacyWorld();
  const db = env.DB;
  await db.batch([
    // A tried-it photo on a public pin and one on a secret pin, and an upload not yet posted.
    db.prepare("INSERT INTO did_its (id, pin_id, user_id, details, image_key, created_at) VALUES (1, ?1, ?2, 'Made it', ?4, ?3)").bind(PINS.open, USERS.sam, T0, DID_IT("a")),
    db.prepare("INSERT INTO did_its (id, pin_id, user_id, details, image_key, created_at) VALUES (2, ?1, ?2, 'Made it too', ?4, ?3)").bind(PINS.secret, USERS.bo, T0, DID_IT("b")),
    db.prepare("INSERT INTO did_it_uploads (signature, user_id, pin_id, r2_key, created_at) VALUES (?5, ?1, ?2, ?4, ?3)").bind(USERS.sam, PINS.open, Date.now(), DID_IT("c", "png"), "c".repeat(32)),
    // Pooled images: one shown by a public pin, one only by a secret pin.
    db.prepare("UPDATE pin_images SET url = '/media/pool/7/236x.jpg' WHERE pin_id = ?1 AND size = '236x'").bind(PINS.open),
    db.prepare("UPDATE pin_images SET url = '/media/pool/8/236x.jpg' WHERE pin_id = ?1 AND size = '236x'").bind(PINS.secret),
  ]);
  const keys = [
    ...Object.values(PINS).flatMap(PIN_KEYS),
    ...PIN_KEYS(999999),
    ...Object.values(USERS).map((id) => `users/${id}/medium.jpg`),
    DID_IT("a"),
    DID_IT("b"),
    DID_IT("c", "png"),
    DID_IT("d"),
    "pool/7/236x.jpg",
    "pool/8/236x.jpg",
    "articles/1/cover.jpg",
  ];
  await Promise.all(keys.map((key) => env.MEDIA.put(key, BYTES)));
  for (const id of [USERS.ana, USERS.bo, USERS.mia, USERS.sam]) cookies[id] = await sessionCookie(id);
});

/** A response as a comparable record: status, body and every header but the date and the request id (each answer has its own). */
async function shape(response: Response): Promise<{ status: number; headers: Array<[string, string]>; body: string }> {
  const headers = [...response.headers].filter(([name]) => name !== "date" && name !== "x-request-id").sort(([a], [b]) => (a < b ? -1 : 1));
  return { status: response.status, headers, body: await response.text() };
}

const media = (key: string, viewer?: number, headers: Record<string, string> = {}) =>
  fetchWorker(`/media/${key}`, { headers: { ...(viewer ? { cookie: cookies[viewer]! } : {}), ...headers } });

describe("media a stranger may see", () => {
  it.each([
    ...PIN_KEYS(PINS.open),
    ...PIN_KEYS(PINS.unsafe),
    ...PIN_KEYS(PINS.boardless),
    "users/1/medium.jpg",
    DID_IT("a"),
    "pool/7/236x.jpg",
  ])("%s is served publicly, for a bounded time, with an ETag", async (key) => {
    const response = await media(key);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe(PUBLIC_CACHE);
    expect(response.headers.get("etag")).toMatch(/^"[0-9a-f]+"$/);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(BYTES);
  });

  it("keeps ranges, If-None-Match and HEAD", async () => {
    const key = `pins/${PINS.open}/video.mp4`;
    const range = await media(key, undefined, { range: "bytes=10-19" });
    expect(range.status).toBe(206);
    expect(range.headers.get("content-range")).toBe("bytes 10-19/1000");
    expect(new Uint8Array(await range.arrayBuffer())).toEqual(BYTES.slice(10, 20));
    const etag = range.headers.get("etag")!;
    const revalidated = await media(key, undefined, { "if-none-match": etag });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get("cache-control")).toBe(PUBLIC_CACHE);
    const head = await fetchWorker(`/media/${key}`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe("1000");
  });
});

describe("media a stranger may not see", () => {
  const hidden = [
    ...[PINS.secret, PINS.protected, PINS.archived, PINS.hidden, PINS.deleted, PINS.byPrivate, PINS.byMinor, PINS.byLimited, PINS.byUnflaggedMinor, 999999].flatMap(PIN_KEYS),
    `users/${USERS.cy}/medium.jpg`,
    `users/${USERS.mia}/medium.jpg`,
    `users/${USERS.lou}/medium.jpg`,
    `users/${USERS.teo}/medium.jpg`,
    DID_IT("b"),
    DID_IT("c", "png"),
    DID_IT("d"),
    "pool/8/236x.jpg",
    "articles/1/cover.jpg",
  ];

  it.each(hidden)("%s answers exactly as a missing object", async (key) => {
    const missing = await shape(await media("pins/1/never-stored.jpg"));
    expect(missing.status).toBe(404);
    expect(missing.headers).toContainEqual(["cache-control", "no-store"]);
    expect(await shape(await media(key))).toEqual(missing);
    // A HEAD, a range or a revalidation tells nothing more.
    expect(await shape(await fetchWorker(`/media/${key}`, { method: "HEAD" }))).toEqual(await shape(await fetchWorker("/media/pins/1/never-stored.jpg", { method: "HEAD" })));
    expect(await shape(await media(key, undefined, { range: "bytes=0-9" }))).toEqual(missing);
    expect(await shape(await media(key, undefined, { "if-none-match": "*" }))).toEqual(missing);
  });

  it("is also missing to a signed-in stranger", async () => {
    const missing = await shape(await media("pins/1/never-stored.jpg", USERS.sam));
    for (const key of [`pins/${PINS.secret}/236x.jpg`, `pins/${PINS.byMinor}/236x.jpg`, `users/${USERS.mia}/medium.jpg`, DID_IT("b"), "pool/8/236x.jpg"]) {
      expect(await shape(await media(key, USERS.sam)), key).toEqual(missing);
    }
  });
});

describe("media seen by its people only", () => {
  it.each([
    [`pins/${PINS.secret}/236x.jpg`, USERS.ana],
    [`pins/${PINS.secret}/video.mp4`, USERS.bo],
    [`pins/${PINS.archived}/captions.en_US.vtt`, USERS.ana],
    [`pins/${PINS.hidden}/236x.jpg`, USERS.ana],
    [`pins/${PINS.byMinor}/236x.jpg`, USERS.mia],
    [`users/${USERS.mia}/medium.jpg`, USERS.mia],
    [DID_IT("b"), USERS.ana],
    [DID_IT("c", "png"), USERS.sam],
    ["pool/8/236x.jpg", USERS.bo],
  ] as const)("%s is served to user %s, privately and never stored", async (key, viewer) => {
    const response = await media(key, viewer);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe(PRIVATE_CACHE);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(BYTES);
  });

  it("an account signed in on the viewer's device shows its avatar to them, privately", async () => {
    const token = newToken();
    await env.DB.prepare("UPDATE sessions SET device_id = ?1 WHERE user_id = ?2").bind(await hashToken(token), USERS.mia).run();
    const onDevice = await media(`users/${USERS.mia}/medium.jpg`, USERS.sam, { cookie: `${cookies[USERS.sam]}; ${DEVICE_COOKIE}=${token}` });
    expect(onDevice.status).toBe(200);
    expect(onDevice.headers.get("cache-control")).toBe(PRIVATE_CACHE);
    // Another device holds nothing.
    const elsewhere = await media(`users/${USERS.mia}/medium.jpg`, USERS.sam, { cookie: `${cookies[USERS.sam]}; ${DEVICE_COOKIE}=${newToken()}` });
    expect(elsewhere.status).toBe(404);
  });

  it("a deleted pin's media is missing even to its pinner", async () => {
    const missing = await shape(await media("pins/1/never-stored.jpg", USERS.ana));
    expect(await shape(await media(`pins/${PINS.deleted}/236x.jpg`, USERS.ana))).toEqual(missing);
  });
});
