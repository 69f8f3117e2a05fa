// Conversion tags as business assets (spec 002 §3 "Tag"): each owned by one ad account and
// shared with others of the same business (its adAccounts). A child tag is grouped under a
// leader of its own business or of its parent business; a leader leads and is never led, so
// groups are one level deep. The tag script and its events come later: last_fired_event stays
// null until one fires.
import { badRequest, notFound } from "~/domain/errors.ts";
import { actorMay, actorMayOn, historyRow, likeTerm, newId, ownAssetRoles, permissionsOn, requireAction, requireAssetAction, seconds, where, type AssetRef } from "./core.server.ts";
import { tablePage, type TablePage, type TableState } from "./table-state.ts";
import { parentOf } from "./hierarchy.server.ts";
import type { TAG_SEARCHES, TAG_SORTS } from "./asset-schemas.ts";
import type { BusinessAction } from "./roles.ts";

export const TAG_LIMITS = { perBusiness: 100, childrenPerLeader: 50 } as const;

type Named = { id: string; name: string };

interface ConversionTag {
  id: string;
  name: string;
  automatic_enhanced_match: boolean;
  ad_account_id: string;
  business_id: string;
  created_time: number;
  last_fired_event: { event_type: string; fired_time: number } | null;
  leader_tag_id: string | null;
  leader_tag_name: string | null;
  leader_tag_ad_account_id: string | null;
  leader_tag_business_id: string | null;
  /** The tags grouped under this one, when it leads. */
  tags: Array<Named & { ad_account_id: string; business_id: string }>;
  adAccounts: Named[];
  ownerAdAccount: Named;
  created_by: { id: string; username: string; full_name: string };
  permissions: BusinessAction[];
}

const ORDER: Record<(typeof TAG_SORTS)[number], string> = { name: "t.name COLLATE NOCASE", created_time: "t.created_at" };

const SELECT = `SELECT t.id, t.name, t.automatic_enhanced_match, t.ad_account_id, t.business_id, t.created_at, t.last_fired_event,
  l.id AS leader_id, l.name AS leader_name, l.ad_account_id AS leader_account, l.business_id AS leader_business,
  o.name AS owner_name, c.id AS creator_id, c.username, c.full_name,
  (SELECT json_group_array(json_object('id', CAST(k.id AS TEXT), 'name', k.name, 'ad_account_id', CAST(k.ad_account_id AS TEXT), 'business_id', CAST(k.business_id AS TEXT))) FROM conversion_tags k WHERE k.leader_tag_id = t.id) AS children,
  (SELECT json_group_array(json_object('id', CAST(a.id AS TEXT), 'name', a.name)) FROM conversion_tag_shares s JOIN ad_accounts a ON a.id = s.ad_account_id WHERE s.tag_id = t.id) AS shared
  FROM conversion_tags t JOIN ad_accounts o ON o.id = t.ad_account_id JOIN users c ON c.id = t.created_by LEFT JOIN conversion_tags l ON l.id = t.leader_tag_id`;

const byName = <Item extends Named>(list: Item[]) => list.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));

function tagOf(row: Record<string, unknown>, permissions: BusinessAction[]): ConversionTag {
  const fired = row["last_fired_event"] === null ? null : (JSON.parse(String(row["last_fired_event"])) as { event_type: string; fired_at: number });
  const leader = row["leader_id"] === null ? null : row;
  return {
    id: String(row["id"]),
    name: String(row["name"]),
    automatic_enhanced_match: Number(row["automatic_enhanced_match"]) === 1,
    ad_account_id: String(row["ad_account_id"]),
    business_id: String(row["business_id"]),
    created_time: seconds(Number(row["created_at"])),
    last_fired_event: fired ? { event_type: fired.event_type, fired_time: seconds(fired.fired_at) } : null,
    leader_tag_id: leader ? String(leader["leader_id"]) : null,
    leader_tag_name: leader ? String(leader["leader_name"]) : null,
    leader_tag_ad_account_id: leader ? String(leader["leader_account"]) : null,
    leader_tag_business_id: leader ? String(leader["leader_business"]) : null,
    tags: byName(JSON.parse(String(row["children"])) as ConversionTag["tags"]),
    adAccounts: byName(JSON.parse(String(row["shared"])) as Named[]),
    ownerAdAccount: { id: String(row["ad_account_id"]), name: String(row["owner_name"]) },
    created_by: { id: String(row["creator_id"]), username: String(row["username"]), full_name: String(row["full_name"]) },
    permissions,
  };
}

