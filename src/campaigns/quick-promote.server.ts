// Quick promote's storage: which ad accounts a person may promote from, what an account needs
// before it may (a VALID billing profile, the business's address, the GDPR answer where it
// applies), the pick-a-pin sheet's lists, and the submission: campaign, ad group, ad and history
// row in one batch whose campaign insert re-checks the role, the billing profile and the address
// in SQL, so nothing is half-made and a retry (its client request's claim in the same batch)
// makes nothing twice.
import { blockedHostsAmong } from "~/builder/drafts.server.ts";
import { adAccountBusiness } from "~/business/business.server.ts";
import { actorMay, actorMayOn, historyRow, newId, requireAssetAction } from "~/business/core.server.ts";
import { ASSET_ACTIONS, BUSINESS_ROLES, ROLE_PERMISSIONS, type BusinessAction, type BusinessRole, type Membership } from "~/business/roles.ts";
import { badRequest, conflict, forbidden, notFound, type FieldProblem } from "~/domain/errors.ts";
import { matchExpression, tokensOf } from "~/search/query.ts";
import { visibleSql } from "~/visibility/visibility.server.ts";
import { privacyPolicyProblems, upsertLeadFormStatement } from "~/leads/lead-forms.server.ts";
import { adTypeProblem, budgetProblem, destinationProblem, gdprApplies, toMicro, type LIST_TYPES, type PIN_SOURCES, type QuickPromoteInput } from "./quick-promote.ts";

const DAY_MS = 86_400_000;
/** How many items one pick-a-pin list shows. */
const PICK_LIMIT = 24;
const ACCOUNTS_LIMIT = 50;

/** The GDPR answer is recorded as a history row on the ad account: who agreed, and when. */
const GDPR_ACTION = "GDPR_TERMS_ACCEPTED";

/** A pin may be promoted when a stranger may open it and it is safe: ads are shown to everyone. */
const PROMOTABLE = visibleSql("feedPin", { pin: "p", board: "b", pinner: "u" }, null);

/** The roles that may do this, as a SQL list (constants only). */
const rolesFor = (action: BusinessAction) =>
  BUSINESS_ROLES.filter((role) => ROLE_PERMISSIONS[role].has(action))
    .map((role) => `'${role}'`)
    .join(",");

export interface Advertiser {
  id: string;
  name: string;
  business_id: string;
  business_name: string;
  country: string;
  currency: string;
  hasValidBillingProfile: boolean;
  hasBusinessAddress: boolean;
  gdprApplies: boolean;
  gdprAccepted: boolean;
  /** The viewer's role in the account's business; null for a partner's person, who works through the partner's role on this account. */
  role: Membership;
  /** Whether this person may fill in the business form (the address is the business's). */
  mayEditBusiness: boolean;
  /** Whether this person may fill in the billing form (an ad account setting). */
  mayEditBilling: boolean;
  /** The account's own actions this person may take (its settings and the advertising in it), as the role on the account decides. */
  permissions: BusinessAction[];
}

const ADVERTISER_SELECT = `SELECT a.id, a.name, a.country, a.currency, a.business_id, b.name AS business_name, m.role,
  EXISTS (SELECT 1 FROM billing_profiles bp WHERE bp.ad_account_id = a.id AND bp.status = 'VALID') AS billing,
  EXISTS (SELECT 1 FROM business_addresses ba WHERE ba.business_id = a.business_id) AS address,
  EXISTS (SELECT 1 FROM business_history h WHERE h.business_id = a.business_id AND h.action = '${GDPR_ACTION}' AND h.entity_type = 'AD_ACCOUNT' AND h.entity_id = CAST(a.id AS TEXT)) AS gdpr,
  CASE WHEN m.role = 'ADMIN' THEN 'ADMIN' ELSE coalesce((SELECT r.role FROM business_asset_roles r WHERE r.business_id = a.business_id AND r.member_type = 'EMPLOYEE' AND r.member_id = ?1 AND r.asset_type = 'AD_ACCOUNT' AND r.asset_id = a.id), m.role) END AS on_account
  FROM ad_accounts a JOIN businesses b ON b.id = a.business_id LEFT JOIN business_members m ON m.business_id = a.business_id AND m.user_id = ?1`;

