// The news hub: what happened to a person's pins, boards and comments, recorded by the writes
// themselves, never about one's own acts, within blocks and visibility, bounded, and marked seen.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { publishDueScheduledPins } from "~/builder/publish.server.ts";
import { SAVE_BEHAVIOR } from "~/saves/save-behavior.ts";
import { CAST, CAST_BOARDS, browserFor, freshId, seedCast } from "./roles-fixture.ts";
import type { Browser } from "./accounts-helpers.ts";
import { call, insertPin, ok, row, rows } from "./boards-helpers.ts";

vi.setConfig({ testTimeout: 30_000 });

interface Item {
  id: string;
  type: string;
  text: string;
  url: string | null;
  unseen: boolean;
  actor: { id: string; username: string } | null;
  pin: { id: string } | null;
  board: { id: string; name: string; url: string | null } | null;
  comment: { id: string; text: string } | null;
}
interface Details {
  results: Item[];
  bookmark: string;
  newest_id: string | null;
}

let owner: Browser;
let stranger: Browser;
let follower: Browser;
let writer: Browser;
let signedOut: Browser;
/** A public board of the stranger's, where their saves land. */
let strangerBoard: number;

beforeAll(async () => {
  await seedCast();
  [owner, stranger, follower, writer, signedOut] = await Promise.all([
    browserFor("owner"),
    browserFor("stranger"),
    browserFor("follower"),
    browserFor("collaborator_write"),
    browserFor("signed_out"),
  ]);
  strangerBoard = await boardOf(CAST.stranger, "public", "Stranger finds");
});

const news = (browser: Browser, options: Record<string, unknown> = {}) => ok<Details>(browser, "NewsHubDetailsResource", "get", options);
const unseen = async (browser: Browser) => (await ok<{ news_hub_unseen_count: number }>(browser, "NewsHubBadgeResource", "get", {})).news_hub_unseen_count;
const newsRows = (userId: number) => rows<{ id: number; kind: string; actor_id: number | null; pin_id: number | null; board_id: number | null }>("SELECT id, kind, actor_id, pin_id, board_id FROM news_items WHERE user_id = ?1 ORDER BY id", userId);
const clearNews = () => env.DB.batch([env.DB.prepare("DELETE FROM news_items"), env.DB.prepare("DELETE FROM news_hub_seen"), env.DB.prepare("DELETE FROM blocks")]);

/** A board of `ownerId`, public or secret. */
async function boardOf(ownerId: number, privacy: "public" | "secret", name = `Board ${freshId()}`): Promise<number> {
  const id = freshId();
  await env.DB.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, 0, 0)").bind(id, ownerId, name, `b-${id}`, privacy).run();
  return id;
}

