// The business area's storage: businesses made by onboarding, members and their roles, ad
// accounts, asset groups, history and per-person properties. Every read and write first asks
// the role table (./roles.ts) through requireAction; every change is one D1 batch whose main
// statement re-checks the actor's role in SQL (a role taken away meanwhile changes nothing) and
// whose history row is written only when that statement changed something.
import { badRequest, conflict, DomainError, forbidden, notFound } from "~/domain/errors.ts";
import { countryId, currencyOf } from "./countries.ts";
import { suggestPlan, type MarketingPlanAnswers, type MarketingPlanSuggestion } from "./marketing-plan.ts";
import { fullNameOf, type OnboardingAnswers } from "./onboarding.ts";
import { tablePage, type TablePage, type TableState } from "./table-state.ts";
import type { BusinessAction, BusinessRole } from "./roles.ts";
import { AD_ACCOUNT_SEARCHES, AD_ACCOUNT_SORTS, ASSET_GROUP_SEARCHES, ASSET_GROUP_SORTS, type AssetGroupType } from "./asset-types.ts";
import { actorMay, actorMayOn, type AssetRef, historyRow, likeTerm, newId, ownAssetRoles, permissionsOf, permissionsOn, requireAction, requireAssetAction, seconds, where, type HistoryAction } from "./core.server.ts";

/** Each sortable field's column. */
const AD_ACCOUNT_ORDER: Record<(typeof AD_ACCOUNT_SORTS)[number], string> = { name: "a.name COLLATE NOCASE", created_time: "a.created_at", currency: "a.currency" };
const ASSET_GROUP_ORDER: Record<(typeof ASSET_GROUP_SORTS)[number], string> = { name: "g.name COLLATE NOCASE", created_time: "g.created_at" };

/** Bounds on what one business holds, so every list and every batch stays small. */
export const LIMITS = { adAccounts: 50, assetGroups: 100 } as const;

export interface HistoryEntry {
  id: string;
  action: HistoryAction;
  entity_type: string;
  entity_id: string;
  detail: Record<string, unknown>;
  actor: { id: string; username: string; full_name: string };
  created_time: number;
}

export async function listHistory(db: D1Database, businessId: number, query: { from: number; until: number; limit: number; startIndex: number }): Promise<{ items: HistoryEntry[]; total_count: number }> {
  const [rows, count] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `SELECT h.id, h.action, h.entity_type, h.entity_id, h.detail, h.created_at, u.id AS actor_id, u.username, u.full_name
         FROM business_history h JOIN users u ON u.id = h.actor_id
         WHERE h.business_id = ?1 AND h.created_at >= ?2 AND h.created_at < ?3
         ORDER BY h.created_at DESC, h.id DESC LIMIT ?4 OFFSET ?5`,
      )
      .bind(businessId, query.from, query.until, query.limit, query.startIndex - 1),
    db.prepare("SELECT COUNT(*) AS n FROM business_history WHERE business_id = ?1 AND created_at >= ?2 AND created_at < ?3").bind(businessId, query.from, query.until),
  ]);
  return {
    items: rows!.results.map((row) => ({
      id: String(row["id"]),
      action: row["action"] as HistoryAction,
      entity_type: String(row["entity_type"]),
      entity_id: String(row["entity_id"]),
      detail: JSON.parse(String(row["detail"])) as Record<string, unknown>,
      actor: { id: String(row["actor_id"]), username: String(row["username"]), full_name: String(row["full_name"]) },
      created_time: seconds(Number(row["created_at"])),
    })),
    total_count: Number(count!.results[0]?.["n"] ?? 0),
  };
}

// ---- Businesses ----

export interface BusinessSummary {
  id: string;
  name: string;
  vertical: string;
  country: string;
  country_id: number;
  locale: string;
  website: string | null;
  profile: { id: string; username: string; full_name: string };
  owner: { id: string; username: string; full_name: string };
  role: BusinessRole;
  permissions: BusinessAction[];
  marketing_plan: { answers: MarketingPlanAnswers; suggestion: MarketingPlanSuggestion } | null;
  created_time: number;
}

const BUSINESS_SELECT = `SELECT b.id, b.name, b.vertical, b.country, b.locale, b.website, b.marketing_plan, b.created_at,
  p.id AS profile_id, p.username AS profile_username, p.full_name AS profile_full_name,
  o.id AS owner_id, o.username AS owner_username, o.full_name AS owner_full_name, m.role
  FROM businesses b JOIN business_members m ON m.business_id = b.id AND m.user_id = ?1
  JOIN users p ON p.id = b.profile_id JOIN users o ON o.id = b.owner_id`;

