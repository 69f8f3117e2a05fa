// The guards on every comment call: edits are paced and refused like posts, a hidden comment
// answers 404 by id to everyone but its author, a post racing a block or a pin turning comments
// off is never half-applied, and translation is throttled per IPv6 /64 for signed-out readers.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { Comment } from "~/comments/comment.ts";
import { Browser, fillCounter } from "./accounts-helpers.ts";
import { browserAs, call, scalar } from "./social-fixture.ts";

const U = { owner: 501, author: 502, replier: 503, other: 504, racer: 505 } as const;
const BOARD = 5100;
const P = { edits: 9501, hidden: 9502, raceOff: 9503, raceBlock: 9504, raceDidIt: 9507, translate: 9508 } as const;

beforeAll(async () => {
  const db = env.DB;
  await db.batch([
    ...Object.entries(U).map(([name, id]) =>
      db.prepare("INSERT INTO users (id, username, email, full_name, first_name, email_verified, created_at) VALUES (?1, ?2, ?3, ?2, ?2, 1, 0)").bind(id, `f_${name}`, `${name}@guards.test`),
    ),
    db.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (?1, ?2, 'Guards', 'guards', 'public', 0, 0)").bind(BOARD, U.owner),
    ...Object.values(P).map((id) =>
      db.prepare("INSERT INTO pins (id, pinner_id, board_id, kind, title, image_signature, created_at, updated_at) VALUES (?1, ?2, ?3, 'image', ?4, 'sig', 0, 0)").bind(id, U.owner, BOARD, `Pin ${id}`),
    ),
  ]);
});

type Data<T> = { status: number; data: T; error: { message: string; message_detail: string | null; api_error_code: number } | undefined };

async function resource<T = Comment>(who: number | null, name: string, action: "get" | "create" | "update" | "delete", options: unknown): Promise<Data<T>> {
  const browser = who === null ? new Browser() : await browserAs(who);
  const { status, body } = await call<T>(browser, name, action, options);
  return { status, data: body.resource_response.data, error: body.resource_response.error };
}

async function v3<T = Record<string, unknown>>(browser: Browser, method: string, path: string, body?: unknown): Promise<Data<T>> {
  const response = method === "GET" ? await browser.fetch(path) : await browser.json(path, body ?? {}, method);
  const json = await response.json<{ data: T; error?: Data<T>["error"] }>();
  return { status: response.status, data: json.data, error: json.error };
}
const as = async (who: number | null) => (who === null ? new Browser() : browserAs(who));

const post = (who: number, pinId: number, text: string, extra: Record<string, unknown> = {}) => resource(who, "AggregatedCommentResource", "create", { pin_id: String(pinId), text, ...extra });
const edit = (who: number, commentId: string, text: string) => resource(who, "AggregatedCommentResource", "update", { commentId, text });