describe("saves", () => {
  it("tell the pin's owner who saved it and to which board, and saving one's own pin tells no one", async () => {
    await clearNews();
    const pinId = await insertPin(freshId());
    const board = await boardOf(CAST.stranger, "public", "Weekend ideas");
    await ok(stranger, "RepinResource", "create", { pin_id: String(pinId), board_id: String(board) });
    const { results } = await news(owner);
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ type: "save", unseen: true, actor: { id: String(CAST.stranger) }, pin: { id: String(pinId) }, board: { id: String(board), name: "Weekend ideas" } });
    expect(results[0]!.text).toBe("cast_stranger saved your pin to Weekend ideas");
    expect(results[0]!.url).toBe(`/pin/${pinId}/`);
    expect(await unseen(owner)).toBe(1);
    // The owner saving their own pin, and the same save sent again: nothing new.
    await ok(owner, "RepinResource", "create", { pin_id: String(pinId), board_id: String(CAST_BOARDS.public) });
    await ok(stranger, "RepinResource", "create", { pin_id: String(pinId), board_id: String(board) });
    expect(await newsRows(CAST.owner)).toHaveLength(1);
    expect(await newsRows(CAST.stranger)).toEqual([]);
  });

  it("to a secret board do not name the board to a pin owner who may not see it", async () => {
    await clearNews();
    const pinId = await insertPin(freshId());
    const secret = await boardOf(CAST.stranger, "secret", "Surprise party plans");
    await ok(stranger, "RepinResource", "create", { pin_id: String(pinId), board_id: String(secret) });
    const answer = await owner.resource("NewsHubDetailsResource", "get", {});
    const text = await answer.text();
    expect(text).not.toContain("Surprise party plans");
    expect(text).not.toContain(`b-${secret}`);
    const { results } = JSON.parse(text).resource_response.data as Details;
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ type: "save", board: null, text: "cast_stranger saved your pin" });
  });

  it("to the profile tell the owner too", async () => {
    await clearNews();
    const pinId = await insertPin(freshId());
    await env.DB.prepare("UPDATE users SET save_behavior = ?2 WHERE id = ?1").bind(CAST.follower, SAVE_BEHAVIOR.profile).run();
    await ok(follower, "RepinResource", "create", { pin_id: String(pinId) });
    await env.DB.prepare("UPDATE users SET save_behavior = 0 WHERE id = ?1").bind(CAST.follower).run();
    expect((await newsRows(CAST.owner)).map((item) => [item.kind, item.actor_id, item.pin_id, item.board_id])).toEqual([["save", CAST.follower, pinId, null]]);
  });

  it("are recorded in the save's own batch: when the news cannot be written, the save is not applied either", async () => {
    await clearNews();
    const pinId = await insertPin(freshId());
    const board = await boardOf(CAST.stranger, "public");
    await env.DB.prepare("CREATE TRIGGER news_refused BEFORE INSERT ON news_items BEGIN SELECT RAISE(ABORT, 'news refused'); END").run();
    try {
      const answer = await call(stranger, "RepinResource", "create", { pin_id: String(pinId), board_id: String(board) });
      expect(answer.status).toBeGreaterThanOrEqual(500);
    } finally {
      await env.DB.prepare("DROP TRIGGER news_refused").run();
    }
    expect(await row("SELECT 1 AS saved FROM board_pins WHERE board_id = ?1 AND pin_id = ?2", board, pinId)).toBeNull();
    expect(await newsRows(CAST.owner)).toEqual([]);
  });
});

describe("follows", () => {
  it("tell the person followed once, however often the follow is taken back and made again", async () => {
    await clearNews();
    await ok(stranger, "UserFollowResource", "create", { user_id: String(CAST.owner) });
    await ok(stranger, "UserFollowResource", "delete", { user_id: String(CAST.owner) });
    await ok(stranger, "UserFollowResource", "create", { user_id: String(CAST.owner) });
    const { results } = await news(owner);
    expect(results.map((item) => [item.type, item.actor?.id, item.text, item.url])).toEqual([["follow", String(CAST.stranger), "cast_stranger started following you", "/cast_stranger/"]]);
    await ok(stranger, "UserFollowResource", "delete", { user_id: String(CAST.owner) });
  });

  it("of a board tell its owner, naming the board", async () => {
    await clearNews();
    const board = await boardOf(CAST.owner, "public", "Garden paths");
    await ok(stranger, "BoardFollowResource", "create", { board_id: String(board) });
    const { results } = await news(owner);
    expect(results.map((item) => [item.type, item.board?.name, item.text])).toEqual([["follow", "Garden paths", "cast_stranger started following your board Garden paths"]]);
  });
});

