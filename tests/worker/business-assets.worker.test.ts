// A business's profiles, audiences, conversion tags, hierarchy and advertiser recommendations:
// each call as the role table says, bad input a 400 that changes nothing, strangers a 404,
// every change one batch with its history row, and recommendations computed from the ad
// account's own data with the states a person may move them through.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { Browser } from "./accounts-helpers.ts";
import { browserAs, scalar } from "./social-fixture.ts";

const U = { owner: 27_001, manager: 27_002, analyst: 27_003, finance: 27_004, stranger: 27_005, friend: 27_006, minor: 27_007, childOwner: 27_008, childAnalyst: 27_009, rivalOwner: 27_010, fan1: 27_011, fan2: 27_012, fan3: 27_013, overseer: 27_014 } as const;

type Problem = { message: string; message_detail: string | null };
type Answer<T> = { status: number; data: T; error: Problem | undefined };

async function v3<T = Record<string, unknown>>(browser: Browser, method: string, path: string, body?: unknown): Promise<Answer<T>> {
  const response = method === "GET" ? await browser.fetch(path) : await browser.json(path, body ?? {}, method);
  const json = await response.json<{ data: T; error?: Problem }>();
  return { status: response.status, data: json.data, error: json.error };
}

const onboarding = (name: string, country: string) => ({
  businessGoals: ["INCREASE_SALES"],
  businessName: name,
  businessVertical: "FOOD_AND_DRINK",
  numberEmployees: "2_10",
  hasWebsite: false,
  country,
  locale: "en_US",
  advertisingIntent: "NOW",
  worksWithAgency: false,
  firstName: "Sam",
  lastName: "Baker",
  email: "sam@assets.test",
  whatsAppConsent: false,
  ageConfirmed: true,
});

const counts = async () => ({
  links: await scalar("SELECT COUNT(*) FROM business_profiles"),
  audiences: await scalar("SELECT COUNT(*) FROM audiences"),
  members: await scalar("SELECT COUNT(*) FROM audience_members"),
  shares: await scalar("SELECT COUNT(*) FROM audience_shares"),
  tags: await scalar("SELECT COUNT(*) FROM conversion_tags"),
  tagShares: await scalar("SELECT COUNT(*) FROM conversion_tag_shares"),
  hierarchy: await scalar("SELECT json_group_array(status) FROM (SELECT status FROM business_hierarchy ORDER BY id)"),
  answers: await scalar("SELECT json_group_array(state) FROM (SELECT state FROM advertiser_recommendations ORDER BY kind)"),
  history: await scalar("SELECT COUNT(*) FROM business_history"),
});

let biz = "";
let child = "";
let rival = "";
let account = "";
let second = "";
let childAccount = "";
let rivalAccount = "";
const base = () => `/v3/businesses/${biz}`;

beforeAll(async () => {
  const db = env.DB;
  await db.batch(
    Object.entries(U).map(([name, id]) =>
      db
        .prepare("INSERT INTO users (id, username, email, full_name, first_name, email_verified, created_at, age_in_years, is_under_18) VALUES (?1, ?2, ?3, ?2, ?2, 1, 0, ?4, ?5)")
        .bind(id, `assets_${name}`, `${name}@assets.test`, name === "minor" ? 15 : 30, name === "minor" ? 1 : 0),
    ),
  );
  const made = async (owner: number, name: string, country: string) => (await v3<{ business: { id: string }; ad_account: { id: string } }>(await browserAs(owner), "POST", "/v3/businesses/", onboarding(name, country))).data;
  const main = await made(U.owner, "Crumb & Co", "FR");
  [biz, account] = [main.business.id, main.ad_account.id];
  const kid = await made(U.childOwner, "Crumb Kids", "GB");
  [child, childAccount] = [kid.business.id, kid.ad_account.id];
  const other = await made(U.rivalOwner, "Other Bakery", "US");
  [rival, rivalAccount] = [other.business.id, other.ad_account.id];
  second = (await v3<{ id: string }>(await browserAs(U.owner), "POST", `${base()}/ad_accounts/`, { name: "Second", country: "FR" })).data.id;
  await db.batch([
    ...(
      [
        [biz, U.manager, "CAMPAIGN_MANAGER"],
        [biz, U.analyst, "ANALYST"],
        [biz, U.finance, "FINANCE"],
        [child, U.childAnalyst, "ANALYST"],
      ] as const
    ).map(([business, id, role]) => db.prepare("INSERT INTO business_members (business_id, user_id, role, created_at) VALUES (?1, ?2, ?3, 0)").bind(business, id, role)),
  ]);
});