function businessOf(row: Record<string, unknown>): BusinessSummary {
  const role = row["role"] as BusinessRole;
  return {
    id: String(row["id"]),
    name: String(row["name"]),
    vertical: String(row["vertical"]),
    country: String(row["country"]),
    country_id: countryId(String(row["country"])),
    locale: String(row["locale"]),
    website: (row["website"] as string | null) ?? null,
    profile: { id: String(row["profile_id"]), username: String(row["profile_username"]), full_name: String(row["profile_full_name"]) },
    owner: { id: String(row["owner_id"]), username: String(row["owner_username"]), full_name: String(row["owner_full_name"]) },
    role,
    permissions: permissionsOf(role),
    marketing_plan: row["marketing_plan"] === null ? null : (JSON.parse(String(row["marketing_plan"])) as BusinessSummary["marketing_plan"]),
    created_time: seconds(Number(row["created_at"])),
  };
}

/** The businesses the viewer belongs to (the hub's switcher), at most 50. */
export async function businessesOf(db: D1Database, userId: number): Promise<BusinessSummary[]> {
  const { results } = await db.prepare(`${BUSINESS_SELECT} ORDER BY b.created_at LIMIT 50`).bind(userId).all<Record<string, unknown>>();
  return results.map(businessOf);
}

export async function getBusiness(db: D1Database, userId: number, businessId: number): Promise<BusinessSummary> {
  await requireAction(db, businessId, userId, "business.read");
  const row = await db.prepare(`${BUSINESS_SELECT} WHERE b.id = ?2`).bind(userId, businessId).first<Record<string, unknown>>();
  if (!row) throw notFound("business:api.notFound");
  return businessOf(row);
}

interface Onboarder {
  is_under_18: number;
  age_in_years: number | null;
  username: string;
}

/**
 * Onboarding's end: the business, its owner's ADMIN seat, its first ad account (billing in the
 * country's currency) and the profile turned business and linked, with their history, in one
 * batch. One business per profile: a second onboarding is a 409.
 */
export async function createBusiness(db: D1Database, userId: number, answers: OnboardingAnswers, now = Date.now()): Promise<{ business: BusinessSummary; ad_account: AdAccount }> {
  const person = await db.prepare("SELECT is_under_18, age_in_years, username FROM users WHERE id = ?1").bind(userId).first<Onboarder>();
  if (!person) throw notFound("business:api.notFound");
  if (person.is_under_18 === 1 || (person.age_in_years !== null && person.age_in_years < 18)) throw new DomainError("forbidden", { message: "business:onboarding.underage" });
  // Without a known birthday, the underage confirmation modal's answer is needed.
  if (person.age_in_years === null && !answers.ageConfirmed) throw badRequest([{ field: "ageConfirmed", reason: "business:validation.ageConfirmed" }]);
  if ((await db.prepare("SELECT 1 FROM businesses WHERE profile_id = ?1").bind(userId).first()) !== null) throw conflict("business:onboarding.alreadyBusiness");

  const businessId = newId();
  const adAccountId = newId();
  const currency = currencyOf(answers.country);
  const { ageConfirmed: _confirmed, ...kept } = answers;
  const onboarding = { ...kept, fullName: fullNameOf(answers), leadId: String(businessId) };
  const statements = [
    db
      .prepare("INSERT INTO businesses (id, owner_id, profile_id, name, vertical, country, locale, website, onboarding, created_at, updated_at) VALUES (?1, ?2, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9)")
      .bind(businessId, userId, answers.businessName, answers.businessVertical, answers.country, answers.locale, answers.hasWebsite ? answers.website! : null, JSON.stringify(onboarding), now),
    db.prepare("INSERT INTO business_members (business_id, user_id, role, created_at) VALUES (?1, ?2, 'ADMIN', ?3)").bind(businessId, userId, now),
    db
      .prepare("INSERT INTO ad_accounts (id, business_id, name, country, currency, created_by, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)")
      .bind(adAccountId, businessId, answers.businessName, answers.country, currency, userId, now),
    // Converting: the profile becomes a business profile named for the business.
    db.prepare("UPDATE users SET account_type = 'business', is_partner = 1, business_name = ?2 WHERE id = ?1").bind(userId, answers.businessName),
    historyRow(db, businessId, userId, "BUSINESS_CREATED", "BUSINESS", businessId, { name: answers.businessName, country: answers.country }, now),
    historyRow(db, businessId, userId, "AD_ACCOUNT_CREATED", "AD_ACCOUNT", adAccountId, { name: answers.businessName, currency }, now),
    historyRow(db, businessId, userId, "PROFILE_LINKED", "PROFILE", userId, { username: person.username }, now),
  ];
  try {
    await db.batch(statements);
  } catch (error) {
    // Two onboardings at once: the profile's UNIQUE refuses the second whole batch.
    if (error instanceof Error && /UNIQUE constraint failed: businesses\.profile_id/.test(error.message)) throw conflict("business:onboarding.alreadyBusiness");
    throw error;
  }
  return { business: await getBusiness(db, userId, businessId), ad_account: await getAdAccount(db, userId, businessId, adAccountId) };
}