describe("comments, replies and mentions", () => {
  it("tell the pin's owner, the thread's author and the people tagged, and never the one who wrote", async () => {
    await clearNews();
    const pinId = await insertPin(freshId());
    const comment = await ok<{ id: string }>(stranger, "AggregatedCommentResource", "create", { pin_id: String(pinId), text: "Lovely colours" });
    expect((await news(owner)).results.map((item) => [item.type, item.comment?.text, item.text])).toEqual([["comment", "Lovely colours", "cast_stranger commented on your pin: Lovely colours"]]);
    // The owner answers in the thread: the thread's author hears of the reply; the owner hears nothing of their own.
    await ok(owner, "AggregatedCommentResource", "create", { pin_id: String(pinId), text: "Thank you", parent_id: comment.id });
    expect((await news(stranger)).results.map((item) => [item.type, item.actor?.id])).toEqual([["reply", String(CAST.owner)]]);
    expect(await newsRows(CAST.owner)).toHaveLength(1);
    // A mention of the follower: the follower hears of the mention; the owner of one more comment.
    await ok(stranger, "AggregatedCommentResource", "create", { pin_id: String(pinId), text: "cast_follower look", tags: [{ user_id: String(CAST.follower), offset: 0, length: 13 }] });
    expect((await news(follower)).results.map((item) => item.type)).toEqual(["mention"]);
    expect((await newsRows(CAST.owner)).map((item) => item.kind)).toEqual(["comment", "comment"]);
  });

  it("tagging the pin's owner tells them of the mention only, and an edit tells only people newly tagged", async () => {
    await clearNews();
    const pinId = await insertPin(freshId());
    const comment = await ok<{ id: string }>(stranger, "AggregatedCommentResource", "create", {
      pin_id: String(pinId),
      text: "cast_owner see this",
      tags: [{ user_id: String(CAST.owner), offset: 0, length: 10 }],
    });
    expect((await newsRows(CAST.owner)).map((item) => item.kind)).toEqual(["mention"]);
    await ok(stranger, "AggregatedCommentResource", "update", {
      commentId: comment.id,
      text: "cast_owner and cast_follower see this",
      tags: [
        { user_id: String(CAST.owner), offset: 0, length: 10 },
        { user_id: String(CAST.follower), offset: 15, length: 13 },
      ],
    });
    expect((await newsRows(CAST.owner)).map((item) => item.kind)).toEqual(["mention"]);
    expect((await newsRows(CAST.follower)).map((item) => item.kind)).toEqual(["mention"]);
  });
});

describe("blocks", () => {
  it("hide what a blocked person did, and keep anything new from being recorded", async () => {
    await clearNews();
    const pinId = await insertPin(freshId());
    await ok(stranger, "AggregatedCommentResource", "create", { pin_id: String(pinId), text: "First!" });
    expect(await unseen(owner)).toBe(1);
    await ok(owner, "UserBlockResource", "create", { user_id: String(CAST.stranger) });
    expect((await news(owner)).results).toEqual([]);
    expect(await unseen(owner)).toBe(0);
    // A save by the blocked person (if the save itself is allowed) tells the owner nothing.
    const board = await boardOf(CAST.stranger, "public");
    await call(stranger, "RepinResource", "create", { pin_id: String(pinId), board_id: String(board) });
    expect((await newsRows(CAST.owner)).filter((item) => item.kind === "save")).toEqual([]);
    await ok(owner, "UserBlockResource", "delete", { user_id: String(CAST.stranger) });
  });
});

describe("board invites", () => {
  it("name a secret board to the person invited while the invite is pending, and go when it is declined", async () => {
    await clearNews();
    const secret = await boardOf(CAST.owner, "secret", "Quiet collab");
    await ok(owner, "BoardCollaboratorResource", "create", { board_id: String(secret), user_ids: [String(CAST.stranger)] });
    const { results } = await news(stranger);
    expect(results.map((item) => [item.type, item.board?.name, item.text])).toEqual([["board_invite", "Quiet collab", "cast_owner invited you to collaborate on the board Quiet collab"]]);
    await ok(stranger, "BoardCollaboratorResource", "delete", { board_id: String(secret), user_id: String(CAST.stranger) });
    expect((await news(stranger)).results).toEqual([]);
  });
});

