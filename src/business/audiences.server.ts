// Audiences: a named set of people defined by a rule and owned by one ad account. ENGAGEMENT
// counts the people who saved, reacted to or commented on the business's own pins (its profile
// and linked profiles) within a lookback; CUSTOMER_LIST keeps only the accounts an uploaded list
// of e-mail addresses matched, never the addresses. An audience is shared from its ad account
// with other ad accounts of the business or of a business in its hierarchy; those accounts'
// business lists it as received.
import { badRequest, notFound } from "~/domain/errors.ts";
import { actorMay, historyRow, likeTerm, newId, permissionsOf, requireAction, seconds, where } from "./core.server.ts";
import { tablePage, type TablePage, type TableState } from "./table-state.ts";
import { relatedBusinesses } from "./hierarchy.server.ts";
import type { AUDIENCE_SEARCHES, AUDIENCE_SORTS, AudienceType, Engagement } from "./asset-schemas.ts";
import type { BusinessAction, BusinessRole } from "./roles.ts";

const AUDIENCE_LIMITS = { perBusiness: 100, sharesPerAudience: 50 } as const;
/** A customer list's size is told only from this many people, so a short list cannot probe who has an account. */
const SMALLEST_TOLD_SIZE = 100;
const DAY_MS = 86_400_000;

type Named = { id: string; name: string };
type Rule = { lookback_days?: number; engagements?: Engagement[] };

export interface Audience {
  id: string;
  name: string;
  description: string;
  type: AudienceType;
  rule: Rule;
  /** People in the audience now; null when a customer list matched fewer than size_below. */
  size_estimate: number | null;
  size_below: number | null;
  ad_account_id: string;
  ownerAdAccount: Named;
  business_id: string;
  created_by: { id: string; username: string; full_name: string };
  created_time: number;
  updated_time: number;
  sharedAccounts: Array<Named & { business_id: string; business_name: string; shared_time: number }>;
  permissions: BusinessAction[];
}

interface ReceivedAudience {
  id: string;
  name: string;
  description: string;
  type: AudienceType;
  size_estimate: number | null;
  size_below: number | null;
  ownerAdAccount: Named;
  owner_business: Named;
  received_by: Named;
  shared_time: number;
}

const ORDER: Record<(typeof AUDIENCE_SORTS)[number], string> = { name: "a.name COLLATE NOCASE", created_time: "a.created_at" };

const SELECT = `SELECT a.id, a.name, a.description, a.type, a.rule, a.business_id, a.ad_account_id, a.created_at, a.updated_at,
  o.name AS account_name, c.id AS creator_id, c.username, c.full_name,
  (SELECT json_group_array(json_object('id', CAST(s.ad_account_id AS TEXT), 'name', t.name, 'business_id', CAST(t.business_id AS TEXT), 'business_name', tb.name, 'shared_time', s.created_at / 1000))
     FROM audience_shares s JOIN ad_accounts t ON t.id = s.ad_account_id JOIN businesses tb ON tb.id = t.business_id WHERE s.audience_id = a.id) AS shared
  FROM audiences a JOIN ad_accounts o ON o.id = a.ad_account_id JOIN users c ON c.id = a.created_by`;

/** The people behind the business's pins engaged within the rule's lookback, the business's own profiles left out. */
function engagementCount(db: D1Database, businessId: number, rule: Rule, now: number): D1PreparedStatement {
  const kinds = new Set(rule.engagements ?? []);
  const parts = [
    kinds.has("SAVE") ? "SELECT saved_by AS person FROM board_pins WHERE pin_id IN (SELECT id FROM mine) AND created_at >= ?2" : null,
    kinds.has("REACTION") ? "SELECT user_id AS person FROM reactions WHERE pin_id IN (SELECT id FROM mine) AND created_at >= ?2" : null,
    kinds.has("COMMENT") ? "SELECT user_id AS person FROM comments WHERE pin_id IN (SELECT id FROM mine) AND created_at >= ?2" : null,
  ].filter((part): part is string => part !== null);
  return db
    .prepare(
      `WITH owners AS (SELECT profile_id AS id FROM businesses WHERE id = ?1 UNION SELECT profile_id FROM business_profiles WHERE business_id = ?1 AND status = 'LINKED'),
       mine AS (SELECT id FROM pins WHERE pinner_id IN (SELECT id FROM owners) AND is_deleted = 0)
       SELECT COUNT(*) AS n FROM (${parts.join(" UNION ")}) WHERE person NOT IN (SELECT id FROM owners)`,
    )
    .bind(businessId, now - (rule.lookback_days ?? 30) * DAY_MS);
}