export async function saveMarketingPlan(db: D1Database, userId: number, businessId: number, answers: MarketingPlanAnswers, now = Date.now()): Promise<BusinessSummary> {
  await requireAction(db, businessId, userId, "marketing_plan.update");
  const business = await db.prepare("SELECT name, country FROM businesses WHERE id = ?1").bind(businessId).first<{ name: string; country: string }>();
  if (!business) throw notFound("business:api.notFound");
  const suggestion = suggestPlan(answers, business.country);
  const plan = { answers: { ...answers, marketingPlanName: answers.marketingPlanName ?? business.name }, suggestion };
  const [update] = await db.batch([
    db.prepare(`UPDATE businesses SET marketing_plan = ?3, updated_at = ?4 WHERE id = ?1 AND ${actorMay("marketing_plan.update")}`).bind(businessId, userId, JSON.stringify(plan), now),
    historyRow(db, businessId, userId, "MARKETING_PLAN_UPDATED", "BUSINESS", businessId, { goal: suggestion.goal, daily_budget: suggestion.dailyBudget }, now, "changes() = 1"),
  ]);
  if (update!.meta.changes !== 1) throw forbidden("business:api.forbidden");
  return getBusiness(db, userId, businessId);
}

// ---- Ad accounts ----

export interface AdAccount {
  id: string;
  business_id: string;
  name: string;
  country: string;
  country_id: number;
  currency: string;
  created_by: { id: string; username: string; full_name: string };
  created_time: number;
  updated_time: number;
  permissions: BusinessAction[];
}

export interface AdAccountFilters {
  currency?: string[] | undefined;
  country?: string[] | undefined;
}

const AD_ACCOUNT_SELECT = `SELECT a.id, a.business_id, a.name, a.country, a.currency, a.created_at, a.updated_at, u.id AS creator_id, u.username, u.full_name
  FROM ad_accounts a JOIN users u ON u.id = a.created_by`;

function adAccountOf(row: Record<string, unknown>, permissions: BusinessAction[]): AdAccount {
  return {
    id: String(row["id"]),
    business_id: String(row["business_id"]),
    name: String(row["name"]),
    country: String(row["country"]),
    country_id: countryId(String(row["country"])),
    currency: String(row["currency"]),
    created_by: { id: String(row["creator_id"]), username: String(row["username"]), full_name: String(row["full_name"]) },
    created_time: seconds(Number(row["created_at"])),
    updated_time: seconds(Number(row["updated_at"])),
    permissions,
  };
}

export async function listAdAccounts(db: D1Database, userId: number, businessId: number, state: TableState<(typeof AD_ACCOUNT_SORTS)[number], (typeof AD_ACCOUNT_SEARCHES)[number], AdAccountFilters>): Promise<TablePage<AdAccount>> {
  const role = await requireAction(db, businessId, userId, "ad_account.read");
  const own = await ownAssetRoles(db, businessId, userId, "AD_ACCOUNT");
  const parts: Array<[(n: number) => string, unknown]> = [];
  if (state.searchTerm) {
    if (state.searchBy === "id") parts.push([(n) => `CAST(a.id AS TEXT) = ?${n}`, state.searchTerm]);
    else parts.push([(n) => `a.name LIKE ?${n} ESCAPE '\\'`, likeTerm(state.searchTerm)]);
  }
  const filters = state.filtersPayload ?? {};
  if (filters.currency?.length) parts.push([(n) => `a.currency IN (SELECT value FROM json_each(?${n}))`, JSON.stringify(filters.currency)]);
  if (filters.country?.length) parts.push([(n) => `a.country IN (SELECT value FROM json_each(?${n}))`, JSON.stringify(filters.country)]);
  const clause = where(parts, 4);
  const order = `${AD_ACCOUNT_ORDER[state.sortBy]} ${state.sortDirection === "ASCENDING" ? "ASC" : "DESC"}, a.id`;
  const [rows, count] = await db.batch<Record<string, unknown>>([
    db.prepare(`${AD_ACCOUNT_SELECT} WHERE a.business_id = ?1${clause.sql} ORDER BY ${order} LIMIT ?2 OFFSET ?3`).bind(businessId, state.limit, state.startIndex - 1, ...clause.values),
    db.prepare(`SELECT COUNT(*) AS n FROM ad_accounts a WHERE a.business_id = ?1${where(parts, 2).sql}`).bind(businessId, ...clause.values),
  ]);
  return tablePage(
    rows!.results.map((row) => adAccountOf(row, permissionsOn(role, "AD_ACCOUNT", { own: own.get(String(row["id"])) ?? null, partners: [] }))),
    Number(count!.results[0]?.["n"] ?? 0),
    state,
  );
}

export async function getAdAccount(db: D1Database, userId: number, businessId: number, adAccountId: number): Promise<AdAccount> {
  const grant = await requireAssetAction(db, businessId, userId, "ad_account.read", { type: "AD_ACCOUNT", id: adAccountId });
  const row = await db.prepare(`${AD_ACCOUNT_SELECT} WHERE a.id = ?1 AND a.business_id = ?2`).bind(adAccountId, businessId).first<Record<string, unknown>>();
  if (!row) throw notFound("business:api.adAccountNotFound");
  return adAccountOf(row, permissionsOn(grant.role, "AD_ACCOUNT", grant.access));
}

