// Promotion's calls: quick promote makes a campaign, its ad group and its ad with a history row
// in one batch only for an account with a business address and a valid billing profile (and the
// GDPR answer where it applies); every refusal names its field or what is missing and changes
// nothing; a retried request is applied once; the campaign tables pause, resume, edit and end by
// the transition table; a campaign past its end date reads as ENDED; the pick-a-pin lists; an ad
// account with campaigns is not deleted.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { Browser } from "./accounts-helpers.ts";
import { browserAs, scalar } from "./social-fixture.ts";

const U = { owner: 38_001, manager: 38_002, analyst: 38_003, finance: 38_004, stranger: 38_005, pinner: 38_006 } as const;
const PIN = { image: 38_101, video: 38_102, secret: 38_103, other: 38_104 } as const;
const BOARD = { open: 38_201, secret: 38_202 } as const;

type Answer<T = Record<string, unknown>> = { status: number; data: T; error: { message: string; message_detail: string | null; extra_data: Record<string, unknown> | null } | undefined };

async function v3<T = Record<string, unknown>>(browser: Browser, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer<T>> {
  const response =
    method === "GET" ? await browser.fetch(path) : await browser.fetch(path, { method, body: JSON.stringify(body ?? {}), headers: { "content-type": "application/json", ...headers } });
  const json = await response.json<{ data: T; error?: Answer<T>["error"] }>();
  return { status: response.status, data: json.data, error: json.error };
}

const counts = async () => ({
  campaigns: await scalar("SELECT COUNT(*) FROM campaigns"),
  adGroups: await scalar("SELECT COUNT(*) FROM ad_groups"),
  ads: await scalar("SELECT COUNT(*) FROM ads"),
  history: await scalar("SELECT COUNT(*) FROM business_history"),
});

let usAccount = "";
let frAccount = "";
const promote = (account: string) => `/v3/ad_accounts/${account}/quick_promote/`;
const form = (overrides: Record<string, unknown> = {}) => ({ pinId: String(PIN.image), dailyBudget: 10, duration: 10, destinationUrl: "https://shop.example/spring", adType: "STANDARD", name: "Spring lamps", ...overrides });

beforeAll(async () => {
  const db = env.DB;
  await db.batch([
    ...Object.entries(U).map(([name, id]) =>
      db.prepare("INSERT INTO users (id, username, email, full_name, first_name, email_verified, created_at, age_in_years, is_under_18) VALUES (?1, ?2, ?3, ?2, ?2, 1, 0, 30, 0)").bind(id, `promo_${name}`, `${name}@promote.test`),
    ),
    db.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (?1, ?2, 'Lamps', 'lamps', 'public', 0, 0), (?3, ?2, 'Drafts', 'drafts', 'secret', 1, 1)").bind(BOARD.open, U.owner, BOARD.secret),
    db
      .prepare(
        `INSERT INTO pins (id, pinner_id, board_id, kind, title, image_signature, created_at, updated_at) VALUES
         (?1, ?5, ?6, 'image', 'Zephyrine brass lamp', 'sig-lamp', 3, 3), (?2, ?5, ?6, 'video', 'Zephyrine lamp video', 'sig-video', 2, 2),
         (?3, ?5, ?7, 'image', 'Zephyrine secret lamp', 'sig-secret', 1, 1), (?4, ?8, NULL, 'image', 'Zephyrine lamp by someone else', 'sig-other', 0, 0)`,
      )
      .bind(PIN.image, PIN.video, PIN.secret, PIN.other, U.owner, BOARD.open, BOARD.secret, U.pinner),
    db.prepare("INSERT INTO link_domains (domain, is_blocked) VALUES ('promo-spam.example', 1) ON CONFLICT (domain) DO UPDATE SET is_blocked = 1"),
  ]);
  const owner = await browserAs(U.owner);
  const made = await v3<{ business: { id: string }; ad_account: { id: string } }>(owner, "POST", "/v3/businesses/", {
    businessGoals: ["INCREASE_SALES"],
    businessName: "Lamp House",
    businessVertical: "HOME_AND_GARDEN",
    numberEmployees: "2_10",
    hasWebsite: true,
    website: "https://lamphouse.example",
    country: "US",
    locale: "en_US",
    advertisingIntent: "NOW",
    worksWithAgency: false,
    firstName: "Lee",
    lastName: "Lamp",
    email: "lee@promote.test",
    countryCode: "+1",
    phoneNumber: "555 010 2030",
    whatsAppConsent: false,
    ageConfirmed: true,
  });
  expect(made.status).toBe(200);
  usAccount = made.data.ad_account.id;
  const businessId = made.data.business.id;
  frAccount = (await v3<{ id: string }>(owner, "POST", `/v3/businesses/${businessId}/ad_accounts/`, { name: "Lamp House FR", country: "FR" })).data.id;
  await db.batch(
    (
      [
        [U.manager, "CAMPAIGN_MANAGER"],
        [U.analyst, "ANALYST"],
        [U.finance, "FINANCE"],
      ] as const
    ).map(([id, role]) => db.prepare("INSERT INTO business_members (business_id, user_id, role, created_at) VALUES (?1, ?2, ?3, 0)").bind(businessId, id, role)),
  );
});

describe("what promotion needs first", () => {
  it("refuses without a business address, then without a valid billing profile, naming each, and makes nothing", async () => {
    const owner = await browserAs(U.owner);
    const before = await counts();
    const noAddress = await v3(owner, "POST", promote(usAccount), form());
    expect([noAddress.status, noAddress.error!.message, noAddress.error!.extra_data]).toEqual([409, "Add your business address before promoting", { missing: "businessAddress" }]);
    const address = await v3<{ hasBusinessAddress: boolean }>(owner, "PUT", `${promote(usAccount)}business_address/`, { line1: "1 Main St", city: "Springfield", postalCode: "12345", country: "US" });
    expect([address.status, address.data.hasBusinessAddress]).toEqual([200, true]);
    const noBilling = await v3(owner, "POST", promote(usAccount), form());
    expect([noBilling.status, noBilling.error!.message, noBilling.error!.extra_data]).toEqual([409, "Add a valid billing profile before promoting", { missing: "billingProfile" }]);
    expect(await counts()).toEqual({ ...before, history: before.history! + 1 });
    expect(await scalar<string>("SELECT action FROM business_history ORDER BY id DESC LIMIT 1")).toBe("BUSINESS_ADDRESS_SAVED");
  });

  it("saves a test-mode billing profile as VALID, for a role that may change the account's settings only", async () => {
    const analyst = await v3(await browserAs(U.analyst), "PUT", `${promote(usAccount)}billing_profile/`, { name: "Lamp House", email: "billing@promote.test" });
    expect(analyst.status).toBe(403);
    const saved = await v3<{ hasValidBillingProfile: boolean }>(await browserAs(U.owner), "PUT", `${promote(usAccount)}billing_profile/`, { name: "Lamp House", email: "billing@promote.test" });
    expect([saved.status, saved.data.hasValidBillingProfile]).toEqual([200, true]);
    expect(await scalar<string>("SELECT mode || ' ' || status FROM billing_profiles WHERE ad_account_id = ?1", usAccount)).toBe("TEST VALID");
    const bad = await v3(await browserAs(U.owner), "PUT", `${promote(usAccount)}billing_profile/`, { name: "", email: "nope" });
    expect(bad.status).toBe(400);
    expect(bad.error!.message_detail).toContain("email:");
  });

  it("asks the GDPR question of a French account, records the answer, and only then promotes", async () => {
    const owner = await browserAs(U.owner);
    await v3(owner, "PUT", `${promote(frAccount)}billing_profile/`, { name: "Lamp House", email: "billing@promote.test" });
    const before = await counts();
    const unanswered = await v3(owner, "POST", promote(frAccount), form());
    expect([unanswered.status, unanswered.error!.extra_data]).toEqual([409, { missing: "gdpr" }]);
    expect(await counts()).toEqual(before);
    const facts = await v3<{ advertiser: { gdprApplies: boolean; gdprAccepted: boolean; currency: string }; limits: { minimumDailyBudget: number }; defaults: { dailyBudget: number; duration: number } }>(owner, "GET", promote(frAccount));
    expect([facts.data.advertiser.gdprApplies, facts.data.advertiser.gdprAccepted, facts.data.advertiser.currency, facts.data.limits.minimumDailyBudget, facts.data.defaults]).toEqual([true, false, "EUR", 7, { dailyBudget: 1, duration: 10, startingBudget: 7 }]);
    const accepted = await v3<{ gdprAccepted: boolean }>(owner, "POST", `${promote(frAccount)}gdpr/`, {});
    expect([accepted.status, accepted.data.gdprAccepted]).toEqual([200, true]);
    expect(await scalar("SELECT COUNT(*) FROM business_history WHERE action = 'GDPR_TERMS_ACCEPTED' AND entity_id = ?1 AND actor_id = ?2", frAccount, U.owner)).toBe(1);
    const made = await v3(owner, "POST", promote(frAccount), form({ name: "Lampes" }));
    expect(made.status).toBe(200);
    // A US account is never asked.
    expect((await v3(owner, "POST", `${promote(usAccount)}gdpr/`, {})).status).toBe(400);
  });
});

describe("quick promote (POST /v3/ad_accounts/{id}/quick_promote/)", () => {
  it("makes the campaign, its ad group and its ad, with a history row, in one batch", async () => {
    const before = await counts();
    const made = await v3<{ campaign_id: string; ad_group_id: string; ad_id: string }>(
      await browserAs(U.manager),
      "POST",
      promote(usAccount),
      form({ dailyBudget: 12.5, audience: { isAutoTargeting: false, ages: ["25-34"], genders: ["female"], interests: ["lighting"], locales: ["en_US"], size: "NARROW" } }),
    );
    expect(made.status).toBe(200);
    const campaign = JSON.parse(
      (await scalar<string>(
        "SELECT json_object('status', status, 'goal', goal, 'budget', daily_budget_micro, 'days', (end_at - start_at) / 86400000, 'fdb', is_fdb, 'by', created_by, 'account', ad_account_id) FROM campaigns WHERE id = ?1",
        made.data.campaign_id,
      ))!,
    ) as Record<string, unknown>;
    expect(campaign).toEqual({ status: "ACTIVE", goal: "CONSIDERATION", budget: 12_500_000, days: 10, fdb: 1, by: U.manager, account: Number(usAccount) });
    const group = JSON.parse((await scalar<string>("SELECT targeting FROM ad_groups WHERE id = ?1 AND campaign_id = ?2 AND status = 'ACTIVE'", made.data.ad_group_id, made.data.campaign_id))!) as Record<string, unknown>;
    expect(group).toEqual({ auto: false, ages: ["25-34"], genders: ["female"], interests: ["lighting"], locales: ["en_US"], size: "NARROW" });
    const ad = JSON.parse((await scalar<string>("SELECT json_object('pin', pin_id, 'type', ad_type, 'url', destination_url, 'status', status, 'group', ad_group_id) FROM ads WHERE id = ?1", made.data.ad_id))!) as Record<string, unknown>;
    expect(ad).toEqual({ pin: PIN.image, type: "STANDARD", url: "https://shop.example/spring", status: "ACTIVE", group: Number(made.data.ad_group_id) });
    expect(await counts()).toEqual({ campaigns: before.campaigns! + 1, adGroups: before.adGroups! + 1, ads: before.ads! + 1, history: before.history! + 1 });
    expect(await scalar<string>("SELECT action FROM business_history WHERE entity_id = ?1", made.data.campaign_id)).toBe("CAMPAIGN_CREATED");
  });

  it("applies a request sent twice with the same client request id once", async () => {
    const owner = await browserAs(U.owner);
    const before = await counts();
    const headers = { "X-Client-Request-Id": "promote-retry-0001-abcdef" };
    const first = await v3<{ campaign_id: string }>(owner, "POST", promote(usAccount), form({ name: "Once" }), headers);
    const again = await v3<{ campaign_id: string }>(owner, "POST", promote(usAccount), form({ name: "Once" }), headers);
    expect([first.status, again.status, again.data.campaign_id]).toEqual([200, 200, first.data.campaign_id]);
    expect((await counts()).campaigns).toBe(before.campaigns! + 1);
  });

  it("refuses bad fields with a 400 naming each, and makes nothing", async () => {
    const owner = await browserAs(U.owner);
    const before = await counts();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ dailyBudget: 6 }, "dailyBudget: The daily budget must be at least 7"],
      [{ dailyBudget: 1_000_001 }, "dailyBudget:"],
      [{ duration: 0 }, "duration:"],
      [{ duration: 366 }, "duration:"],
      [{ destinationUrl: "ftp://shop.example/" }, "destinationUrl: Enter a web address that starts with http:// or https://"],
      [{ destinationUrl: "https://deals.promo-spam.example/" }, "destinationUrl: Ads can't lead to this site"],
      [{ destinationUrl: "" }, "destinationUrl: Enter the web address your ad leads to"],
      [{ adType: "VIDEO" }, "adType: This ad format doesn't suit this pin"],
      [{ name: "  " }, "name:"],
      [{ pinId: String(PIN.secret) }, "pinId: This can't be promoted"],
      [{ productGroupId: "5" }, "pinId:"],
    ];
    for (const [overrides, expected] of cases) {
      const answer = await v3(owner, "POST", promote(usAccount), form(overrides));
      expect([JSON.stringify(overrides), answer.status]).toEqual([JSON.stringify(overrides), 400]);
      expect(answer.error!.message_detail).toContain(expected);
    }
    expect(await counts()).toEqual(before);
  });

  it("answers a stranger 404, an analyst or finance member 403 and a signed-out visitor 401", async () => {
    const before = await counts();
    expect((await v3(await browserAs(U.stranger), "POST", promote(usAccount), form())).status).toBe(404);
    expect((await v3(await browserAs(U.stranger), "GET", `/v3/ad_accounts/${usAccount}/campaigns/`)).status).toBe(404);
    expect((await v3(await browserAs(U.analyst), "POST", promote(usAccount), form())).status).toBe(403);
    expect((await v3(await browserAs(U.finance), "POST", promote(usAccount), form())).status).toBe(403);
    expect((await v3(new Browser(), "POST", promote(usAccount), form())).status).toBe(401);
    expect((await v3(await browserAs(U.owner), "POST", promote("123456789"), form())).status).toBe(404);
    expect(await counts()).toEqual(before);
  });

  it("lists the accounts a person may promote from: none for an analyst", async () => {
    const mine = await v3<{ items: Array<{ id: string }> }>(await browserAs(U.manager), "GET", "/v3/quick_promote/ad_accounts/");
    expect(mine.data.items.map((item) => item.id).sort()).toEqual([usAccount, frAccount].sort());
    const analyst = await v3<{ items: unknown[] }>(await browserAs(U.analyst), "GET", "/v3/quick_promote/ad_accounts/");
    expect(analyst.data.items).toEqual([]);
  });
});