/** Each audience's size, computed from the data now, in one batch. */
async function sizes(db: D1Database, rows: Array<Record<string, unknown>>, now: number): Promise<Array<{ size_estimate: number | null; size_below: number | null }>> {
  if (rows.length === 0) return [];
  const results = await db.batch<{ n: number }>(
    rows.map((row) =>
      row["type"] === "ENGAGEMENT"
        ? engagementCount(db, Number(row["business_id"]), JSON.parse(String(row["rule"])) as Rule, now)
        : db.prepare("SELECT COUNT(*) AS n FROM audience_members WHERE audience_id = ?1").bind(row["id"]),
    ),
  );
  return results.map((result, index) => {
    const n = Number(result.results[0]?.n ?? 0);
    return rows[index]!["type"] === "CUSTOMER_LIST" && n < SMALLEST_TOLD_SIZE ? { size_estimate: null, size_below: SMALLEST_TOLD_SIZE } : { size_estimate: n, size_below: null };
  });
}

function audienceOf(row: Record<string, unknown>, size: { size_estimate: number | null; size_below: number | null }, role: BusinessRole): Audience {
  return {
    id: String(row["id"]),
    name: String(row["name"]),
    description: String(row["description"]),
    type: row["type"] as AudienceType,
    rule: JSON.parse(String(row["rule"])) as Rule,
    ...size,
    ad_account_id: String(row["ad_account_id"]),
    ownerAdAccount: { id: String(row["ad_account_id"]), name: String(row["account_name"]) },
    business_id: String(row["business_id"]),
    created_by: { id: String(row["creator_id"]), username: String(row["username"]), full_name: String(row["full_name"]) },
    created_time: seconds(Number(row["created_at"])),
    updated_time: seconds(Number(row["updated_at"])),
    sharedAccounts: (JSON.parse(String(row["shared"])) as Audience["sharedAccounts"]).sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id)),
    permissions: permissionsOf(role).filter((action) => action.startsWith("audience.")),
  };
}

type AudienceState = TableState<(typeof AUDIENCE_SORTS)[number], (typeof AUDIENCE_SEARCHES)[number], { type?: AudienceType[] | undefined; ad_account_id?: string | undefined }>;

function filters(state: AudienceState): Array<[(n: number) => string, unknown]> {
  const parts: Array<[(n: number) => string, unknown]> = [];
  if (state.searchTerm) parts.push([(n) => `${state.searchBy === "description" ? "a.description" : "a.name"} LIKE ?${n} ESCAPE '\\'`, likeTerm(state.searchTerm)]);
  if (state.filtersPayload?.type?.length) parts.push([(n) => `a.type IN (SELECT value FROM json_each(?${n}))`, JSON.stringify(state.filtersPayload.type)]);
  return parts;
}

/** The business's own audiences (its sharedAudiences: each with the accounts it is shared with). */
export async function listAudiences(db: D1Database, userId: number, businessId: number, state: AudienceState, now = Date.now()): Promise<TablePage<Audience>> {
  const role = await requireAction(db, businessId, userId, "audience.read");
  const parts = filters(state);
  if (state.filtersPayload?.ad_account_id) parts.push([(n) => `a.ad_account_id = ?${n}`, Number(state.filtersPayload.ad_account_id)]);
  const clause = where(parts, 4);
  const order = `${ORDER[state.sortBy]} ${state.sortDirection === "ASCENDING" ? "ASC" : "DESC"}, a.id`;
  const [rows, count] = await db.batch<Record<string, unknown>>([
    db.prepare(`${SELECT} WHERE a.business_id = ?1${clause.sql} ORDER BY ${order} LIMIT ?2 OFFSET ?3`).bind(businessId, state.limit, state.startIndex - 1, ...clause.values),
    db.prepare(`SELECT COUNT(*) AS n FROM audiences a WHERE a.business_id = ?1${where(parts, 2).sql}`).bind(businessId, ...clause.values),
  ]);
  const sized = await sizes(db, rows!.results, now);
  return tablePage(
    rows!.results.map((row, index) => audienceOf(row, sized[index]!, role)),
    Number(count!.results[0]?.["n"] ?? 0),
    state,
  );
}