describe("profiles", () => {
  it("list the business's own profile first, linked and never unlinkable", async () => {
    const list = await v3<{ items: Array<{ id: string; status: string; is_own_profile: boolean }>; total_count: number; page: number; limit: number }>(await browserAs(U.analyst), "GET", `${base()}/profiles/`);
    expect(list.status).toBe(200);
    expect([list.data.page, list.data.limit, list.data.total_count]).toEqual([1, 10, 1]);
    expect(list.data.items.map((item) => [item.id, item.status, item.is_own_profile])).toEqual([[String(U.owner), "LINKED", true]]);
    const before = await counts();
    const refused = await v3(await browserAs(U.owner), "DELETE", `${base()}/profiles/${U.owner}/`);
    expect([refused.status, refused.error!.message]).toEqual([409, "The business's own profile stays linked"]);
    expect(await counts()).toEqual(before);
  });

  it("link someone else's profile only once they approve, and show it on the dashboard then", async () => {
    const owner = await browserAs(U.owner);
    const asked = await v3<{ id: string; status: string; requested_by: { id: string } }>(owner, "POST", `${base()}/profiles/`, { username: "assets_friend" });
    expect([asked.status, asked.data.status, asked.data.requested_by.id]).toEqual([200, "PENDING", String(U.owner)]);
    expect((await v3<{ profiles: Array<{ id: string }> }>(owner, "GET", `${base()}/dashboard/`)).data.profiles.map((profile) => profile.id)).toEqual([String(U.owner)]);
    const friend = await browserAs(U.friend);
    const requests = await v3<{ items: Array<{ business: { id: string; name: string } }> }>(friend, "GET", "/v3/business_profile_requests/");
    expect(requests.data.items.map((item) => item.business)).toEqual([{ id: biz, name: "Crumb & Co" }]);
    // Only the profile's own person answers.
    expect((await v3(await browserAs(U.stranger), "POST", `/v3/business_profile_requests/${biz}/approve/`)).status).toBe(404);
    const approved = await v3<{ status: string }>(friend, "POST", `/v3/business_profile_requests/${biz}/approve/`);
    expect([approved.status, approved.data.status]).toEqual([200, "LINKED"]);
    expect((await v3<{ profiles: Array<{ id: string }> }>(owner, "GET", `${base()}/dashboard/`)).data.profiles.map((profile) => profile.id)).toEqual([String(U.owner), String(U.friend)]);
    const again = await v3(owner, "POST", `${base()}/profiles/`, { username: "assets_friend" });
    expect(again.status).toBe(409);
    const actions = await env.DB.prepare("SELECT action, actor_id FROM business_history WHERE business_id = ?1 AND entity_type = 'PROFILE' ORDER BY id").bind(biz).all();
    expect(actions.results).toEqual([
      { action: "PROFILE_LINKED", actor_id: U.owner },
      { action: "PROFILE_LINK_REQUESTED", actor_id: U.owner },
      { action: "PROFILE_LINKED", actor_id: U.friend },
    ]);
  });

  it("link the viewer's own profile at once, and unlink it with history", async () => {
    await env.DB.prepare("INSERT INTO business_members (business_id, user_id, role, created_at) VALUES (?1, ?2, 'ADMIN', 0)").bind(biz, U.overseer).run();
    const overseer = await browserAs(U.overseer);
    const linked = await v3<{ status: string }>(overseer, "POST", `${base()}/profiles/`, { username: "@assets_overseer" });
    expect([linked.status, linked.data.status]).toEqual([200, "LINKED"]);
    const removed = await v3(overseer, "DELETE", `${base()}/profiles/${U.overseer}/`);
    expect(removed.status).toBe(200);
    expect((await v3(overseer, "GET", `${base()}/profiles/${U.overseer}/`)).status).toBe(404);
    expect(await scalar<string>("SELECT action FROM business_history WHERE business_id = ?1 ORDER BY id DESC LIMIT 1", biz)).toBe("PROFILE_UNLINKED");
    await env.DB.prepare("DELETE FROM business_members WHERE business_id = ?1 AND user_id = ?2").bind(biz, U.overseer).run();
  });

  it("refuse an unknown username, a minor's profile and bad input with a 400 that changes nothing; other roles 403, strangers 404", async () => {
    const owner = await browserAs(U.owner);
    const before = await counts();
    const unknown = await v3(owner, "POST", `${base()}/profiles/`, { username: "nobody_here" });
    expect([unknown.status, unknown.error!.message_detail]).toEqual([400, "username: is not the username of a Pinloom profile"]);
    const minor = await v3(owner, "POST", `${base()}/profiles/`, { username: "assets_minor" });
    expect(minor.status).toBe(400);
    const extra = await v3(owner, "POST", `${base()}/profiles/`, { username: "assets_fan1", status: "LINKED" });
    expect(extra.status).toBe(400);
    expect((await v3(await browserAs(U.manager), "POST", `${base()}/profiles/`, { username: "assets_fan1" })).status).toBe(403);
    expect((await v3(await browserAs(U.stranger), "POST", `${base()}/profiles/`, { username: "" })).status).toBe(404);
    expect((await v3(await browserAs(U.stranger), "GET", `${base()}/profiles/`)).status).toBe(404);
    expect(await counts()).toEqual(before);
  });
});