export async function createAdAccount(db: D1Database, userId: number, businessId: number, input: { name: string; country: string }, now = Date.now()): Promise<AdAccount> {
  await requireAction(db, businessId, userId, "ad_account.create");
  const id = newId();
  const currency = currencyOf(input.country);
  const [insert] = await db.batch([
    db
      .prepare(
        `INSERT INTO ad_accounts (id, business_id, name, country, currency, created_by, created_at, updated_at)
         SELECT ?3, ?1, ?4, ?5, ?6, ?2, ?7, ?7
         WHERE ${actorMay("ad_account.create")} AND (SELECT COUNT(*) FROM ad_accounts WHERE business_id = ?1) < ?8`,
      )
      .bind(businessId, userId, id, input.name, input.country, currency, now, LIMITS.adAccounts),
    historyRow(db, businessId, userId, "AD_ACCOUNT_CREATED", "AD_ACCOUNT", id, { name: input.name, currency }, now, "changes() = 1"),
  ]);
  if (insert!.meta.changes !== 1) await refuseWrite(db, businessId, userId, "ad_account.create", () => badRequest([{ field: "business", reason: "business:validation.tooManyAdAccounts", values: { maximum: LIMITS.adAccounts } }]));
  return getAdAccount(db, userId, businessId, id);
}

/** A guarded write that changed nothing: the role was taken meanwhile, or `otherwise` says why. */
async function refuseWrite(db: D1Database, businessId: number, userId: number, action: BusinessAction, otherwise: () => DomainError): Promise<never> {
  await requireAction(db, businessId, userId, action);
  throw otherwise();
}

/** refuseWrite for a write on one asset. */
async function refuseAssetWrite(db: D1Database, businessId: number, userId: number, action: BusinessAction, asset: AssetRef, otherwise: () => DomainError): Promise<never> {
  await requireAssetAction(db, businessId, userId, action, asset);
  throw otherwise();
}

export async function updateAdAccount(db: D1Database, userId: number, businessId: number, adAccountId: number, input: { name: string }, now = Date.now()): Promise<AdAccount> {
  const before = await getAdAccount(db, userId, businessId, adAccountId);
  await requireAssetAction(db, businessId, userId, "ad_account.update", { type: "AD_ACCOUNT", id: adAccountId });
  const [update] = await db.batch([
    db.prepare(`UPDATE ad_accounts SET name = ?4, updated_at = ?5 WHERE id = ?3 AND business_id = ?1 AND ${actorMayOn("ad_account.update", "AD_ACCOUNT", "?3")}`).bind(businessId, userId, adAccountId, input.name, now),
    historyRow(db, businessId, userId, "AD_ACCOUNT_UPDATED", "AD_ACCOUNT", adAccountId, { name: { from: before.name, to: input.name } }, now, "changes() = 1"),
  ]);
  if (update!.meta.changes !== 1) await refuseAssetWrite(db, businessId, userId, "ad_account.update", { type: "AD_ACCOUNT", id: adAccountId }, () => notFound("business:api.adAccountNotFound"));
  return getAdAccount(db, userId, businessId, adAccountId);
}

