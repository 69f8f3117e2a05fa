// The business area's calls: onboarding makes the business, its first ad account and the linked
// profile in one batch; every role meets every asset action as the role table says (written out
// here by hand); bad input is a 400 that changes nothing; every change lands in history with
// its author; lists keep the spec's table state; shortcuts answer Auth_Error and Upsert_Error.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { assignExperiments } from "~/experiments/experiments.ts";
import { Browser } from "./accounts-helpers.ts";
import { browserAs, scalar } from "./social-fixture.ts";

// People: the owner onboards; employees are seated by role; a personal account and another
// business's owner are strangers.
const U = { owner: 26_001, admin: 26_002, manager: 26_003, finance: 26_004, analyst: 26_005, personal: 26_006, rival: 26_007, minor: 26_008, unknownAge: 26_009, converter: 26_010 } as const;

type Answer<T = Record<string, unknown>> = { status: number; data: T; error: { message: string; message_detail: string | null; extra_data: Record<string, unknown> | null } | undefined };

async function v3<T = Record<string, unknown>>(browser: Browser, method: string, path: string, body?: unknown): Promise<Answer<T>> {
  const response = method === "GET" ? await browser.fetch(path) : await browser.json(path, body ?? {}, method);
  const json = await response.json<{ data: T; error?: Answer<T>["error"] }>();
  return { status: response.status, data: json.data, error: json.error };
}

const onboarding = (overrides: Record<string, unknown> = {}) => ({
  businessGoals: ["INCREASE_SALES", "DRIVE_TRAFFIC"],
  businessName: "Bake & Bloom",
  businessVertical: "FOOD_AND_DRINK",
  numberEmployees: "2_10",
  hasWebsite: true,
  website: "https://bakeandbloom.example",
  country: "FR",
  locale: "fr",
  advertisingIntent: "NOW",
  worksWithAgency: true,
  agencyRole: "MEDIA_BUYER",
  agencyClients: "6_20",
  agencyContent: "PAID",
  agencyService: "OTHER",
  agencyServiceOther: "Pinterest audits",
  firstName: "Camille",
  lastName: "Durand",
  email: "camille@bakeandbloom.example",
  countryCode: "+33",
  phoneNumber: "612 345 678",
  whatsAppConsent: true,
  ageConfirmed: true,
  ...overrides,
});

const counts = async () => ({
  businesses: await scalar("SELECT COUNT(*) FROM businesses"),
  members: await scalar("SELECT COUNT(*) FROM business_members"),
  adAccounts: await scalar("SELECT COUNT(*) FROM ad_accounts"),
  groups: await scalar("SELECT COUNT(*) FROM asset_groups"),
  children: await scalar("SELECT COUNT(*) FROM asset_group_assets"),
  history: await scalar("SELECT COUNT(*) FROM business_history"),
  plans: await scalar("SELECT COUNT(*) FROM businesses WHERE marketing_plan IS NOT NULL"),
});

let businessId = "";
let rivalBusinessId = "";

beforeAll(async () => {
  const db = env.DB;
  await db.batch(
    Object.entries(U).map(([name, id]) =>
      db
        .prepare("INSERT INTO users (id, username, email, full_name, first_name, email_verified, created_at, age_in_years, is_under_18) VALUES (?1, ?2, ?3, ?2, ?2, 1, 0, ?4, ?5)")
        .bind(id, `biz_${name}`, `${name}@business.test`, name === "unknownAge" || name === "owner" ? null : name === "minor" ? 16 : 30, name === "minor" ? 1 : 0),
    ),
  );
  const made = await v3<{ business: { id: string } }>(await browserAs(U.owner), "POST", "/v3/businesses/", onboarding());
  expect(made.status).toBe(200);
  businessId = made.data.business.id;
  const rival = await v3<{ business: { id: string } }>(await browserAs(U.rival), "POST", "/v3/businesses/", onboarding({ businessName: "Rival Co", country: "US", locale: "en_US", worksWithAgency: false }));
  rivalBusinessId = rival.data.business.id;
  await db.batch(
    (
      [
        [U.admin, "ADMIN"],
        [U.manager, "CAMPAIGN_MANAGER"],
        [U.finance, "FINANCE"],
        [U.analyst, "ANALYST"],
      ] as const
    ).map(([id, role]) => db.prepare("INSERT INTO business_members (business_id, user_id, role, created_at) VALUES (?1, ?2, ?3, 0)").bind(businessId, id, role)),
  );
});

