// Advertising in one ad account and the handling of one conversion tag are decided by the role
// held on that account or tag: an employee's asset role there, where they hold one, else their
// business role; a partner's person through the partner's role on it (never a delete); anyone
// else learns nothing (404) from every call.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { Browser } from "./accounts-helpers.ts";
import { browserAs, scalar } from "./social-fixture.ts";

const U = { owner: 39_001, analyst: 39_002, manager: 39_003, agencyOwner: 39_004, agencyManager: 39_005, stranger: 39_006 } as const;
const PIN = 39_101;
const BOARD = 39_201;

type Answer<T = Record<string, unknown>> = { status: number; data: T };

async function v3<T = Record<string, unknown>>(browser: Browser, method: string, path: string, body?: unknown): Promise<Answer<T>> {
  const response = method === "GET" ? await browser.fetch(path) : await browser.json(path, body ?? {}, method);
  const json = await response.json<{ data: T }>();
  return { status: response.status, data: json.data };
}

const onboarding = (businessName: string, email: string) => ({
  businessGoals: ["INCREASE_SALES"],
  businessName,
  businessVertical: "HOME_AND_GARDEN",
  numberEmployees: "2_10",
  hasWebsite: false,
  country: "US",
  locale: "en_US",
  advertisingIntent: "NOW",
  worksWithAgency: false,
  firstName: "Sam",
  lastName: "Scope",
  email,
  whatsAppConsent: false,
  ageConfirmed: true,
});

const promote = (account: string) => `/v3/ad_accounts/${account}/quick_promote/`;
const form = (name: string) => ({ pinId: String(PIN), dailyBudget: 10, duration: 10, destinationUrl: "https://scopes.example/lamps", adType: "STANDARD", name });

let businessId = "";
let agencyId = "";
let accountA = "";
let accountB = "";
let campaignA = "";
let campaignB = "";
let tagHeld = "";
let tagOther = "";
const base = () => `/v3/businesses/${businessId}`;

beforeAll(async () => {
  const db = env.DB;
  await db.batch([
    ...Object.entries(U).map(([name, id]) =>
      db.prepare("INSERT INTO users (id, username, email, full_name, first_name, email_verified, created_at, age_in_years, is_under_18) VALUES (?1, ?2, ?3, ?2, ?2, 1, 0, 30, 0)").bind(id, `scope_${name}`, `${name}@scopes.test`),
    ),
    db.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (?1, ?2, 'Lamps', 'lamps', 'public', 0, 0)").bind(BOARD, U.owner),
    db.prepare("INSERT INTO pins (id, pinner_id, board_id, kind, title, image_signature, created_at, updated_at) VALUES (?1, ?2, ?3, 'image', 'Scoped brass lamp', 'sig-scope', 1, 1)").bind(PIN, U.owner, BOARD),
  ]);
  const owner = await browserAs(U.owner);
  const made = await v3<{ business: { id: string }; ad_account: { id: string } }>(owner, "POST", "/v3/businesses/", onboarding("Scoped Lamps", "sam@scopes.test"));
  expect(made.status).toBe(200);
  businessId = made.data.business.id;
  accountA = made.data.ad_account.id;
  accountB = (await v3<{ id: string }>(owner, "POST", `${base()}/ad_accounts/`, { name: "Scoped Lamps B", country: "US" })).data.id;
  // Both accounts may promote: the business's address and each account's billing profile.
  expect((await v3(owner, "PUT", `${promote(accountA)}business_address/`, { line1: "1 Scope St", city: "Springfield", postalCode: "12345", country: "US" })).status).toBe(200);
  for (const account of [accountA, accountB]) expect((await v3(owner, "PUT", `${promote(account)}billing_profile/`, { name: "Scoped Lamps", email: "billing@scopes.test" })).status).toBe(200);
  campaignA = (await v3<{ campaign_id: string }>(owner, "POST", promote(accountA), form("Lamps in A"))).data.campaign_id;
  campaignB = (await v3<{ campaign_id: string }>(owner, "POST", promote(accountB), form("Lamps in B"))).data.campaign_id;
  tagHeld = (await v3<{ id: string }>(owner, "POST", `${base()}/conversion_tags/`, { name: "Checkout tag", ad_account_id: accountA })).data.id;
  tagOther = (await v3<{ id: string }>(owner, "POST", `${base()}/conversion_tags/`, { name: "Sign-up tag", ad_account_id: accountA })).data.id;
  expect([campaignA, campaignB, tagHeld, tagOther].every((id) => /^\d+$/.test(id))).toBe(true);

  // The employees: an analyst who is campaign manager on account A; a campaign manager who is only an analyst on one tag.
  await db.batch(
    (
      [
        [U.analyst, "ANALYST"],
        [U.manager, "CAMPAIGN_MANAGER"],
      ] as const
    ).map(([id, role]) => db.prepare("INSERT INTO business_members (business_id, user_id, role, created_at) VALUES (?1, ?2, ?3, 0)").bind(businessId, id, role)),
  );
  expect((await v3(owner, "PUT", `${base()}/employees/${U.analyst}/assets/`, { asset_type: "AD_ACCOUNT", asset_ids: [accountA], role: "CAMPAIGN_MANAGER" })).status).toBe(200);
  expect((await v3(owner, "PUT", `${base()}/employees/${U.manager}/assets/`, { asset_type: "TAG", asset_ids: [tagHeld], role: "ANALYST" })).status).toBe(200);

  // The agency: a partner of the business, campaign manager on account A only; its own campaign manager works there.
  const agencyOwner = await browserAs(U.agencyOwner);
  agencyId = (await v3<{ business: { id: string } }>(agencyOwner, "POST", "/v3/businesses/", onboarding("Scope Agency", "agency@scopes.test"))).data.business.id;
  await db.prepare("INSERT INTO business_members (business_id, user_id, role, created_at) VALUES (?1, ?2, 'CAMPAIGN_MANAGER', 0)").bind(agencyId, U.agencyManager).run();
  const asked = await v3<{ id: string }>(agencyOwner, "POST", `/v3/businesses/${agencyId}/partner_invites/`, { business_id: businessId, kind: "REQUEST" });
  expect((await v3(owner, "POST", `${base()}/partner_invites/${asked.data.id}/accept/`)).status).toBe(200);
  expect((await v3(owner, "PUT", `${base()}/partners/${agencyId}/assets/`, { asset_type: "AD_ACCOUNT", asset_ids: [accountA], role: "CAMPAIGN_MANAGER" })).status).toBe(200);
});