export async function deleteAdAccount(db: D1Database, userId: number, businessId: number, adAccountId: number, now = Date.now()): Promise<{ id: string }> {
  const before = await getAdAccount(db, userId, businessId, adAccountId);
  await requireAssetAction(db, businessId, userId, "ad_account.delete", { type: "AD_ACCOUNT", id: adAccountId });
  const gone = `NOT EXISTS (SELECT 1 FROM ad_accounts WHERE id = ?3)`;
  // An account that has run campaigns or holds product groups keeps them (their results and
  // history need it): deleting it is refused with a 409, never half-done.
  const unused = `NOT EXISTS (SELECT 1 FROM campaigns WHERE ad_account_id = ?3) AND NOT EXISTS (SELECT 1 FROM product_groups WHERE ad_account_id = ?3)`;
  const [, , remove] = await db.batch([
    // Out of every group of this business first, then its billing profile, then the account; each only for an actor who may.
    db
      .prepare(`DELETE FROM asset_group_assets WHERE asset_type = 'AD_ACCOUNT' AND asset_id = ?3 AND group_id IN (SELECT id FROM asset_groups WHERE business_id = ?1) AND ${actorMayOn("ad_account.delete", "AD_ACCOUNT", "?3")} AND ${unused}`)
      .bind(businessId, userId, adAccountId),
    db
      .prepare(`DELETE FROM billing_profiles WHERE ad_account_id = ?3 AND EXISTS (SELECT 1 FROM ad_accounts WHERE id = ?3 AND business_id = ?1) AND ${actorMayOn("ad_account.delete", "AD_ACCOUNT", "?3")} AND ${unused}`)
      .bind(businessId, userId, adAccountId),
    db.prepare(`DELETE FROM ad_accounts WHERE id = ?3 AND business_id = ?1 AND ${actorMayOn("ad_account.delete", "AD_ACCOUNT", "?3")} AND ${unused}`).bind(businessId, userId, adAccountId),
    db
      .prepare(
        `INSERT INTO business_history (business_id, actor_id, action, entity_type, entity_id, detail, created_at)
         SELECT ?1, ?2, 'AD_ACCOUNT_DELETED', 'AD_ACCOUNT', ?4, ?5, ?6 WHERE changes() = 1 AND ${gone}`,
      )
      .bind(businessId, userId, adAccountId, String(adAccountId), JSON.stringify({ name: before.name }), now),
    // The roles held on it and the offers of it go with it (after the delete, whose re-check reads the actor's own asset role).
    db.prepare(`DELETE FROM business_asset_roles WHERE business_id = ?1 AND asset_type = 'AD_ACCOUNT' AND asset_id = ?2 AND NOT EXISTS (SELECT 1 FROM ad_accounts WHERE id = ?2)`).bind(businessId, adAccountId),
    db.prepare(`DELETE FROM business_aoaa_requests WHERE business_id = ?1 AND ad_account_id = ?2 AND NOT EXISTS (SELECT 1 FROM ad_accounts WHERE id = ?2)`).bind(businessId, adAccountId),
    // Its tags went with it (their foreign key): so do the roles held on them.
    db.prepare(`DELETE FROM business_asset_roles WHERE business_id = ?1 AND asset_type = 'TAG' AND NOT EXISTS (SELECT 1 FROM conversion_tags WHERE id = business_asset_roles.asset_id) AND NOT EXISTS (SELECT 1 FROM ad_accounts WHERE id = ?2)`).bind(businessId, adAccountId),
  ]);
  // D1 counts the rows its foreign keys remove with the account (its tags, audiences, …), so "none" is the refusal.
  if (remove!.meta.changes === 0) {
    const used = await db.prepare(`SELECT NOT (${unused.replaceAll("?3", "?1")}) AS used`).bind(adAccountId).first<{ used: number }>();
    await refuseAssetWrite(db, businessId, userId, "ad_account.delete", { type: "AD_ACCOUNT", id: adAccountId }, () => (used?.used === 1 ? conflict("campaigns:api.adAccountHasCampaigns") : notFound("business:api.adAccountNotFound")));
  }
  return { id: String(adAccountId) };
}

// ---- Asset groups ----

export interface AssetGroupInput {
  name: string;
  description: string;
  asset_group_types: AssetGroupType[];
  child_ad_account_ids: string[];
  child_profile_ids: string[];
}

export interface AssetGroup {
  id: string;
  entity_type: "ASSET_GROUP";
  name: string;
  description: string;
  asset_group_types: AssetGroupType[];
  child_ad_account_ids: string[];
  child_profile_ids: string[];
  created_by: { id: string; username: string; full_name: string };
  owner: { id: string; username: string; full_name: string };
  created_time: number;
  permissions: BusinessAction[];
}

export interface AssetGroupFilters {
  asset_group_types?: AssetGroupType[] | undefined;
}

const GROUP_SELECT = `SELECT g.id, g.name, g.description, g.types, g.created_at,
  c.id AS creator_id, c.username AS creator_username, c.full_name AS creator_full_name,
  o.id AS owner_id, o.username AS owner_username, o.full_name AS owner_full_name,
  (SELECT json_group_array(CAST(asset_id AS TEXT)) FROM asset_group_assets WHERE group_id = g.id AND asset_type = 'AD_ACCOUNT') AS ad_accounts,
  (SELECT json_group_array(CAST(asset_id AS TEXT)) FROM asset_group_assets WHERE group_id = g.id AND asset_type = 'PROFILE') AS profiles
  FROM asset_groups g JOIN users c ON c.id = g.created_by JOIN businesses b ON b.id = g.business_id JOIN users o ON o.id = b.owner_id`;

function groupOf(row: Record<string, unknown>, permissions: BusinessAction[]): AssetGroup {
  return {
    id: String(row["id"]),
    entity_type: "ASSET_GROUP",
    name: String(row["name"]),
    description: String(row["description"]),
    asset_group_types: JSON.parse(String(row["types"])) as AssetGroupType[],
    child_ad_account_ids: (JSON.parse(String(row["ad_accounts"])) as string[]).sort(),
    child_profile_ids: (JSON.parse(String(row["profiles"])) as string[]).sort(),
    created_by: { id: String(row["creator_id"]), username: String(row["creator_username"]), full_name: String(row["creator_full_name"]) },
    owner: { id: String(row["owner_id"]), username: String(row["owner_username"]), full_name: String(row["owner_full_name"]) },
    created_time: seconds(Number(row["created_at"])),
    permissions,
  };
}

