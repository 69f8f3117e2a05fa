// The hub's pages for the people who work in a business without belonging to it: a partner
// business's people see exactly the client's assets their partner holds a role on, with the
// actions the API would let them take (renaming an account, never closing it), and nothing of
// the rest; an organization manager reads the business's hierarchy and nothing else; an
// employee sees the whole business; a stranger, and a partner's person whose partner holds
// nothing, get the 404 a missing business gets. The hub's entry lists the businesses reached
// this way, marked as such.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "./accounts-helpers.ts";
import { browserAs } from "./social-fixture.ts";

const U = {
  clientOwner: 49_001,
  employee: 49_002,
  agencyOwner: 49_003,
  agencyManager: 49_004,
  agencyAnalyst: 49_005,
  idleOwner: 49_006,
  idleEmployee: 49_007,
  orgManager: 49_008,
  childOwner: 49_009,
  stranger: 49_010,
} as const;

const NAMES = { shared: "Harbour Shared Account", secret: "Harbour Secret Account", sharedGroup: "Harbour Shared Group", privateGroup: "Harbour Private Group", child: "Harbour Child Account" } as const;

async function v3<T = Record<string, unknown>>(browser: Browser, method: string, path: string, body?: unknown): Promise<{ status: number; data: T }> {
  const response = method === "GET" ? await browser.fetch(path) : await browser.json(path, body ?? {}, method);
  const json = await response.json<{ data: T }>();
  return { status: response.status, data: json.data };
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
  email: "ada@partner-pages.test",
  whatsAppConsent: false,
  ageConfirmed: true,
});

let client = "";
let agency = "";
let child = "";
let shared = "";
let secret = "";
let sharedGroup = "";
let privateGroup = "";

async function open(userId: number, path: string): Promise<{ status: number; html: string }> {
  const response = await (await browserAs(userId)).fetch(path);
  return { status: response.status, html: await response.text() };
}

/** Which of the fixture's asset names a page shows. */
const namesIn = (html: string) => Object.values(NAMES).filter((name) => html.includes(name));

