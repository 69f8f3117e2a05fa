// Onboarding: a new account starts at `welcome`, moves step by step (kept on the account, so it
// resumes), may skip, and ends with a first home feed built from its choices. The topic and
// creator calls answer the spec's shapes; bad input is a 400 naming the field.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { Browser, type Envelope } from "./accounts-helpers.ts";
import { browserAs } from "./social-fixture.ts";

const TOPICS = { travel: 71, food: 72, decor: 73 } as const;
const CREATORS = { traveller: 901, cook: 902, hidden: 903, blocker: 904, followed: 905 } as const;
const BOARDS = { traveller: 6901, cook: 6902, hidden: 6903, blocker: 6904, followed: 6905, secret: 6906 } as const;

beforeAll(async () => {
  const db = env.DB;
  const person = (id: number, name: string, followers: number, privateProfile = 0) =>
    db.prepare("INSERT INTO users (id, username, email, full_name, first_name, email_verified, follower_count, is_private_profile, created_at) VALUES (?1, ?2, ?3, ?2, ?2, 1, ?4, ?5, 0)").bind(id, name, `${name}@onboarding.test`, followers, privateProfile);
  const board = (id: number, owner: number, privacy = "public") =>
    db.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, pin_count, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, 2, 0, 0)").bind(id, owner, `Board ${id}`, `board-${id}`, privacy);
  const statements: D1PreparedStatement[] = [
    person(CREATORS.traveller, "tara_travels", 5),
    person(CREATORS.cook, "cole_cooks", 900),
    person(CREATORS.hidden, "hidden_hugo", 9999, 1),
    person(CREATORS.blocker, "blocking_bea", 9000),
    person(CREATORS.followed, "already_al", 8000),
    board(BOARDS.traveller, CREATORS.traveller),
    board(BOARDS.cook, CREATORS.cook),
    board(BOARDS.hidden, CREATORS.hidden),
    board(BOARDS.blocker, CREATORS.blocker),
    board(BOARDS.followed, CREATORS.followed),
    board(BOARDS.secret, CREATORS.cook, "secret"),
    db.prepare("INSERT INTO interests (id, key, name) VALUES (?1, 'travel', 'Travel'), (?2, 'food_drinks', 'Recipes'), (?3, 'home_decor', 'Home decor')").bind(TOPICS.travel, TOPICS.food, TOPICS.decor),
  ];
  const pin = (id: number, pinner: number, boardId: number, topic: number) =>
    statements.push(
      db.prepare("INSERT INTO pins (id, pinner_id, board_id, kind, title, image_signature, created_at, updated_at) VALUES (?1, ?2, ?3, 'image', ?4, 'sig', ?5, ?5)").bind(id, pinner, boardId, `Pin ${id}`, 1_700_000_000_000 + id),
      db.prepare("INSERT INTO pin_images VALUES (?1, '236x', ?2, 236, 354, '#a1b2c3')").bind(id, `/media/pins/${id}/236x.jpg`),
      db.prepare("INSERT INTO board_pins (board_id, pin_id, saved_by, position, created_at) VALUES (?1, ?2, ?3, ?4, 0)").bind(boardId, id, pinner, -id),
      db.prepare("INSERT INTO pin_interests (pin_id, interest_id) VALUES (?1, ?2)").bind(id, topic),
    );
  pin(9901, CREATORS.traveller, BOARDS.traveller, TOPICS.travel);
  pin(9902, CREATORS.traveller, BOARDS.traveller, TOPICS.travel);
  pin(9903, CREATORS.cook, BOARDS.cook, TOPICS.food);
  pin(9904, CREATORS.cook, BOARDS.cook, TOPICS.food);
  pin(9905, CREATORS.cook, BOARDS.secret, TOPICS.travel);
  pin(9906, CREATORS.hidden, BOARDS.hidden, TOPICS.travel);
  pin(9907, CREATORS.blocker, BOARDS.blocker, TOPICS.travel);
  pin(9908, CREATORS.followed, BOARDS.followed, TOPICS.travel);
  pin(9909, CREATORS.cook, BOARDS.cook, TOPICS.decor);
  await db.batch(statements);
});

let signups = 0;
/** A new account made through the sign-up API, signed in on its browser. */
async function signUp(): Promise<{ browser: Browser; id: number }> {
  signups += 1;
  const username = `newbie_${signups}`;
  const browser = new Browser();
  const handshake = await browser.form("/v3/register/email/handshake/", {
    email: `${username}@onboarding.test`,
    username,
    password: "Sunny-Day#42",
    first_name: "Nova",
    last_name: "",
    country: "US",
    locale: "en_US",
    referrer: "",
  });
  expect(handshake.status).toBe(200);
  const { data } = await handshake.json<Envelope<{ token: string }>>();
  expect((await browser.json("/v3/sessions/exchange/", { token: data.token, isRegistration: true })).status).toBe(200);
  const id = Number(await env.DB.prepare("SELECT id FROM users WHERE username = ?1").bind(username).first("id"));
  return { browser, id };
}