export async function listAssetGroups(db: D1Database, userId: number, businessId: number, state: TableState<(typeof ASSET_GROUP_SORTS)[number], (typeof ASSET_GROUP_SEARCHES)[number], AssetGroupFilters>): Promise<TablePage<AssetGroup>> {
  const role = await requireAction(db, businessId, userId, "asset_group.read");
  const own = await ownAssetRoles(db, businessId, userId, "ASSET_GROUP");
  const parts: Array<[(n: number) => string, unknown]> = [];
  if (state.searchTerm) {
    const column = state.searchBy === "description" ? "g.description" : "g.name";
    parts.push([(n) => `${column} LIKE ?${n} ESCAPE '\\'`, likeTerm(state.searchTerm)]);
  }
  const types = state.filtersPayload?.asset_group_types;
  if (types?.length) parts.push([(n) => `EXISTS (SELECT 1 FROM json_each(g.types) t WHERE t.value IN (SELECT value FROM json_each(?${n})))`, JSON.stringify(types)]);
  const clause = where(parts, 4);
  const order = `${ASSET_GROUP_ORDER[state.sortBy]} ${state.sortDirection === "ASCENDING" ? "ASC" : "DESC"}, g.id`;
  const [rows, count] = await db.batch<Record<string, unknown>>([
    db.prepare(`${GROUP_SELECT} WHERE g.business_id = ?1${clause.sql} ORDER BY ${order} LIMIT ?2 OFFSET ?3`).bind(businessId, state.limit, state.startIndex - 1, ...clause.values),
    db.prepare(`SELECT COUNT(*) AS n FROM asset_groups g WHERE g.business_id = ?1${where(parts, 2).sql}`).bind(businessId, ...clause.values),
  ]);
  return tablePage(
    rows!.results.map((row) => groupOf(row, permissionsOn(role, "ASSET_GROUP", { own: own.get(String(row["id"])) ?? null, partners: [] }))),
    Number(count!.results[0]?.["n"] ?? 0),
    state,
  );
}

export async function getAssetGroup(db: D1Database, userId: number, businessId: number, groupId: number): Promise<AssetGroup> {
  const grant = await requireAssetAction(db, businessId, userId, "asset_group.read", { type: "ASSET_GROUP", id: groupId });
  const row = await db.prepare(`${GROUP_SELECT} WHERE g.id = ?1 AND g.business_id = ?2`).bind(groupId, businessId).first<Record<string, unknown>>();
  if (!row) throw notFound("business:api.assetGroupNotFound");
  return groupOf(row, permissionsOn(grant.role, "ASSET_GROUP", grant.access));
}

/** Every child must be this business's: its ad accounts, or the profile it was made from. A 400 names the first stranger. */
async function checkChildren(db: D1Database, businessId: number, input: Pick<AssetGroupInput, "child_ad_account_ids" | "child_profile_ids">): Promise<void> {
  const [accounts, profile] = await db.batch<{ id: number }>([
    db.prepare("SELECT id FROM ad_accounts WHERE business_id = ?1 AND id IN (SELECT value FROM json_each(?2))").bind(businessId, JSON.stringify(input.child_ad_account_ids.map(Number))),
    db.prepare("SELECT profile_id AS id FROM businesses WHERE id = ?1").bind(businessId),
  ]);
  const owned = new Set(accounts!.results.map((row) => String(row.id)));
  const profiles = new Set(profile!.results.map((row) => String(row.id)));
  const problems = [
    ...input.child_ad_account_ids.flatMap((id, index) => (owned.has(id) ? [] : [{ field: `child_ad_account_ids.${index}`, reason: "business:validation.notInBusiness" }])),
    ...input.child_profile_ids.flatMap((id, index) => (profiles.has(id) ? [] : [{ field: `child_profile_ids.${index}`, reason: "business:validation.notInBusiness" }])),
  ];
  if (problems.length > 0) throw badRequest(problems.slice(0, 20));
}

/**
 * The statements that set a group's children, each only while `guard` holds (SQL: the group's
 * own write happened), each child re-checked as the business's.
 */
function childStatements(db: D1Database, businessId: number, groupId: number, input: Pick<AssetGroupInput, "child_ad_account_ids" | "child_profile_ids">, guard: string): D1PreparedStatement[] {
  return [
    db.prepare(`DELETE FROM asset_group_assets WHERE group_id = ?1 AND ${guard}`).bind(groupId),
    db
      .prepare(`INSERT INTO asset_group_assets (group_id, asset_type, asset_id) SELECT ?1, 'AD_ACCOUNT', id FROM ad_accounts WHERE business_id = ?2 AND id IN (SELECT value FROM json_each(?3)) AND ${guard}`)
      .bind(groupId, businessId, JSON.stringify(input.child_ad_account_ids.map(Number))),
    db
      .prepare(`INSERT INTO asset_group_assets (group_id, asset_type, asset_id) SELECT ?1, 'PROFILE', profile_id FROM businesses WHERE id = ?2 AND profile_id IN (SELECT value FROM json_each(?3)) AND ${guard}`)
      .bind(groupId, businessId, JSON.stringify(input.child_profile_ids.map(Number))),
  ];
}

