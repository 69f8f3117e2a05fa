// The advertiser area's campaigns, ad groups and ads: their tables (the spec's table state), and
// the campaign's edits and status moves (campaign-status.ts's table, re-checked in each write's
// own WHERE so a campaign ended meanwhile is never paused back to life). Every change writes its
// history row in its own batch. A campaign past its end date reads as ENDED everywhere.
import { actorMayOn, historyRow, likeTerm, seconds, where } from "~/business/core.server.ts";
import { tablePage, type TablePage } from "~/business/table-state.ts";
import type { BusinessAction } from "~/business/roles.ts";
import { badRequest, conflict, notFound, type FieldProblem } from "~/domain/errors.ts";
import { actionsFor, effectiveStatus, nextStatus, statusesAllowing, type CampaignStatus, type StatusAction } from "./campaign-status.ts";
import type { AdGroupQuery, AdQuery, CampaignQuery } from "./campaign-tables.ts";
import { budgetProblem, DURATION_MAX, fromMicro, toMicro, type CampaignUpdate, type PromotionGoal } from "./quick-promote.ts";
import { requireAccount } from "./quick-promote.server.ts";

const DAY_MS = 86_400_000;

/** The campaign's status as it reads now (?4 is now in every table statement). */
const EFFECTIVE = `(CASE WHEN c.status IN ('ACTIVE','PAUSED') AND c.end_at IS NOT NULL AND c.end_at <= ?4 THEN 'ENDED' ELSE c.status END)`;
/**
 * Every table statement numbers its values alike (?1 account, ?2 limit, ?3 offset, ?4 now,
 * filters from ?5), and D1 wants each bound number named: a count binds ?2 and ?3 NULL and names
 * them here, and a page that needs no ?4 names it too.
 */
const COUNT_SLOTS = "?2 IS NULL AND ?3 IS NULL AND ?4 IS NOT NULL";
const NOW_SLOT = "?4 IS NOT NULL";
/** An ad group's or ad's: its own, unless its campaign has ended or been rejected. */
const childStatus = (alias: string) => `(CASE WHEN ${EFFECTIVE} IN ('ENDED','REJECTED') THEN ${EFFECTIVE} ELSE ${alias}.status END)`;

const CAMPAIGN_ORDER: Record<CampaignQuery["sortBy"], string> = { created_time: "c.created_at", name: "c.name COLLATE NOCASE", daily_budget: "c.daily_budget_micro", status: EFFECTIVE };

interface CampaignRow {
  id: string;
  ad_account_id: string;
  name: string;
  goal: PromotionGoal;
  status: CampaignStatus;
  daily_budget: number;
  currency: string;
  start_time: number;
  end_time: number | null;
  is_ongoing: boolean;
  is_fdb: boolean;
  created_time: number;
  /** What this viewer may do to it now: pause, resume, end (and edit while it runs). */
  actions: StatusAction[];
  editable: boolean;
}

interface AdGroupRow {
  id: string;
  name: string;
  status: CampaignStatus;
  campaign: { id: string; name: string };
  targeting: Record<string, unknown>;
  created_time: number;
}

interface AdRow {
  id: string;
  name: string;
  status: CampaignStatus;
  review_status: string;
  ad_type: string;
  destination_url: string;
  pin_id: string | null;
  product_group_id: string | null;
  image_url: string | null;
  campaign: { id: string; name: string };
  created_time: number;
}

function searchParts(state: { searchBy?: string; searchTerm?: string; filtersPayload?: { status?: CampaignStatus[] | undefined } }, alias: string, status: string): Array<[(n: number) => string, unknown]> {
  const parts: Array<[(n: number) => string, unknown]> = [];
  if (state.searchTerm) {
    if (state.searchBy === "id") parts.push([(n) => `CAST(${alias}.id AS TEXT) = ?${n}`, state.searchTerm]);
    else parts.push([(n) => `${alias}.name LIKE ?${n} ESCAPE '\\'`, likeTerm(state.searchTerm)]);
  }
  const statuses = state.filtersPayload?.status;
  if (statuses?.length) parts.push([(n) => `${status} IN (SELECT value FROM json_each(?${n}))`, JSON.stringify(statuses)]);
  return parts;
}

const direction = (state: { sortDirection: "ASCENDING" | "DESCENDING" }) => (state.sortDirection === "ASCENDING" ? "ASC" : "DESC");