const put = (browser: Browser, body: unknown) => browser.json("/v3/users/me/onboarding/", body, "PUT");
const detailOf = async (response: Response) => (await response.json<Envelope>()).message_detail ?? "";

describe("onboarding state", () => {
  it("starts a new account at welcome, moves step by step and resumes where it stopped", async () => {
    const { browser } = await signUp();
    const start = await browser.fetch("/v3/users/me/onboarding/");
    expect(start.status).toBe(200);
    expect((await start.json<Envelope>()).data).toEqual({ step: "welcome", finished: false, first_home_feed_request_after_nux: false });

    const moved = await put(browser, { step: "interests" });
    expect(moved.status).toBe(200);
    expect((await moved.json<Envelope>()).data).toEqual({ step: "interests", finished: false, first_home_feed_request_after_nux: false });

    // Back on the page later: the island opens at the stored step, with the topics.
    const page = await browser.fetch("/onboarding/");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('data-step="interests"');
    expect(html).toContain("What are you into?");
    expect(html).toContain(">Travel<");
    // The home page offers to finish it meanwhile.
    expect(await (await browser.fetch("/")).text()).toContain('href="/onboarding/"');
  });

  it("refuses a jump ahead, an unknown step, a bad country and a language before its step, naming the field", async () => {
    const { browser } = await signUp();
    const cases: Array<[unknown, RegExp]> = [
      [{ step: "locale" }, /^step: /],
      [{ step: "finale" }, /^step: /],
      [{}, /^step: /],
      [{ step: "interests", extra: true }, /^extra: /],
      [{ step: "interests", locale: "fr" }, /^locale: /],
      [{ step: "skipped", country: "france" }, /^country: /],
    ];
    for (const [body, field] of cases) {
      const response = await put(browser, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await detailOf(response), JSON.stringify(body)).toMatch(field);
    }
    // Nothing moved.
    expect((await (await browser.fetch("/v3/users/me/onboarding/")).json<Envelope>()).data).toMatchObject({ step: "welcome" });
  });

  it("is for signed-in people only", async () => {
    const stranger = new Browser();
    expect((await stranger.fetch("/v3/users/me/onboarding/")).status).toBe(401);
    expect((await put(stranger, { step: "skipped" })).status).toBe(401);
    const page = await stranger.fetch("/onboarding/");
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe("/login/?next=/onboarding/");
  });

  it("skips from the first step: finished, and the page sends them home", async () => {
    const { browser, id } = await signUp();
    const skipped = await put(browser, { step: "skipped" });
    expect((await skipped.json<Envelope>()).data).toEqual({ step: "skipped", finished: true, first_home_feed_request_after_nux: false });
    expect(await env.DB.prepare("SELECT onboarding_step AS step FROM users WHERE id = ?1").bind(id).first("step")).toBe("skipped");
    const page = await browser.fetch("/onboarding/?next=/today/");
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe("/today/");
    // A finished onboarding does not start again.
    expect((await put(browser, { step: "interests" })).status).toBe(400);
  });
});

