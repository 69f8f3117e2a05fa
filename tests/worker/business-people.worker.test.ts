// The people of a business: an invite is accepted and its invitee then works with exactly that
// role (and the asset roles it carried); invites expire after 30 days and a refresh starts them
// again; bad input is a 400 that changes nothing; the owner is neither removed nor demoted;
// strangers and personal accounts get 404; partners act on a client's assets only through their
// asset roles; AOAA offers are changed in place, approved and cleared. Every change is in history.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { Browser } from "./accounts-helpers.ts";
import { browserAs, scalar } from "./social-fixture.ts";

const U = {
  owner: 27_001,
  admin: 27_002,
  manager: 27_003,
  finance: 27_004,
  analyst: 27_005,
  personal: 27_006,
  invitee: 27_007,
  late: 27_008,
  agencyOwner: 27_009,
  agencyAnalyst: 27_010,
  spare: 27_011,
  other: 27_012,
} as const;
/** People a flood of invites goes to (the daily bound). */
const CROWD = Array.from({ length: 21 }, (_, index) => 27_100 + index);
const DAY = 86_400_000;

type Answer<T = Record<string, unknown>> = { status: number; data: T; error: { message: string; message_detail: string | null } | undefined };

async function v3<T = Record<string, unknown>>(browser: Browser, method: string, path: string, body?: unknown): Promise<Answer<T>> {
  const response = method === "GET" ? await browser.fetch(path) : await browser.json(path, body ?? {}, method);
  const json = await response.json<{ data: T; error?: Answer<T>["error"] }>();
  return { status: response.status, data: json.data, error: json.error };
}

const onboarding = (businessName: string) => ({
  businessGoals: ["INCREASE_SALES"],
  businessName,
  businessVertical: "RETAIL",
  numberEmployees: "2_10",
  hasWebsite: false,
  country: "GB",
  locale: "en_GB",
  advertisingIntent: "NOW",
  worksWithAgency: false,
  firstName: "Ada",
  lastName: "Lovelace",
  email: "ada@people.test",
  whatsAppConsent: false,
  ageConfirmed: true,
});

const counts = async () => ({
  members: await scalar("SELECT COUNT(*) FROM business_members"),
  invites: await scalar("SELECT COUNT(*) FROM business_employee_invites"),
  invitesSent: await scalar<string>("SELECT group_concat(sent_at || ':' || role) FROM business_employee_invites"),
  roles: await scalar<string>("SELECT group_concat(role) FROM business_members"),
  assetRoles: await scalar<string>("SELECT group_concat(member_id || ':' || asset_id || ':' || role) FROM business_asset_roles"),
  partners: await scalar("SELECT COUNT(*) FROM business_partners"),
  partnerInvites: await scalar("SELECT COUNT(*) FROM business_partner_invites"),
  aoaa: await scalar<string>("SELECT group_concat(status || ':' || role) FROM business_aoaa_requests"),
  history: await scalar("SELECT COUNT(*) FROM business_history"),
});

let businessId = "";
let agencyId = "";
let accountA = "";
let accountB = "";
const base = () => `/v3/businesses/${businessId}`;

beforeAll(async () => {
  const db = env.DB;
  const people = [...Object.entries(U), ...CROWD.map((id) => [`crowd${id}`, id] as const)];
  await db.batch(
    people.map(([name, id]) =>
      db.prepare("INSERT INTO users (id, username, email, full_name, first_name, email_verified, created_at, age_in_years) VALUES (?1, ?2, ?3, ?4, ?4, 1, 0, 30)").bind(id, `ppl_${name}`, `${name}@people.test`, name === "invitee" ? "Ines Invited" : name),
    ),
  );
  const made = await v3<{ business: { id: string }; ad_account: { id: string } }>(await browserAs(U.owner), "POST", "/v3/businesses/", onboarding("Loom & Co"));
  expect(made.status).toBe(200);
  businessId = made.data.business.id;
  accountA = made.data.ad_account.id;
  accountB = (await v3<{ id: string }>(await browserAs(U.owner), "POST", `${base()}/ad_accounts/`, { name: "Second account", country: "GB" })).data.id;
  const agency = await v3<{ business: { id: string } }>(await browserAs(U.agencyOwner), "POST", "/v3/businesses/", onboarding("Agency One"));
  agencyId = agency.data.business.id;
  await db.batch([
    ...(
      [
        [U.admin, "ADMIN"],
        [U.manager, "CAMPAIGN_MANAGER"],
        [U.finance, "FINANCE"],
        [U.analyst, "ANALYST"],
        [U.spare, "ANALYST"],
      ] as const
    ).map(([id, role]) => db.prepare("INSERT INTO business_members (business_id, user_id, role, created_at) VALUES (?1, ?2, ?3, 0)").bind(businessId, id, role)),
    db.prepare("INSERT INTO business_members (business_id, user_id, role, created_at) VALUES (?1, ?2, 'ANALYST', 0)").bind(agencyId, U.agencyAnalyst),
  ]);
});