type TagState = TableState<(typeof TAG_SORTS)[number], (typeof TAG_SEARCHES)[number], { ad_account_ids?: string[] | undefined }>;

/** The business's tags; the selected ad accounts filter to tags each owns or is shared with. */
export async function listTags(db: D1Database, userId: number, businessId: number, state: TagState): Promise<TablePage<ConversionTag>> {
  const role = await requireAction(db, businessId, userId, "tag.read");
  const own = await ownAssetRoles(db, businessId, userId, "TAG");
  const parts: Array<[(n: number) => string, unknown]> = [];
  if (state.searchTerm) {
    if (state.searchBy === "id") parts.push([(n) => `CAST(t.id AS TEXT) = ?${n}`, state.searchTerm]);
    else parts.push([(n) => `t.name LIKE ?${n} ESCAPE '\\'`, likeTerm(state.searchTerm)]);
  }
  const accounts = state.filtersPayload?.ad_account_ids;
  if (accounts?.length) {
    parts.push([(n) => `(t.ad_account_id IN (SELECT value FROM json_each(?${n})) OR EXISTS (SELECT 1 FROM conversion_tag_shares s WHERE s.tag_id = t.id AND s.ad_account_id IN (SELECT value FROM json_each(?${n}))))`, JSON.stringify(accounts.map(Number))]);
  }
  const clause = where(parts, 4);
  const order = `${ORDER[state.sortBy]} ${state.sortDirection === "ASCENDING" ? "ASC" : "DESC"}, t.id`;
  const [rows, count] = await db.batch<Record<string, unknown>>([
    db.prepare(`${SELECT} WHERE t.business_id = ?1${clause.sql} ORDER BY ${order} LIMIT ?2 OFFSET ?3`).bind(businessId, state.limit, state.startIndex - 1, ...clause.values),
    db.prepare(`SELECT COUNT(*) AS n FROM conversion_tags t WHERE t.business_id = ?1${where(parts, 2).sql}`).bind(businessId, ...clause.values),
  ]);
  return tablePage(
    rows!.results.map((row) => tagOf(row, permissionsOn(role, "TAG", { own: own.get(String(row["id"])) ?? null, partners: [] }))),
    Number(count!.results[0]?.["n"] ?? 0),
    state,
  );
}

/** One tag is an asset: the role held on it, where there is one, decides (src/business/roles.ts). */
const asTag = (tagId: number): AssetRef => ({ type: "TAG", id: tagId });

export async function getTag(db: D1Database, userId: number, businessId: number, tagId: number): Promise<ConversionTag> {
  const grant = await requireAssetAction(db, businessId, userId, "tag.read", asTag(tagId));
  const row = await db.prepare(`${SELECT} WHERE t.id = ?1 AND t.business_id = ?2`).bind(tagId, businessId).first<Record<string, unknown>>();
  if (!row) throw notFound("business:assets.tagNotFound");
  return tagOf(row, permissionsOn(grant.role, "TAG", grant.access));
}

interface TagInput {
  name: string;
  ad_account_id: string;
  automatic_enhanced_match: boolean;
  leader_tag_id: string | null;
  ad_account_ids: string[];
}