describe("edits", () => {
  it("are rate-limited under their own rule, changing nothing when refused", async () => {
    const made = await post(U.author, P.edits, "first words");
    expect(made.status).toBe(200);
    await fillCounter(`comment-edit:user:${U.author}`, 30, 10 * 60_000);
    const refused = await edit(U.author, made.data.id, "second words");
    expect(refused.status).toBe(429);
    expect(await scalar("SELECT text FROM comments WHERE id = ?1", Number(made.data.id))).toBe("first words");
    // Posting is a separate rule: still open.
    expect((await post(U.author, P.edits, "another one")).status).toBe(200);
    await env.DB.prepare("DELETE FROM rate_limits WHERE key = ?1").bind(`comment-edit:user:${U.author}`).run();
  });

  it("are refused with the post's message when the pin has comments turned off", async () => {
    const made = await post(U.author, P.edits, "before the switch");
    await env.DB.prepare("UPDATE pins SET comments_disabled = 1 WHERE id = ?1").bind(P.edits).run();
    try {
      const create = await post(U.other, P.edits, "new one");
      const update = await edit(U.author, made.data.id, "after the switch");
      expect(create.status).toBe(403);
      expect(update.status).toBe(403);
      expect(update.error?.message).toBe(create.error?.message);
      expect(update.error?.message).toMatch(/turned off/i);
      expect(await scalar("SELECT text FROM comments WHERE id = ?1", Number(made.data.id))).toBe("before the switch");
    } finally {
      await env.DB.prepare("UPDATE pins SET comments_disabled = 0 WHERE id = ?1").bind(P.edits).run();
    }
  });

  it("that change the text take the pin owner's highlight off; the same text keeps it", async () => {
    const made = await post(U.author, P.edits, "highlight me");
    const highlighted = await v3<Comment>(await as(U.owner), "PUT", "/v3/aggregated_comments/pin/highlight/", { aggregated_comment: made.data.id, pin: String(P.edits), highlight: true });
    expect(highlighted.data.highlighted_by_pin_owner).toBe(true);
    const same = await edit(U.author, made.data.id, "  highlight me ");
    expect(same.status).toBe(200);
    expect(same.data.highlighted_by_pin_owner).toBe(true);
    const changed = await edit(U.author, made.data.id, "something the owner never read");
    expect(changed.status).toBe(200);
    expect(changed.data.highlighted_by_pin_owner).toBe(false);
    expect(await scalar("SELECT highlighted_by_pin_owner FROM comments WHERE id = ?1", Number(made.data.id))).toBe(0);
  });
});

describe("hidden comments by id", () => {
  let parent: string;
  let reply: string;
  let hiddenAlone: string;
  beforeAll(async () => {
    parent = (await post(U.author, P.hidden, "parent to hide")).data.id;
    reply = (await post(U.replier, P.hidden, "a reply under it", { parent_id: parent })).data.id;
    hiddenAlone = (await post(U.replier, P.hidden, "hidden by its author")).data.id;
    expect((await resource(U.owner, "AggregatedCommentHideResource", "create", { commentId: parent })).status).toBe(200);
    expect((await resource(U.replier, "AggregatedCommentHideResource", "create", { commentId: hiddenAlone })).status).toBe(200);
  });

  const reads: Array<[string, (browser: Browser, id: string) => Promise<number>]> = [
    ["translate", async (browser, id) => (await v3(browser, "GET", `/v3/aggregated_comments/${id}/translate/`)).status],
    ["like", async (browser, id) => (await v3(browser, "POST", `/v3/aggregated_comments/${id}/react/`, { reaction_type: 1 })).status],
    ["helpful", async (browser, id) => (await v3(browser, "POST", `/v3/helpful/1/${id}/`)).status],
    ["flag", async (browser, id) => (await v3(browser, "PUT", `/v3/aggregated_comments/${id}/flag/`, { reason: "spam" })).status],
    ["reply to it", async (browser, id) => (await call(browser, "AggregatedCommentResource", "create", { pin_id: String(P.hidden), text: "hi", parent_id: id })).status],
    ["list its replies", async (browser, id) => (await call(browser, "UnifiedCommentsResource", "get", { pin_id: String(P.hidden), parent_id: id })).status],
  ];

  it.each(reads)("%s: 404 to everyone but the author, for a reply under a hidden comment and for a hidden comment", async (_, read) => {
    for (const who of [U.other, U.owner, null]) {
      if (who === null && _ !== "translate" && _ !== "list its replies") continue;
      expect(await read(await as(who), reply), `reply, viewer ${who}`).toBe(404);
      expect(await read(await as(who), hiddenAlone), `hidden, viewer ${who}`).toBe(404);
    }
  });

  it("stay reachable by their own author", async () => {
    const replier = await as(U.replier);
    expect((await v3(replier, "GET", `/v3/aggregated_comments/${reply}/translate/`)).status).toBe(200);
    expect((await v3(replier, "GET", `/v3/aggregated_comments/${hiddenAlone}/translate/`)).status).toBe(200);
    expect((await v3(await as(U.author), "GET", `/v3/aggregated_comments/${parent}/translate/`)).status).toBe(200);
  });
});