describe("onboarding (POST /v3/businesses/)", () => {
  it("makes the business, its ADMIN owner, a first ad account in the country's currency and the linked business profile, with history", async () => {
    const business = await scalar<string>("SELECT json_object('name', name, 'country', country, 'owner', owner_id, 'profile', profile_id) FROM businesses WHERE id = ?1", businessId);
    expect(JSON.parse(business!)).toEqual({ name: "Bake & Bloom", country: "FR", owner: U.owner, profile: U.owner });
    expect(await scalar<string>("SELECT role FROM business_members WHERE business_id = ?1 AND user_id = ?2", businessId, U.owner)).toBe("ADMIN");
    expect(await scalar<string>("SELECT currency FROM ad_accounts WHERE business_id = ?1", businessId)).toBe("EUR");
    const profile = await scalar<string>("SELECT json_object('type', account_type, 'partner', is_partner, 'name', business_name) FROM users WHERE id = ?1", U.owner);
    expect(JSON.parse(profile!)).toEqual({ type: "business", partner: 1, name: "Bake & Bloom" });
    const actions = await env.DB.prepare("SELECT action, actor_id FROM business_history WHERE business_id = ?1 ORDER BY id").bind(businessId).all();
    expect(actions.results).toEqual([
      { action: "BUSINESS_CREATED", actor_id: U.owner },
      { action: "AD_ACCOUNT_CREATED", actor_id: U.owner },
      { action: "PROFILE_LINKED", actor_id: U.owner },
    ]);
    const kept = JSON.parse((await scalar<string>("SELECT onboarding FROM businesses WHERE id = ?1", businessId))!) as Record<string, unknown>;
    expect([kept["fullName"], kept["agencyServiceOther"], kept["whatsAppConsent"], kept["countryCode"]]).toEqual(["Camille Durand", "Pinterest audits", true, "+33"]);
  });

  it("converts a personal account, whose known adult age needs no confirmation, and bills a US business in USD", async () => {
    const made = await v3<{ business: { id: string; role: string }; ad_account: { currency: string; country_id: number } }>(
      await browserAs(U.converter),
      "POST",
      "/v3/businesses/",
      onboarding({ businessName: "Converted", country: "US", locale: "en_US", worksWithAgency: false, ageConfirmed: false }),
    );
    expect(made.status).toBe(200);
    expect([made.data.business.role, made.data.ad_account.currency, made.data.ad_account.country_id]).toEqual(["ADMIN", "USD", 1]);
    expect(await scalar<string>("SELECT account_type FROM users WHERE id = ?1", U.converter)).toBe("business");
  });

  it("refuses bad answers with a 400 naming each field, and changes nothing", async () => {
    const before = await counts();
    const bad = await v3(await browserAs(U.personal), "POST", "/v3/businesses/", onboarding({ country: "ZZ", website: "ftp://x", agencyRole: undefined, businessGoals: [] }));
    expect(bad.status).toBe(400);
    for (const field of ["country", "website", "agencyRole", "businessGoals"]) expect(bad.error!.message_detail).toContain(`${field}:`);
    expect(await counts()).toEqual(before);
    expect(await scalar<string>("SELECT account_type FROM users WHERE id = ?1", U.personal)).toBe("personal");
  });

  it("needs the underage confirmation when the age is unknown, and refuses a minor outright", async () => {
    const before = await counts();
    const unconfirmed = await v3(await browserAs(U.unknownAge), "POST", "/v3/businesses/", onboarding({ ageConfirmed: false }));
    expect([unconfirmed.status, unconfirmed.error!.message_detail]).toEqual([400, "ageConfirmed: must be confirmed: you are 18 or older"]);
    const minor = await v3(await browserAs(U.minor), "POST", "/v3/businesses/", onboarding());
    expect([minor.status, minor.error!.message]).toEqual([403, "You must be 18 or older to create a business account"]);
    expect(await counts()).toEqual(before);
  });

  it("makes one business per profile: a second onboarding is a 409 that changes nothing", async () => {
    const before = await counts();
    const again = await v3(await browserAs(U.owner), "POST", "/v3/businesses/", onboarding({ businessName: "Second" }));
    expect(again.status).toBe(409);
    expect(await counts()).toEqual(before);
  });

  it("needs a login", async () => {
    expect((await v3(new Browser(), "POST", "/v3/businesses/", onboarding())).status).toBe(401);
  });
});