export async function createAssetGroup(db: D1Database, userId: number, businessId: number, input: AssetGroupInput, now = Date.now()): Promise<AssetGroup> {
  await requireAction(db, businessId, userId, "asset_group.create");
  await checkChildren(db, businessId, input);
  const id = newId();
  // Ids and times below are numbers this module made, never input: safe inside the SQL text.
  const made = `EXISTS (SELECT 1 FROM asset_groups WHERE id = ${id})`;
  const [insert] = await db.batch([
    db
      .prepare(
        `INSERT INTO asset_groups (id, business_id, name, description, types, created_by, created_at, updated_at)
         SELECT ?3, ?1, ?4, ?5, ?6, ?2, ?7, ?7 WHERE ${actorMay("asset_group.create")} AND (SELECT COUNT(*) FROM asset_groups WHERE business_id = ?1) < ?8`,
      )
      .bind(businessId, userId, id, input.name, input.description, JSON.stringify(input.asset_group_types), now, LIMITS.assetGroups),
    ...childStatements(db, businessId, id, input, made).slice(1),
    historyRow(db, businessId, userId, "ASSET_GROUP_CREATED", "ASSET_GROUP", id, { name: input.name }, now, made),
  ]);
  if (insert!.meta.changes !== 1) {
    await refuseWrite(db, businessId, userId, "asset_group.create", () => badRequest([{ field: "business", reason: "business:validation.tooManyAssetGroups", values: { maximum: LIMITS.assetGroups } }]));
  }
  return getAssetGroup(db, userId, businessId, id);
}

export async function updateAssetGroup(db: D1Database, userId: number, businessId: number, groupId: number, input: { [Key in keyof AssetGroupInput]?: AssetGroupInput[Key] | undefined }, now = Date.now()): Promise<AssetGroup> {
  const before = await getAssetGroup(db, userId, businessId, groupId);
  await requireAssetAction(db, businessId, userId, "asset_group.update", { type: "ASSET_GROUP", id: groupId });
  const next: AssetGroupInput = {
    name: input.name ?? before.name,
    description: input.description ?? before.description,
    asset_group_types: input.asset_group_types ?? before.asset_group_types,
    child_ad_account_ids: input.child_ad_account_ids ?? before.child_ad_account_ids,
    child_profile_ids: input.child_profile_ids ?? before.child_profile_ids,
  };
  await checkChildren(db, businessId, next);
  const changed = Object.fromEntries(
    (Object.keys(input) as Array<keyof AssetGroupInput>).filter((key) => input[key] !== undefined && JSON.stringify(input[key]) !== JSON.stringify(before[key])).map((key) => [key, { from: before[key], to: input[key] }]),
  );
  const updated = `EXISTS (SELECT 1 FROM asset_groups WHERE id = ${groupId} AND updated_at = ${now})`;
  const [update] = await db.batch([
    db
      .prepare(`UPDATE asset_groups SET name = ?4, description = ?5, types = ?6, updated_at = ?7 WHERE id = ?3 AND business_id = ?1 AND ${actorMayOn("asset_group.update", "ASSET_GROUP", "?3")}`)
      .bind(businessId, userId, groupId, next.name, next.description, JSON.stringify(next.asset_group_types), now),
    // The children follow only an update that happened (a refused one leaves them).
    ...childStatements(db, businessId, groupId, next, updated),
    historyRow(db, businessId, userId, "ASSET_GROUP_UPDATED", "ASSET_GROUP", groupId, changed, now, updated),
  ]);
  if (update!.meta.changes !== 1) await refuseAssetWrite(db, businessId, userId, "asset_group.update", { type: "ASSET_GROUP", id: groupId }, () => notFound("business:api.assetGroupNotFound"));
  return getAssetGroup(db, userId, businessId, groupId);
}

export async function deleteAssetGroup(db: D1Database, userId: number, businessId: number, groupId: number, now = Date.now()): Promise<{ id: string }> {
  const before = await getAssetGroup(db, userId, businessId, groupId);
  await requireAssetAction(db, businessId, userId, "asset_group.delete", { type: "ASSET_GROUP", id: groupId });
  const [, remove] = await db.batch([
    db.prepare(`DELETE FROM asset_group_assets WHERE group_id = ?3 AND ${actorMayOn("asset_group.delete", "ASSET_GROUP", "?3")}`).bind(businessId, userId, groupId),
    db.prepare(`DELETE FROM asset_groups WHERE id = ?3 AND business_id = ?1 AND ${actorMayOn("asset_group.delete", "ASSET_GROUP", "?3")}`).bind(businessId, userId, groupId),
    historyRow(db, businessId, userId, "ASSET_GROUP_DELETED", "ASSET_GROUP", groupId, { name: before.name }, now, "changes() = 1"),
    // The roles held on it go with it (after the delete, whose re-check reads the actor's own asset role).
    db.prepare("DELETE FROM business_asset_roles WHERE business_id = ?1 AND asset_type = 'ASSET_GROUP' AND asset_id = ?2 AND NOT EXISTS (SELECT 1 FROM asset_groups WHERE id = ?2)").bind(businessId, groupId),
  ]);
  if (remove!.meta.changes !== 1) await refuseAssetWrite(db, businessId, userId, "asset_group.delete", { type: "ASSET_GROUP", id: groupId }, () => notFound("business:api.assetGroupNotFound"));
  return { id: String(groupId) };
}