describe("the business hierarchy", () => {
  it("lets a parent invite a child business by id, which the child's ADMIN accepts; both see the link", async () => {
    const owner = await browserAs(U.owner);
    const invite = await v3<{ id: string; status: string; child_business: { id: string }; invite_data: { sent_at: number } }>(owner, "POST", `${base()}/hierarchy/invites/`, { type: "CHILD_BUSINESS", business_id: child });
    expect([invite.status, invite.data.status, invite.data.child_business.id]).toEqual([200, "PENDING", child]);
    const pending = await v3<{ pending_child_businesses: Array<{ id: string }>; acting_user: { id: string; role: string } }>(await browserAs(U.analyst), "GET", `${base()}/hierarchy/`);
    expect(pending.data.pending_child_businesses.map((item) => item.id)).toEqual([invite.data.id]);
    expect([pending.data.acting_user.id, pending.data.acting_user.role]).toEqual([String(U.analyst), "ANALYST"]);

    const mine = await v3<{ items: Array<{ id: string }> }>(await browserAs(U.childOwner), "GET", "/v3/business_hierarchy_invites/");
    expect(mine.data.items.map((item) => item.id)).toEqual([invite.data.id]);
    const before = await counts();
    expect((await v3(await browserAs(U.childAnalyst), "POST", `/v3/business_hierarchy_invites/${invite.data.id}/accept/`)).status).toBe(403);
    expect((await v3(await browserAs(U.stranger), "POST", `/v3/business_hierarchy_invites/${invite.data.id}/accept/`)).status).toBe(404);
    expect(await counts()).toEqual(before);
    const accepted = await v3<{ status: string }>(await browserAs(U.childOwner), "POST", `/v3/business_hierarchy_invites/${invite.data.id}/accept/`);
    expect([accepted.status, accepted.data.status]).toEqual([200, "ACCEPTED"]);

    const tree = await v3<{ child_businesses: Array<{ id: string; name: string }> }>(owner, "GET", `${base()}/hierarchy/`);
    expect(tree.data.child_businesses.map((item) => [item.id, item.name])).toEqual([[child, "Crumb Kids"]]);
    const up = await v3<{ parent: { id: string } | null }>(await browserAs(U.childAnalyst), "GET", `/v3/businesses/${child}/hierarchy/`);
    expect(up.data.parent?.id).toBe(biz);
    for (const business of [biz, child]) {
      expect(await scalar<string>("SELECT action FROM business_history WHERE business_id = ?1 ORDER BY id DESC LIMIT 1", business)).toBe("HIERARCHY_ACCEPTED");
    }
    const accounts = await v3<{ items: Array<{ name: string; business: { id: string } }>; total_count: number }>(owner, "GET", `${base()}/hierarchy/lists/ad_accounts/?limit=100`);
    expect(accounts.data.items.map((item) => [item.name, item.business.id])).toEqual([
      ["Crumb & Co", biz],
      ["Crumb Kids", child],
      ["Second", biz],
    ]);
  });

  it("keeps two levels: a child invites no one, a business with a parent is not invited again, and no business invites itself", async () => {
    const before = await counts();
    const fromChild = await v3(await browserAs(U.childOwner), "POST", `/v3/businesses/${child}/hierarchy/invites/`, { type: "CHILD_BUSINESS", business_id: rival });
    expect([fromChild.status, fromChild.error!.message]).toEqual([409, "A child business cannot have child businesses of its own"]);
    const taken = await v3(await browserAs(U.rivalOwner), "POST", `/v3/businesses/${rival}/hierarchy/invites/`, { type: "CHILD_BUSINESS", business_id: child });
    expect(taken.status).toBe(409);
    const self = await v3(await browserAs(U.owner), "POST", `${base()}/hierarchy/invites/`, { type: "CHILD_BUSINESS", business_id: biz });
    expect([self.status, self.error!.message_detail]).toEqual([400, "business_id: must be another business than this one"]);
    const bad = await v3(await browserAs(U.owner), "POST", `${base()}/hierarchy/invites/`, { type: "PARTNER", business_id: rival });
    expect(bad.status).toBe(400);
    expect((await v3(await browserAs(U.manager), "POST", `${base()}/hierarchy/invites/`, { type: "CHILD_BUSINESS", business_id: rival })).status).toBe(403);
    expect(await counts()).toEqual(before);
  });

  it("lists an invite as EXPIRED after 30 days, filters by status, and refuses to accept it", async () => {
    const owner = await browserAs(U.owner);
    const invite = await v3<{ id: string }>(owner, "POST", `${base()}/hierarchy/invites/`, { type: "ORGANIZATION_MANAGER", username: "assets_stranger" });
    await env.DB.prepare("UPDATE business_hierarchy SET created_at = ?2 WHERE id = ?1").bind(invite.data.id, Date.now() - 31 * 86_400_000).run();
    const expired = await v3<{ pending_organization_managers: Array<{ id: string; status: string }> }>(owner, "GET", `${base()}/hierarchy/?status=EXPIRED`);
    expect(expired.data.pending_organization_managers.map((item) => [item.id, item.status])).toEqual([[invite.data.id, "EXPIRED"]]);
    const open = await v3<{ pending_organization_managers: unknown[] }>(owner, "GET", `${base()}/hierarchy/?status=PENDING`);
    expect(open.data.pending_organization_managers).toEqual([]);
    const late = await v3(await browserAs(U.stranger), "POST", `/v3/business_hierarchy_invites/${invite.data.id}/accept/`);
    expect([late.status, late.error!.message]).toEqual([409, "This invite has expired"]);
    expect((await v3(owner, "DELETE", `${base()}/hierarchy/invites/${invite.data.id}/`)).status).toBe(200);
  });

  it("lets an accepted organization manager read the hierarchy lists without being a member", async () => {
    const owner = await browserAs(U.owner);
    const invite = await v3<{ id: string }>(owner, "POST", `${base()}/hierarchy/invites/`, { type: "ORGANIZATION_MANAGER", username: "assets_fan3" });
    const fan = await browserAs(U.fan3);
    expect((await v3(fan, "GET", `${base()}/hierarchy/lists/managers/`)).status).toBe(404);
    expect((await v3(fan, "POST", `/v3/business_hierarchy_invites/${invite.data.id}/accept/`)).status).toBe(200);
    const managers = await v3<{ items: Array<{ name: string }> }>(fan, "GET", `${base()}/hierarchy/lists/managers/`);
    expect(managers.data.items.map((item) => item.name)).toEqual(["assets_fan3"]);
    const acting = await v3<{ role: string | null; is_organization_manager: boolean }>(fan, "GET", `${base()}/hierarchy/acting_user/`);
    expect([acting.data.role, acting.data.is_organization_manager]).toEqual([null, true]);
    expect((await v3(fan, "GET", `${base()}/ad_accounts/`)).status).toBe(404);
    expect((await v3(fan, "GET", `${base()}/hierarchy/lists/passwords/`)).status).toBe(404);
  });
});