describe("an employee invite, accepted", () => {
  it("makes the invitee a member with exactly the invite's role and asset roles, in history", async () => {
    const owner = await browserAs(U.owner);
    const invitee = await browserAs(U.invitee);
    const before = Date.now();
    const sent = await v3<{ id: string; status: string; invite_data: { sent_at: number; expires_at: number; business_roles: string[] }; invitee: { username: string } }>(owner, "POST", `${base()}/employee_invites/`, {
      invitee: "INVITEE@people.test",
      role: "CAMPAIGN_MANAGER",
      asset_roles: [{ asset_type: "AD_ACCOUNT", asset_id: accountA, role: "ANALYST" }],
    });
    expect(sent.status).toBe(200);
    expect([sent.data.status, sent.data.invitee.username, sent.data.invite_data.business_roles]).toEqual(["PENDING", "ppl_invitee", ["CAMPAIGN_MANAGER"]]);
    expect(sent.data.invite_data.sent_at).toBeGreaterThanOrEqual(Math.floor(before / 1000));
    // 30 days, in seconds.
    expect(sent.data.invite_data.expires_at - sent.data.invite_data.sent_at).toBe(2_592_000);

    // Before accepting, the business is not theirs to see.
    expect((await v3(invitee, "GET", `${base()}/`)).status).toBe(404);
    const mine = await v3<{ items: Array<{ id: string; business: { name: string }; status: string }> }>(invitee, "GET", "/v3/businesses/invites/");
    expect(mine.data.items.map((item) => [item.id, item.business.name, item.status])).toEqual([[sent.data.id, "Loom & Co", "PENDING"]]);
    const landing = await invitee.fetch("/business/hub/");
    expect(landing.status).toBe(200);
    expect(await landing.text()).toContain(`/v3/businesses/invites/${sent.data.id}/accept/`);

    // Someone else cannot accept it.
    expect((await v3(await browserAs(U.personal), "POST", `/v3/businesses/invites/${sent.data.id}/accept/`)).status).toBe(404);

    const accepted = await v3(invitee, "POST", `/v3/businesses/invites/${sent.data.id}/accept/`);
    expect([accepted.status, accepted.data]).toEqual([200, { business_id: businessId, business_roles: ["CAMPAIGN_MANAGER"] }]);
    expect(await scalar("SELECT COUNT(*) FROM business_employee_invites WHERE id = ?1", sent.data.id)).toBe(0);

    // The role table decides what they may now do: a campaign manager makes groups and renames
    // ad accounts, but opens none; on account A their asset role (ANALYST) decides: read only.
    expect((await v3(invitee, "POST", `${base()}/asset_groups/`, { name: "Invitee group", asset_group_types: ["BRAND"] })).status).toBe(200);
    expect((await v3(invitee, "POST", `${base()}/ad_accounts/`, { name: "Nope", country: "GB" })).status).toBe(403);
    expect((await v3(invitee, "PATCH", `${base()}/ad_accounts/${accountB}/`, { name: "Renamed by the invitee" })).status).toBe(200);
    const readA = await v3<{ permissions: string[] }>(invitee, "GET", `${base()}/ad_accounts/${accountA}/`);
    expect([readA.status, readA.data.permissions]).toEqual([200, ["ad_account.read"]]);
    expect((await v3(invitee, "PATCH", `${base()}/ad_accounts/${accountA}/`, { name: "Refused" })).status).toBe(403);
    expect((await v3(invitee, "POST", `${base()}/employee_invites/`, { invitee: "ppl_personal", role: "ADMIN" })).status).toBe(403);

    const employee = await v3<{ id: string; business_roles: string[]; assets_summary: unknown; adAccounts: Array<{ id: string; name: string; roles: string[] }>; assetGroups: unknown[] }>(owner, "GET", `${base()}/employees/${U.invitee}/`);
    expect(employee.data.business_roles).toEqual(["CAMPAIGN_MANAGER"]);
    expect(employee.data.assets_summary).toEqual({ ad_accounts: [{ id: accountA, permissions: ["ANALYST"], roles: ["ANALYST"] }], profiles: [] });
    expect(employee.data.adAccounts.map((entry) => [entry.id, entry.name, entry.roles])).toEqual([[accountA, "Loom & Co", ["ANALYST"]]]);

    const today = new Date().toISOString().slice(0, 10);
    const history = await v3<{ items: Array<{ action: string; actor: { username: string }; detail: Record<string, unknown> }> }>(owner, "GET", `${base()}/history/?start_date=${today}&end_date=${today}&limit=100`);
    const people = history.data.items.filter((item) => item.action.startsWith("EMPLOYEE_")).map((item) => [item.action, item.actor.username, item.detail["role"]]);
    expect(people).toEqual([
      ["EMPLOYEE_JOINED", "ppl_invitee", "CAMPAIGN_MANAGER"],
      ["EMPLOYEE_INVITED", "ppl_owner", "CAMPAIGN_MANAGER"],
    ]);
  });

  it("lets the invitee decline, which ends the invite and tells the history", async () => {
    const sent = await v3<{ id: string }>(await browserAs(U.owner), "POST", `${base()}/employee_invites/`, { invitee: "ppl_other", role: "ANALYST" });
    const declined = await v3(await browserAs(U.other), "DELETE", `/v3/businesses/invites/${sent.data.id}/`);
    expect(declined.status).toBe(200);
    expect(await scalar("SELECT COUNT(*) FROM business_employee_invites WHERE id = ?1", sent.data.id)).toBe(0);
    expect(await scalar<string>("SELECT action FROM business_history WHERE business_id = ?1 ORDER BY id DESC LIMIT 1", businessId)).toBe("EMPLOYEE_INVITE_DECLINED");
    expect((await v3(await browserAs(U.other), "GET", `${base()}/`)).status).toBe(404);
  });
});