beforeAll(async () => {
  const db = env.DB;
  await db.batch(
    Object.entries(U).map(([name, id]) =>
      db.prepare("INSERT INTO users (id, username, email, full_name, first_name, email_verified, created_at, age_in_years) VALUES (?1, ?2, ?3, ?4, ?4, 1, 0, 30)").bind(id, `hubaccess_${name}`, `${name}@partner-pages.test`, name),
    ),
  );
  const owner = await browserAs(U.clientOwner);
  const made = await v3<{ business: { id: string }; ad_account: { id: string } }>(owner, "POST", "/v3/businesses/", onboarding("Harbour Goods"));
  expect(made.status).toBe(200);
  client = made.data.business.id;
  shared = made.data.ad_account.id;
  expect((await v3(owner, "PATCH", `/v3/businesses/${client}/ad_accounts/${shared}/`, { name: NAMES.shared })).status).toBe(200);
  secret = (await v3<{ id: string }>(owner, "POST", `/v3/businesses/${client}/ad_accounts/`, { name: NAMES.secret, country: "GB" })).data.id;
  const group = (name: string) => v3<{ id: string }>(owner, "POST", `/v3/businesses/${client}/asset_groups/`, { name, description: "", asset_group_types: ["BRAND"], child_ad_account_ids: [], child_profile_ids: [] });
  sharedGroup = (await group(NAMES.sharedGroup)).data.id;
  privateGroup = (await group(NAMES.privateGroup)).data.id;
  expect([sharedGroup, privateGroup].every((id) => /^\d+$/.test(id))).toBe(true);

  agency = (await v3<{ business: { id: string } }>(await browserAs(U.agencyOwner), "POST", "/v3/businesses/", onboarding("Tidewater Agency"))).data.business.id;
  const idle = (await v3<{ business: { id: string } }>(await browserAs(U.idleOwner), "POST", "/v3/businesses/", onboarding("Idle Agency"))).data.business.id;
  const made2 = await v3<{ business: { id: string }; ad_account: { id: string } }>(await browserAs(U.childOwner), "POST", "/v3/businesses/", onboarding("Harbour Child"));
  child = made2.data.business.id;
  expect((await v3(await browserAs(U.childOwner), "PATCH", `/v3/businesses/${child}/ad_accounts/${made2.data.ad_account.id}/`, { name: NAMES.child })).status).toBe(200);

  // The relations as their accepting calls leave them (those calls are proven in the people and assets suites).
  const now = Date.now();
  await db.batch([
    db.prepare("INSERT INTO business_members (business_id, user_id, role, created_at) VALUES (?1, ?2, 'ANALYST', 0)").bind(client, U.employee),
    db.prepare("INSERT INTO business_members (business_id, user_id, role, created_at) VALUES (?1, ?2, 'CAMPAIGN_MANAGER', 0)").bind(agency, U.agencyManager),
    db.prepare("INSERT INTO business_members (business_id, user_id, role, created_at) VALUES (?1, ?2, 'ANALYST', 0)").bind(agency, U.agencyAnalyst),
    db.prepare("INSERT INTO business_members (business_id, user_id, role, created_at) VALUES (?1, ?2, 'CAMPAIGN_MANAGER', 0)").bind(idle, U.idleEmployee),
    db.prepare("INSERT INTO business_partners (business_id, partner_id, created_at) VALUES (?1, ?2, 0)").bind(client, agency),
    db.prepare("INSERT INTO business_partners (business_id, partner_id, created_at) VALUES (?1, ?2, 0)").bind(client, idle),
    db.prepare("INSERT INTO business_asset_roles (business_id, member_type, member_id, asset_type, asset_id, role, created_at) VALUES (?1, 'PARTNER', ?2, 'AD_ACCOUNT', ?3, 'CAMPAIGN_MANAGER', 0)").bind(client, agency, shared),
    db.prepare("INSERT INTO business_asset_roles (business_id, member_type, member_id, asset_type, asset_id, role, created_at) VALUES (?1, 'PARTNER', ?2, 'ASSET_GROUP', ?3, 'ANALYST', 0)").bind(client, agency, sharedGroup),
    db
      .prepare("INSERT INTO business_hierarchy (id, parent_business_id, type, child_business_id, user_id, status, invited_by, created_at, decided_by, decided_at) VALUES (?1, ?2, 'CHILD_BUSINESS', ?3, NULL, 'ACCEPTED', ?4, ?5, ?6, ?5)")
      .bind(4_900_001, client, child, U.clientOwner, now, U.childOwner),
    db
      .prepare("INSERT INTO business_hierarchy (id, parent_business_id, type, child_business_id, user_id, status, invited_by, created_at, decided_by, decided_at) VALUES (?1, ?2, 'ORGANIZATION_MANAGER', NULL, ?3, 'ACCEPTED', ?4, ?5, ?3, ?5)")
      .bind(4_900_002, client, U.orgManager, U.clientOwner, now),
  ]);
});