describe("audiences", () => {
  it("count the people who engaged with the business's pins within the lookback, its own profiles left out", async () => {
    const db = env.DB;
    const now = Date.now();
    const day = 86_400_000;
    await db.batch([
      db.prepare("INSERT INTO boards (id, owner_id, name, slug, created_at, updated_at) VALUES (27101, ?1, 'Fan board', 'fan-board', 0, 0), (27102, ?2, 'Fan board', 'fan-board', 0, 0)").bind(U.fan1, U.fan2),
      db.prepare("INSERT INTO pins (id, pinner_id, kind, title, image_signature, created_at, updated_at) VALUES (27201, ?1, 'image', 'Loaf', 'sig', 0, 0), (27202, ?2, 'image', 'Other', 'sig', 0, 0)").bind(U.owner, U.stranger),
      // fan1 saved a business pin 3 days ago; fan2 saved it 40 days ago and reacted yesterday; fan3 commented; stranger's pin does not count.
      db.prepare("INSERT INTO board_pins (board_id, pin_id, saved_by, position, created_at) VALUES (27101, 27201, ?1, 0, ?3), (27102, 27201, ?2, 0, ?4), (27102, 27202, ?2, 1, ?3)").bind(U.fan1, U.fan2, now - 3 * day, now - 40 * day),
      db.prepare("INSERT INTO reactions (pin_id, user_id, reaction_type, created_at) VALUES (27201, ?1, 1, ?2), (27201, ?3, 1, ?2)").bind(U.fan2, now - day, U.owner),
      db.prepare("INSERT INTO comments (id, pin_id, user_id, text, created_at, updated_at) VALUES (27301, 27201, ?1, 'Lovely', ?2, ?2)").bind(U.fan3, now - day),
    ]);
    const manager = await browserAs(U.manager);
    const savers = await v3<{ id: string; size_estimate: number; type: string; sharedAccounts: unknown[]; ownerAdAccount: { id: string }; created_by: { id: string } }>(manager, "POST", `${base()}/audiences/`, {
      type: "ENGAGEMENT",
      ad_account_id: account,
      name: "Recent savers",
      lookback_days: 30,
      engagements: ["SAVE"],
    });
    expect(savers.status).toBe(200);
    expect([savers.data.size_estimate, savers.data.sharedAccounts, savers.data.ownerAdAccount.id, savers.data.created_by.id]).toEqual([1, [], account, String(U.manager)]);
    const widened = await v3<{ size_estimate: number }>(manager, "PATCH", `${base()}/audiences/${savers.data.id}/`, { lookback_days: 60, engagements: ["SAVE", "REACTION", "COMMENT"] });
    expect(widened.data.size_estimate).toBe(3);
    expect(await scalar<string>("SELECT action FROM business_history WHERE business_id = ?1 ORDER BY id DESC LIMIT 1", biz)).toBe("AUDIENCE_UPDATED");
  });

  it("keep only the accounts a customer list matched, never the addresses, and tell a small list's size only as fewer than 100", async () => {
    const made = await v3<{ id: string; size_estimate: number | null; size_below: number | null }>(await browserAs(U.owner), "POST", `${base()}/audiences/`, {
      type: "CUSTOMER_LIST",
      ad_account_id: second,
      name: "Newsletter",
      emails: "fan1@assets.test\nFAN2@assets.test, nobody@elsewhere.test",
    });
    expect(made.status).toBe(200);
    expect([made.data.size_estimate, made.data.size_below]).toEqual([null, 100]);
    const members = await env.DB.prepare("SELECT user_id FROM audience_members WHERE audience_id = ?1 ORDER BY user_id").bind(made.data.id).all();
    expect(members.results).toEqual([{ user_id: U.fan1 }, { user_id: U.fan2 }]);
    expect(await scalar("SELECT COUNT(*) FROM audiences WHERE rule LIKE '%@%' OR description LIKE '%@%'")).toBe(0);
  });

  it("share from one ad account to another of the business or of its hierarchy; the receiving side lists it as received", async () => {
    const manager = await browserAs(U.manager);
    const audience = (await v3<{ items: Array<{ id: string; name: string }> }>(manager, "GET", `${base()}/audiences/?search_term=savers`)).data.items[0]!;
    const shared = await v3<{ sharedAccounts: Array<{ id: string; name: string }> }>(manager, "POST", `${base()}/audiences/${audience.id}/shared_accounts/`, { ad_account_id: second });
    expect(shared.data.sharedAccounts.map((item) => item.name)).toEqual(["Second"]);
    const toChild = await v3<{ sharedAccounts: Array<{ id: string }> }>(manager, "POST", `${base()}/audiences/${audience.id}/shared_accounts/`, { ad_account_id: childAccount });
    expect(toChild.data.sharedAccounts.map((item) => item.id).sort()).toEqual([second, childAccount].sort());
    const received = await v3<{ items: Array<{ id: string; owner_business: { id: string }; received_by: { id: string }; size_estimate: number }> }>(await browserAs(U.childAnalyst), "GET", `/v3/businesses/${child}/audiences/received/`);
    expect(received.data.items.map((item) => [item.id, item.owner_business.id, item.received_by.id, item.size_estimate])).toEqual([[audience.id, biz, childAccount, 3]]);
    expect(await scalar<string>("SELECT action FROM business_history WHERE business_id = ?1 ORDER BY id DESC LIMIT 1", biz)).toBe("AUDIENCE_SHARED");

    const before = await counts();
    const outsider = await v3(manager, "POST", `${base()}/audiences/${audience.id}/shared_accounts/`, { ad_account_id: rivalAccount });
    expect([outsider.status, outsider.error!.message_detail]).toEqual([400, "ad_account_id: must be an ad account of this business or of a business in its hierarchy"]);
    const owner = await v3(manager, "POST", `${base()}/audiences/${audience.id}/shared_accounts/`, { ad_account_id: account });
    expect(owner.status).toBe(400);
    expect((await v3(await browserAs(U.analyst), "POST", `${base()}/audiences/${audience.id}/shared_accounts/`, { ad_account_id: second })).status).toBe(403);
    expect((await v3(await browserAs(U.rivalOwner), "POST", `${base()}/audiences/${audience.id}/shared_accounts/`, { ad_account_id: rivalAccount })).status).toBe(404);
    expect(await counts()).toEqual(before);

    const unshared = await v3<{ sharedAccounts: Array<{ id: string }> }>(manager, "DELETE", `${base()}/audiences/${audience.id}/shared_accounts/${childAccount}/`);
    expect(unshared.data.sharedAccounts.map((item) => item.id)).toEqual([second]);
    expect((await v3<{ items: unknown[] }>(await browserAs(U.childAnalyst), "GET", `/v3/businesses/${child}/audiences/received/`)).data.items).toEqual([]);
  });

  it("refuse bad audiences with a 400 that changes nothing, FINANCE with a 403 and strangers with a 404", async () => {
    const owner = await browserAs(U.owner);
    const before = await counts();
    const cases: Array<[unknown, string]> = [
      [{ type: "ENGAGEMENT", ad_account_id: account, name: "X", lookback_days: 0, engagements: ["SAVE"] }, "lookback_days:"],
      [{ type: "ENGAGEMENT", ad_account_id: account, name: "X", lookback_days: 10, engagements: [] }, "engagements:"],
      [{ type: "CUSTOMER_LIST", ad_account_id: account, name: "X", emails: "not-an-address" }, "emails.0:"],
      [{ type: "ENGAGEMENT", ad_account_id: rivalAccount, name: "X", lookback_days: 10, engagements: ["SAVE"] }, "ad_account_id:"],
      [{ type: "VISITORS", ad_account_id: account, name: "X" }, "type:"],
    ];
    for (const [body, field] of cases) {
      const answer = await v3(owner, "POST", `${base()}/audiences/`, body);
      expect([answer.status, answer.error!.message_detail?.includes(field)]).toEqual([400, true]);
    }
    const list = (await v3<{ items: Array<{ id: string; type: string }> }>(owner, "GET", `${base()}/audiences/`)).data.items.find((item) => item.type === "CUSTOMER_LIST")!;
    expect((await v3(owner, "PATCH", `${base()}/audiences/${list.id}/`, { lookback_days: 5 })).status).toBe(400);
    expect((await v3(await browserAs(U.finance), "POST", `${base()}/audiences/`, cases[0]![0])).status).toBe(403);
    expect((await v3(await browserAs(U.stranger), "GET", `${base()}/audiences/${list.id}/`)).status).toBe(404);
    expect(await counts()).toEqual(before);
    expect((await v3(owner, "DELETE", `${base()}/audiences/${list.id}/`)).status).toBe(200);
    expect(await scalar("SELECT COUNT(*) FROM audience_members WHERE audience_id = ?1", list.id)).toBe(0);
  });
});