describe("invite expiry and refresh", () => {
  it("lists an invite past its 30 days as EXPIRED (both statuses by default), refuses its acceptance, and a refresh sets sent_at to now", async () => {
    const owner = await browserAs(U.owner);
    const sent = await v3<{ id: string }>(owner, "POST", `${base()}/employee_invites/`, { invitee: "ppl_late", role: "FINANCE" });
    // Sent 31 days ago: its 30 days are over.
    const long = Date.now() - 31 * DAY;
    await env.DB.prepare("UPDATE business_employee_invites SET sent_at = ?2, expires_at = ?3 WHERE id = ?1").bind(sent.data.id, long, long + 30 * DAY).run();

    const all = await v3<{ items: Array<{ id: string; status: string }> }>(owner, "GET", `${base()}/employee_invites/`);
    expect(all.data.items.find((item) => item.id === sent.data.id)?.status).toBe("EXPIRED");
    const expired = await v3<{ items: Array<{ id: string }> }>(owner, "GET", `${base()}/employee_invites/?filters=${encodeURIComponent('{"status":["EXPIRED"]}')}`);
    expect(expired.data.items.map((item) => item.id)).toEqual([sent.data.id]);
    const pending = await v3<{ items: Array<{ id: string }> }>(owner, "GET", `${base()}/employee_invites/?filters=${encodeURIComponent('{"status":["PENDING"]}')}`);
    expect(pending.data.items.map((item) => item.id)).not.toContain(sent.data.id);

    const before = await counts();
    const refused = await v3(await browserAs(U.late), "POST", `/v3/businesses/invites/${sent.data.id}/accept/`);
    expect([refused.status, refused.error!.message]).toEqual([409, "This invite has expired: ask for a new one"]);
    expect(await counts()).toEqual(before);

    const start = Math.floor(Date.now() / 1000);
    const refreshed = await v3<{ status: string; invite_data: { sent_at: number; expires_at: number } }>(owner, "POST", `${base()}/employee_invites/${sent.data.id}/refresh/`);
    expect(refreshed.status).toBe(200);
    expect(refreshed.data.status).toBe("PENDING");
    expect(refreshed.data.invite_data.sent_at).toBeGreaterThanOrEqual(start);
    expect(refreshed.data.invite_data.sent_at).toBeLessThanOrEqual(start + 5);
    expect(refreshed.data.invite_data.expires_at - refreshed.data.invite_data.sent_at).toBe(2_592_000);

    const accepted = await v3(await browserAs(U.late), "POST", `/v3/businesses/invites/${sent.data.id}/accept/`);
    expect([accepted.status, accepted.data]).toEqual([200, { business_id: businessId, business_roles: ["FINANCE"] }]);
  });

  it("deletes an invite, with history", async () => {
    const owner = await browserAs(U.owner);
    const sent = await v3<{ id: string }>(owner, "POST", `${base()}/employee_invites/`, { invitee: "ppl_personal", role: "ANALYST" });
    expect((await v3(owner, "DELETE", `${base()}/employee_invites/${sent.data.id}/`)).status).toBe(200);
    expect((await v3(owner, "DELETE", `${base()}/employee_invites/${sent.data.id}/`)).status).toBe(404);
    expect(await scalar<string>("SELECT action FROM business_history WHERE business_id = ?1 ORDER BY id DESC LIMIT 1", businessId)).toBe("EMPLOYEE_INVITE_DELETED");
  });
});