/** Every named account is this business's and the leader may lead; a 400 names each problem. */
async function checkTag(db: D1Database, businessId: number, input: TagInput, self: number | null): Promise<void> {
  const wanted = [...new Set([input.ad_account_id, ...input.ad_account_ids])].map(Number);
  const [accounts, leader, leads] = await db.batch<Record<string, unknown>>([
    db.prepare("SELECT id FROM ad_accounts WHERE business_id = ?1 AND id IN (SELECT value FROM json_each(?2))").bind(businessId, JSON.stringify(wanted)),
    db.prepare("SELECT business_id, leader_tag_id FROM conversion_tags WHERE id = ?1").bind(input.leader_tag_id === null ? 0 : Number(input.leader_tag_id)),
    db.prepare("SELECT COUNT(*) AS n FROM conversion_tags WHERE leader_tag_id = ?1").bind(self ?? 0),
  ]);
  const owned = new Set(accounts!.results.map((row) => String(row["id"])));
  const problems = [
    ...(owned.has(input.ad_account_id) ? [] : [{ field: "ad_account_id", reason: "business:validation.notInBusiness" }]),
    ...input.ad_account_ids.flatMap((id, index) =>
      !owned.has(id) ? [{ field: `ad_account_ids.${index}`, reason: "business:validation.notInBusiness" }] : id === input.ad_account_id ? [{ field: `ad_account_ids.${index}`, reason: "business:validation.ownerAccount" }] : [],
    ),
  ];
  if (input.leader_tag_id !== null) {
    const found = leader!.results[0];
    const allowed = [businessId, await parentOf(db, businessId)];
    if (!found || !allowed.includes(Number(found["business_id"]))) problems.push({ field: "leader_tag_id", reason: "business:validation.noSuchLeader" });
    else if (found["leader_tag_id"] !== null || Number(input.leader_tag_id) === self) problems.push({ field: "leader_tag_id", reason: "business:validation.leaderIsChild" });
    else if (Number(leads!.results[0]?.["n"] ?? 0) > 0) problems.push({ field: "leader_tag_id", reason: "business:validation.leaderLeads" });
  }
  if (problems.length > 0) throw badRequest(problems.slice(0, 20));
}

/** The share rows follow only a write that happened (`guard`), each account re-checked as the business's. */
function shareStatements(db: D1Database, businessId: number, userId: number, tagId: number, accounts: string[], guard: string, now: number): D1PreparedStatement[] {
  return [
    db.prepare(`DELETE FROM conversion_tag_shares WHERE tag_id = ?1 AND ${guard}`).bind(tagId),
    db
      .prepare(`INSERT INTO conversion_tag_shares (tag_id, ad_account_id, shared_by, created_at) SELECT ?1, id, ?3, ?4 FROM ad_accounts WHERE business_id = ?2 AND id IN (SELECT value FROM json_each(?5)) AND ${guard}`)
      .bind(tagId, businessId, userId, now, JSON.stringify(accounts.map(Number))),
  ];
}

/** The leader's group bound, checked inside the write (leaders of a parent business count too). */
const leaderRoom = (slot: number) => `(?${slot} IS NULL OR (SELECT COUNT(*) FROM conversion_tags WHERE leader_tag_id = ?${slot}) < ${TAG_LIMITS.childrenPerLeader})`;

export async function createTag(db: D1Database, userId: number, businessId: number, input: TagInput, now = Date.now()): Promise<ConversionTag> {
  await requireAction(db, businessId, userId, "tag.create");
  await checkTag(db, businessId, input, null);
  const id = newId();
  const made = `EXISTS (SELECT 1 FROM conversion_tags WHERE id = ${id})`;
  const [insert] = await db.batch([
    db
      .prepare(
        `INSERT INTO conversion_tags (id, business_id, ad_account_id, name, automatic_enhanced_match, leader_tag_id, created_by, created_at, updated_at)
         SELECT ?3, ?1, ?4, ?5, ?6, ?7, ?2, ?8, ?8 WHERE ${actorMay("tag.create")} AND (SELECT COUNT(*) FROM conversion_tags WHERE business_id = ?1) < ?9 AND ${leaderRoom(7)}`,
      )
      .bind(businessId, userId, id, Number(input.ad_account_id), input.name, input.automatic_enhanced_match ? 1 : 0, input.leader_tag_id === null ? null : Number(input.leader_tag_id), now, TAG_LIMITS.perBusiness),
    ...shareStatements(db, businessId, userId, id, input.ad_account_ids, made, now).slice(1),
    historyRow(db, businessId, userId, "TAG_CREATED", "CONVERSION_TAG", id, { name: input.name }, now, made),
  ]);
  if (insert!.meta.changes === 0) {
    await requireAction(db, businessId, userId, "tag.create");
    throw badRequest([{ field: "business", reason: "business:validation.tooManyTags", values: { maximum: TAG_LIMITS.perBusiness } }]);
  }
  return getTag(db, userId, businessId, id);
}