describe("scheduled pins", () => {
  /** An uploaded image of `userId` (the builder's upload makes these; its own tests cover that path). */
  async function uploadOf(userId: number): Promise<string> {
    const id = crypto.randomUUID().replaceAll("-", "");
    await env.DB.prepare(
      `INSERT INTO media_uploads (id, user_id, kind, content_type, bytes, width, height, dominant_color, sizes, status, created_at)
       VALUES (?1, ?2, 'image', 'image/jpeg', 1000, 600, 900, '#336699', ?3, 'uploaded', ?4)`,
    )
      .bind(id, userId, JSON.stringify({ "236x": [236, 354], orig: [600, 900] }), Date.now())
      .run();
    await Promise.all(["236x.jpg", "orig.jpg"].map((name) => env.MEDIA.put(`uploads/${userId}/${id}/${name}`, "bytes")));
    return id;
  }

  it("tell their person when the cron publishes them, and nothing before", async () => {
    await clearNews();
    const upload = await uploadOf(CAST.collaborator_write);
    const at = new Date(Date.now() + 3 * 3_600_000);
    const date = at.toISOString().slice(0, 10);
    const time = at.toISOString().slice(11, 16);
    const draft = await ok<{ id: string }>(writer, "PinDraftResource", "create", {
      title: "Morning light",
      boardId: String(CAST_BOARDS.public),
      items: [{ id: `i${upload.slice(0, 8)}`, media: { type: "image", source: "uploaded", ref: upload } }],
      publishOption: "schedule",
      timeZone: "UTC",
      scheduledDate: date,
      scheduledTime: time,
    });
    await ok(writer, "PinResource", "create", { draft_id: draft.id });
    expect(await newsRows(CAST.collaborator_write)).toEqual([]);
    const scheduled = (await row<{ pin_id: number; scheduled_ts: number }>("SELECT pin_id, scheduled_ts FROM scheduled_pins WHERE user_id = ?1", CAST.collaborator_write))!;
    expect((await publishDueScheduledPins(env.DB, scheduled.scheduled_ts + 1)).published).toBe(1);
    expect((await newsRows(CAST.collaborator_write)).map((item) => [item.kind, item.actor_id, item.pin_id])).toEqual([["scheduled_pin", null, scheduled.pin_id]]);
    const { results } = await news(writer);
    expect(results.map((item) => [item.text, item.url])).toEqual([["Your scheduled pin is now published", `/pin/${scheduled.pin_id}/`]]);
  });
});