/** `onAccount`: the account's own actions the viewer may take (the role on the account decides them). */
function campaignOf(row: Record<string, unknown>, onAccount: readonly BusinessAction[], now: number): CampaignRow {
  const status = effectiveStatus(row["status"] as CampaignStatus, row["end_at"] === null ? null : Number(row["end_at"]), now);
  const may = onAccount.includes("campaign.update");
  return {
    id: String(row["id"]),
    ad_account_id: String(row["ad_account_id"]),
    name: String(row["name"]),
    goal: row["goal"] as PromotionGoal,
    status,
    daily_budget: fromMicro(Number(row["daily_budget_micro"])),
    currency: String(row["currency"]),
    start_time: seconds(Number(row["start_at"])),
    end_time: row["end_at"] === null ? null : seconds(Number(row["end_at"])),
    is_ongoing: row["end_at"] === null,
    is_fdb: row["is_fdb"] === 1,
    created_time: seconds(Number(row["created_at"])),
    actions: may ? actionsFor(status) : [],
    editable: may && (status === "ACTIVE" || status === "PAUSED"),
  };
}

const CAMPAIGN_SELECT = `SELECT c.id, c.ad_account_id, c.name, c.goal, c.status, c.daily_budget_micro, c.start_at, c.end_at, c.is_fdb, c.created_at, a.currency
  FROM campaigns c JOIN ad_accounts a ON a.id = c.ad_account_id`;

export async function listCampaigns(db: D1Database, userId: number, adAccountId: number, state: CampaignQuery, now = Date.now()): Promise<TablePage<CampaignRow>> {
  const { permissions } = await requireAccount(db, userId, adAccountId, "campaign.read");
  const parts = searchParts(state, "c", EFFECTIVE);
  const clause = where(parts, 5);
  const order = `${CAMPAIGN_ORDER[state.sortBy]} ${direction(state)}, c.id`;
  const [rows, count] = await db.batch<Record<string, unknown>>([
    db.prepare(`${CAMPAIGN_SELECT} WHERE c.ad_account_id = ?1 AND ${NOW_SLOT}${clause.sql} ORDER BY ${order} LIMIT ?2 OFFSET ?3`).bind(adAccountId, state.limit, state.startIndex - 1, now, ...clause.values),
    db.prepare(`SELECT COUNT(*) AS n FROM campaigns c WHERE c.ad_account_id = ?1 AND ${COUNT_SLOTS}${clause.sql}`).bind(adAccountId, null, null, now, ...clause.values),
  ]);
  return tablePage(
    rows!.results.map((row) => campaignOf(row, permissions, now)),
    Number(count!.results[0]?.["n"] ?? 0),
    state,
  );
}

export async function listAdGroups(db: D1Database, userId: number, adAccountId: number, state: AdGroupQuery, now = Date.now()): Promise<TablePage<AdGroupRow>> {
  await requireAccount(db, userId, adAccountId, "campaign.read");
  const status = childStatus("g");
  const clause = where(searchParts(state, "g", status), 5);
  const order = `${state.sortBy === "name" ? "g.name COLLATE NOCASE" : state.sortBy === "status" ? status : "g.created_at"} ${direction(state)}, g.id`;
  const from = `FROM ad_groups g JOIN campaigns c ON c.id = g.campaign_id WHERE c.ad_account_id = ?1`;
  const [rows, count] = await db.batch<Record<string, unknown>>([
    db
      .prepare(`SELECT g.id, g.name, ${status} AS status, g.targeting, g.created_at, c.id AS campaign_id, c.name AS campaign_name ${from}${clause.sql} ORDER BY ${order} LIMIT ?2 OFFSET ?3`)
      .bind(adAccountId, state.limit, state.startIndex - 1, now, ...clause.values),
    db.prepare(`SELECT COUNT(*) AS n ${from} AND ${COUNT_SLOTS}${clause.sql}`).bind(adAccountId, null, null, now, ...clause.values),
  ]);
  return tablePage(
    rows!.results.map((row) => ({
      id: String(row["id"]),
      name: String(row["name"]),
      status: row["status"] as CampaignStatus,
      campaign: { id: String(row["campaign_id"]), name: String(row["campaign_name"]) },
      targeting: JSON.parse(String(row["targeting"])) as Record<string, unknown>,
      created_time: seconds(Number(row["created_at"])),
    })),
    Number(count!.results[0]?.["n"] ?? 0),
    state,
  );
}

