// R2 failing on a media read or a photo upload: reads answer 503 with Retry-After (never a 404
// that would tell a player or a crawler the file is gone, never a 500), an upload answers the
// 503 envelope, and no row ever names a file that is not in R2.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { Browser, USERS, seedAccounts, type Envelope } from "./accounts-helpers.ts";
import { createSession } from "./session-fixture.ts";
import { Faults, LEAKS } from "./faults.ts";
import { pngBytes } from "./photo-fixture.ts";
import { purgeStaleUploads } from "~/comments/did-it-posts.server.ts";
import { DID_IT_UPLOAD_TTL_MS } from "~/comments/photo.ts";

const faults = new Faults();
const PIN = 301;
const IMAGE = `pins/${PIN}/orig.jpg`;
const BYTES = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 5, 6, 7, 8, 0xff, 0xd9]);

beforeAll(async () => {
  await seedAccounts();
  await env.DB.batch([
    env.DB.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (30, ?1, 'Kitchen', 'kitchen', 'public', 0, 0)").bind(USERS.ana.id),
    env.DB.prepare("INSERT INTO pins (id, pinner_id, board_id, kind, title, image_signature, created_at, updated_at) VALUES (?1, ?2, 30, 'image', 'Bread', 'sig', 0, 0)").bind(PIN, USERS.ana.id),
    env.DB.prepare("INSERT INTO pin_images (pin_id, size, url, width, height, dominant_color) VALUES (?1, 'orig', ?2, 800, 1200, '#abcdef')").bind(PIN, `/media/${IMAGE}`),
    env.DB.prepare("INSERT INTO board_pins (board_id, pin_id, saved_by, position, created_at) VALUES (30, ?1, ?2, 1, 0)").bind(PIN, USERS.ana.id),
  ]);
  await env.MEDIA.put(IMAGE, BYTES, { httpMetadata: { contentType: "image/jpeg" } });
});

async function expectUnavailable(response: Response): Promise<void> {
  expect(response.status).toBe(503);
  expect(response.headers.get("retry-after")).toBe("10");
  expect(response.headers.get("cache-control")).toBe("no-store");
  const text = await response.text();
  expect(text).not.toMatch(LEAKS);
  expect(JSON.parse(text)).toMatchObject({ status: "failure", code: 20, message: "Pinloom is briefly unavailable. Please try again in a moment." });
}

describe("a media read while R2 fails", () => {
  for (const op of ["head", "get"] as const) {
    it(`answers 503 with Retry-After when R2's ${op} fails, and the file once R2 is back`, async () => {
      faults.failR2([op]);
      try {
        await expectUnavailable(await faults.fetch(`/media/${IMAGE}`));
      } finally {
        faults.heal();
      }
      const back = await faults.fetch(`/media/${IMAGE}`);
      expect(back.status).toBe(200);
      expect(new Uint8Array(await back.arrayBuffer())).toEqual(BYTES);
    });
  }

  it("a byte range answers the same 503", async () => {
    faults.failR2(["get"]);
    try {
      await expectUnavailable(await faults.fetch(`/media/${IMAGE}`, { headers: { range: "bytes=0-3" } }));
    } finally {
      faults.heal();
    }
  });
});

describe("a tried-it photo upload while storage fails", () => {
  async function upload(): Promise<Response> {
    const browser = new Browser(undefined, faults.fetch);
    browser.cookies.set("__Host-pinloom_sess", (await createSession(USERS.ben.id)).token);
    const form = new FormData();
    form.append("pin_id", String(PIN));
    form.append("photo", new File([pngBytes()], "photo.png", { type: "image/png" }));
    return browser.fetch("/v3/did_it/photos/", { method: "POST", body: form });
  }
  const uploads = () => env.DB.prepare("SELECT signature, r2_key FROM did_it_uploads WHERE user_id = ?1 ORDER BY created_at").bind(USERS.ben.id).all<{ signature: string; r2_key: string }>();
  const files = async () => (await env.MEDIA.list({ prefix: "did-it/" })).objects.map((object) => object.key).sort();

  it.each([
    ["R2 refusing the file: a 503, and no row names it", () => faults.failR2(["put"])],
    ["D1 refusing the row: a 503, and no file is stored", () => faults.failD1({ when: /INSERT INTO did_it_uploads/ })],
  ])("%s", async (_name, arm) => {
    const before = await files();
    arm();
    try {
      await expectUnavailable(await upload());
    } finally {
      faults.heal();
    }
    expect((await uploads()).results).toEqual([]);
    expect(await files()).toEqual(before);
  });

  it("when both fail, the row left behind is cleared by housekeeping", async () => {
    faults.failR2(["put"]).failD1({ when: /DELETE FROM did_it_uploads/ });
    try {
      await expectUnavailable(await upload());
    } finally {
      faults.heal();
    }
    const [left] = (await uploads()).results;
    expect(left).toBeDefined();
    expect(await env.MEDIA.head(left!.r2_key)).toBeNull();
    await purgeStaleUploads(env.DB, env.MEDIA, Date.now() + DID_IT_UPLOAD_TTL_MS + 1);
    expect((await uploads()).results).toEqual([]);
  });

  it("once storage is back, every row names a file that is there", async () => {
    const response = await upload();
    expect(response.status).toBe(200);
    const { data } = await response.json<Envelope<{ image_signature: string }>>();
    const rows = (await uploads()).results;
    expect(rows.map((row) => row.signature)).toEqual([data.image_signature]);
    for (const row of rows) expect(await env.MEDIA.head(row.r2_key)).not.toBeNull();
  });
});