describe("seen", () => {
  it("opening the hub marks what it showed seen, and what arrives later is counted again", async () => {
    await clearNews();
    const [first, second, third] = [await insertPin(freshId()), await insertPin(freshId()), await insertPin(freshId())];
    await ok(stranger, "RepinResource", "create", { pin_id: String(first), board_id: String(strangerBoard) });
    await ok(stranger, "RepinResource", "create", { pin_id: String(second), board_id: String(strangerBoard) });
    expect(await unseen(owner)).toBe(2);
    const shown = await news(owner);
    expect(shown.results.map((item) => item.unseen)).toEqual([true, true]);
    const after = await ok<{ news_hub_unseen_count: number }>(owner, "NewsHubBadgeResource", "update", { seen_up_to: shown.newest_id });
    expect(after.news_hub_unseen_count).toBe(0);
    expect((await news(owner)).results.map((item) => item.unseen)).toEqual([false, false]);
    await ok(stranger, "RepinResource", "create", { pin_id: String(third), board_id: String(strangerBoard) });
    expect(await unseen(owner)).toBe(1);
    // Marking an older item seen never moves the mark back.
    await ok(owner, "NewsHubBadgeResource", "update", { seen_up_to: shown.results[1]!.id });
    expect(await unseen(owner)).toBe(1);
  });

  it("cannot be moved by someone else's item, and is for signed-in people only", async () => {
    await clearNews();
    const pinId = await insertPin(freshId());
    await ok(stranger, "RepinResource", "create", { pin_id: String(pinId), board_id: String(strangerBoard) });
    const ownersItem = (await newsRows(CAST.owner))[0]!.id;
    await ok(follower, "NewsHubBadgeResource", "update", { seen_up_to: String(ownersItem) });
    expect(await row("SELECT last_seen_id FROM news_hub_seen WHERE user_id = ?1", CAST.follower)).toBeNull();
    expect(await unseen(owner)).toBe(1);
    expect((await call(signedOut, "NewsHubDetailsResource", "get", {})).status).toBe(401);
    expect((await call(signedOut, "NewsHubBadgeResource", "get", {})).status).toBe(401);
    const bad = await call(owner, "NewsHubBadgeResource", "update", { seen_up_to: "latest" });
    expect(bad.status).toBe(400);
    expect(bad.error?.message_detail).toContain("seen_up_to");
  });

  it("counts news that arrives after the newest seen item went away", async () => {
    await clearNews();
    const pinId = await insertPin(freshId());
    const first = await ok<{ id: string }>(stranger, "AggregatedCommentResource", "create", { pin_id: String(pinId), text: "One" });
    const shown = await news(owner);
    await ok(owner, "NewsHubBadgeResource", "update", { seen_up_to: shown.newest_id });
    // The comment goes, and its news with it; the next comment's news is new all the same.
    await ok(stranger, "AggregatedCommentResource", "delete", { commentId: first.id });
    expect(await newsRows(CAST.owner)).toEqual([]);
    await ok(stranger, "AggregatedCommentResource", "create", { pin_id: String(pinId), text: "Two" });
    expect(await unseen(owner)).toBe(1);
  });

  it("pages by bookmark, newest first", async () => {
    await clearNews();
    for (let i = 0; i < 3; i++) await ok(stranger, "RepinResource", "create", { pin_id: String(await insertPin(freshId())), board_id: String(strangerBoard) });
    const first = await news(owner, { page_size: 2 });
    expect(first.results).toHaveLength(2);
    const second = await news(owner, { page_size: 2, bookmark: first.bookmark });
    expect(second.results).toHaveLength(1);
    expect(second.bookmark).toBe("-end-");
    expect(Number(second.results[0]!.id)).toBeLessThan(Number(first.results[1]!.id));
  });
});