export async function listAds(db: D1Database, userId: number, adAccountId: number, state: AdQuery, now = Date.now()): Promise<TablePage<AdRow>> {
  await requireAccount(db, userId, adAccountId, "campaign.read");
  const status = childStatus("ad");
  const clause = where(searchParts(state, "ad", status), 5);
  const order = `${state.sortBy === "name" ? "ad.name COLLATE NOCASE" : state.sortBy === "status" ? status : "ad.created_at"} ${direction(state)}, ad.id`;
  const from = `FROM ads ad JOIN campaigns c ON c.id = ad.campaign_id WHERE ad.ad_account_id = ?1`;
  const [rows, count] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `SELECT ad.id, ad.name, ${status} AS status, ad.review_status, ad.ad_type, ad.destination_url, ad.pin_id, ad.product_group_id, ad.created_at, c.id AS campaign_id, c.name AS campaign_name,
           (SELECT url FROM pin_images i WHERE i.pin_id = ad.pin_id AND i.size = '236x') AS image_url
         ${from}${clause.sql} ORDER BY ${order} LIMIT ?2 OFFSET ?3`,
      )
      .bind(adAccountId, state.limit, state.startIndex - 1, now, ...clause.values),
    db.prepare(`SELECT COUNT(*) AS n ${from} AND ${COUNT_SLOTS}${clause.sql}`).bind(adAccountId, null, null, now, ...clause.values),
  ]);
  return tablePage(
    rows!.results.map((row) => ({
      id: String(row["id"]),
      name: String(row["name"]),
      status: row["status"] as CampaignStatus,
      review_status: String(row["review_status"]),
      ad_type: String(row["ad_type"]),
      destination_url: String(row["destination_url"]),
      pin_id: row["pin_id"] === null ? null : String(row["pin_id"]),
      product_group_id: row["product_group_id"] === null ? null : String(row["product_group_id"]),
      image_url: (row["image_url"] as string | null) ?? null,
      campaign: { id: String(row["campaign_id"]), name: String(row["campaign_name"]) },
      created_time: seconds(Number(row["created_at"])),
    })),
    Number(count!.results[0]?.["n"] ?? 0),
    state,
  );
}

export async function getCampaign(db: D1Database, userId: number, adAccountId: number, campaignId: number, now = Date.now()): Promise<CampaignRow> {
  const { permissions } = await requireAccount(db, userId, adAccountId, "campaign.read");
  const row = await db.prepare(`${CAMPAIGN_SELECT} WHERE c.id = ?1 AND c.ad_account_id = ?2`).bind(campaignId, adAccountId).first<Record<string, unknown>>();
  if (!row) throw notFound("campaigns:api.campaignNotFound");
  return campaignOf(row, permissions, now);
}

const HISTORY_ACTION: Record<StatusAction, string> = { pause: "CAMPAIGN_PAUSED", resume: "CAMPAIGN_RESUMED", end: "CAMPAIGN_ENDED" };

/**
 * Pause, resume or end, as the transition table allows from the status the campaign reads as
 * now. Ending is final and takes the campaign's ad groups and ads with it; pausing leaves them
 * as they are, so resuming brings back exactly what ran.
 */
export async function changeCampaignStatus(db: D1Database, userId: number, adAccountId: number, campaignId: number, action: StatusAction, now = Date.now()): Promise<CampaignRow> {
  const { businessId } = await requireAccount(db, userId, adAccountId, "campaign.update");
  const before = await getCampaign(db, userId, adAccountId, campaignId, now);
  const to = nextStatus(before.status, action);
  if (to === null) throw conflict("campaigns:api.transition", { status: before.status, action });
  const from = statusesAllowing(action)
    .map((status) => `'${status}'`)
    .join(",");
  const moved = "EXISTS (SELECT 1 FROM campaigns WHERE id = ?1 AND status = ?2 AND updated_at = ?3)";
  const statements = [
    db
      .prepare(
        `UPDATE campaigns SET status = ?4, updated_at = ?5, end_at = CASE WHEN ?4 = 'ENDED' AND (end_at IS NULL OR end_at > ?5) THEN ?5 ELSE end_at END
         WHERE id = ?3 AND ad_account_id = ?6 AND business_id = ?1 AND status IN (${from}) AND (end_at IS NULL OR end_at > ?5) AND ${actorMayOn("campaign.update", "AD_ACCOUNT", "?6")}`,
      )
      .bind(businessId, userId, campaignId, to, now, adAccountId),
    ...(to === "ENDED"
      ? [
          db.prepare(`UPDATE ad_groups SET status = 'ENDED', updated_at = ?3 WHERE campaign_id = ?1 AND status IN ('ACTIVE','PAUSED') AND ${moved}`).bind(campaignId, to, now),
          db.prepare(`UPDATE ads SET status = 'ENDED', updated_at = ?3 WHERE campaign_id = ?1 AND status IN ('ACTIVE','PAUSED') AND ${moved}`).bind(campaignId, to, now),
        ]
      : []),
    historyRow(db, businessId, userId, HISTORY_ACTION[action], "CAMPAIGN", campaignId, { name: before.name, from: before.status, to }, now, `EXISTS (SELECT 1 FROM campaigns WHERE id = ${campaignId} AND status = '${to}' AND updated_at = ${now})`),
  ];
  const [update] = await db.batch(statements);
  if (update!.meta.changes !== 1) {
    await requireAccount(db, userId, adAccountId, "campaign.update");
    const after = await getCampaign(db, userId, adAccountId, campaignId, now);
    throw conflict("campaigns:api.transition", { status: after.status, action });
  }
  return getCampaign(db, userId, adAccountId, campaignId, now);
}

