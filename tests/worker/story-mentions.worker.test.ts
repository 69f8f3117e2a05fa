// A story pin's mention stickers, against the built Worker: the mention lookup never offers a
// person across a block; publishing (never saving a draft) tells each mentioned person once,
// within their settings and blocks; a story on a secret board tells no one outside it; and the
// close-up (crawler HTML and PinResource alike) names and links each mentioned person only while
// they may be named, showing anyone deleted or blocked since as a removed sticker, and a
// product sticker whose pin went the same way.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { CAST, CAST_BOARDS, browserFor, freshId, seedCast } from "./roles-fixture.ts";
import { Browser } from "./accounts-helpers.ts";
import { call, insertPin, ok, rows } from "./boards-helpers.ts";
import { GOOGLEBOT_UA, attributeOf, countElements } from "./fixtures.ts";
import { createSession } from "./session-fixture.ts";
import { storyUploadOf } from "./story-fixtures.ts";

vi.setConfig({ testTimeout: 30_000 });

/** People a story mentions: Mira stays; Bea blocks the author before publishing; Carl is blocked by the author after; Dot deletes her account after; Quinn turned mention news off. */
const PEOPLE = { mira: 2101, bea: 2102, carl: 2103, dot: 2104, quinn: 2105 } as const;
type Name = keyof typeof PEOPLE;

const media = (ref: string) => ({ type: "image", source: "uploaded", ref });
const edits = (left: number, top: number) => ({ left, top, scale: 1, transform: { rotate: 0, scaleX: 1, scaleY: 1 } });
const mention = (id: string, name: Name, top: number) => ({ id, type: "mention_sticker", userId: String(PEOPLE[name]), edits: edits(0.5, top) });

interface Published {
  status: string;
  pin: { id: string; url: string };
}
interface NewsItem {
  type: string;
  text: string;
  url: string | null;
  pin: { id: string } | null;
  comment: unknown;
}

let owner: Browser;
let product: number;

async function as(name: Name): Promise<Browser> {
  const browser = new Browser();
  browser.cookies.set("__Host-pinloom_sess", (await createSession(PEOPLE[name])).token);
  return browser;
}

const mentionRows = (pinId: string) => rows<{ user_id: number; actor_id: number; comment_id: number | null }>("SELECT user_id, actor_id, comment_id FROM news_items WHERE kind = 'mention' AND pin_id = ?1 ORDER BY user_id", Number(pinId));

/** A one-page story draft of the owner's on `boardId` with these blocks. */
async function draftWith(boardId: number, blocks: unknown[]): Promise<{ id: string }> {
  return ok<{ id: string }>(owner, "StoryPinDraftsResource", "create", { boardId: String(boardId), story: { pages: [{ id: "p1", media: media(await storyUploadOf(CAST.owner)), blocks }] } });
}

beforeAll(async () => {
  await seedCast();
  await env.DB.batch(
    Object.entries(PEOPLE).map(([name, id]) =>
      env.DB.prepare("INSERT INTO users (id, username, email, full_name, first_name, email_verified, created_at) VALUES (?1, ?2, ?3, ?4, ?4, 1, 0)").bind(id, `sm_${name}`, `${name}@sm.test`, name[0]!.toUpperCase() + name.slice(1)),
    ),
  );
  await env.DB.prepare("UPDATE users SET settings = ?2 WHERE id = ?1").bind(PEOPLE.quinn, JSON.stringify({ news: { mentions: false } })).run();
  owner = await browserFor("owner");
  product = await insertPin(freshId(), { pinner: CAST.stranger, kind: "product", title: "Enamel pie dish" });
});

describe("the mention lookup", () => {
  it("finds a person, and no one who blocked the author or whom the author blocked", async () => {
    expect((await ok<{ id: string }>(owner, "UserLookupResource", "get", { username: "sm_mira" })).id).toBe(String(PEOPLE.mira));
    await env.DB.prepare("INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (?1, ?2, 0), (?3, ?4, 0)").bind(PEOPLE.mira, CAST.owner, CAST.owner, PEOPLE.quinn).run();
    expect((await call(owner, "UserLookupResource", "get", { username: "sm_mira" })).status).toBe(404);
    expect((await call(owner, "UserLookupResource", "get", { username: "sm_quinn" })).status).toBe(404);
    // A sticker newly aimed across a block is refused like any target the author may not name.
    const refused = await call(owner, "StoryPinDraftsResource", "create", { boardId: String(CAST_BOARDS.public), story: { pages: [{ id: "p1", blocks: [mention("m1", "mira", 0.5)] }] } });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.error)).toContain("story.pages.0.blocks.0.userId");
    await env.DB.prepare("DELETE FROM blocks").run();
  });
});