describe("the marketing plan (PUT /v3/businesses/{id}/marketing_plan/)", () => {
  const answers = { topBusinessGoal: "INCREASE_SALES", dailyAdsBudget: 80, weeklyAddToCarts: 40, weeklyLeads: 0, weeklyCheckouts: 12, hasFeed: true };

  it("stores the answers and the suggestion computed from them, with history", async () => {
    const saved = await v3<{ marketing_plan: { answers: Record<string, unknown>; suggestion: Record<string, unknown> } }>(await browserAs(U.owner), "PUT", `/v3/businesses/${businessId}/marketing_plan/`, answers);
    expect(saved.status).toBe(200);
    // FR: minimum 7 a day; 80 ≥ 70 → WIDE and worth a call; a feed and checkouts → catalogue sales.
    expect(saved.data.marketing_plan.suggestion).toEqual({ goal: "CATALOG_SALES", audienceSize: "WIDE", dailyBudget: 80, calendlyUpsellEligible: true });
    expect(saved.data.marketing_plan.answers["marketingPlanName"]).toBe("Bake & Bloom");
    expect(await scalar<string>("SELECT action FROM business_history WHERE business_id = ?1 ORDER BY id DESC LIMIT 1", businessId)).toBe("MARKETING_PLAN_UPDATED");
  });

  it("refuses a budget over 1,000,000 with a 400 and keeps the plan", async () => {
    const before = await scalar<string>("SELECT marketing_plan FROM businesses WHERE id = ?1", businessId);
    const history = await counts();
    const bad = await v3(await browserAs(U.owner), "PUT", `/v3/businesses/${businessId}/marketing_plan/`, { ...answers, dailyAdsBudget: 1_000_001 });
    expect([bad.status, bad.error!.message_detail]).toEqual([400, "dailyAdsBudget: must be at most 1000000"]);
    expect(await scalar<string>("SELECT marketing_plan FROM businesses WHERE id = ?1", businessId)).toBe(before);
    expect(await counts()).toEqual(history);
  });
});

// ---- Every role against every action ----

const COLUMNS = ["admin", "manager", "finance", "analyst", "personal", "rival", "signedOut"] as const;
type Column = (typeof COLUMNS)[number];

/** Fresh targets for each call, so a delete by one role leaves the next its own. */
async function freshAssets(): Promise<{ adAccount: string; group: string }> {
  const adAccount = 9_000_000 + Math.floor(Math.random() * 1_000_000);
  const group = adAccount + 1;
  await env.DB.batch([
    env.DB.prepare("INSERT INTO ad_accounts (id, business_id, name, country, currency, created_by, created_at, updated_at) VALUES (?1, ?2, 'Spare', 'FR', 'EUR', ?3, 1, 1)").bind(adAccount, businessId, U.owner),
    env.DB.prepare("INSERT INTO asset_groups (id, business_id, name, created_by, created_at, updated_at) VALUES (?1, ?2, 'Spare group', ?3, 1, 1)").bind(group, businessId, U.owner),
  ]);
  return { adAccount: String(adAccount), group: String(group) };
}

/** Takes the spare targets away again (and anything a create made), so the business stays under its limits. */
async function dropAssets(ids: { adAccount: string; group: string }): Promise<void> {
  await env.DB.batch([
    env.DB.prepare("DELETE FROM product_groups WHERE ad_account_id = ?1").bind(ids.adAccount),
    env.DB.prepare("DELETE FROM asset_group_assets WHERE group_id IN (SELECT id FROM asset_groups WHERE business_id = ?1 AND name IN ('Spare group', 'Group')) OR asset_id = ?2").bind(businessId, ids.adAccount),
    env.DB.prepare("DELETE FROM asset_groups WHERE business_id = ?1 AND name IN ('Spare group', 'Group')").bind(businessId),
    env.DB.prepare("DELETE FROM ad_accounts WHERE business_id = ?1 AND name IN ('Spare', 'New', 'Renamed')").bind(businessId),
  ]);
}

type Call = (ids: { adAccount: string; group: string }) => [method: string, path: string, body?: unknown];
const base = () => `/v3/businesses/${businessId}`;
const plan = { topBusinessGoal: "DRIVE_TRAFFIC", dailyAdsBudget: 10, weeklyAddToCarts: 0, weeklyLeads: 0, weeklyCheckouts: 0, hasFeed: false };
const billingBusiness = { legal_name: "Bake & Bloom SAS", line1: "1 rue de la Paix", city: "Paris", postal_code: "75002", country: "FR" };
const billingForm = { contact_name: "Camille Durand", email: "billing@bakeandbloom.example", autofill: false, line1: "1 rue de la Paix", city: "Paris", postal_code: "75002", country: "FR" };