describe("conversion tags", () => {
  it("create a tag owned by one ad account and shared with another, group a child under it, and filter by the selected ad accounts", async () => {
    const manager = await browserAs(U.manager);
    const leader = await v3<Record<string, unknown>>(manager, "POST", `${base()}/conversion_tags/`, { name: "Site tag", ad_account_id: account, automatic_enhanced_match: true, ad_account_ids: [second] });
    expect(leader.status).toBe(200);
    expect({ ...leader.data, id: "", created_time: 0 }).toEqual({
      id: "",
      name: "Site tag",
      automatic_enhanced_match: true,
      ad_account_id: account,
      business_id: biz,
      created_time: 0,
      last_fired_event: null,
      leader_tag_id: null,
      leader_tag_name: null,
      leader_tag_ad_account_id: null,
      leader_tag_business_id: null,
      tags: [],
      adAccounts: [{ id: second, name: "Second" }],
      ownerAdAccount: { id: account, name: "Crumb & Co" },
      created_by: { id: String(U.manager), username: "assets_manager", full_name: "assets_manager" },
      permissions: ["tag.read", "tag.create", "tag.update", "tag.delete"],
    });
    const leaderId = String(leader.data["id"]);
    const follower = await v3<{ id: string; leader_tag_id: string; leader_tag_name: string; leader_tag_ad_account_id: string; leader_tag_business_id: string }>(manager, "POST", `${base()}/conversion_tags/`, { name: "Checkout tag", ad_account_id: second, leader_tag_id: leaderId });
    expect([follower.data.leader_tag_id, follower.data.leader_tag_name, follower.data.leader_tag_ad_account_id, follower.data.leader_tag_business_id]).toEqual([leaderId, "Site tag", account, biz]);
    const grouped = await v3<{ tags: Array<{ id: string }> }>(manager, "GET", `${base()}/conversion_tags/${leaderId}/`);
    expect(grouped.data.tags.map((item) => item.id)).toEqual([follower.data.id]);
    // The child business may group its tags under its parent's leader.
    const childTag = await v3<{ leader_tag_business_id: string }>(await browserAs(U.childOwner), "POST", `/v3/businesses/${child}/conversion_tags/`, { name: "Kids tag", ad_account_id: childAccount, leader_tag_id: leaderId });
    expect([childTag.status, childTag.data.leader_tag_business_id]).toEqual([200, biz]);

    const filter = (ids: string[]) => `${base()}/conversion_tags/?filters=${encodeURIComponent(JSON.stringify({ ad_account_ids: ids }))}`;
    expect((await v3<{ items: Array<{ name: string }> }>(manager, "GET", filter([second]))).data.items.map((item) => item.name)).toEqual(["Checkout tag", "Site tag"]);
    expect((await v3<{ items: Array<{ name: string }> }>(manager, "GET", filter([account]))).data.items.map((item) => item.name)).toEqual(["Site tag"]);
  });

  it("refuse a leader that is led, a tag that leads taking a leader, and another business's accounts, changing nothing", async () => {
    const manager = await browserAs(U.manager);
    const tags = (await v3<{ items: Array<{ id: string; name: string }> }>(manager, "GET", `${base()}/conversion_tags/`)).data.items;
    const leader = tags.find((item) => item.name === "Site tag")!;
    const follower = tags.find((item) => item.name === "Checkout tag")!;
    const before = await counts();
    const led = await v3(manager, "POST", `${base()}/conversion_tags/`, { name: "Third", ad_account_id: account, leader_tag_id: follower.id });
    expect([led.status, led.error!.message_detail]).toEqual([400, "leader_tag_id: is grouped under another tag, so it cannot lead"]);
    const leads = await v3(manager, "PATCH", `${base()}/conversion_tags/${leader.id}/`, { leader_tag_id: follower.id });
    expect(leads.status).toBe(400);
    const foreign = await v3(manager, "POST", `${base()}/conversion_tags/`, { name: "Third", ad_account_id: rivalAccount, ad_account_ids: [account, account] });
    expect(foreign.status).toBe(400);
    expect((await v3(manager, "PATCH", `${base()}/conversion_tags/${leader.id}/`, {})).status).toBe(400);
    expect((await v3(await browserAs(U.analyst), "DELETE", `${base()}/conversion_tags/${leader.id}/`)).status).toBe(403);
    expect((await v3(await browserAs(U.rivalOwner), "DELETE", `${base()}/conversion_tags/${leader.id}/`)).status).toBe(404);
    expect(await counts()).toEqual(before);
  });

  it("rename and unshare a tag, and delete a leader leaving its children ungrouped", async () => {
    const owner = await browserAs(U.owner);
    const tags = (await v3<{ items: Array<{ id: string; name: string }> }>(owner, "GET", `${base()}/conversion_tags/`)).data.items;
    const leader = tags.find((item) => item.name === "Site tag")!;
    const follower = tags.find((item) => item.name === "Checkout tag")!;
    const renamed = await v3<{ name: string; adAccounts: unknown[] }>(owner, "PATCH", `${base()}/conversion_tags/${leader.id}/`, { name: "Whole site", ad_account_ids: [] });
    expect([renamed.data.name, renamed.data.adAccounts]).toEqual(["Whole site", []]);
    expect((await v3(owner, "DELETE", `${base()}/conversion_tags/${leader.id}/`)).status).toBe(200);
    const orphan = await v3<{ leader_tag_id: string | null }>(owner, "GET", `${base()}/conversion_tags/${follower.id}/`);
    expect(orphan.data.leader_tag_id).toBeNull();
    const actions = await env.DB.prepare("SELECT action FROM business_history WHERE business_id = ?1 AND entity_type = 'CONVERSION_TAG' ORDER BY id").bind(biz).all();
    expect(actions.results.map((row) => row["action"])).toEqual(["TAG_CREATED", "TAG_CREATED", "TAG_UPDATED", "TAG_DELETED"]);
  });
});