describe("publishing a story with mention stickers", () => {
  let published: Published;

  beforeAll(async () => {
    const draft = await draftWith(CAST_BOARDS.public, [
      { id: "h1", type: "heading", text: "Market morning", edits: edits(0.5, 0.1) },
      mention("m1", "mira", 0.3),
      mention("m2", "bea", 0.4),
      mention("m3", "carl", 0.5),
      mention("m4", "dot", 0.6),
      mention("m5", "quinn", 0.7),
      // Mira twice: she still hears of it once.
      mention("m6", "mira", 0.8),
      { id: "s1", type: "product_sticker", pinId: String(product), edits: edits(0.5, 0.9) },
    ]);
    // Saving the draft again tells no one.
    await ok(owner, "StoryPinDraftsResource", "update", { id: draft.id, title: "Market morning" });
    expect(await rows("SELECT id FROM news_items WHERE kind = 'mention'")).toEqual([]);
    // Bea blocks the author after the sticker was saved: her mention is dropped at publishing.
    await env.DB.prepare("INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (?1, ?2, 0)").bind(PEOPLE.bea, CAST.owner).run();
    published = await ok<Published>(owner, "PinResource", "create", { draft_id: draft.id });
    expect(published.status).toBe("succeeded");
  });

  it("tells each mentioned person once, in the publishing batch, but not one who blocked the author or turned mentions off", async () => {
    expect(await mentionRows(published.pin.id)).toEqual([
      { user_id: PEOPLE.mira, actor_id: CAST.owner, comment_id: null },
      { user_id: PEOPLE.carl, actor_id: CAST.owner, comment_id: null },
      { user_id: PEOPLE.dot, actor_id: CAST.owner, comment_id: null },
    ]);
  });

  it("shows in the mentioned person's news hub, leading to the story pin", async () => {
    const hub = await ok<{ results: NewsItem[] }>(await as("mira"), "NewsHubDetailsResource", "get", {});
    expect(hub.results.map((item) => [item.type, item.text, item.url, item.comment])).toEqual([["mention", "cast_owner mentioned you in a story pin", `/pin/${published.pin.id}/`, null]]);
  });

  it("answers each sticker as resolved now: a person linked while they may be named, removed once deleted or blocked, a product removed once its pin is hidden", async () => {
    await env.DB.batch([
      env.DB.prepare("INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (?1, ?2, 0)").bind(CAST.owner, PEOPLE.carl),
      env.DB.prepare("DELETE FROM users WHERE id = ?1").bind(PEOPLE.dot),
    ]);
    const pin = await ok<{ storyPinData: { pages: Array<{ blocks: Array<Record<string, unknown>> }> } }>(new Browser(), "PinResource", "get", { id: published.pin.id });
    const stickers = pin.storyPinData.pages[0]!.blocks.filter((block) => block.type !== "heading").map((block) => [block.user ?? block.pin_id ?? null, block.is_removed]);
    expect(stickers).toEqual([
      [{ id: String(PEOPLE.mira), username: "sm_mira", full_name: "Mira" }, false],
      [null, true],
      [null, true],
      [null, true],
      [{ id: String(PEOPLE.quinn), username: "sm_quinn", full_name: "Quinn" }, false],
      [{ id: String(PEOPLE.mira), username: "sm_mira", full_name: "Mira" }, false],
      [String(product), false],
    ]);
    await env.DB.prepare("UPDATE pins SET is_hidden = 1 WHERE id = ?1").bind(product).run();
    const hidden = await ok<{ storyPinData: { pages: Array<{ blocks: Array<Record<string, unknown>> }> } }>(new Browser(), "PinResource", "get", { id: published.pin.id });
    expect(hidden.storyPinData.pages[0]!.blocks.at(-1)).toMatchObject({ type: "product_sticker", pin_id: null, is_removed: true });
  });

  it("gives a crawler HTML without script that links a named person to their profile and shows the others as removed text", async () => {
    const response = await new Browser().fetch(published.pin.url, { headers: { "user-agent": GOOGLEBOT_UA } });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(await countElements(html, ".story-pin script")).toBe(0);
    expect(await attributeOf(html, ".story-placed-mention_sticker.story-b0-1 a.story-sticker", "href")).toBe("/sm_mira/");
    expect(html).toContain("@Mira</a>");
    for (const removed of [2, 3, 4]) {
      expect(await countElements(html, `.story-placed.story-b0-${removed} a`)).toBe(0);
      expect(await countElements(html, `.story-placed.story-b0-${removed} .story-sticker-removed`)).toBe(1);
    }
    expect(html).toContain("Mention removed");
    expect(html).not.toContain('href="/sm_carl/"');
    expect(html).not.toContain('href="/sm_bea/"');
  });
});

describe("a story pin on a secret board", () => {
  it("records its mention, but the mentioned person outside the board is never shown it", async () => {
    const draft = await draftWith(CAST_BOARDS.secret, [mention("m1", "quinn", 0.5), mention("m2", "mira", 0.6)]);
    await env.DB.prepare("UPDATE users SET settings = '{}' WHERE id = ?1").bind(PEOPLE.quinn).run();
    const published = await ok<Published>(owner, "PinResource", "create", { draft_id: draft.id });
    expect((await mentionRows(published.pin.id)).map((item) => item.user_id)).toEqual([PEOPLE.mira, PEOPLE.quinn]);
    const quinn = await as("quinn");
    const hub = await ok<{ results: NewsItem[] }>(quinn, "NewsHubDetailsResource", "get", {});
    expect(hub.results.filter((item) => item.pin?.id === published.pin.id)).toEqual([]);
    expect((await ok<{ news_hub_unseen_count: number }>(quinn, "NewsHubBadgeResource", "get", {})).news_hub_unseen_count).toBe(0);
  });
});
