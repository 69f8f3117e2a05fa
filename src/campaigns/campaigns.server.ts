// The storage of what an ad account runs (migration 0033): campaigns, ad groups, ads, keywords
// and product groups. Reads give an account's whole inventory (bounded by MAX_ACCOUNT_OBJECTS);
// writes are statements for the caller's own batch, so a change and its history land together.
// Each write takes its rows as one JSON array (json_each), so a batch holds a few statements
// however many rows it writes, and each statement holds only while `guard` (SQL over ?1 the
// business and ?2 the actor, e.g. actorMayOn(...) on the ad account) does: a role taken away meanwhile writes nothing.
// Values arrive already checked by ./validation.ts.
import { visibleSql } from "~/visibility/visibility.server.ts";
import { MAX_ACCOUNT_OBJECTS, type AdType, type CampaignGoal, type KeywordStatus, type MatchType, type ObjectStatus } from "./validation.ts";

export interface CampaignRecord {
  id: number;
  name: string;
  goal: CampaignGoal;
  status: ObjectStatus;
  daily_budget_micro: number;
  start_at: number;
  end_at: number | null;
}

export interface AdGroupRecord {
  id: number;
  campaign_id: number;
  name: string;
  status: ObjectStatus;
  bid_micro: number | null;
  /** JSON {auto, size?, ...} as 0033 keeps it. */
  targeting: string;
}

export interface AdRecord {
  id: number;
  ad_group_id: number;
  campaign_id: number;
  pin_id: number | null;
  product_group_id: number | null;
  name: string;
  ad_type: AdType;
  destination_url: string;
  status: ObjectStatus;
}

export interface KeywordRecord {
  id: number;
  ad_group_id: number;
  text: string;
  match_type: MatchType;
  bid_micro: number | null;
  status: KeywordStatus;
}

export interface ProductGroupRecord {
  id: number;
  name: string;
  /** JSON object of the catalog filters. */
  filters: string;
  status: ObjectStatus;
}

export interface Inventory {
  campaigns: CampaignRecord[];
  adGroups: AdGroupRecord[];
  ads: AdRecord[];
  keywords: KeywordRecord[];
  productGroups: ProductGroupRecord[];
}

/** Everything an ad account holds, oldest first, each kind at most MAX_ACCOUNT_OBJECTS: one batch. */
export async function readInventory(db: D1Database, adAccountId: number): Promise<Inventory> {
  const inAccount = "campaign_id IN (SELECT id FROM campaigns WHERE ad_account_id = ?1)";
  const [campaigns, adGroups, ads, keywords, productGroups] = await db.batch([
    db.prepare("SELECT id, name, goal, status, daily_budget_micro, start_at, end_at FROM campaigns WHERE ad_account_id = ?1 ORDER BY created_at, id LIMIT ?2").bind(adAccountId, MAX_ACCOUNT_OBJECTS),
    db.prepare(`SELECT id, campaign_id, name, status, bid_micro, targeting FROM ad_groups WHERE ${inAccount} ORDER BY created_at, id LIMIT ?2`).bind(adAccountId, MAX_ACCOUNT_OBJECTS),
    db.prepare("SELECT id, ad_group_id, campaign_id, pin_id, product_group_id, name, ad_type, destination_url, status FROM ads WHERE ad_account_id = ?1 ORDER BY created_at, id LIMIT ?2").bind(adAccountId, MAX_ACCOUNT_OBJECTS),
    db
      .prepare(`SELECT k.id, k.ad_group_id, k.text, k.match_type, k.bid_micro, k.status FROM keywords k JOIN ad_groups g ON g.id = k.ad_group_id WHERE g.${inAccount} ORDER BY k.created_at, k.id LIMIT ?2`)
      .bind(adAccountId, MAX_ACCOUNT_OBJECTS),
    db.prepare("SELECT id, name, filters, status FROM product_groups WHERE ad_account_id = ?1 ORDER BY created_at, id LIMIT ?2").bind(adAccountId, MAX_ACCOUNT_OBJECTS),
  ]);
  return {
    campaigns: campaigns!.results as unknown as CampaignRecord[],
    adGroups: adGroups!.results as unknown as AdGroupRecord[],
    ads: ads!.results as unknown as AdRecord[],
    keywords: keywords!.results as unknown as KeywordRecord[],
    productGroups: productGroups!.results as unknown as ProductGroupRecord[],
  };
}

/**
 * The pins among these an ad may promote: ones anyone may see in a shared feed (the feedPin rule:
 * not deleted, hidden or unsafe, by a public profile, on a public board), as an ad shows to everyone.
 */