describe("bad input and refusals change nothing", () => {
  const BAD: Array<[name: string, method: string, path: () => string, body: () => unknown, detail: string]> = [
    ["an unknown business role", "POST", () => `${base()}/employee_invites/`, () => ({ invitee: "ppl_personal", role: "OWNER" }), "role: "],
    ["an invitee who does not exist", "POST", () => `${base()}/employee_invites/`, () => ({ invitee: "nobody_at_all", role: "ANALYST" }), "invitee: is not a Pinloom username or e-mail address"],
    ["an invite's asset role on another business's ad account", "POST", () => `${base()}/employee_invites/`, () => ({ invitee: "ppl_personal", role: "ANALYST", asset_roles: [{ asset_type: "AD_ACCOUNT", asset_id: "123456789", role: "ADMIN" }] }), "asset_roles.0.asset_id: is not an asset of this business"],
    ["an asset role update without a role", "PUT", () => `${base()}/employees/${U.analyst}/assets/`, () => ({ asset_type: "AD_ACCOUNT", asset_ids: [accountA] }), "role: "],
    ["an asset role update without identifiers", "PUT", () => `${base()}/employees/${U.analyst}/assets/`, () => ({ asset_type: "AD_ACCOUNT", asset_ids: [], role: "ADMIN" }), "asset_ids: "],
    ["an asset role update naming the same asset twice", "PUT", () => `${base()}/employees/${U.analyst}/assets/`, () => ({ asset_type: "AD_ACCOUNT", asset_ids: [accountA, accountA], role: "ADMIN" }), "asset_ids: must not name the same asset twice"],
    ["an asset role on another business's ad account", "PUT", () => `${base()}/employees/${U.analyst}/assets/`, () => ({ asset_type: "AD_ACCOUNT", asset_ids: [accountA, "123456789"], role: "ADMIN" }), "asset_ids.1: is not an asset of this business"],
    ["a role update without a role", "PATCH", () => `${base()}/employees/${U.analyst}/`, () => ({}), "role: "],
    ["a partner invite to itself", "POST", () => `${base()}/partner_invites/`, () => ({ business_id: businessId, kind: "INVITE" }), "business_id: must be another business"],
    ["a partner request that hands out its own roles", "POST", () => `${base()}/partner_invites/`, () => ({ business_id: agencyId, kind: "REQUEST", asset_roles: [{ asset_type: "AD_ACCOUNT", asset_id: accountA, role: "ADMIN" }] }), "asset_roles: must be empty"],
    ["an AOAA offer with two roles", "POST", () => `${base()}/aoaa_requests/`, () => ({ ad_account_id: accountA, business_id: agencyId, permissions: ["ADMIN", "ANALYST"] }), "permissions: "],
  ];
  for (const [name, method, path, body, detail] of BAD) {
    it(`answers 400 to ${name}`, async () => {
      const before = await counts();
      const answer = await v3(await browserAs(U.owner), method, path(), body());
      expect(answer.status).toBe(400);
      expect(answer.error!.message_detail).toContain(detail);
      expect(await counts()).toEqual(before);
    });
  }

  it("never removes nor demotes the owner (409), and a single role update replaces business_roles", async () => {
    const admin = await browserAs(U.admin);
    const before = await counts();
    const demote = await v3(admin, "PATCH", `${base()}/employees/${U.owner}/`, { role: "ANALYST" });
    const remove = await v3(admin, "DELETE", `${base()}/employees/${U.owner}/`);
    expect([demote.status, remove.status, remove.error!.message]).toEqual([409, 409, "The business's owner stays an admin and cannot be removed"]);
    expect(await counts()).toEqual(before);
    const changed = await v3<{ business_roles: string[] }>(admin, "PATCH", `${base()}/employees/${U.spare}/`, { role: "FINANCE" });
    expect([changed.status, changed.data.business_roles]).toEqual([200, ["FINANCE"]]);
    const history = await env.DB.prepare("SELECT action, detail FROM business_history WHERE business_id = ?1 ORDER BY id DESC LIMIT 1").bind(businessId).first<{ action: string; detail: string }>();
    expect([history!.action, JSON.parse(history!.detail)]).toEqual(["EMPLOYEE_ROLE_UPDATED", { name: "spare", role: { from: "ANALYST", to: "FINANCE" } }]);
  });

  it("removes an employee with their asset roles; they then learn nothing of the business", async () => {
    const owner = await browserAs(U.owner);
    expect((await v3(owner, "PUT", `${base()}/employees/${U.spare}/assets/`, { asset_type: "AD_ACCOUNT", asset_ids: [accountA, accountB], role: "ADMIN" })).status).toBe(200);
    expect(await scalar("SELECT COUNT(*) FROM business_asset_roles WHERE member_id = ?1", U.spare)).toBe(2);
    expect((await v3(owner, "DELETE", `${base()}/employees/${U.spare}/assets/AD_ACCOUNT/${accountB}/`)).status).toBe(200);
    expect(await scalar("SELECT COUNT(*) FROM business_asset_roles WHERE member_id = ?1", U.spare)).toBe(1);
    expect((await v3(owner, "DELETE", `${base()}/employees/${U.spare}/`)).status).toBe(200);
    expect(await scalar("SELECT COUNT(*) FROM business_asset_roles WHERE member_id = ?1", U.spare)).toBe(0);
    expect((await v3(await browserAs(U.spare), "GET", `${base()}/ad_accounts/${accountA}/`)).status).toBe(404);
    const list = await v3<{ items: Array<{ id: string }> }>(owner, "GET", `${base()}/employees/?limit=100`);
    expect(list.data.items.map((item) => item.id)).not.toContain(String(U.spare));
  });

  it("answers a stranger and a personal account 404 for every people list, and signed out 401", async () => {
    for (const path of ["employees/", `employees/${U.analyst}/`, "employee_invites/", "partners/", "partner_invites/", "aoaa_requests/"]) {
      expect([path, (await v3(await browserAs(U.personal), "GET", `${base()}/${path}`)).status]).toEqual([path, 404]);
      expect([path, (await v3(await browserAs(U.agencyOwner), "GET", `${base()}/${path}`)).status]).toEqual([path, 404]);
      expect([path, (await v3(new Browser(), "GET", `${base()}/${path}`)).status]).toEqual([path, 401]);
    }
    const before = await counts();
    expect((await v3(await browserAs(U.personal), "POST", `${base()}/employee_invites/`, { invitee: "ppl_personal", role: "ADMIN" })).status).toBe(404);
    expect(await counts()).toEqual(before);
  });

  it("bounds the invites a business sends a day: the 21st is a 429 that changes nothing", async () => {
    const agencyOwner = await browserAs(U.agencyOwner);
    for (const id of CROWD.slice(0, 20)) {
      expect((await v3(agencyOwner, "POST", `/v3/businesses/${agencyId}/employee_invites/`, { invitee: `ppl_crowd${id}`, role: "ANALYST" })).status).toBe(200);
    }
    const before = await counts();
    const over = await v3(agencyOwner, "POST", `/v3/businesses/${agencyId}/employee_invites/`, { invitee: `ppl_crowd${CROWD[20]}`, role: "ANALYST" });
    expect(over.status).toBe(429);
    expect(await counts()).toEqual(before);
    // Tidy: the agency's later partner calls count against the same day.
    await env.DB.prepare("DELETE FROM rate_limits WHERE key LIKE 'business-invite:%'").run();
    await env.DB.prepare("DELETE FROM business_employee_invites WHERE business_id = ?1").bind(agencyId).run();
  });
});