describe("posting cannot be half-applied by a race", () => {
  /**
   * A trigger on the throttle counter (moved after every check is read and before the write)
   * changes the world in between, as a concurrent request would.
   */
  async function racing(name: string, rule: string, who: number, change: string, run: () => Promise<void>) {
    const when = `NEW.key = '${rule}:${who}'`;
    await env.DB.batch([
      env.DB.prepare(`CREATE TRIGGER ${name}_i AFTER INSERT ON rate_limits WHEN ${when} BEGIN ${change}; END`),
      env.DB.prepare(`CREATE TRIGGER ${name}_u AFTER UPDATE ON rate_limits WHEN ${when} BEGIN ${change}; END`),
    ]);
    try {
      await run();
    } finally {
      await env.DB.batch([env.DB.prepare(`DROP TRIGGER ${name}_i`), env.DB.prepare(`DROP TRIGGER ${name}_u`)]);
    }
  }
  const comments = (pinId: number) => scalar<number>("SELECT count(*) FROM comments WHERE pin_id = ?1", pinId);

  it("a pin turning comments off between the checks and the write: nothing written, the disabled message", async () => {
    await racing("race_off", "comment:user", U.racer, `UPDATE pins SET comments_disabled = 1 WHERE id = ${P.raceOff}`, async () => {
      const answer = await post(U.racer, P.raceOff, "just in time?");
      expect(answer.status).toBe(403);
      expect(answer.error?.message).toMatch(/turned off/i);
    });
    expect(await comments(P.raceOff)).toBe(0);
    expect(await scalar("SELECT comment_count FROM pins WHERE id = ?1", P.raceOff)).toBe(0);
  });

  it("a block arriving between the checks and the write: nothing written, 403", async () => {
    await racing("race_block", "comment:user", U.racer, `INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (${U.owner}, ${U.racer}, 0)`, async () => {
      expect((await post(U.racer, P.raceBlock, "sneaking in")).status).toBe(403);
    });
    expect(await comments(P.raceBlock)).toBe(0);
    await env.DB.prepare("DELETE FROM blocks WHERE blocker_id = ?1 AND blocked_id = ?2").bind(U.owner, U.racer).run();
  });

  it("a tried-it post racing a block: no row, the pin's count unchanged", async () => {
    await racing("race_didit", "did-it-post:user", U.racer, `INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (${U.owner}, ${U.racer}, 0)`, async () => {
      expect((await resource(U.racer, "DidItActivityResource", "create", { pin_id: String(P.raceDidIt), details: "tried" })).status).toBe(403);
    });
    expect(await scalar("SELECT count(*) FROM did_its WHERE pin_id = ?1", P.raceDidIt)).toBe(0);
    expect(await scalar("SELECT did_it_images_count FROM pins WHERE id = ?1", P.raceDidIt)).toBe(0);
    await env.DB.prepare("DELETE FROM blocks WHERE blocker_id = ?1 AND blocked_id = ?2").bind(U.owner, U.racer).run();
  });
});

describe("translation throttle", () => {
  it("counts signed-out readers by IPv6 /64: a full /64 is refused, the next /64 is not", async () => {
    const id = (await post(U.author, P.translate, "Bonjour tout le monde")).data.id;
    await fillCounter("comment-translate:viewer:ip:2001:db8:1:2::/64", 60, 10 * 60_000);
    const path = `/v3/aggregated_comments/${id}/translate/`;
    expect((await v3(new Browser("2001:db8:1:2::99"), "GET", path)).status).toBe(429);
    expect((await v3(new Browser("2001:db8:1:2:ffff:1:2:3"), "GET", path)).status).toBe(429);
    const other = await v3<{ text: string }>(new Browser("2001:db8:1:3::1"), "GET", path);
    expect(other.status).toBe(200);
    // No AI binding in tests: the spec's empty translation.
    expect(other.data.text).toBe("");
  });
});