export async function updateTag(
  db: D1Database,
  userId: number,
  businessId: number,
  tagId: number,
  input: { name?: string | undefined; automatic_enhanced_match?: boolean | undefined; leader_tag_id?: string | null | undefined; ad_account_ids?: string[] | undefined },
  now = Date.now(),
): Promise<ConversionTag> {
  const before = await getTag(db, userId, businessId, tagId);
  await requireAssetAction(db, businessId, userId, "tag.update", asTag(tagId));
  const next: TagInput = {
    name: input.name ?? before.name,
    ad_account_id: before.ad_account_id,
    automatic_enhanced_match: input.automatic_enhanced_match ?? before.automatic_enhanced_match,
    leader_tag_id: input.leader_tag_id === undefined ? before.leader_tag_id : input.leader_tag_id,
    ad_account_ids: input.ad_account_ids ?? before.adAccounts.map((account) => account.id),
  };
  await checkTag(db, businessId, next, tagId);
  const updated = `EXISTS (SELECT 1 FROM conversion_tags WHERE id = ${tagId} AND updated_at = ${now})`;
  const [update] = await db.batch([
    db
      .prepare(`UPDATE conversion_tags SET name = ?4, automatic_enhanced_match = ?5, leader_tag_id = ?6, updated_at = ?7 WHERE id = ?3 AND business_id = ?1 AND ${actorMayOn("tag.update", "TAG", "?3")} AND (?6 IS leader_tag_id OR ${leaderRoom(6)})`)
      .bind(businessId, userId, tagId, next.name, next.automatic_enhanced_match ? 1 : 0, next.leader_tag_id === null ? null : Number(next.leader_tag_id), now),
    ...shareStatements(db, businessId, userId, tagId, next.ad_account_ids, updated, now),
    historyRow(db, businessId, userId, "TAG_UPDATED", "CONVERSION_TAG", tagId, { name: next.name }, now, updated),
  ]);
  if (update!.meta.changes === 0) {
    await requireAssetAction(db, businessId, userId, "tag.update", asTag(tagId));
    throw badRequest([{ field: "leader_tag_id", reason: "business:validation.leaderFull", values: { maximum: TAG_LIMITS.childrenPerLeader } }]);
  }
  return getTag(db, userId, businessId, tagId);
}

/** Deleting a leader leaves its children ungrouped (the foreign key sets their leader to null). */
export async function deleteTag(db: D1Database, userId: number, businessId: number, tagId: number, now = Date.now()): Promise<{ id: string }> {
  const before = await getTag(db, userId, businessId, tagId);
  await requireAssetAction(db, businessId, userId, "tag.delete", asTag(tagId));
  const [remove] = await db.batch([
    db.prepare(`DELETE FROM conversion_tags WHERE id = ?3 AND business_id = ?1 AND ${actorMayOn("tag.delete", "TAG", "?3")}`).bind(businessId, userId, tagId),
    historyRow(db, businessId, userId, "TAG_DELETED", "CONVERSION_TAG", tagId, { name: before.name }, now, "changes() = 1"),
    // The roles held on it go with it (after the delete, whose re-check reads the actor's own tag role).
    db.prepare("DELETE FROM business_asset_roles WHERE business_id = ?1 AND asset_type = 'TAG' AND asset_id = ?2 AND NOT EXISTS (SELECT 1 FROM conversion_tags WHERE id = ?2)").bind(businessId, tagId),
  ]);
  if (remove!.meta.changes === 0) {
    await requireAssetAction(db, businessId, userId, "tag.delete", asTag(tagId));
    throw notFound("business:assets.tagNotFound");
  }
  return { id: String(tagId) };
}