/** Audiences other ad accounts shared with this business's ad accounts (its receivedAudiences). */
export async function listReceivedAudiences(db: D1Database, userId: number, businessId: number, state: AudienceState, now = Date.now()): Promise<TablePage<ReceivedAudience>> {
  await requireAction(db, businessId, userId, "audience.read");
  const parts = filters(state);
  if (state.filtersPayload?.ad_account_id) parts.push([(n) => `s.ad_account_id = ?${n}`, Number(state.filtersPayload.ad_account_id)]);
  const clause = where(parts, 4);
  const from = `FROM audience_shares s JOIN ad_accounts r ON r.id = s.ad_account_id JOIN audiences a ON a.id = s.audience_id
    JOIN ad_accounts o ON o.id = a.ad_account_id JOIN businesses ob ON ob.id = a.business_id WHERE r.business_id = ?1`;
  const order = `${ORDER[state.sortBy]} ${state.sortDirection === "ASCENDING" ? "ASC" : "DESC"}, a.id, r.id`;
  const [rows, count] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `SELECT a.id, a.name, a.description, a.type, a.rule, a.business_id, o.id AS owner_id, o.name AS owner_name, ob.name AS business_name, r.id AS receiver_id, r.name AS receiver_name, s.created_at AS shared_at
         ${from}${clause.sql} ORDER BY ${order} LIMIT ?2 OFFSET ?3`,
      )
      .bind(businessId, state.limit, state.startIndex - 1, ...clause.values),
    db.prepare(`SELECT COUNT(*) AS n ${from}${where(parts, 2).sql}`).bind(businessId, ...clause.values),
  ]);
  const sized = await sizes(db, rows!.results, now);
  return tablePage(
    rows!.results.map((row, index) => ({
      id: String(row["id"]),
      name: String(row["name"]),
      description: String(row["description"]),
      type: row["type"] as AudienceType,
      ...sized[index]!,
      ownerAdAccount: { id: String(row["owner_id"]), name: String(row["owner_name"]) },
      owner_business: { id: String(row["business_id"]), name: String(row["business_name"]) },
      received_by: { id: String(row["receiver_id"]), name: String(row["receiver_name"]) },
      shared_time: seconds(Number(row["shared_at"])),
    })),
    Number(count!.results[0]?.["n"] ?? 0),
    state,
  );
}

export async function getAudience(db: D1Database, userId: number, businessId: number, audienceId: number, now = Date.now()): Promise<Audience> {
  const role = await requireAction(db, businessId, userId, "audience.read");
  const row = await db.prepare(`${SELECT} WHERE a.id = ?1 AND a.business_id = ?2`).bind(audienceId, businessId).first<Record<string, unknown>>();
  if (!row) throw notFound("business:assets.audienceNotFound");
  return audienceOf(row, (await sizes(db, [row], now))[0]!, role);
}

async function ownAccount(db: D1Database, businessId: number, adAccountId: string, field: string): Promise<void> {
  const found = await db.prepare("SELECT 1 FROM ad_accounts WHERE id = ?1 AND business_id = ?2").bind(Number(adAccountId), businessId).first();
  if (!found) throw badRequest([{ field, reason: "business:validation.notInBusiness" }]);
}

type AudienceInput =
  | { type: "ENGAGEMENT"; ad_account_id: string; name: string; description: string; lookback_days: number; engagements: Engagement[] }
  | { type: "CUSTOMER_LIST"; ad_account_id: string; name: string; description: string; emails: string[] };