describe("the pick-a-pin sheet", () => {
  const sheet = (query: string) => `/v3/ad_accounts/${usAccount}/quick_promote/pins/?${query}`;
  type Items = { items: Array<{ type: string; id: string; title: string }> };

  it("lists the business's own promotable pins newest first, its boards, a board's pins, the selected and searched pins", async () => {
    const owner = await browserAs(U.owner);
    expect((await v3<Items>(owner, "GET", sheet("source=PINS"))).data.items.map((item) => item.id)).toEqual([String(PIN.image), String(PIN.video)]);
    expect((await v3<Items>(owner, "GET", sheet("source=BOARDS"))).data.items.map((item) => [item.type, item.title])).toEqual([["board", "Lamps"]]);
    expect((await v3<Items>(owner, "GET", sheet(`source=BOARDS&board_id=${BOARD.secret}`))).data.items).toEqual([]);
    expect((await v3<Items>(owner, "GET", sheet(`source=SELECTED&pin_ids=${PIN.other},${PIN.secret}`))).data.items.map((item) => item.id)).toEqual([String(PIN.other)]);
    expect((await v3<Items>(owner, "GET", sheet("source=SEARCH_RESULTS&search_term=zephyrine"))).data.items.map((item) => item.id)).toEqual([String(PIN.image), String(PIN.video), String(PIN.other)]);
  });

  it("lists only what this account promoted before for PROMOTED", async () => {
    const owner = await browserAs(U.owner);
    expect((await v3<Items>(owner, "GET", sheet("source=PINS&list_type=PROMOTED"))).data.items.map((item) => item.id)).toEqual([String(PIN.image)]);
    const bad = await v3(owner, "GET", sheet("source=EVERYTHING"));
    expect([bad.status, bad.error!.message_detail?.startsWith("source:")]).toEqual([400, true]);
  });
});