describe("advertiser recommendations (GET /ads/v4/notification_messages/RECOMMENDATIONS/)", () => {
  type Rec = { id: string; kind: string; state: string; recipient_id: string; recipient_type: string; details: Record<string, unknown>; snoozed_until: number | null };
  type Resource = { resource_response: { status: string; data: Rec[] | Rec; error?: Problem } };
  const path = (id: string, kind = "") => `/ads/v4/notification_messages/RECOMMENDATIONS/${kind ? `${kind}/` : ""}?recipient_id=${id}&recipient_type=ADVERTISER`;
  async function read(browser: Browser, id: string): Promise<{ status: number; body: Resource }> {
    const response = await browser.fetch(path(id));
    return { status: response.status, body: await response.json<Resource>() };
  }
  async function answer(browser: Browser, id: string, kind: string, body: unknown): Promise<{ status: number; body: Resource }> {
    const response = await browser.json(path(id, kind), body, "PUT");
    return { status: response.status, body: await response.json<Resource>() };
  }
  const states = async (browser: Browser, id: string) => ((await read(browser, id)).body.resource_response.data as Rec[]).map((item) => `${item.kind} ${item.state}`);
  let fresh = "";

  beforeAll(async () => {
    fresh = (await v3<{ id: string }>(await browserAs(U.owner), "POST", `${base()}/ad_accounts/`, { name: "Fresh", country: "FR" })).data.id;
  });

  it("recommend billing, a tag and a campaign to an ad account that has none, each UNREAD", async () => {
    const got = await read(await browserAs(U.analyst), fresh);
    expect(got.status).toBe(200);
    expect(got.body.resource_response.data).toEqual([
      { id: `${fresh}_ADD_BILLING`, type: "RECOMMENDATIONS", kind: "ADD_BILLING", state: "UNREAD", recipient_id: fresh, recipient_type: "ADVERTISER", details: {}, snoozed_until: null, updated_time: null },
      { id: `${fresh}_INSTALL_TAG`, type: "RECOMMENDATIONS", kind: "INSTALL_TAG", state: "UNREAD", recipient_id: fresh, recipient_type: "ADVERTISER", details: {}, snoozed_until: null, updated_time: null },
      { id: `${fresh}_CREATE_CAMPAIGN`, type: "RECOMMENDATIONS", kind: "CREATE_CAMPAIGN", state: "UNREAD", recipient_id: fresh, recipient_type: "ADVERTISER", details: {}, snoozed_until: null, updated_time: null },
    ]);
  });

  it("follow the account's data: a valid billing profile and a running campaign under France's minimum of 7", async () => {
    const now = Date.now();
    await env.DB.batch([
      env.DB.prepare("INSERT INTO billing_profiles (ad_account_id, mode, status, created_by, created_at, updated_at) VALUES (?1, 'TEST', 'VALID', ?2, 0, 0)").bind(fresh, U.owner),
      env.DB.prepare("INSERT INTO campaigns (id, ad_account_id, business_id, name, goal, status, daily_budget_micro, start_at, created_by, created_at, updated_at) VALUES (27401, ?1, ?2, 'Spring', 'CONSIDERATION', 'ACTIVE', 5000000, ?3, ?4, ?3, ?3)").bind(fresh, biz, now, U.owner),
    ]);
    const got = (await read(await browserAs(U.finance), fresh)).body.resource_response.data as Rec[];
    expect(got.map((item) => [item.kind, item.state, item.details])).toEqual([
      ["INSTALL_TAG", "UNREAD", {}],
      ["RAISE_BUDGET", "UNREAD", { campaigns: 1, minimum: 7, currency: "EUR" }],
    ]);
  });

  it("let a person dismiss, snooze and accept, refuse moves the table forbids with a 409, and mark an answered one INVALID once its condition is gone", async () => {
    const finance = await browserAs(U.finance);
    const dismissed = await answer(finance, fresh, "INSTALL_TAG", { state: "DISMISSED" });
    expect([dismissed.status, (dismissed.body.resource_response.data as Rec).state]).toEqual([200, "DISMISSED"]);
    expect(await scalar<string>("SELECT detail FROM business_history WHERE business_id = ?1 ORDER BY id DESC LIMIT 1", biz)).toBe(JSON.stringify({ kind: "INSTALL_TAG", from: "UNREAD", to: "DISMISSED" }));
    const before = await counts();
    const again = await answer(finance, fresh, "INSTALL_TAG", { state: "ACCEPTED" });
    expect([again.status, again.body.resource_response.data]).toEqual([409, []]);
    expect(await counts()).toEqual(before);

    const snoozed = await answer(finance, fresh, "RAISE_BUDGET", { state: "SNOOZED", snooze_days: 2 });
    expect((snoozed.body.resource_response.data as Rec).snoozed_until).toBeGreaterThan(Date.now() / 1000 + 86_400);
    await env.DB.prepare("UPDATE advertiser_recommendations SET snoozed_until = ?2 WHERE ad_account_id = ?1 AND kind = 'RAISE_BUDGET'").bind(fresh, Date.now() - 1).run();
    expect(await states(finance, fresh)).toEqual(["INSTALL_TAG DISMISSED", "RAISE_BUDGET UNREAD"]);
    expect((await answer(finance, fresh, "RAISE_BUDGET", { state: "ACCEPTED" })).status).toBe(200);
    expect((await answer(finance, fresh, "RAISE_BUDGET", { state: "SNOOZED" })).status).toBe(409);
    expect((await answer(finance, fresh, "RAISE_BUDGET", { state: "DISMISSED" })).status).toBe(200);

    await v3(await browserAs(U.manager), "POST", `${base()}/conversion_tags/`, { name: "Fresh tag", ad_account_id: fresh });
    expect(await states(finance, fresh)).toEqual(["INSTALL_TAG INVALID", "RAISE_BUDGET DISMISSED"]);
    expect((await answer(finance, fresh, "INSTALL_TAG", { state: "READ" })).status).toBe(409);
    expect((await answer(finance, fresh, "CREATE_CAMPAIGN", { state: "READ" })).status).toBe(404);
  });

  it("refuse bad input with a 400, an analyst's answer with a 403, and anyone outside the business with a 404 and empty data", async () => {
    const before = await counts();
    const wrongType = await (await browserAs(U.owner)).fetch(`/ads/v4/notification_messages/RECOMMENDATIONS/?recipient_id=${account}&recipient_type=USER`);
    expect(wrongType.status).toBe(400);
    expect((await answer(await browserAs(U.owner), account, "ADD_BILLING", { state: "EMAILED" })).status).toBe(400);
    expect((await answer(await browserAs(U.owner), account, "ADD_BILLING", { state: "DISMISSED", snooze_days: 3 })).status).toBe(400);
    expect((await answer(await browserAs(U.analyst), account, "ADD_BILLING", { state: "DISMISSED" })).status).toBe(403);
    expect((await answer(await browserAs(U.owner), account, "NO_SUCH_KIND", { state: "DISMISSED" })).status).toBe(404);
    const stranger = await read(await browserAs(U.stranger), account);
    expect([stranger.status, stranger.body.resource_response.status, stranger.body.resource_response.data, stranger.body.resource_response.error?.message]).toEqual([404, "failure", [], "Ad account not found"]);
    expect((await read(await browserAs(U.stranger), "123456789")).status).toBe(404);
    expect((await (await browserAs(U.stranger)).json(path(account, "ADD_BILLING"), { state: "nonsense" }, "PUT")).status).toBe(404);
    expect((await read(new Browser(), account)).status).toBe(401);
    expect(await counts()).toEqual(before);
  });
});