describe("employees list", () => {
  it("keeps the spec's table state, searches by name and filters by role", async () => {
    const analyst = await browserAs(U.analyst);
    const first = await v3<{ items: Array<{ username: string; business_roles: string[]; is_owner: boolean }>; page: number; limit: number; sort_direction: string; start_index: number }>(analyst, "GET", `${base()}/employees/`);
    expect([first.data.page, first.data.limit, first.data.sort_direction, first.data.start_index]).toEqual([1, 10, "ASCENDING", 1]);
    expect(first.data.items.find((item) => item.username === "ppl_owner")).toMatchObject({ business_roles: ["ADMIN"], is_owner: true });
    const admins = await v3<{ items: Array<{ username: string }> }>(analyst, "GET", `${base()}/employees/?filters=${encodeURIComponent('{"business_roles":["ADMIN"]}')}`);
    expect(admins.data.items.map((item) => item.username).sort()).toEqual(["ppl_admin", "ppl_owner"]);
    const searched = await v3<{ items: Array<{ username: string }> }>(analyst, "GET", `${base()}/employees/?search_term=Ines`);
    expect(searched.data.items.map((item) => item.username)).toEqual(["ppl_invitee"]);
    const bad = await v3(analyst, "GET", `${base()}/employees/?filters=${encodeURIComponent('{"business_roles":["OWNER"]}')}`);
    expect(bad.status).toBe(400);
  });
});

describe("partners", () => {
  it("an agency asks for access; only the client's ADMIN accepts; the agency then works on exactly the assets it was given a role on", async () => {
    const agencyOwner = await browserAs(U.agencyOwner);
    const owner = await browserAs(U.owner);
    const asked = await v3<{ id: string; kind: string; direction: string; status: string }>(agencyOwner, "POST", `/v3/businesses/${agencyId}/partner_invites/`, { business_id: businessId, kind: "REQUEST" });
    expect([asked.status, asked.data.kind, asked.data.direction, asked.data.status]).toEqual([200, "REQUEST", "SENT", "PENDING"]);
    const received = await v3<{ items: Array<{ id: string; direction: string; business: { id: string } }> }>(owner, "GET", `${base()}/partner_invites/`);
    expect(received.data.items.map((item) => [item.id, item.direction, item.business.id])).toEqual([[asked.data.id, "RECEIVED", agencyId]]);
    // The sender cannot accept its own request, nor can the client's analyst.
    expect((await v3(agencyOwner, "POST", `/v3/businesses/${agencyId}/partner_invites/${asked.data.id}/accept/`)).status).toBe(404);
    expect((await v3(await browserAs(U.analyst), "POST", `${base()}/partner_invites/${asked.data.id}/accept/`)).status).toBe(403);
    const accepted = await v3(owner, "POST", `${base()}/partner_invites/${asked.data.id}/accept/`);
    expect([accepted.status, accepted.data]).toEqual([200, { id: agencyId, relation: "PARTNER" }]);

    const partners = await v3<{ items: Array<{ id: string; relation: string }> }>(owner, "GET", `${base()}/partners/`);
    expect(partners.data.items.map((item) => [item.id, item.relation])).toEqual([[agencyId, "PARTNER"]]);
    const clients = await v3<{ items: Array<{ id: string; relation: string }> }>(agencyOwner, "GET", `/v3/businesses/${agencyId}/partners/`);
    expect(clients.data.items.map((item) => [item.id, item.relation])).toEqual([[businessId, "CLIENT"]]);

    // A partner without an asset role sees nothing of the client's.
    expect((await v3(agencyOwner, "GET", `${base()}/ad_accounts/${accountA}/`)).status).toBe(404);
    expect((await v3(owner, "PUT", `${base()}/partners/${agencyId}/assets/`, { asset_type: "AD_ACCOUNT", asset_ids: [accountA], role: "CAMPAIGN_MANAGER" })).status).toBe(200);
    const shared = await v3<{ permissions: string[] }>(agencyOwner, "GET", `${base()}/ad_accounts/${accountA}/`);
    expect([shared.status, shared.data.permissions]).toEqual([200, ["ad_account.read", "ad_account.update"]]);
    expect((await v3(agencyOwner, "PATCH", `${base()}/ad_accounts/${accountA}/`, { name: "Renamed by the agency" })).status).toBe(200);
    const before = await counts();
    expect((await v3(agencyOwner, "DELETE", `${base()}/ad_accounts/${accountA}/`)).status).toBe(403);
    expect((await v3(agencyOwner, "GET", `${base()}/ad_accounts/${accountB}/`)).status).toBe(404);
    expect((await v3(agencyOwner, "GET", `${base()}/ad_accounts/`)).status).toBe(404);
    // The agency's analyst reads the shared account but changes nothing.
    expect((await v3(await browserAs(U.agencyAnalyst), "GET", `${base()}/ad_accounts/${accountA}/`)).status).toBe(200);
    expect((await v3(await browserAs(U.agencyAnalyst), "PATCH", `${base()}/ad_accounts/${accountA}/`, { name: "Refused" })).status).toBe(403);
    expect(await counts()).toEqual(before);

    expect((await v3(agencyOwner, "DELETE", `/v3/businesses/${agencyId}/partners/${businessId}/`)).status).toBe(200);
    expect((await v3(agencyOwner, "GET", `${base()}/ad_accounts/${accountA}/`)).status).toBe(404);
    expect(await scalar("SELECT COUNT(*) FROM business_asset_roles WHERE member_type = 'PARTNER'")).toBe(0);
    const actions = await env.DB.prepare("SELECT action FROM business_history WHERE business_id = ?1 AND entity_type = 'PARTNER' ORDER BY id").bind(businessId).all<{ action: string }>();
    expect(actions.results.map((row) => row.action)).toEqual(["PARTNER_ADDED", "ASSET_ROLES_UPDATED"]);
  });

  it("a client's invite carries asset roles given on acceptance; the sender refreshes, the receiver declines", async () => {
    const owner = await browserAs(U.owner);
    const agencyOwner = await browserAs(U.agencyOwner);
    const invited = await v3<{ id: string }>(owner, "POST", `${base()}/partner_invites/`, { business_id: agencyId, kind: "INVITE", asset_roles: [{ asset_type: "AD_ACCOUNT", asset_id: accountB, role: "ANALYST" }] });
    expect(invited.status).toBe(200);
    expect((await v3(agencyOwner, "POST", `/v3/businesses/${agencyId}/partner_invites/${invited.data.id}/refresh/`)).status).toBe(404);
    expect((await v3(owner, "POST", `${base()}/partner_invites/${invited.data.id}/refresh/`)).status).toBe(200);
    const accepted = await v3(agencyOwner, "POST", `/v3/businesses/${agencyId}/partner_invites/${invited.data.id}/accept/`);
    expect([accepted.status, accepted.data]).toEqual([200, { id: businessId, relation: "CLIENT" }]);
    const read = await v3<{ permissions: string[] }>(agencyOwner, "GET", `${base()}/ad_accounts/${accountB}/`);
    expect([read.status, read.data.permissions]).toEqual([200, ["ad_account.read"]]);
    expect((await v3(owner, "POST", `${base()}/partner_invites/`, { business_id: agencyId, kind: "INVITE" })).status).toBe(409);
    expect((await v3(owner, "DELETE", `${base()}/partners/${agencyId}/`)).status).toBe(200);

    const again = await v3<{ id: string }>(owner, "POST", `${base()}/partner_invites/`, { business_id: agencyId, kind: "INVITE" });
    expect((await v3(agencyOwner, "DELETE", `/v3/businesses/${agencyId}/partner_invites/${again.data.id}/`)).status).toBe(200);
    expect(await scalar("SELECT COUNT(*) FROM business_partner_invites")).toBe(0);
    expect(await scalar<string>("SELECT action FROM business_history WHERE business_id = ?1 ORDER BY id DESC LIMIT 1", agencyId)).toBe("PARTNER_INVITE_DECLINED");
  });
});