// Written out by hand from the role table in docs/decisions.md. Columns as COLUMNS.
const MATRIX: Array<[name: string, call: Call, statuses: [number, number, number, number, number, number, number]]> = [
  ["read the business", () => ["GET", `${base()}/`], [200, 200, 200, 200, 404, 404, 401]],
  ["read the dashboard", () => ["GET", `${base()}/dashboard/`], [200, 200, 200, 200, 404, 404, 401]],
  ["update the marketing plan", () => ["PUT", `${base()}/marketing_plan/`, plan], [200, 200, 403, 403, 404, 404, 401]],
  ["list ad accounts", () => ["GET", `${base()}/ad_accounts/`], [200, 200, 200, 200, 404, 404, 401]],
  ["read an ad account", (ids) => ["GET", `${base()}/ad_accounts/${ids.adAccount}/`], [200, 200, 200, 200, 404, 404, 401]],
  ["create an ad account", () => ["POST", `${base()}/ad_accounts/`, { name: "New", country: "GB" }], [200, 403, 200, 403, 404, 404, 401]],
  ["rename an ad account", (ids) => ["PATCH", `${base()}/ad_accounts/${ids.adAccount}/`, { name: "Renamed" }], [200, 200, 200, 403, 404, 404, 401]],
  ["delete an ad account", (ids) => ["DELETE", `${base()}/ad_accounts/${ids.adAccount}/`], [200, 403, 200, 403, 404, 404, 401]],
  ["list asset groups", () => ["GET", `${base()}/asset_groups/`], [200, 200, 200, 200, 404, 404, 401]],
  ["read an asset group", (ids) => ["GET", `${base()}/asset_groups/${ids.group}/`], [200, 200, 200, 200, 404, 404, 401]],
  ["create an asset group", () => ["POST", `${base()}/asset_groups/`, { name: "Group", asset_group_types: ["BRAND"] }], [200, 200, 403, 403, 404, 404, 401]],
  ["update an asset group", (ids) => ["PATCH", `${base()}/asset_groups/${ids.group}/`, { description: "Changed" }], [200, 200, 403, 403, 404, 404, 401]],
  ["delete an asset group", (ids) => ["DELETE", `${base()}/asset_groups/${ids.group}/`], [200, 200, 403, 403, 404, 404, 401]],
  ["read the history", () => ["GET", `${base()}/history/`], [200, 200, 200, 200, 404, 404, 401]],
  ["list profiles", () => ["GET", `${base()}/profiles/`], [200, 200, 200, 200, 404, 404, 401]],
  ["link a profile", () => ["POST", `${base()}/profiles/`, { username: "biz_converter" }], [200, 403, 403, 403, 404, 404, 401]],
  ["list audiences", () => ["GET", `${base()}/audiences/`], [200, 200, 200, 200, 404, 404, 401]],
  ["list received audiences", () => ["GET", `${base()}/audiences/received/`], [200, 200, 200, 200, 404, 404, 401]],
  ["create an audience", (ids) => ["POST", `${base()}/audiences/`, { type: "ENGAGEMENT", ad_account_id: ids.adAccount, name: "Savers", lookback_days: 30, engagements: ["SAVE"] }], [200, 200, 403, 403, 404, 404, 401]],
  ["list conversion tags", () => ["GET", `${base()}/conversion_tags/`], [200, 200, 200, 200, 404, 404, 401]],
  ["create a conversion tag", (ids) => ["POST", `${base()}/conversion_tags/`, { name: "Checkout", ad_account_id: ids.adAccount }], [200, 200, 403, 403, 404, 404, 401]],
  ["read the hierarchy", () => ["GET", `${base()}/hierarchy/`], [200, 200, 200, 200, 404, 404, 401]],
  ["invite an organization manager", () => ["POST", `${base()}/hierarchy/invites/`, { type: "ORGANIZATION_MANAGER", username: "biz_personal" }], [200, 403, 403, 403, 404, 404, 401]],
  ["read recommendations", (ids) => ["GET", `/ads/v4/notification_messages/RECOMMENDATIONS/?recipient_id=${ids.adAccount}&recipient_type=ADVERTISER`], [200, 200, 200, 200, 404, 404, 401]],
  ["dismiss a recommendation", (ids) => ["PUT", `/ads/v4/notification_messages/RECOMMENDATIONS/ADD_BILLING/?recipient_id=${ids.adAccount}&recipient_type=ADVERTISER`, { state: "DISMISSED" }], [200, 200, 200, 403, 404, 404, 401]],
  ["list an ad account's bulk uploads", (ids) => ["GET", `${base()}/ad_accounts/${ids.adAccount}/bulk/uploads/`], [200, 200, 200, 200, 404, 404, 401]],
  ["read the bulk error codes", (ids) => ["GET", `${base()}/ad_accounts/${ids.adAccount}/bulk/error_codes/`], [200, 200, 200, 200, 404, 404, 401]],
  ["upload a bulk file", (ids) => ["POST", `${base()}/ad_accounts/${ids.adAccount}/bulk/uploads/`, { file_name: "spare.csv", content: "type,name\nPRODUCT_GROUP,Spare products\n" }], [200, 200, 403, 403, 404, 404, 401]],
  ["list an ad account's campaigns", (ids) => ["GET", `/v3/ad_accounts/${ids.adAccount}/campaigns/`], [200, 200, 200, 200, 404, 404, 401]],
  // Allowed roles reach the account's readiness: a new French account has not answered the GDPR question (409).
  ["promote a pin", (ids) => ["POST", `/v3/ad_accounts/${ids.adAccount}/quick_promote/`, { pinId: "1", dailyBudget: 10, duration: 10, destinationUrl: "https://shop.example/", adType: "STANDARD", name: "Promo" }], [409, 409, 403, 403, 404, 404, 401]],
  ["list the employees", () => ["GET", `${base()}/employees/?filters=${encodeURIComponent('{"business_roles":["ANALYST"]}')}`], [200, 200, 200, 200, 404, 404, 401]],
  ["read an employee", () => ["GET", `${base()}/employees/${U.analyst}/`], [200, 200, 200, 200, 404, 404, 401]],
  ["change an employee's role", () => ["PATCH", `${base()}/employees/${U.analyst}/`, { role: "ANALYST" }], [200, 403, 403, 403, 404, 404, 401]],
  ["give an employee a role on an ad account", (ids) => ["PUT", `${base()}/employees/${U.analyst}/assets/`, { asset_type: "AD_ACCOUNT", asset_ids: [ids.adAccount], role: "ANALYST" }], [200, 403, 403, 403, 404, 404, 401]],
  ["list the employee invites", () => ["GET", `${base()}/employee_invites/`], [200, 200, 200, 200, 404, 404, 401]],
  ["invite an employee", () => ["POST", `${base()}/employee_invites/`, { invitee: "converter@business.test", role: "ANALYST" }], [200, 403, 403, 403, 404, 404, 401]],
  ["list the partners", () => ["GET", `${base()}/partners/`], [200, 200, 200, 200, 404, 404, 401]],
  ["list the partner invites and requests", () => ["GET", `${base()}/partner_invites/`], [200, 200, 200, 200, 404, 404, 401]],
  ["invite a partner", () => ["POST", `${base()}/partner_invites/`, { business_id: rivalBusinessId, kind: "INVITE" }], [200, 403, 403, 403, 404, 404, 401]],
  ["list the AOAA requests", () => ["GET", `${base()}/aoaa_requests/`], [200, 200, 200, 200, 404, 404, 401]],
  ["offer an ad account to another business", (ids) => ["POST", `${base()}/aoaa_requests/`, { ad_account_id: ids.adAccount, business_id: rivalBusinessId, permissions: ["ANALYST"] }], [200, 403, 403, 403, 404, 404, 401]],
  ["clear the answered AOAA requests", () => ["DELETE", `${base()}/aoaa_requests/`], [200, 403, 403, 403, 404, 404, 401]],
  ["read an ad account's results", (ids) => ["GET", `/v3/ad_accounts/${ids.adAccount}/results/`], [200, 200, 200, 200, 404, 404, 401]],
  ["read billing", () => ["GET", `${base()}/billing/`], [200, 403, 200, 403, 404, 404, 401]],
  ["save the business information", () => ["PUT", `${base()}/billing/business_information/`, billingBusiness], [200, 403, 200, 403, 404, 404, 401]],
  ["save an ad account's billing information", (ids) => ["PUT", `${base()}/ad_accounts/${ids.adAccount}/billing_profile/`, billingForm], [200, 403, 200, 403, 404, 404, 401]],
  ["list an ad account's invoices", (ids) => ["GET", `${base()}/ad_accounts/${ids.adAccount}/invoices/`], [200, 403, 200, 403, 404, 404, 401]],
  ["apply a promotion code", (ids) => ["POST", `${base()}/ad_accounts/${ids.adAccount}/promotions/`, { code: "WELCOME-EUR" }], [200, 403, 200, 403, 404, 404, 401]],
  ["read the billing history", () => ["GET", `${base()}/billing/history/`], [200, 403, 200, 403, 404, 404, 401]],
  ["read the prepaid campaign spend", (ids) => ["GET", `${base()}/ad_accounts/${ids.adAccount}/prepaid_spend/`], [200, 200, 200, 200, 404, 404, 401]],
];

