// The experience platform through the Worker (spec 002 §3, §4, §6, §7): each resource answers
// the experiences the viewer is eligible for per placement; viewed, completed and dismissed are
// recorded per person or per signed-out browser; placed ids are validated with a 400 naming
// the field that changes nothing; every write needs the CSRF token; a trigger makes a
// triggerable experience eligible; bots get none, in answers or in HTML; the footer check
// answers 500417 with hide_footer; the merchant welcome banner keeps the program's record.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { assignExperiments, PIN_GRID_FOOTER_EXPERIMENT } from "~/experiments/experiments.ts";
import { Browser } from "./accounts-helpers.ts";
import { GOOGLEBOT_UA } from "./fixtures.ts";
import { browserAs, call, scalar } from "./social-fixture.ts";

const DAY = 86_400_000;
const U = { owner: 44_002, merchant: 44_003, fresh: 44_004, trigger: 44_005, bot: 44_006, viewer: 44_007, state: 44_008, completer: 44_009 } as const;
const B = { owner: 44_101, merchant: 44_102 } as const;
/** Candidates for the footer experiment's two groups (which is which follows the hash). */
const FOOTER_CANDIDATES = Array.from({ length: 40 }, (_, index) => 44_200 + index);
const FRANCE = { "cf-ipcountry": "FR" };

interface Experience {
  experience_id: number;
  placement_id: number;
  placed_experience_id: string;
  type: number;
  status: string | null;
  display_data: Record<string, unknown>;
  metadata: Record<string, unknown>;
  triggerable_placed_exps: string[];
}

type ByPlacement = Record<string, Experience | undefined>;

const placements = async (browser: Browser, ids: number[]) => call<ByPlacement>(browser, "UserExperienceResource", "get", { placement_ids: ids });
const platform = async (browser: Browser, options: Record<string, unknown> = {}) => call<Record<string, Experience[]>>(browser, "UserExperiencePlatformResource", "get", options);
const write = (browser: Browser, name: string, action: "update" | "delete", placed: string, extra: Record<string, unknown> = {}) =>
  call<{ placed_experience_id: string; status: string | null; triggered: boolean }>(browser, name, action, { placed_experience_id: placed, ...extra });
const viewed = (browser: Browser, placed: string) => write(browser, "UserExperienceViewedResource", "update", placed);
const completed = (browser: Browser, placed: string, extra: Record<string, unknown> = {}) => write(browser, "UserExperienceCompletedResource", "update", placed, extra);
const dismissed = (browser: Browser, placed: string) => write(browser, "UserExperienceResource", "delete", placed);
const stateRow = (userId: number, experienceId: number) =>
  env.DB.prepare("SELECT * FROM experience_states WHERE user_id = ?1 AND experience_id = ?2").bind(userId, experienceId).first<Record<string, number | null>>();
const footerGroup = (id: number) => (assignExperiments(id) as Record<string, string | undefined>)[PIN_GRID_FOOTER_EXPERIMENT];
const inFooterGroup = FOOTER_CANDIDATES.find((id) => footerGroup(id) === "hide_footer")!;
const outOfFooterGroup = FOOTER_CANDIDATES.find((id) => footerGroup(id) !== "hide_footer")!;
/** A personal account outside the footer group, so the platform's whole answer is the upsell. */
const personalId = Array.from({ length: 40 }, (_, index) => 44_300 + index).find((id) => footerGroup(id) !== "hide_footer")!;

beforeAll(async () => {
  const db = env.DB;
  const now = Date.now();
  const person = (id: number, type: "personal" | "business") =>
    db
      .prepare("INSERT INTO users (id, username, email, full_name, first_name, email_verified, created_at, account_type) VALUES (?1, ?2, ?3, ?2, ?2, 1, ?4, ?5)")
      .bind(id, `exp_${id}`, `exp_${id}@experiences.test`, now - 90 * DAY, type);
  const business = (id: number, owner: number) =>
    db
      .prepare("INSERT INTO businesses (id, owner_id, profile_id, name, vertical, country, locale, website, onboarding, created_at, updated_at) VALUES (?1, ?2, ?2, ?3, 'RETAIL', 'US', 'en_US', NULL, '{}', ?4, ?4)")
      .bind(id, owner, `Business ${id}`, now);
  await db.batch([
    ...[personalId, U.fresh, U.trigger, U.bot, U.viewer, U.state, U.completer].map((id) => person(id, "personal")),
    person(U.owner, "business"),
    person(U.merchant, "business"),
    ...FOOTER_CANDIDATES.map((id) => person(id, "business")),
    business(B.owner, U.owner),
    business(B.merchant, U.merchant),
    db.prepare("INSERT INTO business_members (business_id, user_id, role, created_at) VALUES (?1, ?2, 'ADMIN', 0), (?3, ?4, 'ADMIN', 0)").bind(B.owner, U.owner, B.merchant, U.merchant),
    db
      .prepare("INSERT INTO merchant_applications (business_id, profile_id, country, program_status, review_status, applied_at, updated_at) VALUES (?1, ?2, 'US', 'ACCEPTED', 3, ?3, ?3)")
      .bind(B.merchant, U.merchant, now - 10 * DAY),
  ]);
});