export async function createAudience(db: D1Database, userId: number, businessId: number, input: AudienceInput, now = Date.now()): Promise<Audience> {
  await requireAction(db, businessId, userId, "audience.create");
  await ownAccount(db, businessId, input.ad_account_id, "ad_account_id");
  const id = newId();
  const rule: Rule = input.type === "ENGAGEMENT" ? { lookback_days: input.lookback_days, engagements: input.engagements } : {};
  // The id is a number this module made: safe inside the SQL text.
  const made = `EXISTS (SELECT 1 FROM audiences WHERE id = ${id})`;
  const [insert] = await db.batch([
    db
      .prepare(
        `INSERT INTO audiences (id, business_id, ad_account_id, name, description, type, rule, created_by, created_at, updated_at)
         SELECT ?3, ?1, ?4, ?5, ?6, ?7, ?8, ?2, ?9, ?9 WHERE ${actorMay("audience.create")} AND (SELECT COUNT(*) FROM audiences WHERE business_id = ?1) < ?10`,
      )
      .bind(businessId, userId, id, Number(input.ad_account_id), input.name, input.description, input.type, JSON.stringify(rule), now, AUDIENCE_LIMITS.perBusiness),
    ...(input.type === "CUSTOMER_LIST"
      ? [db.prepare(`INSERT INTO audience_members (audience_id, user_id) SELECT ?1, id FROM users WHERE email IN (SELECT value FROM json_each(?2)) AND ${made}`).bind(id, JSON.stringify(input.emails))]
      : []),
    historyRow(db, businessId, userId, "AUDIENCE_CREATED", "AUDIENCE", id, { name: input.name, type: input.type }, now, made),
  ]);
  if (insert!.meta.changes === 0) {
    await requireAction(db, businessId, userId, "audience.create");
    throw badRequest([{ field: "business", reason: "business:validation.tooManyAudiences", values: { maximum: AUDIENCE_LIMITS.perBusiness } }]);
  }
  return getAudience(db, userId, businessId, id, now);
}

export async function updateAudience(db: D1Database, userId: number, businessId: number, audienceId: number, input: { name?: string | undefined; description?: string | undefined; lookback_days?: number | undefined; engagements?: Engagement[] | undefined }, now = Date.now()): Promise<Audience> {
  const before = await getAudience(db, userId, businessId, audienceId, now);
  await requireAction(db, businessId, userId, "audience.update");
  if (before.type !== "ENGAGEMENT") {
    const rules = (["lookback_days", "engagements"] as const).filter((field) => input[field] !== undefined);
    if (rules.length > 0) throw badRequest(rules.map((field) => ({ field, reason: "business:validation.engagementOnly" })));
  }
  const rule: Rule = before.type === "ENGAGEMENT" ? { lookback_days: input.lookback_days ?? before.rule.lookback_days!, engagements: input.engagements ?? before.rule.engagements! } : {};
  const name = input.name ?? before.name;
  const [update] = await db.batch([
    db
      .prepare(`UPDATE audiences SET name = ?4, description = ?5, rule = ?6, updated_at = ?7 WHERE id = ?3 AND business_id = ?1 AND ${actorMay("audience.update")}`)
      .bind(businessId, userId, audienceId, name, input.description ?? before.description, JSON.stringify(rule), now),
    historyRow(db, businessId, userId, "AUDIENCE_UPDATED", "AUDIENCE", audienceId, { name }, now, "changes() = 1"),
  ]);
  if (update!.meta.changes === 0) {
    await requireAction(db, businessId, userId, "audience.update");
    throw notFound("business:assets.audienceNotFound");
  }
  return getAudience(db, userId, businessId, audienceId, now);
}

export async function deleteAudience(db: D1Database, userId: number, businessId: number, audienceId: number, now = Date.now()): Promise<{ id: string }> {
  const before = await getAudience(db, userId, businessId, audienceId, now);
  await requireAction(db, businessId, userId, "audience.delete");
  const [remove] = await db.batch([
    db.prepare(`DELETE FROM audiences WHERE id = ?3 AND business_id = ?1 AND ${actorMay("audience.delete")}`).bind(businessId, userId, audienceId),
    historyRow(db, businessId, userId, "AUDIENCE_DELETED", "AUDIENCE", audienceId, { name: before.name }, now, "changes() = 1"),
  ]);
  if (remove!.meta.changes === 0) {
    await requireAction(db, businessId, userId, "audience.delete");
    throw notFound("business:assets.audienceNotFound");
  }
  return { id: String(audienceId) };
}