async function browserFor(column: Column): Promise<Browser> {
  return column === "signedOut" ? new Browser() : browserAs(U[column]);
}

describe("permissions: every role against every business action", () => {
  for (const [name, call, statuses] of MATRIX) {
    it(`${name}: ${COLUMNS.map((column, index) => `${column} ${statuses[index]}`).join(", ")}`, async () => {
      const got: number[] = [];
      for (const column of COLUMNS) {
        const ids = await freshAssets();
        const [method, path, body] = call(ids);
        const before = await counts();
        const answer = await v3(await browserFor(column), method, path, body);
        got.push(answer.status);
        // A refusal changes nothing at all.
        if (answer.status !== 200) expect(await counts()).toEqual(before);
        await dropAssets(ids);
      }
      expect(got).toEqual(statuses);
    });
  }

  it("answers a stranger the same 404 for a business that exists and one that does not", async () => {
    const real = await v3(await browserAs(U.personal), "GET", `${base()}/ad_accounts/`);
    const missing = await v3(await browserAs(U.personal), "GET", "/v3/businesses/123456789/ad_accounts/");
    expect([real.status, real.error!.message]).toEqual([404, "Business not found"]);
    expect([missing.status, missing.error!.message]).toEqual([404, "Business not found"]);
  });

  it("keeps each business's assets its own: another business's ad account is not found in this one", async () => {
    const rivalAccount = await scalar<number>("SELECT id FROM ad_accounts WHERE business_id = ?1", rivalBusinessId);
    expect((await v3(await browserAs(U.owner), "GET", `${base()}/ad_accounts/${rivalAccount}/`)).status).toBe(404);
    expect((await v3(await browserAs(U.owner), "DELETE", `${base()}/ad_accounts/${rivalAccount}/`)).status).toBe(404);
    expect(await scalar("SELECT COUNT(*) FROM ad_accounts WHERE id = ?1", rivalAccount)).toBe(1);
  });
});