describe("AOAA requests", () => {
  it("offers an ad account, changes its role in place by id, is approved by the other ADMIN only, and clears once answered", async () => {
    const owner = await browserAs(U.owner);
    const agencyOwner = await browserAs(U.agencyOwner);
    const offered = await v3<{ id: string; status: string; permissions: string[]; direction: string }>(owner, "POST", `${base()}/aoaa_requests/`, { ad_account_id: accountB, business_id: agencyId, permissions: ["ANALYST"] });
    expect([offered.status, offered.data.status, offered.data.permissions, offered.data.direction]).toEqual([200, "PENDING", ["ANALYST"], "SENT"]);
    const changed = await v3<{ id: string; permissions: string[]; roles: string[] }>(owner, "PATCH", `${base()}/aoaa_requests/${offered.data.id}/`, { permissions: ["CAMPAIGN_MANAGER"] });
    expect([changed.data.id, changed.data.permissions, changed.data.roles]).toEqual([offered.data.id, ["CAMPAIGN_MANAGER"], ["CAMPAIGN_MANAGER"]]);
    expect(await scalar("SELECT COUNT(*) FROM business_aoaa_requests")).toBe(1);

    // The owner cannot approve its own offer; the agency's analyst may not.
    expect((await v3(owner, "POST", `${base()}/aoaa_requests/${offered.data.id}/approve/`)).status).toBe(404);
    expect((await v3(await browserAs(U.agencyAnalyst), "POST", `/v3/businesses/${agencyId}/aoaa_requests/${offered.data.id}/approve/`)).status).toBe(403);
    const approved = await v3<{ status: string; direction: string }>(agencyOwner, "POST", `/v3/businesses/${agencyId}/aoaa_requests/${offered.data.id}/approve/`);
    expect([approved.status, approved.data.status, approved.data.direction]).toEqual([200, "APPROVED", "RECEIVED"]);
    expect((await v3(agencyOwner, "POST", `/v3/businesses/${agencyId}/aoaa_requests/${offered.data.id}/approve/`)).status).toBe(409);
    const shared = await v3<{ permissions: string[] }>(agencyOwner, "GET", `${base()}/ad_accounts/${accountB}/`);
    expect([shared.status, shared.data.permissions]).toEqual([200, ["ad_account.read", "ad_account.update"]]);

    // Changing an approved offer's role changes the partner's role on the account with it.
    await v3(owner, "PATCH", `${base()}/aoaa_requests/${offered.data.id}/`, { permissions: ["ANALYST"] });
    expect((await v3<{ permissions: string[] }>(agencyOwner, "GET", `${base()}/ad_accounts/${accountB}/`)).data.permissions).toEqual(["ad_account.read"]);

    const pending = await v3<{ id: string }>(owner, "POST", `${base()}/aoaa_requests/`, { ad_account_id: accountA, business_id: agencyId, permissions: ["ANALYST"] });
    const cleared = await v3(owner, "DELETE", `${base()}/aoaa_requests/`);
    expect([cleared.status, cleared.data]).toEqual([200, { cleared: 1 }]);
    const left = await v3<{ items: Array<{ id: string; status: string }> }>(owner, "GET", `${base()}/aoaa_requests/`);
    expect(left.data.items.map((item) => [item.id, item.status])).toEqual([[pending.data.id, "PENDING"]]);
    const actions = await env.DB.prepare("SELECT action FROM business_history WHERE business_id = ?1 AND action LIKE 'AOAA_%' ORDER BY id").bind(businessId).all<{ action: string }>();
    expect(actions.results.map((row) => row.action)).toEqual(["AOAA_REQUESTED", "AOAA_UPDATED", "AOAA_APPROVED", "AOAA_UPDATED", "AOAA_REQUESTED", "AOAA_CLEARED"]);
  });
});