const campaignStatus = (id: string) => scalar<string>("SELECT status FROM campaigns WHERE id = ?1", id);

describe("advertising in one ad account, decided by the role held on it", () => {
  it("lets an analyst who is campaign manager on account A pause a campaign there, and refuses the same in account B (403)", async () => {
    const analyst = await browserAs(U.analyst);
    const paused = await v3<{ status: string }>(analyst, "POST", `/v3/ad_accounts/${accountA}/campaigns/${campaignA}/pause/`);
    expect([paused.status, paused.data.status]).toEqual([200, "PAUSED"]);
    expect(await campaignStatus(campaignA)).toBe("PAUSED");

    const historyBefore = await scalar("SELECT COUNT(*) FROM business_history");
    expect((await v3(analyst, "POST", `/v3/ad_accounts/${accountB}/campaigns/${campaignB}/pause/`)).status).toBe(403);
    expect((await v3(analyst, "PATCH", `/v3/ad_accounts/${accountB}/campaigns/${campaignB}/`, { name: "Renamed" })).status).toBe(403);
    expect(await campaignStatus(campaignB)).toBe("ACTIVE");
    expect(await scalar("SELECT COUNT(*) FROM business_history")).toBe(historyBefore);

    // The tables say the same: actions offered in A, none in B (where the analyst only reads).
    const inA = await v3<{ items: Array<{ id: string; actions: string[] }> }>(analyst, "GET", `/v3/ad_accounts/${accountA}/campaigns/`);
    const inB = await v3<{ items: Array<{ id: string; actions: string[] }> }>(analyst, "GET", `/v3/ad_accounts/${accountB}/campaigns/`);
    expect(inA.data.items.map((item) => [item.id, item.actions.length > 0])).toEqual([[campaignA, true]]);
    expect(inB.data.items.map((item) => [item.id, item.actions])).toEqual([[campaignB, []]]);

    // Resuming it again is theirs too.
    expect((await v3<{ status: string }>(analyst, "POST", `/v3/ad_accounts/${accountA}/campaigns/${campaignA}/resume/`)).data.status).toBe("ACTIVE");

    // The promote page follows the same role: open in A, refused in B.
    expect((await analyst.fetch(`/advertiser/${accountA}/promote/`)).status).toBe(200);
    expect((await analyst.fetch(`/advertiser/${accountB}/promote/`)).status).toBe(403);
    const home = async (account: string) => (await (await analyst.fetch(`/advertiser/${account}/`)).text()).includes(`href="/advertiser/${account}/promote/"`);
    expect([await home(accountA), await home(accountB)]).toEqual([true, false]);
    const upload = async (account: string) => (await (await analyst.fetch(`/advertiser/${account}/bulk/upload/`)).text()).includes('type="file"');
    expect([await upload(accountA), await upload(accountB)]).toEqual([true, false]);
  });

  it("lets the analyst who is campaign manager on account A make a conversions token and read leads there, and refuses both in account B (403)", async () => {
    const analyst = await browserAs(U.analyst);
    const token = (account: string) => v3<{ token: string }>(analyst, "POST", `${base()}/ad_accounts/${account}/conversions/tokens/`, { name: "Shop server" });
    const inA = await token(accountA);
    expect([inA.status, inA.data.token.startsWith("pl_cv_")]).toEqual([200, true]);
    expect((await token(accountB)).status).toBe(403);
    expect(await scalar("SELECT COUNT(*) FROM conversion_api_tokens WHERE ad_account_id = ?1", accountB)).toBe(0);
    expect((await v3(analyst, "GET", `/v3/ad_accounts/${accountA}/lead_submissions/`)).status).toBe(200);
    expect((await v3(analyst, "GET", `/v3/ad_accounts/${accountB}/lead_submissions/`)).status).toBe(403);
  });

  it("lets a partner's campaign manager create a campaign in the client's account the partner holds a role on, and answers 404 on one it does not", async () => {
    const agent = await browserAs(U.agencyManager);
    const facts = await v3<{ advertiser: { role: string | null; mayEditBusiness: boolean; permissions: string[] } }>(agent, "GET", promote(accountA));
    expect([facts.status, facts.data.advertiser.role, facts.data.advertiser.mayEditBusiness]).toEqual([200, null, false]);
    expect(facts.data.advertiser.permissions).toEqual([
      "ad_account.read",
      "ad_account.update",
      "campaign.read",
      "campaign.create",
      "campaign.update",
      "bulk.read",
      "bulk.upload",
      "results.read",
      "billing.spend_read",
      "leads.read",
      "conversions.read",
      "conversions_token.manage",
      "conversions.upload",
    ]);
    const made = await v3<{ campaign_id: string }>(agent, "POST", promote(accountA), form("Agency lamps"));
    expect(made.status).toBe(200);
    expect(await scalar<string>("SELECT ad_account_id || ':' || created_by FROM campaigns WHERE id = ?1", made.data.campaign_id)).toBe(`${accountA}:${U.agencyManager}`);
    expect(await scalar<string>("SELECT action FROM business_history WHERE business_id = ?1 AND entity_id = ?2", businessId, made.data.campaign_id)).toBe("CAMPAIGN_CREATED");

    const campaigns = await scalar("SELECT COUNT(*) FROM campaigns");
    const refused = await v3(agent, "POST", promote(accountB), form("Not here"));
    expect(refused.status).toBe(404);
    expect(await scalar("SELECT COUNT(*) FROM campaigns")).toBe(campaigns);
    expect((await v3(agent, "GET", `/v3/ad_accounts/${accountB}/campaigns/`)).status).toBe(404);

    // Ending a campaign is a change, not a delete: the partner may end the one it made.
    const ended = await v3<{ status: string }>(agent, "POST", `/v3/ad_accounts/${accountA}/campaigns/${made.data.campaign_id}/end/`);
    expect([ended.status, ended.data.status]).toEqual([200, "ENDED"]);
    // The rest of the client's business stays closed to them.
    expect((await v3(agent, "GET", `${base()}/`)).status).toBe(404);
  });
});