export async function promotablePinsAmong(db: D1Database, pinIds: readonly number[]): Promise<Set<number>> {
  if (pinIds.length === 0) return new Set();
  const { results } = await db
    .prepare(
      `SELECT p.id FROM pins p LEFT JOIN boards b ON b.id = p.board_id JOIN users pu ON pu.id = p.pinner_id
       WHERE p.id IN (SELECT value FROM json_each(?1)) AND ${visibleSql("feedPin", { pin: "p", board: "b", pinner: "pu" }, null)}`,
    )
    .bind(JSON.stringify([...new Set(pinIds)]))
    .all<{ id: number }>();
  return new Set(results.map((row) => row.id));
}

/** Who writes, where, when, and the SQL (over ?1 business, ?2 actor) every statement must satisfy. */
export interface WriteScope {
  businessId: number;
  actorId: number;
  adAccountId: number;
  now: number;
  guard: string;
}

/** Rows per statement: each JSON parameter stays far below D1's value size. */
const CHUNK = 200;

function chunked<Row>(rows: readonly Row[]): Row[][] {
  const chunks: Row[][] = [];
  for (let at = 0; at < rows.length; at += CHUNK) chunks.push(rows.slice(at, at + CHUNK));
  return chunks;
}

/** One statement per chunk of rows; `sql` reads ?3 (the chunk as JSON), ?4 the account, ?5 now. */
function statements<Row>(db: D1Database, scope: WriteScope, rows: readonly Row[], sql: string): D1PreparedStatement[] {
  return chunked(rows).map((chunk) => db.prepare(sql).bind(scope.businessId, scope.actorId, JSON.stringify(chunk), scope.adAccountId, scope.now));
}

const field = (name: string) => `json_extract(j.value, '$.${name}')`;

export function insertCampaigns(db: D1Database, scope: WriteScope, rows: readonly CampaignRecord[]): D1PreparedStatement[] {
  return statements(
    db,
    scope,
    rows,
    `INSERT INTO campaigns (id, ad_account_id, business_id, name, goal, status, daily_budget_micro, start_at, end_at, created_by, created_at, updated_at)
     SELECT ${field("id")}, ?4, ?1, ${field("name")}, ${field("goal")}, ${field("status")}, ${field("daily_budget_micro")}, ${field("start_at")}, ${field("end_at")}, ?2, ?5, ?5
     FROM json_each(?3) j WHERE ${scope.guard} ORDER BY j.key`,
  );
}

export function updateCampaigns(db: D1Database, scope: WriteScope, rows: readonly CampaignRecord[]): D1PreparedStatement[] {
  return statements(
    db,
    scope,
    rows,
    `UPDATE campaigns SET name = ${field("name")}, status = ${field("status")}, daily_budget_micro = ${field("daily_budget_micro")}, start_at = ${field("start_at")}, end_at = ${field("end_at")}, updated_at = ?5
     FROM json_each(?3) j WHERE campaigns.id = ${field("id")} AND campaigns.ad_account_id = ?4 AND ${scope.guard}`,
  );
}

export function insertAdGroups(db: D1Database, scope: WriteScope, rows: readonly AdGroupRecord[]): D1PreparedStatement[] {
  return statements(
    db,
    scope,
    rows,
    `INSERT INTO ad_groups (id, campaign_id, name, status, bid_micro, targeting, created_at, updated_at)
     SELECT ${field("id")}, ${field("campaign_id")}, ${field("name")}, ${field("status")}, ${field("bid_micro")}, ${field("targeting")}, ?5, ?5
     FROM json_each(?3) j WHERE ${scope.guard} AND ${field("campaign_id")} IN (SELECT id FROM campaigns WHERE ad_account_id = ?4) ORDER BY j.key`,
  );
}

export function updateAdGroups(db: D1Database, scope: WriteScope, rows: readonly AdGroupRecord[]): D1PreparedStatement[] {
  return statements(
    db,
    scope,
    rows,
    `UPDATE ad_groups SET name = ${field("name")}, status = ${field("status")}, bid_micro = ${field("bid_micro")}, targeting = ${field("targeting")}, updated_at = ?5
     FROM json_each(?3) j WHERE ad_groups.id = ${field("id")} AND ad_groups.campaign_id IN (SELECT id FROM campaigns WHERE ad_account_id = ?4) AND ${scope.guard}`,
  );
}