/** Shares an audience with another ad account: this business's, or one of a business in its hierarchy. */
export async function shareAudience(db: D1Database, userId: number, businessId: number, audienceId: number, adAccountId: string, now = Date.now()): Promise<Audience> {
  const before = await getAudience(db, userId, businessId, audienceId, now);
  await requireAction(db, businessId, userId, "audience.share");
  const related = [businessId, ...(await relatedBusinesses(db, businessId))];
  const target = await db.prepare("SELECT business_id, name FROM ad_accounts WHERE id = ?1").bind(Number(adAccountId)).first<{ business_id: number; name: string }>();
  if (!target || !related.includes(target.business_id)) throw badRequest([{ field: "ad_account_id", reason: "business:validation.cannotShareWith" }]);
  if (adAccountId === before.ad_account_id) throw badRequest([{ field: "ad_account_id", reason: "business:validation.ownerAccount" }]);
  if (before.sharedAccounts.some((account) => account.id === adAccountId)) return before;
  const [insert] = await db.batch([
    db
      .prepare(
        `INSERT INTO audience_shares (audience_id, ad_account_id, shared_by, created_at) SELECT ?3, ?4, ?2, ?5
         WHERE ${actorMay("audience.share")} AND EXISTS (SELECT 1 FROM audiences WHERE id = ?3 AND business_id = ?1)
           AND (SELECT COUNT(*) FROM audience_shares WHERE audience_id = ?3) < ?6 ON CONFLICT DO NOTHING`,
      )
      .bind(businessId, userId, audienceId, Number(adAccountId), now, AUDIENCE_LIMITS.sharesPerAudience),
    historyRow(db, businessId, userId, "AUDIENCE_SHARED", "AUDIENCE", audienceId, { name: before.name, ad_account_id: adAccountId, ad_account_name: target.name }, now, "changes() = 1"),
  ]);
  if (insert!.meta.changes === 0) {
    await requireAction(db, businessId, userId, "audience.share");
    throw badRequest([{ field: "ad_account_id", reason: "business:validation.tooManyShares", values: { maximum: AUDIENCE_LIMITS.sharesPerAudience } }]);
  }
  return getAudience(db, userId, businessId, audienceId, now);
}

export async function unshareAudience(db: D1Database, userId: number, businessId: number, audienceId: number, adAccountId: number, now = Date.now()): Promise<Audience> {
  const before = await getAudience(db, userId, businessId, audienceId, now);
  await requireAction(db, businessId, userId, "audience.share");
  const [remove] = await db.batch([
    db.prepare(`DELETE FROM audience_shares WHERE audience_id = ?3 AND ad_account_id = ?4 AND ${actorMay("audience.share")}`).bind(businessId, userId, audienceId, adAccountId),
    historyRow(db, businessId, userId, "AUDIENCE_UNSHARED", "AUDIENCE", audienceId, { name: before.name, ad_account_id: String(adAccountId) }, now, "changes() = 1"),
  ]);
  if (remove!.meta.changes === 0) {
    await requireAction(db, businessId, userId, "audience.share");
    throw notFound("business:assets.shareNotFound");
  }
  return getAudience(db, userId, businessId, audienceId, now);
}

/** The ad accounts an audience of this business may be shared with: its own and its hierarchy's (at most 100). */
export async function shareTargets(db: D1Database, userId: number, businessId: number): Promise<Array<{ id: string; name: string; business_name: string }>> {
  await requireAction(db, businessId, userId, "audience.read");
  const related = [businessId, ...(await relatedBusinesses(db, businessId))];
  const { results } = await db
    .prepare("SELECT a.id, a.name, b.name AS business_name FROM ad_accounts a JOIN businesses b ON b.id = a.business_id WHERE a.business_id IN (SELECT value FROM json_each(?1)) ORDER BY a.business_id = ?2 DESC, b.name, a.name LIMIT 100")
    .bind(JSON.stringify(related), businessId)
    .all<{ id: number; name: string; business_name: string }>();
  return results.map((row) => ({ id: String(row.id), name: row.name, business_name: row.business_name }));
}