// ---- Dashboard ----

export interface Dashboard {
  recently_added: Array<{ entity_type: "AD_ACCOUNT" | "ASSET_GROUP"; id: string; name: string; created_time: number }>;
  profiles: Array<{ id: string; username: string; full_name: string }>;
}

/** The hub's dashboard: the 10 newest ad accounts and asset groups, and the business's profiles. */
export async function dashboard(db: D1Database, userId: number, businessId: number): Promise<Dashboard> {
  await requireAction(db, businessId, userId, "business.read");
  const [recent, profiles] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `SELECT 'AD_ACCOUNT' AS entity_type, id, name, created_at FROM ad_accounts WHERE business_id = ?1
         UNION ALL SELECT 'ASSET_GROUP', id, name, created_at FROM asset_groups WHERE business_id = ?1
         ORDER BY created_at DESC, id DESC LIMIT 10`,
      )
      .bind(businessId),
    // Its own profile first, then the profiles linked to it (src/business/profiles.server.ts).
    db
      .prepare(
        `SELECT u.id, u.username, u.full_name FROM businesses b JOIN users u ON u.id = b.profile_id WHERE b.id = ?1
         UNION ALL SELECT * FROM (SELECT u.id, u.username, u.full_name FROM business_profiles p JOIN users u ON u.id = p.profile_id WHERE p.business_id = ?1 AND p.status = 'LINKED' ORDER BY p.linked_at LIMIT 20)`,
      )
      .bind(businessId),
  ]);
  return {
    recently_added: recent!.results.map((row) => ({ entity_type: row["entity_type"] as "AD_ACCOUNT" | "ASSET_GROUP", id: String(row["id"]), name: String(row["name"]), created_time: seconds(Number(row["created_at"])) })),
    profiles: profiles!.results.map((row) => ({ id: String(row["id"]), username: String(row["username"]), full_name: String(row["full_name"]) })),
  };
}

// ---- Business properties (BIZ_USER / NAVBAR_CONFIG) ----

export async function readShortcuts(db: D1Database, userId: number, businessId: number): Promise<string[]> {
  await requireAction(db, businessId, userId, "business.read");
  const row = await db
    .prepare("SELECT value FROM business_properties WHERE business_id = ?1 AND user_id = ?2 AND entity_type = 'BIZ_USER' AND key = 'NAVBAR_CONFIG'")
    .bind(businessId, userId)
    .first<{ value: string }>();
  return row ? ((JSON.parse(row.value) as { customShortcuts: string[] }).customShortcuts ?? []) : [];
}

export async function writeShortcuts(db: D1Database, userId: number, businessId: number, shortcuts: string[], now = Date.now()): Promise<string[]> {
  await requireAction(db, businessId, userId, "shortcuts.write");
  await db
    .prepare(
      `INSERT INTO business_properties (business_id, user_id, entity_type, key, value, updated_at) SELECT ?1, ?2, 'BIZ_USER', 'NAVBAR_CONFIG', ?3, ?4 WHERE ${actorMay("shortcuts.write")}
       ON CONFLICT (business_id, user_id, entity_type, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
    )
    .bind(businessId, userId, JSON.stringify({ customShortcuts: shortcuts }), now)
    .run();
  return shortcuts;
}

/** What the onboarding form starts from: the account's own email, country, language and (business sign-up) name, and whether it is known to be adult. */
export async function onboardingStart(db: D1Database, userId: number): Promise<{ email: string; country: string; locale: string; businessName: string; knownAdult: boolean }> {
  const row = await db
    .prepare("SELECT email, country, locale, business_name, age_in_years, is_under_18 FROM users WHERE id = ?1")
    .bind(userId)
    .first<{ email: string; country: string; locale: string; business_name: string | null; age_in_years: number | null; is_under_18: number }>();
  if (!row) throw notFound("business:api.notFound");
  return { email: row.email, country: row.country, locale: row.locale, businessName: row.business_name ?? "", knownAdult: row.is_under_18 === 0 && row.age_in_years !== null && row.age_in_years >= 18 };
}

/** The business an ad account belongs to (the advertiser area starts from the account's id), or null. */
export async function adAccountBusiness(db: D1Database, adAccountId: number): Promise<number | null> {
  const row = await db.prepare("SELECT business_id FROM ad_accounts WHERE id = ?1").bind(adAccountId).first<{ business_id: number }>();
  return row?.business_id ?? null;
}