describe("the people pages", () => {
  it("show a member the people, invites and partners pages, and a stranger the same 404", async () => {
    for (const page of ["people/", "invites/", "partners/"]) {
      const member = await (await browserAs(U.analyst)).fetch(`/business/hub/${businessId}/${page}`);
      expect([page, member.status]).toEqual([page, 200]);
      const html = await member.text();
      expect(html).toMatch(/<meta name="robots" content="noindex/);
      // An analyst reads; the forms that change things are an ADMIN's.
      expect(html).not.toContain('data-method="DELETE"');
      const stranger = await (await browserAs(U.personal)).fetch(`/business/hub/${businessId}/${page}`);
      expect([page, stranger.status]).toEqual([page, 404]);
    }
    const admin = await (await (await browserAs(U.owner)).fetch(`/business/hub/${businessId}/people/?role=ADMIN`)).text();
    expect(admin).toContain('data-employee="ppl_owner"');
    expect(admin).not.toContain('data-employee="ppl_analyst"');
  });
});

// ---- Every role against every people, partner and AOAA write ----

const COLUMNS = ["admin", "manager", "finance", "analyst", "personal", "signedOut"] as const;

interface Fixture {
  spare: number;
  invite: number;
  partner: number;
  asker: number;
  received: number;
  sent: number;
  offer: number;
  offered: number;
}

/** A person, and a business of their own (each business needs its own profile). */
let made = 0;
async function someone(): Promise<{ user: number; business: number }> {
  made += 1;
  const user = 28_000_000 + made;
  const business = user + 5_000_000;
  await env.DB.batch([
    env.DB.prepare("INSERT INTO users (id, username, email, created_at) VALUES (?1, ?2, ?3, 0)").bind(user, `ppl_m${user}`, `m${user}@people.test`),
    env.DB.prepare("INSERT INTO businesses (id, owner_id, profile_id, name, vertical, country, locale, onboarding, created_at, updated_at) VALUES (?1, ?2, ?2, ?3, 'RETAIL', 'GB', 'en_GB', '{}', 0, 0)").bind(business, user, `Business ${business}`),
    env.DB.prepare("INSERT INTO business_members (business_id, user_id, role, created_at) VALUES (?1, ?2, 'ADMIN', 0)").bind(business, user),
  ]);
  return { user, business };
}

/** Fresh targets for each call: a spare employee with an asset role, an invite, a partner with an asset role, a received request and a sent invite, a sent and a received AOAA request. */
async function fixture(): Promise<Fixture> {
  const spare = await someone();
  const invited = await someone();
  const partner = await someone();
  const asker = await someone();
  const id = () => 40_000_000 + (made += 1);
  const f: Fixture = { spare: spare.user, invite: id(), partner: partner.business, asker: asker.business, received: id(), sent: id(), offer: id(), offered: id() };
  const askerAccount = id();
  const now = Date.now();
  await env.DB.batch([
    env.DB.prepare("INSERT INTO business_members (business_id, user_id, role, created_at) VALUES (?1, ?2, 'ANALYST', 0)").bind(businessId, f.spare),
    env.DB.prepare("INSERT INTO business_asset_roles (business_id, member_type, member_id, asset_type, asset_id, role, created_at) VALUES (?1, 'EMPLOYEE', ?2, 'AD_ACCOUNT', ?3, 'ANALYST', 0)").bind(businessId, f.spare, accountA),
    env.DB.prepare("INSERT INTO business_employee_invites (id, business_id, user_id, role, invited_by, sent_at, expires_at, created_at) VALUES (?1, ?2, ?3, 'ANALYST', ?4, ?5, ?6, ?5)").bind(f.invite, businessId, invited.user, U.owner, now, now + 30 * DAY),
    env.DB.prepare("INSERT INTO business_partners (business_id, partner_id, created_at) VALUES (?1, ?2, 0)").bind(businessId, f.partner),
    env.DB.prepare("INSERT INTO business_asset_roles (business_id, member_type, member_id, asset_type, asset_id, role, created_at) VALUES (?1, 'PARTNER', ?2, 'AD_ACCOUNT', ?3, 'ANALYST', 0)").bind(businessId, f.partner, accountA),
    env.DB.prepare("INSERT INTO business_partner_invites (id, business_id, partner_id, kind, sent_by, sent_at, expires_at, created_at) VALUES (?1, ?2, ?3, 'REQUEST', ?4, ?5, ?6, ?5)").bind(f.received, businessId, f.asker, asker.user, now, now + 30 * DAY),
    env.DB.prepare("INSERT INTO business_partner_invites (id, business_id, partner_id, kind, sent_by, sent_at, expires_at, created_at) VALUES (?1, ?2, ?3, 'INVITE', ?4, ?5, ?6, ?5)").bind(f.sent, businessId, f.partner, U.owner, now, now + 30 * DAY),
    env.DB.prepare("INSERT INTO business_aoaa_requests (id, business_id, ad_account_id, target_id, role, status, created_by, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, 'ANALYST', 'PENDING', ?5, ?6, ?6)").bind(f.offer, businessId, accountA, f.asker, U.owner, now),
    env.DB.prepare("INSERT INTO ad_accounts (id, business_id, name, country, currency, created_by, created_at, updated_at) VALUES (?1, ?2, 'Asker account', 'GB', 'GBP', ?3, 0, 0)").bind(askerAccount, f.asker, asker.user),
    env.DB.prepare("INSERT INTO business_aoaa_requests (id, business_id, ad_account_id, target_id, role, status, created_by, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, 'ANALYST', 'PENDING', ?5, ?6, ?6)").bind(f.offered, f.asker, askerAccount, businessId, asker.user, now),
  ]);
  return f;
}

type WriteCall = (f: Fixture) => [method: string, path: string, body?: unknown];

// Written out by hand from the role table in docs/decisions.md: only ADMIN manages people,
// partners and AOAA requests; every other member is refused (403); strangers 404; signed out 401.
const WRITES: Array<[name: string, call: WriteCall, statuses: [number, number, number, number, number, number]]> = [
  ["remove an employee", (f) => ["DELETE", `${base()}/employees/${f.spare}/`], [200, 403, 403, 403, 404, 401]],
  ["take an employee's asset role away", (f) => ["DELETE", `${base()}/employees/${f.spare}/assets/AD_ACCOUNT/${accountA}/`], [200, 403, 403, 403, 404, 401]],
  ["send an employee invite again", (f) => ["POST", `${base()}/employee_invites/${f.invite}/refresh/`], [200, 403, 403, 403, 404, 401]],
  ["withdraw an employee invite", (f) => ["DELETE", `${base()}/employee_invites/${f.invite}/`], [200, 403, 403, 403, 404, 401]],
  ["give a partner a role on an ad account", (f) => ["PUT", `${base()}/partners/${f.partner}/assets/`, { asset_type: "AD_ACCOUNT", asset_ids: [accountB], role: "CAMPAIGN_MANAGER" }], [200, 403, 403, 403, 404, 401]],
  ["take a partner's asset role away", (f) => ["DELETE", `${base()}/partners/${f.partner}/assets/AD_ACCOUNT/${accountA}/`], [200, 403, 403, 403, 404, 401]],
  ["end a partnership", (f) => ["DELETE", `${base()}/partners/${f.partner}/`], [200, 403, 403, 403, 404, 401]],
  ["accept a partner request", (f) => ["POST", `${base()}/partner_invites/${f.received}/accept/`], [200, 403, 403, 403, 404, 401]],
  ["decline a partner request", (f) => ["DELETE", `${base()}/partner_invites/${f.received}/`], [200, 403, 403, 403, 404, 401]],
  ["send a partner invite again", (f) => ["POST", `${base()}/partner_invites/${f.sent}/refresh/`], [200, 403, 403, 403, 404, 401]],
  ["change an AOAA offer's role", (f) => ["PATCH", `${base()}/aoaa_requests/${f.offer}/`, { permissions: ["CAMPAIGN_MANAGER"] }], [200, 403, 403, 403, 404, 401]],
  ["approve an AOAA request", (f) => ["POST", `${base()}/aoaa_requests/${f.offered}/approve/`], [200, 403, 403, 403, 404, 401]],
  ["decline an AOAA request", (f) => ["POST", `${base()}/aoaa_requests/${f.offered}/decline/`], [200, 403, 403, 403, 404, 401]],
];

describe("permissions: every role against every people, partner and AOAA write", () => {
  beforeAll(async () => {
    // The earlier tests' invites count against today's bound; these calls are about roles.
    await env.DB.prepare("DELETE FROM rate_limits WHERE key LIKE 'business-invite:%'").run();
  });

  for (const [name, call, statuses] of WRITES) {
    it(`${name}: ${COLUMNS.map((column, index) => `${column} ${statuses[index]}`).join(", ")}`, async () => {
      const got: number[] = [];
      for (const column of COLUMNS) {
        const f = await fixture();
        const [method, path, body] = call(f);
        const before = await counts();
        const browser = column === "signedOut" ? new Browser() : await browserAs(U[column]);
        const answer = await v3(browser, method, path, body);
        got.push(answer.status);
        // A refusal changes nothing at all; a change writes its history.
        if (answer.status !== 200) expect(await counts()).toEqual(before);
        else expect(await counts()).not.toEqual(before);
      }
      expect(got).toEqual(statuses);
    });
  }
});