describe("fetching experiences", () => {
  it("answers the business upsell in the home placement for a personal account, and nothing for a business account", async () => {
    const personal = await placements(await browserAs(personalId), [1000071, 1000069]);
    expect(personal.status).toBe(200);
    expect(personal.body.resource_response.data).toEqual({
      "1000071": {
        experience_id: 500501,
        placement_id: 1000071,
        placed_experience_id: "1000071:500501",
        type: 2,
        status: null,
        display_data: { anchor: "home_top", cta_path: "/business/hub/onboarding/" },
        metadata: { name: "business_upsell" },
        triggerable_placed_exps: ["1000072:500502"],
      },
    });
    const business = await placements(await browserAs(U.owner), [1000071]);
    expect(business.body.resource_response.data).toEqual({});
  });

  it("answers every placement through the platform resource, one per placement or all with multiExperiencePlatform", async () => {
    const browser = await browserAs(personalId);
    const single = await platform(browser, { extra_context: { page: "home" }, targeting: { surface: "web" } });
    expect(single.status).toBe(200);
    expect(Object.keys(single.body.resource_response.data)).toEqual(["1000071"]);
    expect(single.body.resource_response.data["1000071"]!.map((experience) => experience.placed_experience_id)).toEqual(["1000071:500501"]);
    const multi = await platform(browser, { multiExperiencePlatform: true });
    expect(multi.body.resource_response.data["1000071"]!.map((experience) => experience.experience_id)).toEqual([500501]);
  });

  it("includes the viewer's experiences in GET /_/_/state", async () => {
    const response = await (await browserAs(U.state)).fetch("/_/_/state?source_url=%2F");
    const body = await response.json<{ data: { experiences: Record<string, Experience[]> } }>();
    expect(body.data.experiences["1000071"]!.map((experience) => experience.placed_experience_id)).toEqual(["1000071:500501"]);
  });
});

describe("statuses", () => {
  it("records a view with the placed id percent-encoded, and the experience then answers viewed", async () => {
    const browser = await browserAs(U.viewer);
    const answer = await viewed(browser, "1000071%3A500501");
    expect(answer.status).toBe(200);
    expect(answer.body.resource_response.data).toEqual({ placed_experience_id: "1000071:500501", status: "viewed", triggered: false });
    await viewed(browser, "1000071:500501");
    expect(await stateRow(U.viewer, 500501)).toMatchObject({ view_count: 2, dismissed_at: null, completed_at: null });
    expect((await placements(browser, [1000071])).body.resource_response.data["1000071"]?.status).toBe("viewed");
  });

  it("never answers a dismissed experience again, even after another view", async () => {
    const browser = await browserAs(personalId);
    const answer = await dismissed(browser, "1000071%3A500501");
    expect(answer.status).toBe(200);
    expect(answer.body.resource_response.data.status).toBe("dismissed");
    expect((await placements(browser, [1000071])).body.resource_response.data).toEqual({});
    await viewed(browser, "1000071%3A500501");
    expect((await placements(browser, [1000071])).body.resource_response.data).toEqual({});
    expect((await platform(browser)).body.resource_response.data).toEqual({});
    expect((await stateRow(personalId, 500501))!["dismissed_at"]).toBeGreaterThan(0);
  });

  it("removes a completed experience, and keeps completedWithoutHomefeed when the completion says so", async () => {
    const browser = await browserAs(U.completer);
    const answer = await completed(browser, "1000071%3A500501", { extra_context: { completed_without_homefeed: true } });
    expect(answer.body.resource_response.data.status).toBe("completedWithoutHomefeed");
    expect((await placements(browser, [1000071])).body.resource_response.data).toEqual({});
  });
});