describe("a partner's employee in the client's hub", () => {
  it("sees on the dashboard only the assets their partner holds a role on, and the pages the API answers them", async () => {
    const page = await open(U.agencyManager, `/business/hub/${client}/`);
    expect(page.status).toBe(200);
    expect(namesIn(page.html)).toEqual([NAMES.shared, NAMES.sharedGroup]);
    expect(page.html).toContain("Client, through Tidewater Agency");
    expect(page.html).toContain(`href="/advertiser/${shared}/"`);
    expect(page.html).toContain(`href="/business/hub/${client}/ad-accounts/"`);
    expect(page.html).not.toContain(`href="/business/hub/${client}/people/"`);
    expect(page.html).not.toContain(`href="/business/hub/${client}/billing/"`);
  });

  it("may rename the shared account from the ad accounts page, never close it or open another", async () => {
    const page = await open(U.agencyManager, `/business/hub/${client}/ad-accounts/`);
    expect(page.status).toBe(200);
    expect(namesIn(page.html)).toEqual([NAMES.shared]);
    expect(page.html).toContain(`data-endpoint="/v3/businesses/${client}/ad_accounts/${shared}/" data-method="PATCH"`);
    expect(page.html).not.toContain('data-method="DELETE"');
    expect(page.html).not.toContain('id="ad-account-name"');
    // The API agrees on both.
    const owner = await browserAs(U.agencyManager);
    expect((await v3<{ permissions: string[] }>(owner, "GET", `/v3/businesses/${client}/ad_accounts/${shared}/`)).data.permissions).toEqual(["ad_account.read", "ad_account.update"]);
    expect((await v3(owner, "DELETE", `/v3/businesses/${client}/ad_accounts/${shared}/`)).status).toBe(403);
  });

  it("sees the shared group without a delete, and not the other group", async () => {
    const page = await open(U.agencyManager, `/business/hub/${client}/asset-groups/`);
    expect(page.status).toBe(200);
    expect(namesIn(page.html)).toEqual([NAMES.sharedGroup]);
    expect(page.html).not.toContain('data-method="DELETE"');
  });

  it("opens the shared account's advertiser page, campaigns, bulk editing and results; the other account and the business-wide pages answer 404", async () => {
    const page = await open(U.agencyManager, `/advertiser/${shared}/`);
    expect(page.status).toBe(200);
    expect(page.html).toContain(`data-endpoint="/v3/businesses/${client}/ad_accounts/${shared}/" data-method="PATCH"`);
    expect(page.html).not.toContain(`href="/advertiser/${shared}/campaigns/"`);
    expect((await open(U.agencyManager, `/advertiser/${secret}/`)).status).toBe(404);
    // The campaigns table, bulk editing and results are the account's, decided by the role the
    // partner holds on it (a campaign manager's reads them all), framed by the client business.
    expect(page.html).toContain(`href="/advertiser/${shared}/bulk/"`);
    expect(page.html).toContain(`href="/advertiser/${shared}/results/"`);
    for (const path of ["campaigns/", "bulk/", "bulk/history/", "results/"]) {
      const opened = await open(U.agencyManager, `/advertiser/${shared}/${path}`);
      expect([path, opened.status]).toEqual([path, 200]);
      // The hub's frame names the client business the partner works in.
      if (path !== "campaigns/") expect(opened.html).toContain("Harbour Goods");
      expect([path, (await open(U.agencyManager, `/advertiser/${secret}/${path}`)).status]).toEqual([path, 404]);
    }
    for (const page of ["people/", "partners/", "billing/", "history/", "hierarchy/", "audiences/", "tags/"]) {
      expect([page, (await open(U.agencyManager, `/business/hub/${client}/${page}`)).status]).toEqual([page, 404]);
    }
  });

  it("renames the account through the page's call and then sees the new name", async () => {
    const renamed = await v3(await browserAs(U.agencyManager), "PATCH", `/v3/businesses/${client}/ad_accounts/${shared}/`, { name: `${NAMES.shared} Two` });
    expect(renamed.status).toBe(200);
    expect((await open(U.agencyManager, `/advertiser/${shared}/`)).html).toContain(`value="${NAMES.shared} Two"`);
    expect((await v3(await browserAs(U.clientOwner), "PATCH", `/v3/businesses/${client}/ad_accounts/${shared}/`, { name: NAMES.shared })).status).toBe(200);
  });

  it("as the agency's analyst, reads the shared account without a rename form", async () => {
    const page = await open(U.agencyAnalyst, `/advertiser/${shared}/`);
    expect(page.status).toBe(200);
    expect(page.html).toContain(NAMES.shared);
    expect(page.html).not.toContain('data-method="PATCH"');
    expect((await open(U.agencyAnalyst, `/business/hub/${client}/ad-accounts/`)).html).not.toContain('data-method="PATCH"');
  });

  it("finds the client on the hub's entry, marked as reached through the partner", async () => {
    const entry = await open(U.agencyManager, "/business/hub/");
    expect(entry.status).toBe(200);
    expect(entry.html).toContain(`href="/business/hub/${client}/"`);
    expect(entry.html).toContain("Harbour Goods</a> · Client, through Tidewater Agency");
    expect(entry.html).toContain(`href="/business/hub/${agency}/"`);
  });

  it("through a partner that holds nothing on the client, is a stranger there", async () => {
    for (const page of ["", "ad-accounts/", "asset-groups/"]) {
      expect([page, (await open(U.idleEmployee, `/business/hub/${client}/${page}`)).status]).toEqual([page, 404]);
    }
    expect((await open(U.idleEmployee, `/advertiser/${shared}/`)).status).toBe(404);
    expect((await open(U.idleEmployee, "/business/hub/")).html).not.toContain(`href="/business/hub/${client}/"`);
  });
});