describe("one conversion tag, decided by the role held on it", () => {
  it("lets a campaign manager who is only an analyst on one tag read it but not change or delete it (403), while other tags stay theirs to change", async () => {
    const manager = await browserAs(U.manager);
    const read = await v3<{ id: string; name: string; permissions: string[] }>(manager, "GET", `${base()}/conversion_tags/${tagHeld}/`);
    expect([read.status, read.data.name, read.data.permissions]).toEqual([200, "Checkout tag", ["tag.read", "tag.create"]]);
    expect((await v3(manager, "PATCH", `${base()}/conversion_tags/${tagHeld}/`, { name: "Renamed" })).status).toBe(403);
    expect((await v3(manager, "DELETE", `${base()}/conversion_tags/${tagHeld}/`)).status).toBe(403);
    expect(await scalar<string>("SELECT name FROM conversion_tags WHERE id = ?1", tagHeld)).toBe("Checkout tag");

    const renamed = await v3<{ name: string }>(manager, "PATCH", `${base()}/conversion_tags/${tagOther}/`, { name: "Sign-up tag, renamed" });
    expect([renamed.status, renamed.data.name]).toEqual([200, "Sign-up tag, renamed"]);

    // The list gives each tag its own permissions.
    const list = await v3<{ items: Array<{ id: string; permissions: string[] }> }>(manager, "GET", `${base()}/conversion_tags/`);
    expect(Object.fromEntries(list.data.items.map((item) => [item.id, item.permissions]))).toEqual({
      [tagHeld]: ["tag.read", "tag.create"],
      [tagOther]: ["tag.read", "tag.create", "tag.update", "tag.delete"],
    });
  });

  it("shows the role on the tag among the employee's assets, and the hub's people page offers tags to give a role on", async () => {
    const owner = await browserAs(U.owner);
    const employee = await v3<{ tags: Array<{ id: string; name: string; roles: string[] }> }>(owner, "GET", `${base()}/employees/${U.manager}/`);
    expect(employee.data.tags.map((entry) => [entry.id, entry.name, entry.roles])).toEqual([[tagHeld, "Checkout tag", ["ANALYST"]]]);
    const page = await owner.fetch(`/business/hub/${businessId}/people/?selected=${U.manager}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Give a role on conversion tags");
    expect(html).toContain(`data-asset-role="TAG:${tagHeld}"`);
  });

  it("refuses a role on a tag of another business (400) and drops the roles held on a tag when it or its ad account is deleted", async () => {
    const owner = await browserAs(U.owner);
    const agencyTag = (await v3<{ id: string }>(await browserAs(U.agencyOwner), "POST", `/v3/businesses/${agencyId}/conversion_tags/`, { name: "Agency tag", ad_account_id: await scalar<string>("SELECT CAST(id AS TEXT) FROM ad_accounts WHERE business_id = ?1", agencyId) })).data.id;
    expect((await v3(owner, "PUT", `${base()}/employees/${U.manager}/assets/`, { asset_type: "TAG", asset_ids: [agencyTag], role: "ADMIN" })).status).toBe(400);

    expect((await v3(owner, "PUT", `${base()}/employees/${U.analyst}/assets/`, { asset_type: "TAG", asset_ids: [tagOther], role: "ADMIN" })).status).toBe(200);
    expect((await v3(owner, "DELETE", `${base()}/conversion_tags/${tagOther}/`)).status).toBe(200);
    expect(await scalar("SELECT COUNT(*) FROM business_asset_roles WHERE asset_type = 'TAG' AND asset_id = ?1", tagOther)).toBe(0);

    // A tag goes with its ad account, and the roles on it with the tag.
    const accountC = (await v3<{ id: string }>(owner, "POST", `${base()}/ad_accounts/`, { name: "Scoped Lamps C", country: "US" })).data.id;
    const tagC = (await v3<{ id: string }>(owner, "POST", `${base()}/conversion_tags/`, { name: "Tag in C", ad_account_id: accountC })).data.id;
    expect((await v3(owner, "PUT", `${base()}/employees/${U.manager}/assets/`, { asset_type: "TAG", asset_ids: [tagC], role: "ADMIN" })).status).toBe(200);
    expect((await v3(owner, "DELETE", `${base()}/ad_accounts/${accountC}/`)).status).toBe(200);
    expect(await scalar("SELECT COUNT(*) FROM business_asset_roles WHERE asset_type = 'TAG' AND asset_id = ?1", tagC)).toBe(0);
    expect(await scalar("SELECT COUNT(*) FROM business_asset_roles WHERE asset_type = 'TAG' AND asset_id = ?1", tagHeld)).toBe(1);
  });
});

describe("a stranger", () => {
  it("gets 404 from every scoped call: campaigns, promotion, bulk files, results, billing and tags", async () => {
    const stranger = await browserAs(U.stranger);
    const calls: Array<[method: string, path: string, body?: unknown]> = [
      ["GET", `/v3/ad_accounts/${accountA}/campaigns/`],
      ["GET", `/v3/ad_accounts/${accountA}/campaigns/${campaignA}/`],
      ["POST", `/v3/ad_accounts/${accountA}/campaigns/${campaignA}/pause/`],
      ["PATCH", `/v3/ad_accounts/${accountA}/campaigns/${campaignA}/`, { name: "Mine" }],
      ["POST", promote(accountA), form("Stranger lamps")],
      ["GET", promote(accountA)],
      ["GET", `/v3/ad_accounts/${accountA}/results/`],
      ["GET", `${base()}/ad_accounts/${accountA}/bulk/uploads/`],
      ["GET", `${base()}/ad_accounts/${accountA}/invoices/?tab=PROGRESS`],
      ["GET", `${base()}/ad_accounts/${accountA}/prepaid_spend/`],
      ["GET", `${base()}/ad_accounts/${accountA}/promotions/`],
      ["GET", `${base()}/conversion_tags/${tagHeld}/`],
      ["PATCH", `${base()}/conversion_tags/${tagHeld}/`, { name: "Mine" }],
      ["DELETE", `${base()}/conversion_tags/${tagHeld}/`],
    ];
    const answers = [];
    for (const [method, path, body] of calls) answers.push([method, path, (await v3(stranger, method, path, body)).status]);
    expect(answers).toEqual(calls.map(([method, path]) => [method, path, 404]));
    expect(await campaignStatus(campaignA)).toBe("ACTIVE");
    expect(await scalar<string>("SELECT name FROM conversion_tags WHERE id = ?1", tagHeld)).toBe("Checkout tag");
  });
});
