// Security review of comments + GraphQL (review-fixes-1): tried-it uploads throttled before
// their body is read, stale uploads swept files first, photo replacement deleting the file the
// batch replaced, feature updates merged in SQL, GraphQL rate-limited per viewer or /64, and
// signed-out pin pages embedding answers that do not depend on the User-Agent.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { DidItPost } from "../../src/comments/comment.ts";
import { purgeStaleUploads } from "../../src/comments/did-it-posts.server.ts";
import { DID_IT_UPLOAD_TTL_MS } from "../../src/comments/photo.ts";
import { SIGNED_OUT_IS_DESKTOP } from "../../src/graphql/embed.server.ts";
import { EMBEDDED_QUERIES_ID, type EmbeddedQueryResponse } from "../../src/graphql/protocol.ts";
import { QUERY_IDS } from "../../src/graphql/query-ids.ts";
import { RATE_RULES } from "../../src/server/rate-limit.server.ts";
import { Browser } from "./accounts-helpers.ts";
import { BASE, fetchWorker } from "./fixtures.ts";
import { pngBytes } from "./photo-fixture.ts";
import { browserAs, call, scalar } from "./social-fixture.ts";

const U = { owner: 801, uploader: 802, sweeper: 803, toggler: 804, reader: 805 } as const;
const BOARD = 8100;
const P = { throttled: 9801, replaced: 9802, swept: 9803, page: 9804 } as const;
const MOBILE_UA = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";

beforeAll(async () => {
  const db = env.DB;
  await db.batch([
    ...Object.entries(U).map(([name, id]) =>
      db.prepare("INSERT INTO users (id, username, email, full_name, first_name, email_verified, created_at) VALUES (?1, ?2, ?3, ?2, ?2, 1, 0)").bind(id, `sr_${name}`, `${name}@review.test`),
    ),
    db.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (?1, ?2, 'Review', 'review', 'public', 0, 0)").bind(BOARD, U.owner),
    ...Object.values(P).map((id) =>
      db.prepare("INSERT INTO pins (id, pinner_id, board_id, kind, title, image_signature, created_at, updated_at) VALUES (?1, ?2, ?3, 'image', ?4, 'sig', 0, 0)").bind(id, U.owner, BOARD, `Pin ${id}`),
    ),
    db.prepare("INSERT INTO pin_images VALUES (?1, '236x', '/media/pins/p/236x.jpg', 236, 300, '#a1b2c3')").bind(P.page),
  ]);
});

/** Fills a throttle's current window to its limit, so the next hit is refused. */
async function exhaust(key: string, windowMs: number, limit: number) {
  const now = Date.now();
  await env.DB.prepare("INSERT INTO rate_limits (key, window_start, count) VALUES (?1, ?2, ?3) ON CONFLICT(key) DO UPDATE SET window_start = excluded.window_start, count = excluded.count")
    .bind(key, now - (now % windowMs), limit)
    .run();
}

