// Comment features a person sets for themselves (PUT /v3/users/settings/comments/): turning
// mentions off refuses new mentions of them, the parental passcode guards the change, only the
// viewer's own map changes, and two changes at once to different features both stay.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { Comment } from "~/comments/comment.ts";
import { Browser } from "./accounts-helpers.ts";
import { browserAs, call, scalar } from "./social-fixture.ts";

const U = { owner: 501, author: 502, other: 504, guarded: 507, toggler: 804, reader: 805 } as const;
const BOARD = 5100;
const P = { edits: 9501 } as const;

beforeAll(async () => {
  const db = env.DB;
  await db.batch([
    ...Object.entries(U).map(([name, id]) =>
      db.prepare("INSERT INTO users (id, username, email, full_name, first_name, email_verified, created_at) VALUES (?1, ?2, ?3, ?2, ?2, 1, 0)").bind(id, `s_${name}`, `${name}@settings.test`),
    ),
    db.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (?1, ?2, 'Settings', 'settings', 'public', 0, 0)").bind(BOARD, U.owner),
    db.prepare("INSERT INTO pins (id, pinner_id, board_id, kind, title, image_signature, created_at, updated_at) VALUES (?1, ?2, ?3, 'image', ?4, 'sig', 0, 0)").bind(P.edits, U.owner, BOARD, `Pin ${P.edits}`),
  ]);
});

type Data<T> = { status: number; data: T; error: { message: string; message_detail: string | null; api_error_code: number } | undefined };

async function v3<T = Record<string, unknown>>(browser: Browser, method: string, path: string, body?: unknown): Promise<Data<T>> {
  const response = method === "GET" ? await browser.fetch(path) : await browser.json(path, body ?? {}, method);
  const json = await response.json<{ data: T; error?: Data<T>["error"] }>();
  return { status: response.status, data: json.data, error: json.error };
}
const as = async (who: number | null) => (who === null ? new Browser() : browserAs(who));

async function post(who: number, pinId: number, text: string, extra: Record<string, unknown> = {}): Promise<Data<Comment>> {
  const { status, body } = await call<Comment>(await browserAs(who), "AggregatedCommentResource", "create", { pin_id: String(pinId), text, ...extra });
  return { status, data: body.resource_response.data, error: body.resource_response.error };
}

describe("comment features from the settings page (PUT /v3/users/settings/comments/)", () => {
  const features = (userId: number) => scalar<string>("SELECT feature_map FROM comment_features WHERE user_id = ?1", userId);

  it("turns mentions off for oneself: a new comment mentioning them is then refused on tags", async () => {
    const answer = await v3<{ featureMap: Record<string, boolean> }>(await as(U.other), "PUT", "/v3/users/settings/comments/", { allow_mentions: false });
    expect(answer.status).toBe(200);
    expect(answer.data.featureMap).toEqual({ allow_comments: true, allow_mentions: false });
    const text = "hi @s_other";
    const mention = await post(U.author, P.edits, text, { tags: [{ user_id: String(U.other), offset: 3, length: 8 }] });
    expect(mention.status).toBe(400);
    expect(mention.error?.message_detail ?? "").toContain("tags");
    expect((await v3(await as(U.other), "PUT", "/v3/users/settings/comments/", { allow_mentions: true })).status).toBe(200);
    expect((await post(U.author, P.edits, text, { tags: [{ user_id: String(U.other), offset: 3, length: 8 }] })).status).toBe(200);
  });

  it("asks for the parental passcode when controls are on (code 14), refuses a wrong one (16), and changes nothing", async () => {
    await env.DB.prepare("UPDATE users SET is_parental_control_passcode_enabled = 1, parental_passcode_hash = 'not-a-real-hash' WHERE id = ?1").bind(U.guarded).run();
    const before = await features(U.guarded);
    const browser = await as(U.guarded);
    const missing = await v3(browser, "PUT", "/v3/users/settings/comments/", { allow_comments: false });
    expect(missing.status).toBe(403);
    const raw = await browser.json("/v3/users/settings/comments/", { allow_comments: false }, "PUT");
    expect((await raw.json<{ code: number }>()).code).toBe(14);
    const wrong = await browser.json("/v3/users/settings/comments/", { allow_comments: false, passcode: "0000" }, "PUT");
    expect(wrong.status).toBe(403);
    expect((await wrong.json<{ code: number }>()).code).toBe(16);
    expect(await features(U.guarded)).toBe(before);
  });

  it("is the viewer's own only, and refuses a value that is not a boolean, naming the field", async () => {
    expect((await v3(new Browser(), "PUT", "/v3/users/settings/comments/", { allow_comments: false })).status).toBe(401);
    const bad = await (await as(U.author)).json("/v3/users/settings/comments/", { allow_comments: "sometimes" }, "PUT");
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain("allow_comments");
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