describe("the campaign tables", () => {
  const campaigns = () => `/v3/ad_accounts/${usAccount}/campaigns/`;
  type Row = { id: string; name: string; status: string; daily_budget: number; actions: string[]; editable: boolean; end_time: number | null };

  async function fresh(name: string): Promise<string> {
    const made = await v3<{ campaign_id: string }>(await browserAs(U.owner), "POST", promote(usAccount), form({ name }));
    expect(made.status).toBe(200);
    return made.data.campaign_id;
  }

  it("pauses, resumes and ends a campaign as the transition table allows, with history", async () => {
    const manager = await browserAs(U.manager);
    const id = await fresh("Toggle");
    const paused = await v3<Row>(manager, "POST", `${campaigns()}${id}/pause/`);
    expect([paused.status, paused.data.status, paused.data.actions]).toEqual([200, "PAUSED", ["resume", "end"]]);
    expect((await v3(manager, "POST", `${campaigns()}${id}/pause/`)).status).toBe(409);
    const resumed = await v3<Row>(manager, "POST", `${campaigns()}${id}/resume/`);
    expect([resumed.status, resumed.data.status]).toEqual([200, "ACTIVE"]);
    const ended = await v3<Row>(manager, "POST", `${campaigns()}${id}/end/`);
    expect([ended.status, ended.data.status, ended.data.actions, ended.data.editable]).toEqual([200, "ENDED", [], false]);
    expect(await scalar<string>("SELECT group_concat(status) FROM (SELECT status FROM ad_groups WHERE campaign_id = ?1 UNION ALL SELECT status FROM ads WHERE campaign_id = ?1)", id)).toBe("ENDED,ENDED");
    const before = await counts();
    expect((await v3(manager, "POST", `${campaigns()}${id}/resume/`)).status).toBe(409);
    expect((await v3(manager, "PATCH", `${campaigns()}${id}/`, { name: "Again" })).status).toBe(409);
    expect(await counts()).toEqual(before);
    const actions = await env.DB.prepare("SELECT action FROM business_history WHERE entity_id = ?1 ORDER BY id").bind(id).all();
    expect(actions.results.map((row) => row["action"])).toEqual(["CAMPAIGN_CREATED", "CAMPAIGN_PAUSED", "CAMPAIGN_RESUMED", "CAMPAIGN_ENDED"]);
    expect((await v3(await browserAs(U.analyst), "POST", `${campaigns()}${id}/pause/`)).status).toBe(403);
  });

  it("edits the name, budget and end date, refusing a budget under the minimum or a past end date", async () => {
    const owner = await browserAs(U.owner);
    const id = await fresh("Editable");
    const edited = await v3<Row>(owner, "PATCH", `${campaigns()}${id}/`, { name: "Edited", dailyBudget: 20, endDate: null });
    expect([edited.status, edited.data.name, edited.data.daily_budget, edited.data.end_time]).toEqual([200, "Edited", 20, null]);
    const low = await v3(owner, "PATCH", `${campaigns()}${id}/`, { dailyBudget: 5 });
    expect([low.status, low.error!.message_detail]).toEqual([400, "dailyBudget: The daily budget must be at least 7"]);
    const past = await v3(owner, "PATCH", `${campaigns()}${id}/`, { endDate: "2020-01-01" });
    expect([past.status, past.error!.message_detail]).toEqual([400, "endDate: The end date must be in the future"]);
    expect((await v3(owner, "PATCH", `${campaigns()}${id}/`, { endDate: "2026-02-30" })).status).toBe(400);
    expect((await v3<Row>(owner, "GET", `${campaigns()}${id}/`)).data.name).toBe("Edited");
  });

  it("reads a campaign past its end date as ENDED and lets nothing restart it", async () => {
    const owner = await browserAs(U.owner);
    const id = await fresh("Expired");
    await env.DB.prepare("UPDATE campaigns SET end_at = 1000 WHERE id = ?1").bind(id).run();
    const read = await v3<Row>(owner, "GET", `${campaigns()}${id}/`);
    expect([read.data.status, read.data.actions]).toEqual(["ENDED", []]);
    expect((await v3(owner, "POST", `${campaigns()}${id}/pause/`)).status).toBe(409);
    const ended = await v3<{ items: Row[] }>(owner, "GET", `${campaigns()}?filters=${encodeURIComponent('{"status":["ENDED"]}')}&limit=100`);
    expect(ended.data.items.map((item) => item.id)).toContain(id);
  });

  it("lists campaigns, ad groups and ads with the spec's table state", async () => {
    const analyst = await browserAs(U.analyst);
    const page = await v3<{ items: Row[]; page: number; limit: number; sort_direction: string; start_index: number; total_count: number }>(analyst, "GET", campaigns());
    expect([page.status, page.data.page, page.data.limit, page.data.sort_direction, page.data.start_index]).toEqual([200, 1, 10, "ASCENDING", 1]);
    expect(page.data.total_count).toBe(await scalar("SELECT COUNT(*) FROM campaigns WHERE ad_account_id = ?1", usAccount));
    expect(page.data.items.every((item) => item.actions.length === 0 && !item.editable)).toBe(true);
    const searched = await v3<{ items: Row[] }>(analyst, "GET", `${campaigns()}?search_by=name&search_term=Spring`);
    expect(searched.data.items.map((item) => item.name)).toEqual(["Spring lamps"]);
    const groups = await v3<{ items: Array<{ campaign: { name: string } }> }>(analyst, "GET", `/v3/ad_accounts/${usAccount}/ad_groups/?search_term=Spring`);
    expect(groups.data.items.map((item) => item.campaign.name)).toEqual(["Spring lamps"]);
    const ads = await v3<{ items: Array<{ pin_id: string; ad_type: string }> }>(analyst, "GET", `/v3/ad_accounts/${usAccount}/ads/?search_term=Spring`);
    expect(ads.data.items.map((item) => [item.pin_id, item.ad_type])).toEqual([[String(PIN.image), "STANDARD"]]);
    expect((await v3(analyst, "GET", `${campaigns()}?sort_by=password`)).status).toBe(400);
  });
});