describe("bounds", () => {
  it("keep at most 200 items per person, dropping the oldest", async () => {
    await clearNews();
    const filler = await insertPin(freshId());
    const statements = Array.from({ length: 200 }, (_, i) =>
      env.DB.prepare("INSERT INTO news_items (user_id, kind, actor_id, pin_id, board_id, comment_id, created_at) VALUES (?1, 'save', ?2, ?3, ?4, NULL, ?5)").bind(CAST.owner, CAST.follower, filler, 100_000 + i, i),
    );
    // board ids need rows: one per filler item.
    await env.DB.batch(Array.from({ length: 200 }, (_, i) => env.DB.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (?1, ?2, 'f', ?3, 'public', 0, 0)").bind(100_000 + i, CAST.follower, `f-${i}`)));
    await env.DB.batch(statements);
    const oldest = (await newsRows(CAST.owner))[0]!.id;
    await ok(stranger, "RepinResource", "create", { pin_id: String(await insertPin(freshId())), board_id: String(strangerBoard) });
    const kept = await newsRows(CAST.owner);
    expect(kept).toHaveLength(200);
    expect(kept.some((item) => item.id === oldest)).toBe(false);
    expect(kept.at(-1)).toMatchObject({ kind: "save", actor_id: CAST.stranger });
  });
});

describe("notification settings", () => {
  const settings = async (browser: Browser, group: "news" | "push", method = "GET", body?: unknown) => {
    const response = body === undefined ? await browser.fetch(`/v3/settings/${group}/`, { method }) : await browser.json(`/v3/settings/${group}/`, body, method);
    return { status: response.status, body: await response.json<{ data: Record<string, unknown>; message_detail?: string }>() };
  };

  it("answer every option, all on at first, as a list and by key", async () => {
    const { status, body } = await settings(writer, "push");
    expect(status).toBe(200);
    expect(body.data).toEqual({
      options: [
        { key: "saves", enabled: true },
        { key: "follows", enabled: true },
        { key: "comments", enabled: true },
        { key: "mentions", enabled: true },
        { key: "messages", enabled: true },
        { key: "board_invites", enabled: true },
        { key: "scheduled_pins", enabled: true },
      ],
      saves: true,
      follows: true,
      comments: true,
      mentions: true,
      messages: true,
      board_invites: true,
      scheduled_pins: true,
    });
  });

  it("change only the options given, and keep news and push apart", async () => {
    const changed = await settings(writer, "push", "PUT", { mentions: false, messages: false });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ saves: true, mentions: false, messages: false });
    const again = await settings(writer, "push", "PUT", { saves: false });
    expect(again.body.data).toMatchObject({ saves: false, mentions: false, messages: false, follows: true });
    expect((await settings(writer, "news")).body.data).toMatchObject({ saves: true, mentions: true, messages: true });
  });

  it("refuse bad input with a 400 naming the field, changing nothing", async () => {
    const before = (await settings(writer, "news")).body.data;
    for (const [body, field] of [
      [{ saves: "maybe" }, "saves"],
      [{ sparkles: true }, "sparkles"],
      [{}, "body"],
      [{ saves: true, follows: 3 }, "follows"],
    ] as const) {
      const answer = await settings(writer, "news", "PUT", body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.message_detail, JSON.stringify(body)).toContain(`${field}: `);
    }
    expect((await settings(writer, "news")).body.data).toEqual(before);
    expect((await settings(signedOut, "news")).status).toBe(401);
  });

  it("a kind turned off in the news settings is not recorded", async () => {
    await clearNews();
    await settings(owner, "news", "PUT", { saves: false });
    try {
      await ok(stranger, "RepinResource", "create", { pin_id: String(await insertPin(freshId())), board_id: String(strangerBoard) });
      expect(await newsRows(CAST.owner)).toEqual([]);
      // Other kinds still are.
      await ok(stranger, "AggregatedCommentResource", "create", { pin_id: String(await insertPin(freshId())), text: "Nice" });
      expect((await newsRows(CAST.owner)).map((item) => item.kind)).toEqual(["comment"]);
    } finally {
      await settings(owner, "news", "PUT", { saves: true });
    }
  });
});