describe("closing an ad account", () => {
  it("takes its tags, audiences and recommendation answers with it, in the same call", async () => {
    const owner = await browserAs(U.owner);
    const closing = (await v3<{ id: string }>(owner, "POST", `${base()}/ad_accounts/`, { name: "Closing", country: "FR" })).data.id;
    await v3(owner, "POST", `${base()}/conversion_tags/`, { name: "Closing tag", ad_account_id: closing });
    await v3(owner, "POST", `${base()}/audiences/`, { type: "ENGAGEMENT", ad_account_id: closing, name: "Closing audience", lookback_days: 7, engagements: ["COMMENT"] });
    await (await browserAs(U.owner)).json(`/ads/v4/notification_messages/RECOMMENDATIONS/ADD_BILLING/?recipient_id=${closing}&recipient_type=ADVERTISER`, { state: "READ" }, "PUT");
    expect((await v3(owner, "DELETE", `${base()}/ad_accounts/${closing}/`)).status).toBe(200);
    for (const table of ["conversion_tags", "audiences", "advertiser_recommendations"]) {
      expect([table, await scalar(`SELECT COUNT(*) FROM ${table} WHERE ad_account_id = ?1`, closing)]).toEqual([table, 0]);
    }
  });
});

describe("the hub's pages for them", () => {
  it("show a member each page and the advertiser page's recommendations without script, and a stranger a 404", async () => {
    for (const page of ["profiles/", "audiences/", "tags/", "hierarchy/"]) {
      const member = await (await browserAs(U.analyst)).fetch(`/business/hub/${biz}/${page}`);
      expect([page, member.status]).toEqual([page, 200]);
      expect(await member.text()).toContain(`href="/business/hub/${biz}/${page}" aria-current="page"`);
      expect([page, (await (await browserAs(U.stranger)).fetch(`/business/hub/${biz}/${page}`)).status]).toEqual([page, 404]);
    }
    // Requests and invites reach a person who belongs to no business.
    const requests = await (await browserAs(U.fan1)).fetch("/business/hub/requests/");
    expect(requests.status).toBe(200);
    expect(await requests.text()).toMatch(/<meta name="robots" content="noindex/);
    const advertiser = await (await browserAs(U.analyst)).fetch(`/advertiser/${account}/`);
    const html = await advertiser.text();
    expect(html).toContain("data-recommendations");
    expect(html).toContain('data-kind="ADD_BILLING"');
  });
});