async function upload(browser: Browser, pinId: number, bytes: Uint8Array<ArrayBuffer> = pngBytes()): Promise<{ status: number; signature: string }> {
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

describe("tried-it photo uploads", () => {
  it("are throttled before the body is read: past the limit even a body that is not a photo is a 429", async () => {
    const browser = await browserAs(U.uploader);
    expect((await upload(browser, P.throttled, new Uint8Array(new ArrayBuffer(64)))).status).toBe(400);
    await exhaust(`did-it-post:user:${U.uploader}`, RATE_RULES.didItPostPerUser.windowMs, RATE_RULES.didItPostPerUser.limit);
    const refused = await upload(browser, P.throttled, new Uint8Array(new ArrayBuffer(64)));
    expect(refused.status).toBe(429);
    expect(await scalar("SELECT count(*) FROM did_it_uploads WHERE user_id = ?1", U.uploader)).toBe(0);
    await env.DB.prepare("DELETE FROM rate_limits WHERE key = ?1").bind(`did-it-post:user:${U.uploader}`).run();
  });

  it("a post rewritten with a new photo deletes the photo it replaced, and keeps the new one", async () => {
    const browser = await browserAs(U.uploader);
    const first = (await upload(browser, P.replaced)).signature;
    const post = (signature: string) => call<DidItPost>(browser, "DidItActivityResource", "create", { pin_id: String(P.replaced), details: "again", image_signature: signature });
    expect((await post(first)).status).toBe(200);
    expect(await env.MEDIA.head(`did-it/${first}.png`)).not.toBeNull();
    const second = (await upload(browser, P.replaced)).signature;
    const rewritten = await post(second);
    expect(rewritten.status).toBe(200);
    expect(rewritten.body.resource_response.data.image_url).toBe(`/media/did-it/${second}.png`);
    await eventually(async () => (await env.MEDIA.head(`did-it/${first}.png`)) === null, "the replaced photo deleted");
    expect(await env.MEDIA.head(`did-it/${second}.png`)).not.toBeNull();
  });

  it("stale ones are swept files first: when R2 fails the rows stay for the next run, which then removes both", async () => {
    const browser = await browserAs(U.sweeper);
    const stale = (await upload(browser, P.swept)).signature;
    await env.DB.prepare("UPDATE did_it_uploads SET created_at = ?2 WHERE signature = ?1").bind(stale, Date.now() - DID_IT_UPLOAD_TTL_MS - 1000).run();
    const failing = { delete: () => Promise.reject(new Error("R2 unavailable")) } as unknown as R2Bucket;
    await expect(purgeStaleUploads(env.DB, failing)).rejects.toThrow("R2 unavailable");
    expect(await scalar("SELECT count(*) FROM did_it_uploads WHERE signature = ?1", stale)).toBe(1);
    expect(await purgeStaleUploads(env.DB, env.MEDIA)).toBe(1);
    expect(await scalar("SELECT count(*) FROM did_it_uploads WHERE signature = ?1", stale)).toBe(0);
    expect(await env.MEDIA.head(`did-it/${stale}.png`)).toBeNull();
  });
});

describe("comment feature updates", () => {
  it("two at once, each of another feature: both changes stay (merged in SQL, not read-merge-write)", async () => {
    for (let round = 0; round < 5; round++) {
      const on = round % 2 === 1;
      const [comments, mentions] = await Promise.all([
        (await browserAs(U.toggler)).json("/v3/users/settings/comments/", { allow_comments: on }, "PUT"),
        (await browserAs(U.toggler)).json("/v3/users/settings/comments/", { allow_mentions: on }, "PUT"),
      ]);
      expect([comments.status, mentions.status]).toEqual([200, 200]);
      const stored = JSON.parse((await scalar<string>("SELECT feature_map FROM comment_features WHERE user_id = ?1", U.toggler))!) as Record<string, boolean>;
      expect(stored, `round ${round}`).toEqual({ allow_comments: on, allow_mentions: on });
    }
  });

  it("answers the whole map after a change, the unchanged feature as stored", async () => {
    const browser = await browserAs(U.reader);
    expect((await browser.json("/v3/users/settings/comments/", { allow_mentions: false }, "PUT")).status).toBe(200);
    const answer = await (await browser.json("/v3/users/settings/comments/", { allow_comments: false }, "PUT")).json<{ data: { featureMap: Record<string, boolean> } }>();
    expect(answer.data.featureMap).toEqual({ allow_comments: false, allow_mentions: false });
  });
});

describe("GraphQL", () => {
  const ask = (browser: Browser) =>
    browser.fetch("/_/graphql/", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ queryHash: QUERY_IDS.CloseupPageQuery, variables: { pinId: String(P.page), isAuth: false } }),
    });

  it("signed out, is rate-limited per IPv6 /64: a full /64 gets 429 with Retry-After, the next /64 does not", async () => {
    expect((await ask(new Browser("2001:db8:77:1::5"))).status).toBe(200);
    await exhaust("graphql:viewer:ip:2001:db8:77:1::/64", RATE_RULES.graphqlPerViewer.windowMs, RATE_RULES.graphqlPerViewer.limit);
    const refused = await ask(new Browser("2001:db8:77:1:abcd::1"));
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await ask(new Browser("2001:db8:77:2::5"))).status).toBe(200);
  });

  it("signed in, is rate-limited per user whatever the address", async () => {
    await exhaust(`graphql:viewer:${U.reader}`, RATE_RULES.graphqlPerViewer.windowMs, RATE_RULES.graphqlPerViewer.limit);
    const browser = await browserAs(U.reader);
    expect((await ask(browser)).status).toBe(429);
    browser.ip = "203.0.113.77";
    expect((await ask(browser)).status).toBe(429);
    expect((await ask(await browserAs(U.owner))).status).toBe(200);
  });

  it("a signed-out pin page embeds the same isDesktop for a phone and a desktop (its cache key has no device class)", async () => {
    const embedded = async (userAgent: string) => {
      const response = await fetchWorker(`/pin/${P.page}/`, { headers: { "user-agent": userAgent, origin: BASE } });
      expect(response.status).toBe(200);
      const json = new RegExp(`<script type="application/json" id="${EMBEDDED_QUERIES_ID}">([^<]*)</script>`).exec(await response.text())?.[1];
      expect(json, "embedded block").toBeDefined();
      return (JSON.parse(json!) as EmbeddedQueryResponse[]).find((entry) => entry.queryName === "CloseupDetailQuery")!.variables;
    };
    expect(await embedded(MOBILE_UA)).toEqual({ pinId: String(P.page), isAuth: false, isDesktop: SIGNED_OUT_IS_DESKTOP });
    expect(await embedded("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36")).toEqual({
      pinId: String(P.page),
      isAuth: false,
      isDesktop: SIGNED_OUT_IS_DESKTOP,
    });
  });
});