describe("feedback", () => {
  const send = (browser: Browser, fields: Record<string, unknown>) => browser.json("/v3/analytics/feedback/", fields);

  it("is stored with the text trimmed and where it came from", async () => {
    const response = await send(follower, { feedback_data: JSON.stringify({ verbatim_text: "  The bell is handy  ", action_from: "settings", page: "/settings/notifications" }) });
    expect(response.status).toBe(200);
    expect(await rows("SELECT verbatim_text, action_from, page FROM feedback WHERE user_id = ?1", CAST.follower)).toEqual([
      { verbatim_text: "The bell is handy", action_from: "settings", page: "/settings/notifications" },
    ]);
  });

  it("refuses bad input with a 400 naming the field, storing nothing", async () => {
    const before = await rows("SELECT id FROM feedback WHERE user_id = ?1", CAST.collaborator_write);
    for (const [fields, field] of [
      [{}, "feedback_data"],
      [{ feedback_data: "{not json" }, "feedback_data"],
      [{ feedback_data: JSON.stringify({ verbatim_text: "   " }) }, "feedback_data.verbatim_text"],
      [{ feedback_data: JSON.stringify({ verbatim_text: "x".repeat(2001) }) }, "feedback_data.verbatim_text"],
      [{ feedback_data: JSON.stringify({ verbatim_text: "ok", mood: "great" }) }, "feedback_data.mood"],
      [{ feedback_data: 42 }, "feedback_data"],
    ] as const) {
      const response = await send(writer, fields);
      expect(response.status, JSON.stringify(fields)).toBe(400);
      const body = await response.json<{ message_detail: string }>();
      expect(body.message_detail, JSON.stringify(fields)).toContain(`${field}: `);
    }
    expect(await rows("SELECT id FROM feedback WHERE user_id = ?1", CAST.collaborator_write)).toEqual(before);
    expect((await send(signedOut, { feedback_data: JSON.stringify({ verbatim_text: "hi" }) })).status).toBe(401);
  });

  it("keeps at most 50 notes per person and refuses an 11th within the hour", async () => {
    await env.DB.batch(
      Array.from({ length: 50 }, (_, i) => env.DB.prepare("INSERT INTO feedback (user_id, verbatim_text, created_at) VALUES (?1, ?2, ?3)").bind(CAST.stranger, `old ${i}`, i)),
    );
    const oldest = (await row<{ id: number }>("SELECT min(id) AS id FROM feedback WHERE user_id = ?1", CAST.stranger))!.id;
    for (let i = 0; i < 10; i++) expect((await send(stranger, { feedback_data: JSON.stringify({ verbatim_text: `note ${i}` }) })).status).toBe(200);
    expect((await row<{ n: number }>("SELECT count(*) AS n FROM feedback WHERE user_id = ?1", CAST.stranger))!.n).toBe(50);
    expect(await row("SELECT id FROM feedback WHERE id = ?1", oldest)).toBeNull();
    const refused = await send(stranger, { feedback_data: JSON.stringify({ verbatim_text: "one more" }) });
    expect(refused.status).toBe(429);
    expect(await row("SELECT id FROM feedback WHERE verbatim_text = 'one more'")).toBeNull();
  });
});

describe("pages", () => {
  it.each([
    ["/news/", "/login/?next=/news/"],
    ["/settings/notifications", "/login/?next=%2Fsettings%2Fnotifications"],
  ])("%s sends a signed-out visitor to log in and back", async (path, login) => {
    const response = await signedOut.fetch(path);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(login);
  });

  it("the updates page lists the news, newest first, marks the new ones, and is never indexed or cached", async () => {
    await clearNews();
    const pinId = await insertPin(freshId());
    await ok(stranger, "AggregatedCommentResource", "create", { pin_id: String(pinId), text: "Such <b>bold</b> colours" });
    const response = await owner.fetch("/news/");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toMatch(/no-store/);
    const html = await response.text();
    expect(html).toMatch(/<meta name="robots" content="[^"]*noindex/);
    expect(html).toContain("cast_stranger commented on your pin: Such &lt;b&gt;bold&lt;/b&gt; colours");
    expect(html).toContain(`href="/pin/${pinId}/"`);
    expect(html).toMatch(/class="news-item is-unseen"/);
    // What it shows is marked seen by its script, with the newest item it showed.
    const newest = (await newsRows(CAST.owner)).at(-1)!.id;
    expect(html).toContain(`data-seen-up-to="${newest}"`);
  });

  it("the header carries the bell for signed-in people only, with nothing of theirs in it", async () => {
    const mine = await (await owner.fetch("/")).text();
    expect(mine).toMatch(/<a class="news-bell-button" href="\/news\/" aria-label="Updates"/);
    expect(mine).toMatch(/<span class="news-bell-count" data-news-count hidden><\/span>/);
    expect(await (await signedOut.fetch("/")).text()).not.toContain("news-bell");
  });

  it("the notification settings page shows each list's stored choices", async () => {
    const response = await writer.fetch("/settings/notifications");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toMatch(/<form[^>]+data-endpoint="\/v3\/settings\/news\/"/);
    expect(html).toMatch(/<form[^>]+data-endpoint="\/v3\/settings\/push\/"/);
    // Set earlier in this file: push saves off, news saves on.
    expect(html).toMatch(/<input type="checkbox" id="field-news-saves" name="saves" checked/);
    expect(html).toMatch(/<input type="checkbox" id="field-push-saves" name="saves" aria-describedby/);
  });
});