describe("bad input", () => {
  it("refuses malformed and unknown placed ids with a 400 naming placed_experience_id, storing nothing", async () => {
    const browser = await browserAs(U.fresh);
    for (const placed of ["1000071-500501", "1000071:", ":500501", "abc%3Adef", "1000071:500501:1", "1000071:999999", "1000069:500501"]) {
      for (const send of [viewed, completed, dismissed]) {
        const answer = await send(browser, placed);
        expect(answer.status, placed).toBe(400);
        expect(answer.body.resource_response.error?.message_detail, placed).toContain("placed_experience_id");
      }
    }
    expect(await scalar("SELECT COUNT(*) FROM experience_states WHERE user_id = ?1", U.fresh)).toBe(0);
  });

  it("refuses unknown options and too many placements by name", async () => {
    const browser = await browserAs(U.fresh);
    const unknown = await call(browser, "UserExperienceResource", "get", { placement_ids: [1000071], surprise: 1 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.resource_response.error?.message_detail).toContain("surprise");
    const many = await call(browser, "UserExperienceResource", "get", { placement_ids: Array.from({ length: 21 }, (_, index) => 1000000 + index) });
    expect(many.status).toBe(400);
    expect(many.body.resource_response.error?.message_detail).toContain("placement_ids");
    const none = await call(browser, "UserExperienceViewedResource", "update", {});
    expect(none.status).toBe(400);
    expect(none.body.resource_response.error?.message_detail).toContain("placed_experience_id");
  });

  it("refuses every write without the CSRF token and stores nothing", async () => {
    const browser = await browserAs(U.fresh);
    for (const [name, action] of [["UserExperienceViewedResource", "update"], ["UserExperienceCompletedResource", "update"], ["UserExperienceResource", "delete"]] as const) {
      const response = await browser.fetch(`/resource/${name}/${action}/`, {
        method: "POST",
        body: JSON.stringify({ options: { placed_experience_id: "1000071:500501" } }),
        headers: { "content-type": "application/json", "x-csrftoken": "" },
      });
      expect(response.status, name).toBe(403);
    }
    const trigger = await browser.fetch("/v3/experiences/1000072%3A500502/trigger/", { method: "PUT", headers: { "x-csrftoken": "" } });
    expect(trigger.status).toBe(403);
    expect(await scalar("SELECT COUNT(*) FROM experience_states WHERE user_id = ?1", U.fresh)).toBe(0);
  });
});

describe("triggers", () => {
  it("makes the hub's first-visit card eligible only once triggered, and refuses what nothing may trigger", async () => {
    const owner = await browserAs(U.owner);
    expect((await placements(owner, [1000072])).body.resource_response.data).toEqual({});
    const refused = await owner.json("/v3/experiences/1000071%3A500501/trigger/", {}, "PUT");
    expect(refused.status).toBe(400);
    expect((await refused.json<{ message_detail: string }>()).message_detail).toContain("placed_experience_id");
    const malformed = await owner.json("/v3/experiences/1000072-500502/trigger/", {}, "PUT");
    expect(malformed.status).toBe(400);
    const badBody = await owner.json("/v3/experiences/1000072%3A500502/trigger/", { extra_context: "home" }, "PUT");
    expect(badBody.status).toBe(400);
    expect((await badBody.json<{ message_detail: string }>()).message_detail).toContain("extra_context");
    expect((await placements(owner, [1000072])).body.resource_response.data).toEqual({});

    const triggered = await owner.json("/v3/experiences/1000072%3A500502/trigger/", { extra_context: { from: "business_upsell" } }, "PUT");
    expect(triggered.status).toBe(200);
    expect((await triggered.json<{ data: { triggered: boolean } }>()).data.triggered).toBe(true);
    expect((await placements(owner, [1000072])).body.resource_response.data["1000072"]?.experience_id).toBe(500502);
    // Triggered for them alone, and still only for the owner of a business.
    expect((await placements(await browserAs(U.merchant), [1000072])).body.resource_response.data).toEqual({});
    const personal = await browserAs(U.trigger);
    expect((await personal.json("/v3/experiences/1000072%3A500502/trigger/", {}, "PUT")).status).toBe(200);
    expect((await placements(personal, [1000072])).body.resource_response.data).toEqual({});
  });
});

describe("bots", () => {
  it("never get an experience, signed in or not, in any answer or in the page's HTML", async () => {
    const bot = await browserAs(U.bot);
    const asBot = { "user-agent": GOOGLEBOT_UA };
    const get = await bot.fetch(`/resource/UserExperienceResource/get/?data=${encodeURIComponent(JSON.stringify({ options: { placement_ids: [1000071, 1000074] } }))}`, { headers: { ...asBot, ...FRANCE } });
    expect((await get.json<{ resource_response: { data: unknown } }>()).resource_response.data).toEqual({});
    const all = await bot.fetch(`/resource/UserExperiencePlatformResource/get/?data=${encodeURIComponent(JSON.stringify({ options: {} }))}`, { headers: asBot });
    expect((await all.json<{ resource_response: { data: unknown } }>()).resource_response.data).toEqual({});
    const state = await bot.fetch("/_/_/state", { headers: asBot });
    expect((await state.json<{ data: { experiences: unknown } }>()).data.experiences).toEqual({});
    const view = await bot.fetch("/resource/UserExperienceViewedResource/update/", {
      method: "POST",
      body: JSON.stringify({ options: { placed_experience_id: "1000071:500501" } }),
      headers: { ...asBot, "content-type": "application/json" },
    });
    expect(view.status).toBe(403);
    expect(await scalar("SELECT COUNT(*) FROM experience_states WHERE user_id = ?1", U.bot)).toBe(0);

    // The same person's home in a browser has the placement; a crawler's copy has none, and no script.
    expect(await (await bot.fetch("/")).text()).toContain('data-experience-placement="1000071"');
    const crawler = await (await bot.fetch("/", { headers: asBot })).text();
    expect(crawler).not.toContain("data-experience");
    expect(crawler).not.toMatch(/<script(?![^>]*application\/(ld\+)?json)/);
  });
});

describe("the footer experience check", () => {
  it("answers 500417 with hide_footer for the footer experiment's hide_footer group, and records its view", async () => {
    const inGroup = await browserAs(inFooterGroup);
    const answer = await placements(inGroup, [1000069]);
    expect(answer.body.resource_response.data["1000069"]).toMatchObject({ experience_id: 500417, placed_experience_id: "1000069:500417", type: 0, display_data: { anchor: "footer", hide_footer: true } });
    expect((await viewed(inGroup, "1000069%3A500417")).body.resource_response.data.status).toBe("viewed");
    expect((await stateRow(inFooterGroup, 500417))!["view_count"]).toBe(1);
    expect((await placements(await browserAs(outOfFooterGroup), [1000069])).body.resource_response.data).toEqual({});
  });
});

describe("signed-out visitors", () => {
  it("get the consent banner where consent is asked and not given, keyed by their browser, and not once they chose", async () => {
    const visitor = new Browser();
    const first = await visitor.fetch(`/resource/UserExperienceResource/get/?data=${encodeURIComponent(JSON.stringify({ options: { placement_ids: [1000074, 1000071] } }))}`, { headers: FRANCE });
    const data = (await first.json<{ resource_response: { data: ByPlacement } }>()).resource_response.data;
    expect(Object.keys(data)).toEqual(["1000074"]);
    expect(data["1000074"]).toMatchObject({ experience_id: 500504, type: 1, display_data: { anchor: "page_bottom", settings_path: "/settings/cookies/" } });
    const view = await visitor.fetch("/resource/UserExperienceViewedResource/update/", {
      method: "POST",
      body: JSON.stringify({ options: { placed_experience_id: "1000074%3A500504" } }),
      headers: { "content-type": "application/json", ...FRANCE },
    });
    expect(view.status).toBe(200);
    expect(await scalar("SELECT COUNT(*) FROM experience_states WHERE visitor_id IS NOT NULL AND experience_id = 500504 AND view_count = 1")).toBe(1);
    // In the United States nobody is asked; in France, a choice ends it.
    expect((await placements(visitor, [1000074])).body.resource_response.data).toEqual({});
    visitor.cookies.set("pinloom_consent", "p0a0m0");
    const chosen = await visitor.fetch(`/resource/UserExperienceResource/get/?data=${encodeURIComponent(JSON.stringify({ options: { placement_ids: [1000074] } }))}`, { headers: FRANCE });
    expect((await chosen.json<{ resource_response: { data: unknown } }>()).resource_response.data).toEqual({});
  });
});

describe("the merchant welcome banner", () => {
  it("shows through the platform after acceptance; dismissing it dates and counts it in the program's record, and it returns a week later", async () => {
    const merchant = await browserAs(U.merchant);
    expect((await placements(merchant, [1000073])).body.resource_response.data["1000073"]?.experience_id).toBe(500503);
    const answer = await dismissed(merchant, "1000073%3A500503");
    expect(answer.status).toBe(200);
    expect((await placements(merchant, [1000073])).body.resource_response.data).toEqual({});
    const banners = await env.DB.prepare("SELECT welcome_dismissed_at, welcome_dismiss_count FROM merchant_banners WHERE user_id = ?1").bind(U.merchant).first<{ welcome_dismissed_at: number; welcome_dismiss_count: number }>();
    expect(banners?.welcome_dismiss_count).toBe(1);
    expect(banners?.welcome_dismissed_at).toBeGreaterThan(0);
    const program = await merchant.fetch(`/v3/businesses/${B.merchant}/verified_merchant/`);
    expect((await program.json<{ data: { banners: Record<string, unknown> } }>()).data.banners).toMatchObject({ welcome: false, welcome_dismiss_count: 1 });

    // Eight days on, the program's rule brings it back, with a fresh status.
    await env.DB.prepare("UPDATE merchant_banners SET welcome_dismissed_at = welcome_dismissed_at - ?2 WHERE user_id = ?1").bind(U.merchant, 8 * DAY).run();
    expect((await placements(merchant, [1000073])).body.resource_response.data["1000073"]).toMatchObject({ experience_id: 500503, status: null });
    // A personal account is never a merchant's audience.
    expect((await placements(await browserAs(U.fresh), [1000073])).body.resource_response.data).toEqual({});
  });
});