describe("ad accounts and asset groups", () => {
  it("lists with the spec's table state, searches, filters, sorts and pages", async () => {
    const owner = await browserAs(U.rival);
    const rival = `/v3/businesses/${rivalBusinessId}`;
    for (const [name, country] of [["Zeta DE", "DE"], ["Alpha GB", "GB"], ["Beta SE", "SE"]]) {
      expect((await v3(owner, "POST", `${rival}/ad_accounts/`, { name, country })).status).toBe(200);
    }
    const first = await v3<{ items: Array<{ name: string; currency: string }>; page: number; limit: number; sort_direction: string; start_index: number; total_count: number; search_term: null }>(owner, "GET", `${rival}/ad_accounts/`);
    expect([first.data.page, first.data.limit, first.data.sort_direction, first.data.start_index, first.data.total_count, first.data.search_term]).toEqual([1, 10, "ASCENDING", 1, 4, null]);
    expect(first.data.items.map((item) => [item.name, item.currency])).toEqual([["Alpha GB", "GBP"], ["Beta SE", "SEK"], ["Rival Co", "USD"], ["Zeta DE", "EUR"]]);
    const paged = await v3<{ items: Array<{ name: string }>; start_index: number }>(owner, "GET", `${rival}/ad_accounts/?page=2&limit=3&sort_direction=DESCENDING`);
    expect([paged.data.items.map((item) => item.name), paged.data.start_index]).toEqual([["Alpha GB"], 4]);
    const searched = await v3<{ items: Array<{ name: string }> }>(owner, "GET", `${rival}/ad_accounts/?search_by=name&search_term=${encodeURIComponent("a g")}`);
    expect(searched.data.items.map((item) => item.name)).toEqual(["Alpha GB"]);
    const filtered = await v3<{ items: Array<{ name: string }> }>(owner, "GET", `${rival}/ad_accounts/?filters=${encodeURIComponent('{"currency":["EUR","SEK"]}')}`);
    expect(filtered.data.items.map((item) => item.name)).toEqual(["Beta SE", "Zeta DE"]);
    const literal = await v3<{ items: unknown[] }>(owner, "GET", `${rival}/ad_accounts/?search_term=${encodeURIComponent("%")}`);
    expect(literal.data.items).toEqual([]);
    const bad = await v3(owner, "GET", `${rival}/ad_accounts/?limit=500&sort_by=password`);
    expect(bad.status).toBe(400);
    expect(bad.error!.message_detail).toContain("limit:");
    expect(bad.error!.message_detail).toContain("sort_by:");
  });

  it("creates a group of this business's assets, refuses another's, and an ad account's deletion leaves every group", async () => {
    const owner = await browserAs(U.rival);
    const rival = `/v3/businesses/${rivalBusinessId}`;
    const account = await v3<{ id: string }>(owner, "POST", `${rival}/ad_accounts/`, { name: "Grouped", country: "US" });
    const foreign = await scalar<number>("SELECT id FROM ad_accounts WHERE business_id = ?1 LIMIT 1", businessId);
    const before = await counts();
    const refused = await v3(owner, "POST", `${rival}/asset_groups/`, { name: "Mixed", asset_group_types: ["BRAND"], child_ad_account_ids: [account.data.id, String(foreign)] });
    expect([refused.status, refused.error!.message_detail]).toEqual([400, "child_ad_account_ids.1: is not an asset of this business"]);
    expect(await counts()).toEqual(before);

    const group = await v3<{ id: string; entity_type: string; child_ad_account_ids: string[]; child_profile_ids: string[]; owner: { id: string }; created_by: { username: string }; permissions: string[] }>(owner, "POST", `${rival}/asset_groups/`, {
      name: "Brand",
      description: "Everything for the brand",
      asset_group_types: ["BRAND", "REGION"],
      child_ad_account_ids: [account.data.id],
      child_profile_ids: [String(U.rival)],
    });
    expect(group.status).toBe(200);
    expect([group.data.entity_type, group.data.child_ad_account_ids, group.data.child_profile_ids, group.data.owner.id, group.data.created_by.username]).toEqual(["ASSET_GROUP", [account.data.id], [String(U.rival)], String(U.rival), "biz_rival"]);
    expect(group.data.permissions).toEqual(["asset_group.read", "asset_group.create", "asset_group.update", "asset_group.delete"]);

    expect((await v3(owner, "DELETE", `${rival}/ad_accounts/${account.data.id}/`)).status).toBe(200);
    const after = await v3<{ child_ad_account_ids: string[] }>(owner, "GET", `${rival}/asset_groups/${group.data.id}/`);
    expect(after.data.child_ad_account_ids).toEqual([]);

    const typed = await v3<{ items: Array<{ name: string }> }>(owner, "GET", `${rival}/asset_groups/?filters=${encodeURIComponent('{"asset_group_types":["REGION"]}')}`);
    expect(typed.data.items.map((item) => item.name)).toEqual(["Brand"]);
    expect((await v3(owner, "PATCH", `${rival}/asset_groups/${group.data.id}/`, {})).status).toBe(400);
  });
});

