// A person's own live channel, against the built Worker: the same door as a conversation's
// socket (401 signed out, 403 from another site, 426 without an upgrade, 404 for anyone else's
// channel), the counts on hello, a message sent to them and news recorded for them pushed to
// every open tab, and reading in one tab clearing the count in the others.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { Browser } from "./accounts-helpers.ts";
import { ok } from "./boards-helpers.ts";
import { BASE } from "./fixtures.ts";
import { createSession } from "./session-fixture.ts";

vi.setConfig({ testTimeout: 30_000 });

const PEOPLE = { ana: 2201, ben: 2202, cy: 2203 } as const;
type Name = keyof typeof PEOPLE;

interface Counts {
  type: string;
  conversations_unseen_count: number;
  news_hub_unseen_count: number;
}

beforeAll(async () => {
  await env.DB.batch([
    ...Object.entries(PEOPLE).map(([name, id]) =>
      env.DB.prepare("INSERT INTO users (id, username, email, full_name, first_name, email_verified, created_at) VALUES (?1, ?2, ?3, ?4, ?4, 1, 0)").bind(id, `pc_${name}`, `${name}@pc.test`, name[0]!.toUpperCase() + name.slice(1)),
    ),
    // Ben follows Ana: her message lands in his inbox.
    env.DB.prepare("INSERT INTO follows (follower_id, target_type, target_id, explicit, created_at) VALUES (?1, 'user', ?2, 1, 0)").bind(PEOPLE.ben, PEOPLE.ana),
  ]);
});

async function as(name: Name): Promise<Browser> {
  const browser = new Browser();
  browser.cookies.set("__Host-pinloom_sess", (await createSession(PEOPLE[name])).token);
  return browser;
}

const connect = (browser: Browser, userId: number, headers: Record<string, string> = { upgrade: "websocket", origin: BASE }) => browser.fetch(`/v3/channel/${userId}/socket/`, { headers });

/** A tab's socket to the person's channel, with its frames as a queue the test awaits. */
async function tab(browser: Browser, userId: number) {
  const response = await connect(browser, userId);
  expect(response.status).toBe(101);
  const socket = response.webSocket!;
  socket.accept();
  const queue: Counts[] = [];
  const waiting: Array<(frame: Counts) => void> = [];
  socket.addEventListener("message", (event) => {
    const frame = JSON.parse(String(event.data)) as Counts;
    const waiter = waiting.shift();
    if (waiter) waiter(frame);
    else queue.push(frame);
  });
  const next = (timeoutMs = 5_000): Promise<Counts> => {
    const queued = queue.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no frame in time")), timeoutMs);
      waiting.push((frame) => {
        clearTimeout(timer);
        resolve(frame);
      });
    });
  };
  /** Frames until one matches: a poke may come before the one the test waits for. */
  const until = async (wanted: Partial<Counts>): Promise<Counts> => {
    for (;;) {
      const frame = await next();
      if (Object.entries(wanted).every(([key, value]) => frame[key as keyof Counts] === value)) return frame;
    }
  };
  socket.send(JSON.stringify({ type: "hello" }));
  return { socket, next, until };
}

describe("the person's channel door", () => {
  it("lets only the person in: 401 signed out, 403 from another site, 426 without an upgrade, 404 for someone else's channel", async () => {
    const ana = await as("ana");
    expect((await connect(new Browser(), PEOPLE.ana)).status).toBe(401);
    expect((await connect(ana, PEOPLE.ana, { upgrade: "websocket", origin: "https://evil.example" })).status).toBe(403);
    expect((await connect(ana, PEOPLE.ana, {})).status).toBe(426);
    expect((await connect(ana, PEOPLE.ben)).status).toBe(404);
  });

  it("holds at most 16 sockets per person: the next one is refused with 429", async () => {
    const ana = await as("ana");
    const open = [];
    for (let i = 0; i < 16; i++) open.push(await tab(ana, PEOPLE.ana));
    expect((await connect(ana, PEOPLE.ana)).status).toBe(429);
    for (const each of open) each.socket.close(1000, "done");
  });
});

describe("the header's counts, live", () => {
  it("answers the counts on hello, pushes a message and news to every open tab, and clears them in every tab when read in one", async () => {
    const [ana, ben] = await Promise.all([as("ana"), as("ben")]);
    const first = await tab(ben, PEOPLE.ben);
    const second = await tab(ben, PEOPLE.ben);
    expect(await first.next()).toEqual({ type: "counts", conversations_unseen_count: 0, news_hub_unseen_count: 0 });
    expect(await second.next()).toEqual({ type: "counts", conversations_unseen_count: 0, news_hub_unseen_count: 0 });

    // Ana writes to Ben: both his tabs hear the new count.
    const started = await ok<{ id: string }>(ana, "ConversationsResource", "create", { user_ids: [String(PEOPLE.ben)], emails: [], text: "market at nine?" });
    expect(await first.until({ conversations_unseen_count: 1 })).toMatchObject({ news_hub_unseen_count: 0 });
    await second.until({ conversations_unseen_count: 1 });

    // Ana follows Ben: the news recorded for him reaches both tabs.
    await ok(ana, "UserFollowResource", "create", { user_id: String(PEOPLE.ben) });
    await first.until({ conversations_unseen_count: 1, news_hub_unseen_count: 1 });
    await second.until({ conversations_unseen_count: 1, news_hub_unseen_count: 1 });

    // Ben opens the conversation in one tab: the other's count clears too.
    await ok(ben, "ConversationResource", "update", { conversation_id: started.id, read: true });
    await second.until({ conversations_unseen_count: 0, news_hub_unseen_count: 1 });
    await first.until({ conversations_unseen_count: 0, news_hub_unseen_count: 1 });

    // And the news panel: every tab's bell clears.
    const hub = await ok<{ newest_id: string }>(ben, "NewsHubDetailsResource", "get", {});
    await ok(ben, "NewsHubBadgeResource", "update", { seen_up_to: hub.newest_id });
    await second.until({ conversations_unseen_count: 0, news_hub_unseen_count: 0 });
    await first.until({ conversations_unseen_count: 0, news_hub_unseen_count: 0 });

    first.socket.close(1000, "done");
    second.socket.close(1000, "done");
  });

  it("tells a tab that reconnects the counts as they stand, so nothing sent while it was away is missed", async () => {
    const [cy, ben] = await Promise.all([as("cy"), as("ben")]);
    const away = await tab(ben, PEOPLE.ben);
    await away.next();
    away.socket.close(1000, "gone");
    // Cy is a stranger to Ben: her message is a contact request, which counts too.
    await ok(cy, "ConversationsResource", "create", { user_ids: [String(PEOPLE.ben)], emails: [], text: "hello from a stranger" });
    const back = await tab(ben, PEOPLE.ben);
    expect(await back.next()).toEqual({ type: "counts", conversations_unseen_count: 1, news_hub_unseen_count: 0 });
    back.socket.close(1000, "done");
  });
});