/** `onAccount` are the account's own actions this viewer may take (the role on the account decides them). */
function advertiserOf(row: Record<string, unknown>, onAccount: readonly BusinessAction[]): Advertiser {
  const role = (row["role"] as BusinessRole | null) ?? null;
  const country = String(row["country"]);
  return {
    id: String(row["id"]),
    name: String(row["name"]),
    business_id: String(row["business_id"]),
    business_name: String(row["business_name"]),
    country,
    currency: String(row["currency"]),
    hasValidBillingProfile: row["billing"] === 1,
    hasBusinessAddress: row["address"] === 1,
    gdprApplies: gdprApplies(country),
    gdprAccepted: row["gdpr"] === 1,
    role,
    mayEditBusiness: role !== null && ROLE_PERMISSIONS[role].has("business.update"),
    mayEditBilling: onAccount.includes("ad_account.update"),
    permissions: [...onAccount],
  };
}

/** The ad accounts this person may promote from as an employee (the close-up's Promote button, the advertiser choice), oldest first: the role held on an account, where there is one, decides there. */
export async function promotableAccounts(db: D1Database, userId: number): Promise<Advertiser[]> {
  const { results } = await db
    .prepare(`${ADVERTISER_SELECT} WHERE m.role IS NOT NULL AND on_account IN (${rolesFor("campaign.create")}) ORDER BY a.created_at, a.id LIMIT ${ACCOUNTS_LIMIT}`)
    .bind(userId)
    .all<Record<string, unknown>>();
  return results.map((row) => advertiserOf(row, ASSET_ACTIONS.AD_ACCOUNT.filter((action) => ROLE_PERMISSIONS[row["on_account"] as BusinessRole].has(action))));
}

/**
 * The ad account's business, the viewer's role there (null for a partner's person) and the
 * account's own actions they may take, after the role table allows `action` on this account:
 * advertising in an account is decided by the role held on it (src/business/roles.ts).
 */
export async function requireAccount(db: D1Database, userId: number, adAccountId: number, action: BusinessAction): Promise<{ businessId: number; role: Membership; permissions: BusinessAction[] }> {
  const businessId = await adAccountBusiness(db, adAccountId);
  if (businessId === null) throw notFound("business:api.adAccountNotFound");
  const grant = await requireAssetAction(db, businessId, userId, action, { type: "AD_ACCOUNT", id: adAccountId });
  return { businessId, role: grant.role, permissions: grant.permissions };
}

export async function getAdvertiser(db: D1Database, userId: number, adAccountId: number): Promise<Advertiser> {
  const { permissions } = await requireAccount(db, userId, adAccountId, "campaign.read");
  const row = await db.prepare(`${ADVERTISER_SELECT} WHERE a.id = ?2`).bind(userId, adAccountId).first<Record<string, unknown>>();
  if (!row) throw notFound("business:api.adAccountNotFound");
  return advertiserOf(row, permissions);
}

// ---- What promotion needs first ----

/** The GDPR modal's answer, recorded once per ad account. */
export async function acceptGdpr(db: D1Database, userId: number, adAccountId: number, now = Date.now()): Promise<Advertiser> {
  const { businessId } = await requireAccount(db, userId, adAccountId, "campaign.create");
  const before = await getAdvertiser(db, userId, adAccountId);
  if (!before.gdprApplies) throw badRequest([{ field: "gdpr", reason: "campaigns:validation.gdprNotApplicable" }]);
  if (!before.gdprAccepted) {
    const [write] = await db.batch([historyRow(db, businessId, userId, GDPR_ACTION, "AD_ACCOUNT", adAccountId, { country: before.country }, now, actorMayOn("campaign.create", "AD_ACCOUNT", String(adAccountId)))]);
    if (write!.meta.changes !== 1) throw forbidden("business:api.forbidden");
  }
  return getAdvertiser(db, userId, adAccountId);
}

/**
 * The minimal test-mode billing form: a TEST profile, VALID at once (there is no payment
 * processor yet), replacing any earlier one; an ad account setting, so whoever may change the
 * account's settings may fill it in.
 */