/** The hub's edit: name, daily budget (the country's minimum and the maximum) and end date (a day, or null for ongoing). */
export async function updateCampaign(db: D1Database, userId: number, adAccountId: number, campaignId: number, input: CampaignUpdate, now = Date.now()): Promise<CampaignRow> {
  const { businessId } = await requireAccount(db, userId, adAccountId, "campaign.update");
  const before = await getCampaign(db, userId, adAccountId, campaignId, now);
  if (!before.editable) throw conflict("campaigns:api.finalCampaign", { status: before.status });
  const account = await db.prepare("SELECT country FROM ad_accounts WHERE id = ?1").bind(adAccountId).first<{ country: string }>();
  const problems: FieldProblem[] = [];
  if (input.dailyBudget !== undefined) {
    const budget = budgetProblem(input.dailyBudget, account?.country ?? "");
    if (budget) problems.push({ field: "dailyBudget", ...budget });
  }
  let endAt: number | null | undefined;
  if (input.endDate !== undefined) {
    // The campaign runs through the whole of its last day (UTC).
    endAt = input.endDate === null ? null : Date.parse(`${input.endDate}T00:00:00Z`) + DAY_MS;
    if (endAt !== null && endAt <= now) problems.push({ field: "endDate", reason: "campaigns:validation.endDatePast" });
    else if (endAt !== null && endAt - before.start_time * 1000 > DURATION_MAX * DAY_MS + DAY_MS) problems.push({ field: "endDate", reason: "campaigns:validation.endDateTooFar", values: { maximum: DURATION_MAX } });
  }
  if (problems.length > 0) throw badRequest(problems);
  const next = {
    name: input.name ?? before.name,
    budget: input.dailyBudget ?? before.daily_budget,
    endAt: endAt === undefined ? (before.end_time === null ? null : before.end_time * 1000) : endAt,
  };
  const changed: Record<string, { from: unknown; to: unknown }> = {};
  if (next.name !== before.name) changed["name"] = { from: before.name, to: next.name };
  if (next.budget !== before.daily_budget) changed["daily_budget"] = { from: before.daily_budget, to: next.budget };
  const endTime = endAt === undefined || endAt === null ? null : seconds(endAt);
  if (endAt !== undefined && endTime !== before.end_time) changed["end_time"] = { from: before.end_time, to: endTime };
  const [update] = await db.batch([
    db
      .prepare(
        `UPDATE campaigns SET name = ?4, daily_budget_micro = ?5, end_at = CASE WHEN ?8 = 1 THEN ?6 ELSE end_at END, updated_at = ?7
         WHERE id = ?3 AND ad_account_id = ?9 AND business_id = ?1 AND status IN ('ACTIVE','PAUSED') AND (end_at IS NULL OR end_at > ?7) AND ${actorMayOn("campaign.update", "AD_ACCOUNT", "?9")}`,
      )
      .bind(businessId, userId, campaignId, next.name, toMicro(next.budget), endAt ?? null, now, endAt === undefined ? 0 : 1, adAccountId),
    historyRow(db, businessId, userId, "CAMPAIGN_UPDATED", "CAMPAIGN", campaignId, changed, now, "changes() = 1"),
  ]);
  if (update!.meta.changes !== 1) {
    await requireAccount(db, userId, adAccountId, "campaign.update");
    throw conflict("campaigns:api.finalCampaign", { status: (await getCampaign(db, userId, adAccountId, campaignId, now)).status });
  }
  return getCampaign(db, userId, adAccountId, campaignId, now);
}