describe("an organization manager", () => {
  it("reads the business's hierarchy, with its child's accounts, and nothing else of it or of the child", async () => {
    const dashboard = await open(U.orgManager, `/business/hub/${client}/`);
    expect(dashboard.status).toBe(200);
    expect(namesIn(dashboard.html)).toEqual([]);
    expect(dashboard.html).toContain(`href="/business/hub/${client}/hierarchy/"`);
    const hierarchy = await open(U.orgManager, `/business/hub/${client}/hierarchy/?list=ad_accounts`);
    expect(hierarchy.status).toBe(200);
    expect(namesIn(hierarchy.html)).toEqual([NAMES.shared, NAMES.secret, NAMES.child]);
    expect(hierarchy.html).toContain("Organization manager");
    expect(hierarchy.html).not.toContain(`data-endpoint="/v3/businesses/${client}/hierarchy/invites/"`);
    for (const page of ["ad-accounts/", "asset-groups/", "people/", "billing/"]) {
      expect([page, (await open(U.orgManager, `/business/hub/${client}/${page}`)).status]).toEqual([page, 404]);
    }
    expect((await open(U.orgManager, `/business/hub/${child}/`)).status).toBe(404);
    expect((await open(U.orgManager, `/advertiser/${shared}/`)).status).toBe(404);
  });

  it("finds the organization on the hub's entry, marked as managed", async () => {
    const entry = await open(U.orgManager, "/business/hub/");
    expect(entry.status).toBe(200);
    expect(entry.html).toContain(`<a href="/business/hub/${client}/">Harbour Goods</a> · Organization manager`);
    expect(entry.html).not.toContain(`href="/business/hub/${child}/"`);
  });
});

describe("an employee and a stranger", () => {
  it("an employee sees every asset of the business", async () => {
    const dashboard = await open(U.employee, `/business/hub/${client}/`);
    expect(dashboard.status).toBe(200);
    expect(namesIn(dashboard.html).sort()).toEqual([NAMES.privateGroup, NAMES.secret, NAMES.shared, NAMES.sharedGroup].sort());
    expect(namesIn((await open(U.employee, `/business/hub/${client}/ad-accounts/`)).html)).toEqual([NAMES.shared, NAMES.secret]);
    expect((await open(U.employee, `/advertiser/${secret}/`)).status).toBe(200);
  });

  it("a stranger gets 404 everywhere and finds nothing on the hub's entry", async () => {
    for (const path of [`/business/hub/${client}/`, `/business/hub/${client}/ad-accounts/`, `/business/hub/${client}/asset-groups/`, `/business/hub/${client}/hierarchy/`, `/advertiser/${shared}/`, `/advertiser/${secret}/`]) {
      const page = await open(U.stranger, path);
      expect([path, page.status]).toEqual([path, 404]);
      expect(namesIn(page.html)).toEqual([]);
    }
    expect((await open(U.stranger, "/business/hub/")).html).not.toContain(`/business/hub/${client}/`);
  });
});