export async function saveTestBilling(db: D1Database, userId: number, adAccountId: number, form: { name: string; email: string }, now = Date.now()): Promise<Advertiser> {
  const { businessId } = await requireAccount(db, userId, adAccountId, "ad_account.update");
  const [write] = await db.batch([
    db
      .prepare(
        `INSERT INTO billing_profiles (ad_account_id, mode, status, billing_information, created_by, created_at, updated_at)
         SELECT ?3, 'TEST', 'VALID', ?4, ?2, ?5, ?5 WHERE ${actorMayOn("ad_account.update", "AD_ACCOUNT", "?3")}
         ON CONFLICT (ad_account_id) DO UPDATE SET status = 'VALID', billing_information = excluded.billing_information, updated_at = excluded.updated_at`,
      )
      .bind(businessId, userId, adAccountId, JSON.stringify(form), now),
    historyRow(db, businessId, userId, "BILLING_PROFILE_SAVED", "AD_ACCOUNT", adAccountId, { mode: "TEST" }, now, "changes() = 1"),
  ]);
  if (write!.meta.changes !== 1) throw forbidden("business:api.forbidden");
  return getAdvertiser(db, userId, adAccountId);
}

/** The business form: the business's address, which promotion needs. The business's own setting: business.update. */
export async function saveBusinessAddress(
  db: D1Database,
  userId: number,
  adAccountId: number,
  form: { line1: string; line2: string; city: string; region: string; postalCode: string; country: string },
  now = Date.now(),
): Promise<Advertiser> {
  const { businessId } = await requireAccount(db, userId, adAccountId, "business.update");
  const [write] = await db.batch([
    db
      .prepare(
        `INSERT INTO business_addresses (business_id, line1, line2, city, region, postal_code, country, updated_by, updated_at)
         SELECT ?1, ?3, ?4, ?5, ?6, ?7, ?8, ?2, ?9 WHERE ${actorMay("business.update")}
         ON CONFLICT (business_id) DO UPDATE SET line1 = excluded.line1, line2 = excluded.line2, city = excluded.city, region = excluded.region,
           postal_code = excluded.postal_code, country = excluded.country, updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
      )
      .bind(businessId, userId, form.line1, form.line2, form.city, form.region, form.postalCode, form.country, now),
    historyRow(db, businessId, userId, "BUSINESS_ADDRESS_SAVED", "BUSINESS", businessId, { country: form.country }, now, "changes() = 1"),
  ]);
  if (write!.meta.changes !== 1) throw forbidden("business:api.forbidden");
  return getAdvertiser(db, userId, adAccountId);
}

// ---- The pick-a-pin sheet ----

interface PickQuery {
  source: (typeof PIN_SOURCES)[number];
  listType: (typeof LIST_TYPES)[number];
  boardId?: number | undefined;
  searchTerm?: string | undefined;
  pinIds?: number[] | undefined;
}

interface PickItem {
  type: "pin" | "product_group" | "board";
  id: string;
  title: string;
  kind: string | null;
  image_url: string | null;
  image_signature: string | null;
  link: string | null;
}

const PIN_COLUMNS = `p.id, p.kind, p.title, p.grid_title, p.image_signature, p.link,
  (SELECT url FROM pin_images i WHERE i.pin_id = p.id AND i.size = '236x') AS image_url`;
const PIN_FROM = `FROM pins p JOIN users u ON u.id = p.pinner_id LEFT JOIN boards b ON b.id = p.board_id`;

/**
 * One list of the sheet. Pins: the business profile's own; boards: the profile's public boards,
 * then a board's pins; selected: the pins named; search results: any promotable pin matching
 * the words; product groups: the account's running ones. RECENT lists newest first; PROMOTED
 * only what this account has promoted before. Every pin passes the promotable rule.
 */
export async function pickList(db: D1Database, userId: number, adAccountId: number, query: PickQuery): Promise<PickItem[]> {
  const { businessId } = await requireAccount(db, userId, adAccountId, "campaign.read");
  // ?2 is the account for PROMOTED and NULL for RECENT, so every statement numbers alike.
  const promoted = " AND (?2 IS NULL OR EXISTS (SELECT 1 FROM ads ad WHERE ad.ad_account_id = ?2 AND ad.pin_id = p.id))";
  const pins = async (where: string, values: unknown[]) => {
    const { results } = await db
      .prepare(`SELECT ${PIN_COLUMNS} ${PIN_FROM} WHERE ${PROMOTABLE}${promoted} AND ${where} ORDER BY p.created_at DESC, p.id DESC LIMIT ${PICK_LIMIT}`)
      .bind(businessId, query.listType === "PROMOTED" ? adAccountId : null, ...values)
      .all<Record<string, unknown>>();
    return results.map(
      (row): PickItem => ({
        type: "pin",
        id: String(row["id"]),
        title: String(row["title"] || row["grid_title"] || ""),
        kind: String(row["kind"]),
        image_url: (row["image_url"] as string | null) ?? null,
        image_signature: String(row["image_signature"]),
        link: (row["link"] as string | null) ?? null,
      }),
    );
  };
  switch (query.source) {
    case "PINS":
      return pins("p.pinner_id = (SELECT profile_id FROM businesses WHERE id = ?1)", []);
    case "SELECTED":
      return pins("p.id IN (SELECT value FROM json_each(?3))", [JSON.stringify((query.pinIds ?? []).slice(0, PICK_LIMIT))]);
    case "SEARCH_RESULTS": {
      // The search box's own rule: every word, the last as a prefix, none read as FTS5 syntax.
      const match = matchExpression(tokensOf(query.searchTerm ?? ""), { prefixLast: true });
      if (match === null) return [];
      return pins("p.id IN (SELECT rowid FROM search_pins WHERE search_pins MATCH ?3 LIMIT 500)", [match]);
    }
    case "BOARDS": {
      if (query.boardId !== undefined) return pins("p.board_id = ?3 AND b.owner_id = (SELECT profile_id FROM businesses WHERE id = ?1)", [query.boardId]);
      const { results } = await db
        .prepare(
          `SELECT b.id, b.name FROM boards b JOIN users o ON o.id = b.owner_id
           WHERE b.owner_id = (SELECT profile_id FROM businesses WHERE id = ?1) AND ${visibleSql("publicBoard", { board: "b", owner: "o" }, null)}
           ORDER BY b.created_at DESC, b.id DESC LIMIT ${PICK_LIMIT}`,
        )
        .bind(businessId)
        .all<{ id: number; name: string }>();
      return results.map((row) => ({ type: "board", id: String(row.id), title: row.name, kind: null, image_url: null, image_signature: null, link: null }));
    }
    case "PRODUCT_GROUPS": {
      const promotedGroups = query.listType === "PROMOTED" ? " AND EXISTS (SELECT 1 FROM ads ad WHERE ad.ad_account_id = ?1 AND ad.product_group_id = g.id)" : "";
      const { results } = await db
        .prepare(`SELECT g.id, g.name FROM product_groups g WHERE g.ad_account_id = ?1 AND g.status IN ('ACTIVE','PAUSED')${promotedGroups} ORDER BY g.created_at DESC, g.id DESC LIMIT ${PICK_LIMIT}`)
        .bind(adAccountId)
        .all<{ id: number; name: string }>();
      return results.map((row) => ({ type: "product_group", id: String(row.id), title: row.name, kind: null, image_url: null, image_signature: null, link: null }));
    }
  }
}

// ---- The submission ----

interface CreatedPromotion {
  campaign_id: string;
  ad_group_id: string;
  ad_id: string;
}

/** What is promoted, read for the checks: a promotable pin, or a running product group of this account. */
async function promotedOf(db: D1Database, adAccountId: number, input: QuickPromoteInput): Promise<{ pinKind: string } | { productGroup: true } | null> {
  if (input.pinId !== undefined) {
    const row = await db.prepare(`SELECT p.kind ${PIN_FROM} WHERE p.id = ?1 AND ${PROMOTABLE}`).bind(Number(input.pinId)).first<{ kind: string }>();
    return row ? { pinKind: row.kind } : null;
  }
  const group = await db.prepare("SELECT 1 FROM product_groups WHERE id = ?1 AND ad_account_id = ?2 AND status IN ('ACTIVE','PAUSED')").bind(Number(input.productGroupId), adAccountId).first();
  return group ? { productGroup: true } : null;
}

/** The refusal when the account is not ready: named, so the form can open the step that is missing. */
function notReady(advertiser: Advertiser): Error | null {
  if (advertiser.gdprApplies && !advertiser.gdprAccepted) return conflict("campaigns:api.gdprRequired", { missing: "gdpr" });
  if (!advertiser.hasBusinessAddress) return conflict("campaigns:api.addressRequired", { missing: "businessAddress" });
  if (!advertiser.hasValidBillingProfile) return conflict("campaigns:api.billingRequired", { missing: "billingProfile" });
  return null;
}

export async function quickPromote(db: D1Database, userId: number, adAccountId: number, input: QuickPromoteInput, claim: D1PreparedStatement[] = [], now = Date.now()): Promise<CreatedPromotion> {
  const { businessId } = await requireAccount(db, userId, adAccountId, "campaign.create");
  const advertiser = await getAdvertiser(db, userId, adAccountId);
  const refusal = notReady(advertiser);
  if (refusal) throw refusal;

  const problems: FieldProblem[] = [];
  const budget = budgetProblem(input.dailyBudget, advertiser.country);
  if (budget) problems.push({ field: "dailyBudget", ...budget });
  const url = input.destinationUrl.trim();
  let host = "";
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    // destinationProblem names it below.
  }
  const destination = destinationProblem(url, await blockedHostsAmong(db, host ? [host] : []));
  if (destination) problems.push({ field: "destinationUrl", reason: destination });
  const promoted = await promotedOf(db, adAccountId, input);
  if (promoted === null) problems.push({ field: input.pinId !== undefined ? "pinId" : "productGroupId", reason: "campaigns:validation.notPromotable" });
  else {
    const adType = adTypeProblem(input.adType, promoted);
    if (adType) problems.push({ field: "adType", reason: adType });
  }
  if (input.leadForm) problems.push(...(await privacyPolicyProblems(db, input.leadForm, "leadForm.")));
  if (problems.length > 0) throw badRequest(problems);

  const campaignId = newId();
  const adGroupId = newId();
  const adId = newId();
  const endAt = input.isOngoing ? null : now + input.duration! * DAY_MS;
  const targeting = {
    auto: input.audience.isAutoTargeting,
    ages: input.audience.ages,
    genders: input.audience.genders,
    interests: input.audience.interests,
    locales: input.audience.locales,
    size: input.audience.size,
    ...(input.selectedOCPMTag ? { conversionEvent: input.selectedOCPMTag } : {}),
  };
  // Ids below are numbers this module made, never input: safe inside the SQL text.
  const made = `EXISTS (SELECT 1 FROM campaigns WHERE id = ${campaignId})`;
  const ready = `EXISTS (SELECT 1 FROM billing_profiles WHERE ad_account_id = ?3 AND status = 'VALID') AND EXISTS (SELECT 1 FROM business_addresses WHERE business_id = ?1)`;
  const results = await db.batch([
    ...claim,
    db
      .prepare(
        `INSERT INTO campaigns (id, ad_account_id, business_id, name, goal, status, daily_budget_micro, start_at, end_at, is_fdb, created_by, created_at, updated_at)
         SELECT ?4, ?3, ?1, ?5, ?6, 'ACTIVE', ?7, ?8, ?9, ?10, ?2, ?8, ?8 WHERE ${actorMayOn("campaign.create", "AD_ACCOUNT", "?3")} AND ${ready}`,
      )
      .bind(businessId, userId, adAccountId, campaignId, input.name, input.goal, toMicro(input.dailyBudget), now, endAt, input.isFdb ? 1 : 0),
    db
      .prepare(`INSERT INTO ad_groups (id, campaign_id, name, status, bid_micro, targeting, created_at, updated_at) SELECT ?1, ?2, ?3, 'ACTIVE', NULL, ?4, ?5, ?5 WHERE ${made}`)
      .bind(adGroupId, campaignId, input.name, JSON.stringify(targeting), now),
    db
      .prepare(
        `INSERT INTO ads (id, ad_group_id, campaign_id, ad_account_id, pin_id, product_group_id, name, ad_type, destination_url, status, created_at, updated_at)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 'ACTIVE', ?10, ?10 WHERE ${made}`,
      )
      .bind(adId, adGroupId, campaignId, adAccountId, input.pinId === undefined ? null : Number(input.pinId), input.productGroupId === undefined ? null : Number(input.productGroupId), input.name, input.adType, url, now),
    ...(input.leadForm ? [upsertLeadFormStatement(db, adId, adAccountId, input.leadForm, now, made)] : []),
    historyRow(
      db,
      businessId,
      userId,
      "CAMPAIGN_CREATED",
      "CAMPAIGN",
      campaignId,
      { name: input.name, goal: input.goal, daily_budget: input.dailyBudget, ad_type: input.adType, pin_id: input.pinId ?? null, product_group_id: input.productGroupId ?? null, lead_form: input.leadForm !== null },
      now,
      made,
    ),
  ]);
  if (results[claim.length]!.meta.changes !== 1) {
    // The role or the account changed between the checks and the write: say which.
    await requireAccount(db, userId, adAccountId, "campaign.create");
    throw notReady(await getAdvertiser(db, userId, adAccountId)) ?? forbidden("business:api.forbidden");
  }
  return { campaign_id: String(campaignId), ad_group_id: String(adGroupId), ad_id: String(adId) };
}