describe("history (GET /v3/businesses/{id}/history/)", () => {
  it("records every change by whom, in the same batch as the change, and shows it for the chosen dates", async () => {
    const admin = await browserAs(U.admin);
    const account = await v3<{ id: string }>(admin, "POST", `${base()}/ad_accounts/`, { name: "Spring", country: "DE" });
    await v3(admin, "PATCH", `${base()}/ad_accounts/${account.data.id}/`, { name: "Spring sale" });
    const group = await v3<{ id: string }>(admin, "POST", `${base()}/asset_groups/`, { name: "Seasonal", asset_group_types: ["PRODUCT_LINE"], child_ad_account_ids: [account.data.id] });
    await v3(admin, "PATCH", `${base()}/asset_groups/${group.data.id}/`, { name: "Seasonal 2026" });
    await v3(admin, "DELETE", `${base()}/asset_groups/${group.data.id}/`);
    await v3(admin, "DELETE", `${base()}/ad_accounts/${account.data.id}/`);
    const today = new Date().toISOString().slice(0, 10);
    const history = await v3<{ items: Array<{ action: string; entity_id: string; actor: { username: string }; detail: Record<string, unknown> }>; date_range: Record<string, string> }>(
      admin,
      "GET",
      `${base()}/history/?start_date=${today}&end_date=${today}&limit=6`,
    );
    expect(history.data.date_range).toEqual({ start_date: today, end_date: today });
    expect(history.data.items.map((item) => [item.action, item.entity_id, item.actor.username])).toEqual([
      ["AD_ACCOUNT_DELETED", account.data.id, "biz_admin"],
      ["ASSET_GROUP_DELETED", group.data.id, "biz_admin"],
      ["ASSET_GROUP_UPDATED", group.data.id, "biz_admin"],
      ["ASSET_GROUP_CREATED", group.data.id, "biz_admin"],
      ["AD_ACCOUNT_UPDATED", account.data.id, "biz_admin"],
      ["AD_ACCOUNT_CREATED", account.data.id, "biz_admin"],
    ]);
    expect(history.data.items[4]!.detail).toEqual({ name: { from: "Spring", to: "Spring sale" } });
  });

  it("defaults to 7 days ago through yesterday, so today's changes wait for a range that includes today", async () => {
    const now = Date.now();
    const day = (offset: number) => new Date(now - offset * 86_400_000).toISOString().slice(0, 10);
    await env.DB.prepare("INSERT INTO business_history (business_id, actor_id, action, entity_type, entity_id, created_at) VALUES (?1, ?2, 'AD_ACCOUNT_UPDATED', 'AD_ACCOUNT', 'old', ?3)").bind(businessId, U.owner, now - 3 * 86_400_000).run();
    const answer = await v3<{ items: Array<{ entity_id: string }>; date_range: Record<string, string> }>(await browserAs(U.analyst), "GET", `${base()}/history/`);
    expect(answer.data.date_range).toEqual({ start_date: day(7), end_date: day(1) });
    expect(answer.data.items.map((item) => item.entity_id)).toEqual(["old"]);
  });

  it("refuses a range that ends before it starts, or an impossible date", async () => {
    const analyst = await browserAs(U.analyst);
    const reversed = await v3(analyst, "GET", `${base()}/history/?start_date=2026-03-05&end_date=2026-03-01`);
    expect([reversed.status, reversed.error!.message_detail]).toEqual([400, "end_date: must not be before the start date"]);
    expect((await v3(analyst, "GET", `${base()}/history/?start_date=2026-02-30`)).status).toBe(400);
  });
});