describe("a whole onboarding", () => {
  it("follows a topic and a creator, sets country and language, and the first home feed shows them", async () => {
    const { browser, id } = await signUp();
    expect((await put(browser, { step: "interests" })).status).toBe(200);
    expect((await browser.resource("InterestFollowResource", "create", { interest_id: String(TOPICS.travel), interest_list: "favorited" })).status).toBe(200);
    expect((await put(browser, { step: "creators" })).status).toBe(200);

    const suggested = await browser.fetch("/v3/orientation/nux_creator_recommendations/");
    expect(suggested.status).toBe(200);
    const creators = (await suggested.json<Envelope<Array<Record<string, unknown>>>>()).data;
    // Most pins in the person's topic first; then by followers. Nobody private, blocking or already followed.
    expect(creators.map((creator) => creator.username)).toEqual(["tara_travels", "blocking_bea", "already_al", "cole_cooks"]);
    expect(creators[0]).toEqual({
      id: String(CREATORS.traveller),
      username: "tara_travels",
      full_name: "tara_travels",
      image_medium_url: null,
      follower_count: 5,
      explicitly_followed_by_me: false,
      pins_in_your_topics: 2,
      preview_images: ["/media/pins/9902/236x.jpg", "/media/pins/9901/236x.jpg"],
    });
    expect((await browser.resource("UserFollowResource", "create", { user_id: String(CREATORS.traveller) })).status).toBe(200);

    expect((await put(browser, { step: "locale" })).status).toBe(200);
    const done = await put(browser, { step: "done", country: "FR", locale: "fr" });
    expect(done.status).toBe(200);
    expect((await done.json<Envelope>()).data).toEqual({ step: "done", finished: true, first_home_feed_request_after_nux: true });
    expect(done.headers.getSetCookie().some((line) => line.startsWith("pinloom_locale=fr;"))).toBe(true);
    expect(await env.DB.prepare("SELECT country || ' ' || locale AS value FROM users WHERE id = ?1").bind(id).first("value")).toBe("FR fr");

    // The first home feed: the chosen creator's and topic's pins first, in French, said once.
    const home = await (await browser.fetch("/")).text();
    expect(home).toContain("commence par les sujets et les créateurs que vous avez choisis.");
    const shown = [...home.matchAll(/href="\/pin\/(\d+)\/"/g)].map((match) => match[1]);
    expect(new Set(shown.slice(0, 4))).toEqual(new Set(["9901", "9902", "9907", "9908"]));
    expect(shown).not.toContain("9905");
    expect(shown).not.toContain("9906");
    const again = await (await browser.fetch("/")).text();
    expect(again).not.toContain("commence par les sujets et les créateurs");
  });

  it("leaves out a creator who blocked the person", async () => {
    const { browser, id } = await signUp();
    await env.DB.prepare("INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (?1, ?2, 0)").bind(CREATORS.blocker, id).run();
    await env.DB.prepare("INSERT INTO follows (follower_id, target_type, target_id, explicit, created_at) VALUES (?1, 'user', ?2, 1, 0)").bind(id, CREATORS.followed).run();
    const creators = (await (await browser.fetch("/v3/orientation/nux_creator_recommendations/?page_size=10")).json<Envelope<Array<{ username: string }>>>()).data;
    // No topic followed: by followers alone.
    expect(creators.map((creator) => creator.username)).toEqual(["cole_cooks", "tara_travels"]);
    const bad = await browser.fetch("/v3/orientation/nux_creator_recommendations/?page_size=0");
    expect(bad.status).toBe(400);
    expect(await detailOf(bad)).toMatch(/^page_size: /);
  });
});

describe("topics", () => {
  it("lists a person's topics by blend_type, followed first when mixed", async () => {
    const { browser } = await signUp();
    await browser.resource("InterestFollowResource", "create", { interest_id: String(TOPICS.decor) });
    const read = async (query: string) => (await (await browser.fetch(`/v3/users/me/interests/${query}`)).json<Envelope<Array<{ key: string; is_followed: boolean; pin_count: number }>>>()).data;
    expect(await read("?blend_type=followed")).toEqual([{ id: String(TOPICS.decor), key: "home_decor", name: "Home decor", is_followed: true, pin_count: 1 }]);
    // Others by the pins anyone may see in them: travel 4 (its secret and private pins left out), food 2.
    expect((await read("?blend_type=suggested")).map((topic) => [topic.key, topic.pin_count])).toEqual([["travel", 4], ["food_drinks", 2]]);
    expect((await read("")).map((topic) => topic.key)).toEqual(["home_decor", "travel", "food_drinks"]);
    for (const [query, field] of [["?blend_type=everything", /^blend_type: /], ["?colour=blue", /^colour: /], ["?page_size=500", /^page_size: /]] as const) {
      const response = await browser.fetch(`/v3/users/me/interests/${query}`);
      expect(response.status, query).toBe(400);
      expect(await detailOf(response), query).toMatch(field);
    }
    expect((await new Browser().fetch("/v3/users/me/interests/")).status).toBe(401);
  });

  it("lists a board's topics for anyone who may see it, and hides a secret board's", async () => {
    const answer = await new Browser().fetch(`/v3/boards/${BOARDS.cook}/interests/`);
    expect(answer.status).toBe(200);
    expect((await answer.json<Envelope>()).data).toEqual([
      { id: String(TOPICS.food), key: "food_drinks", name: "Recipes", is_followed: false, pin_count: 2 },
      { id: String(TOPICS.decor), key: "home_decor", name: "Home decor", is_followed: false, pin_count: 1 },
    ]);
    expect((await new Browser().fetch(`/v3/boards/${BOARDS.secret}/interests/`)).status).toBe(404);
    expect((await (await browserAs(CREATORS.cook)).fetch(`/v3/boards/${BOARDS.secret}/interests/`)).status).toBe(200);
    expect((await new Browser().fetch("/v3/boards/999999/interests/")).status).toBe(404);
    const extra = await new Browser().fetch(`/v3/boards/${BOARDS.cook}/interests/?x=1`);
    expect(extra.status).toBe(400);
    expect(await detailOf(extra)).toMatch(/^x: /);
  });
});