describe("deleting an ad account", () => {
  it("refuses an account with campaigns with a 409 and changes nothing", async () => {
    const businessId = await scalar<number>("SELECT business_id FROM ad_accounts WHERE id = ?1", usAccount);
    const before = await counts();
    const refused = await v3(await browserAs(U.owner), "DELETE", `/v3/businesses/${businessId}/ad_accounts/${usAccount}/`);
    expect([refused.status, refused.error!.message]).toEqual([409, "This ad account has campaigns or product groups, so it can't be deleted. End its campaigns instead."]);
    expect(await counts()).toEqual(before);
    expect(await scalar("SELECT COUNT(*) FROM billing_profiles WHERE ad_account_id = ?1", usAccount)).toBe(1);
  });

  it("deletes an account that only has a billing profile, its profile with it", async () => {
    const owner = await browserAs(U.owner);
    const businessId = await scalar<number>("SELECT business_id FROM ad_accounts WHERE id = ?1", usAccount);
    const spare = await v3<{ id: string }>(owner, "POST", `/v3/businesses/${businessId}/ad_accounts/`, { name: "Spare US", country: "US" });
    await v3(owner, "PUT", `${promote(spare.data.id)}billing_profile/`, { name: "Spare", email: "spare@promote.test" });
    const removed = await v3(owner, "DELETE", `/v3/businesses/${businessId}/ad_accounts/${spare.data.id}/`);
    expect(removed.status).toBe(200);
    expect(await scalar("SELECT COUNT(*) FROM billing_profiles WHERE ad_account_id = ?1", spare.data.id)).toBe(0);
  });
});