export function insertAds(db: D1Database, scope: WriteScope, rows: readonly AdRecord[]): D1PreparedStatement[] {
  return statements(
    db,
    scope,
    rows,
    `INSERT INTO ads (id, ad_group_id, campaign_id, ad_account_id, pin_id, product_group_id, name, ad_type, destination_url, status, created_at, updated_at)
     SELECT ${field("id")}, ${field("ad_group_id")}, ${field("campaign_id")}, ?4, ${field("pin_id")}, ${field("product_group_id")}, ${field("name")}, ${field("ad_type")}, ${field("destination_url")}, ${field("status")}, ?5, ?5
     FROM json_each(?3) j WHERE ${scope.guard} AND ${field("campaign_id")} IN (SELECT id FROM campaigns WHERE ad_account_id = ?4) ORDER BY j.key`,
  );
}

export function updateAds(db: D1Database, scope: WriteScope, rows: readonly AdRecord[]): D1PreparedStatement[] {
  return statements(
    db,
    scope,
    rows,
    `UPDATE ads SET name = ${field("name")}, ad_type = ${field("ad_type")}, destination_url = ${field("destination_url")}, status = ${field("status")}, updated_at = ?5
     FROM json_each(?3) j WHERE ads.id = ${field("id")} AND ads.ad_account_id = ?4 AND ${scope.guard}`,
  );
}

export function insertKeywords(db: D1Database, scope: WriteScope, rows: readonly KeywordRecord[]): D1PreparedStatement[] {
  return statements(
    db,
    scope,
    rows,
    `INSERT INTO keywords (id, ad_group_id, text, match_type, bid_micro, status, created_at)
     SELECT ${field("id")}, ${field("ad_group_id")}, ${field("text")}, ${field("match_type")}, ${field("bid_micro")}, ${field("status")}, ?5
     FROM json_each(?3) j WHERE ${scope.guard}
       AND ${field("ad_group_id")} IN (SELECT g.id FROM ad_groups g JOIN campaigns c ON c.id = g.campaign_id WHERE c.ad_account_id = ?4) ORDER BY j.key`,
  );
}

export function updateKeywords(db: D1Database, scope: WriteScope, rows: readonly KeywordRecord[]): D1PreparedStatement[] {
  return statements(
    db,
    scope,
    rows,
    `UPDATE keywords SET text = ${field("text")}, match_type = ${field("match_type")}, bid_micro = ${field("bid_micro")}, status = ${field("status")}
     FROM json_each(?3) j WHERE keywords.id = ${field("id")}
       AND keywords.ad_group_id IN (SELECT g.id FROM ad_groups g JOIN campaigns c ON c.id = g.campaign_id WHERE c.ad_account_id = ?4) AND ${scope.guard}`,
  );
}

export function insertProductGroups(db: D1Database, scope: WriteScope, rows: readonly ProductGroupRecord[]): D1PreparedStatement[] {
  return statements(
    db,
    scope,
    rows,
    `INSERT INTO product_groups (id, ad_account_id, name, filters, status, created_at, updated_at)
     SELECT ${field("id")}, ?4, ${field("name")}, ${field("filters")}, ${field("status")}, ?5, ?5
     FROM json_each(?3) j WHERE ${scope.guard} ORDER BY j.key`,
  );
}

export function updateProductGroups(db: D1Database, scope: WriteScope, rows: readonly ProductGroupRecord[]): D1PreparedStatement[] {
  return statements(
    db,
    scope,
    rows,
    `UPDATE product_groups SET name = ${field("name")}, filters = ${field("filters")}, status = ${field("status")}, updated_at = ?5
     FROM json_each(?3) j WHERE product_groups.id = ${field("id")} AND product_groups.ad_account_id = ?4 AND ${scope.guard}`,
  );
}

/** One business history row per entry, written by the same guard: `{action, entity_type, entity_id, detail}`. */
export interface HistoryEntryInput {
  action: string;
  entity_type: string;
  entity_id: string;
  detail: Record<string, unknown>;
}

export function insertHistory(db: D1Database, scope: WriteScope, rows: readonly HistoryEntryInput[]): D1PreparedStatement[] {
  return statements(
    db,
    scope,
    rows,
    `INSERT INTO business_history (business_id, actor_id, action, entity_type, entity_id, detail, created_at)
     SELECT ?1, ?2, ${field("action")}, ${field("entity_type")}, ${field("entity_id")}, json(${field("detail")}), ?5
     FROM json_each(?3) j WHERE ${scope.guard} ORDER BY j.key`,
  );
}