describe("navbar shortcuts (business properties BIZ_USER / NAVBAR_CONFIG)", () => {
  const path = () => `${base()}/properties/BIZ_USER/NAVBAR_CONFIG/`;
  /** Account ids in a group: the first, or the `nth`, found from 26,100 up. */
  const inGroup = (group: "on" | "off", nth = 0) => {
    const ids: number[] = [];
    for (let id = 26_100; id < 26_300; id++) if ((assignExperiments(id) as Record<string, string>)["web_business_navigation"] === group) ids.push(id);
    if (ids[nth] === undefined) throw new Error(`no account in the ${group} group`);
    return ids[nth];
  };

  it("answers Auth_Error signed out and outside the navigation experiment", async () => {
    const signedOut = await v3(new Browser(), "PUT", path(), { customShortcuts: ["history"] });
    expect([signedOut.status, signedOut.error!.extra_data]).toEqual([401, { error: "Auth_Error" }]);
    const off = inGroup("off");
    await env.DB.batch([
      env.DB.prepare("INSERT INTO users (id, username, email, created_at) VALUES (?1, 'biz_nav_off', 'off@business.test', 0)").bind(off),
      env.DB.prepare("INSERT INTO business_members (business_id, user_id, role, created_at) VALUES (?1, ?2, 'ANALYST', 0)").bind(businessId, off),
    ]);
    const outside = await v3(await browserAs(off), "PUT", path(), { customShortcuts: ["history"] });
    expect([outside.status, outside.error!.extra_data]).toEqual([403, { error: "Auth_Error" }]);
  });

  it("saves a member's own shortcuts inside the experiment, and answers Upsert_Error to bad input and strangers", async () => {
    const on = inGroup("on");
    const stranger = inGroup("on", 1);
    await env.DB.batch([
      env.DB.prepare("INSERT INTO users (id, username, email, created_at) VALUES (?1, 'biz_nav_on', 'on@business.test', 0)").bind(on),
      env.DB.prepare("INSERT INTO business_members (business_id, user_id, role, created_at) VALUES (?1, ?2, 'ANALYST', 0)").bind(businessId, on),
    ]);
    const member = await browserAs(on);
    const saved = await v3(member, "PUT", path(), { customShortcuts: ["history", "ad_accounts"] });
    expect([saved.status, saved.data]).toEqual([200, { entity_type: "BIZ_USER", key: "NAVBAR_CONFIG", customShortcuts: ["history", "ad_accounts"] }]);
    expect((await v3<{ customShortcuts: string[] }>(member, "GET", path())).data.customShortcuts).toEqual(["history", "ad_accounts"]);
    const bad = await v3(member, "PUT", path(), { customShortcuts: ["history", "history"] });
    expect([bad.status, bad.error!.extra_data]).toEqual([400, { error: "Upsert_Error" }]);
    expect((await v3<{ customShortcuts: string[] }>(member, "GET", path())).data.customShortcuts).toEqual(["history", "ad_accounts"]);
    await env.DB.prepare("INSERT INTO users (id, username, email, created_at) VALUES (?1, 'biz_nav_stranger', 'stranger@business.test', 0)").bind(stranger).run();
    const refused = await v3(await browserAs(stranger), "PUT", path(), { customShortcuts: ["history"] });
    expect([refused.status, refused.error!.extra_data]).toEqual([404, { error: "Upsert_Error" }]);
  });
});

describe("the hub's pages", () => {
  it("send a signed-out visitor to log in, and come back", async () => {
    const response = await new Browser().fetch("/business/hub/?show_vmp=true");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/login/?next=/business/hub/%3Fshow_vmp%3Dtrue");
  });

  it("show a member the business's pages, never indexed, and a stranger the same 404 as a missing business", async () => {
    for (const page of ["", "ad-accounts/", "asset-groups/", "history/", "marketing-plan/"]) {
      const member = await (await browserAs(U.analyst)).fetch(`/business/hub/${businessId}/${page}`);
      expect([page, member.status]).toEqual([page, 200]);
      expect(await member.text()).toMatch(/<meta name="robots" content="noindex/);
      const stranger = await (await browserAs(U.personal)).fetch(`/business/hub/${businessId}/${page}`);
      expect([page, stranger.status]).toEqual([page, 404]);
    }
    expect((await (await browserAs(U.personal)).fetch("/business/hub/123456789/")).status).toBe(404);
  });

  it("prefix the navigation with /advertiser/{id} in the advertiser area", async () => {
    const account = await scalar<number>("SELECT id FROM ad_accounts WHERE business_id = ?1 ORDER BY created_at LIMIT 1", businessId);
    const html = await (await (await browserAs(U.finance)).fetch(`/advertiser/${account}/`)).text();
    expect(html).toContain(`href="/advertiser/${account}/business/hub/${businessId}/history/"`);
    expect((await (await browserAs(U.personal)).fetch(`/advertiser/${account}/`)).status).toBe(404);
  });
});
