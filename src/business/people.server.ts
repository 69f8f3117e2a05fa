// The people of a business: its employees (members with one business role), the invites that
// make someone an employee, and the per-asset roles employees and partners hold. Every read and
// write asks the role table (./roles.ts) through requireAction first; every change is one D1
// batch whose main statement re-checks the actor's role in SQL and whose history row is written
// only when that statement changed something.
import { badRequest, conflict, notFound } from "~/domain/errors.ts";
import { enforce, type RateRule } from "~/server/rate-limit.server.ts";
import { LIMITS, listAdAccounts, listAssetGroups, type BusinessSummary } from "./business.server.ts";
import { actorMay, historyRow, likeTerm, newId, requireAction, seconds, where } from "./core.server.ts";
import { inviteStatus, INVITE_TTL_MS, PEOPLE_LIMITS, type AssetRoleInput, type EMPLOYEE_SEARCHES, type EMPLOYEE_SORTS, type INVITE_SEARCHES, type INVITE_SORTS, type InviteStatus } from "./people.ts";
import type { AssetType, BusinessAction, BusinessRole } from "./roles.ts";
import { adAccountQuery, assetGroupQuery } from "./schemas.ts";
import { tagQuery } from "./asset-schemas.ts";
import { listTags, TAG_LIMITS } from "./tags.server.ts";
import { tablePage, type TablePage, type TableState } from "./table-state.ts";

/** Invites (employees and partners alike) a business may send a day: a team's hiring, not a spam run. */
export const INVITE_RULE: RateRule = { name: "business-invite:business", limit: PEOPLE_LIMITS.invitesPerDay, windowMs: 86_400_000 };

// ---- Assets and the roles held on them ----

/** SQL true when the asset (type and id expressions) is the business's own: its ad account, asset group, profile or conversion tag. */
export const assetInBusiness = (type: string, id: string, business: string) =>
  `CASE ${type} WHEN 'AD_ACCOUNT' THEN EXISTS (SELECT 1 FROM ad_accounts WHERE id = ${id} AND business_id = ${business})
    WHEN 'ASSET_GROUP' THEN EXISTS (SELECT 1 FROM asset_groups WHERE id = ${id} AND business_id = ${business})
    WHEN 'PROFILE' THEN EXISTS (SELECT 1 FROM businesses WHERE id = ${business} AND profile_id = ${id})
    WHEN 'TAG' THEN EXISTS (SELECT 1 FROM conversion_tags WHERE id = ${id} AND business_id = ${business}) ELSE 0 END`;

/** The entries as stored: ids as numbers, so SQL compares them with the assets' integer ids. */
export const storedAssetRoles = (entries: AssetRoleInput[]) => JSON.stringify(entries.map((entry) => ({ asset_type: entry.asset_type, asset_id: Number(entry.asset_id), role: entry.role })));

/** Every asset must be this business's; a 400 names each stranger (`field(index)`). */
export async function checkAssets(db: D1Database, businessId: number, entries: Array<{ asset_type: AssetType; asset_id: string }>, field: (index: number) => string): Promise<void> {
  if (entries.length === 0) return;
  const { results } = await db
    .prepare(`SELECT CAST(j.key AS INTEGER) AS i FROM json_each(?2) j WHERE ${assetInBusiness("json_extract(j.value, '$.asset_type')", "json_extract(j.value, '$.asset_id')", "?1")}`)
    .bind(businessId, JSON.stringify(entries.map((entry) => ({ asset_type: entry.asset_type, asset_id: Number(entry.asset_id) }))))
    .all<{ i: number }>();
  const owned = new Set(results.map((row) => row.i));
  const problems = entries.flatMap((_, index) => (owned.has(index) ? [] : [{ field: field(index), reason: "business:validation.notInBusiness" }]));
  if (problems.length > 0) throw badRequest(problems.slice(0, 20));
}

interface HeldAsset {
  asset_type: AssetType;
  id: string;
  name: string;
  /** The asset role; "roles" and "permissions" name the same thing (spec 002 §3). */
  permissions: BusinessRole[];
  roles: BusinessRole[];
}

/** What an employee or partner holds: the spec's assets_summary, and each kind's list with names. */
export interface HeldAssets {
  assets_summary: { ad_accounts: Array<{ id: string; permissions: BusinessRole[]; roles: BusinessRole[] }>; profiles: Array<{ id: string; permissions: BusinessRole[]; roles: BusinessRole[] }> };
  adAccounts: HeldAsset[];
  profiles: HeldAsset[];
  assetGroups: HeldAsset[];
  tags: HeldAsset[];
}

export function heldAssets(entries: HeldAsset[]): HeldAssets {
  const of = (type: AssetType) => entries.filter((entry) => entry.asset_type === type);
  const summary = (type: AssetType) => of(type).map((entry) => ({ id: entry.id, permissions: entry.permissions, roles: entry.roles }));
  return { assets_summary: { ad_accounts: summary("AD_ACCOUNT"), profiles: summary("PROFILE") }, adAccounts: of("AD_ACCOUNT"), profiles: of("PROFILE"), assetGroups: of("ASSET_GROUP"), tags: of("TAG") };
}

/** The asset roles held in `businessIds` by `memberIds` of `memberType`, keyed "business:member". */
export async function assetRolesOf(db: D1Database, memberType: "EMPLOYEE" | "PARTNER", businessIds: number[], memberIds: number[]): Promise<Map<string, HeldAsset[]>> {
  const held = new Map<string, HeldAsset[]>();
  if (businessIds.length === 0 || memberIds.length === 0) return held;
  const { results } = await db
    .prepare(
      `SELECT r.business_id, r.member_id, r.asset_type, r.asset_id, r.role,
        CASE r.asset_type WHEN 'AD_ACCOUNT' THEN (SELECT name FROM ad_accounts WHERE id = r.asset_id)
          WHEN 'ASSET_GROUP' THEN (SELECT name FROM asset_groups WHERE id = r.asset_id)
          WHEN 'TAG' THEN (SELECT name FROM conversion_tags WHERE id = r.asset_id)
          ELSE (SELECT username FROM users WHERE id = r.asset_id) END AS name
       FROM business_asset_roles r
       WHERE r.member_type = ?1 AND r.business_id IN (SELECT value FROM json_each(?2)) AND r.member_id IN (SELECT value FROM json_each(?3))
       ORDER BY r.asset_type, name COLLATE NOCASE, r.asset_id LIMIT 5000`,
    )
    .bind(memberType, JSON.stringify(businessIds), JSON.stringify(memberIds))
    .all<{ business_id: number; member_id: number; asset_type: AssetType; asset_id: number; role: BusinessRole; name: string | null }>();
  for (const row of results) {
    const key = `${row.business_id}:${row.member_id}`;
    const list = held.get(key) ?? [];
    list.push({ asset_type: row.asset_type, id: String(row.asset_id), name: row.name ?? "", permissions: [row.role], roles: [row.role] });
    held.set(key, list);
  }
  return held;
}

/** Who may give roles to each kind of member. */
const MANAGE: Record<"EMPLOYEE" | "PARTNER", BusinessAction> = { EMPLOYEE: "people.manage", PARTNER: "partner.manage" };
/** SQL: the member exists (?1 business, ?3 member). */
const MEMBER_EXISTS = {
  EMPLOYEE: "EXISTS (SELECT 1 FROM business_members WHERE business_id = ?1 AND user_id = ?3)",
  PARTNER: "EXISTS (SELECT 1 FROM business_partners WHERE business_id = ?1 AND partner_id = ?3)",
} as const;

/**
 * Gives one role on several assets of one type to an employee or a partner (replacing the role
 * each held there), in one batch with its history. Identifiers and role are required by the
 * body's schema; an asset not the business's is a 400 and nothing changes.
 */
export async function setAssetRoles(db: D1Database, actorId: number, businessId: number, memberType: "EMPLOYEE" | "PARTNER", memberId: number, input: { asset_type: AssetType; asset_ids: string[]; role: BusinessRole }, now = Date.now()): Promise<void> {
  await requireAction(db, businessId, actorId, MANAGE[memberType]);
  if ((await db.prepare(`SELECT ${MEMBER_EXISTS[memberType]} AS found`).bind(businessId, actorId, memberId).first<{ found: number }>())?.found !== 1) {
    throw notFound(memberType === "EMPLOYEE" ? "business:people.employeeNotFound" : "business:people.partnerNotFound");
  }
  await checkAssets(
    db,
    businessId,
    input.asset_ids.map((id) => ({ asset_type: input.asset_type, asset_id: id })),
    (index) => `asset_ids.${index}`,
  );
  const ids = JSON.stringify(input.asset_ids.map(Number));
  const [upsert] = await db.batch([
    db
      .prepare(
        `INSERT INTO business_asset_roles (business_id, member_type, member_id, asset_type, asset_id, role, created_at)
         SELECT ?1, ?4, ?3, ?5, j.value, ?6, ?7 FROM json_each(?8) j
         WHERE ${actorMay(MANAGE[memberType])} AND ${MEMBER_EXISTS[memberType]} AND ${assetInBusiness("?5", "j.value", "?1")}
         ON CONFLICT (business_id, member_type, member_id, asset_type, asset_id) DO UPDATE SET role = excluded.role`,
      )
      .bind(businessId, actorId, memberId, memberType, input.asset_type, input.role, now, ids),
    historyRow(db, businessId, actorId, "ASSET_ROLES_UPDATED", memberType, memberId, { asset_type: input.asset_type, asset_ids: input.asset_ids, role: input.role }, now, "changes() > 0"),
  ]);
  if (upsert!.meta.changes === 0) {
    await requireAction(db, businessId, actorId, MANAGE[memberType]);
    throw notFound(memberType === "EMPLOYEE" ? "business:people.employeeNotFound" : "business:people.partnerNotFound");
  }
}

/** Takes one asset role away from an employee or a partner. */
export async function removeAssetRole(db: D1Database, actorId: number, businessId: number, memberType: "EMPLOYEE" | "PARTNER", memberId: number, asset: { type: AssetType; id: number }, now = Date.now()): Promise<void> {
  await requireAction(db, businessId, actorId, MANAGE[memberType]);
  const [remove] = await db.batch([
    db
      .prepare(`DELETE FROM business_asset_roles WHERE business_id = ?1 AND member_type = ?4 AND member_id = ?3 AND asset_type = ?5 AND asset_id = ?6 AND ${actorMay(MANAGE[memberType])}`)
      .bind(businessId, actorId, memberId, memberType, asset.type, asset.id),
    historyRow(db, businessId, actorId, "ASSET_ROLE_REMOVED", memberType, memberId, { asset_type: asset.type, asset_id: String(asset.id) }, now, "changes() = 1"),
  ]);
  if (remove!.meta.changes !== 1) {
    await requireAction(db, businessId, actorId, MANAGE[memberType]);
    throw notFound("business:people.assetRoleNotFound");
  }
}

// ---- Employees ----

interface Employee extends HeldAssets {
  id: string;
  username: string;
  full_name: string;
  is_owner: boolean;
  business_roles: BusinessRole[];
  created_time: number;
}

interface EmployeeFilters {
  business_roles?: BusinessRole[] | undefined;
}

const EMPLOYEE_ORDER: Record<(typeof EMPLOYEE_SORTS)[number], string> = { name: "coalesce(nullif(u.full_name, ''), u.username) COLLATE NOCASE", created_time: "m.created_at" };

const EMPLOYEE_SELECT = `SELECT u.id, u.username, u.full_name, m.role, m.created_at, (b.owner_id = u.id) AS is_owner
  FROM business_members m JOIN users u ON u.id = m.user_id JOIN businesses b ON b.id = m.business_id`;

async function employeesOf(db: D1Database, businessId: number, rows: Array<Record<string, unknown>>): Promise<Employee[]> {
  const ids = rows.map((row) => Number(row["id"]));
  const held = await assetRolesOf(db, "EMPLOYEE", [businessId], ids);
  return rows.map((row) => ({
    id: String(row["id"]),
    username: String(row["username"]),
    full_name: String(row["full_name"]),
    is_owner: Number(row["is_owner"]) === 1,
    business_roles: [row["role"] as BusinessRole],
    created_time: seconds(Number(row["created_at"])),
    ...heldAssets(held.get(`${businessId}:${String(row["id"])}`) ?? []),
  }));
}

export async function listEmployees(db: D1Database, userId: number, businessId: number, state: TableState<(typeof EMPLOYEE_SORTS)[number], (typeof EMPLOYEE_SEARCHES)[number], EmployeeFilters>): Promise<TablePage<Employee>> {
  await requireAction(db, businessId, userId, "people.read");
  const parts: Array<[(n: number) => string, unknown]> = [];
  if (state.searchTerm) {
    if (state.searchBy === "id") parts.push([(n) => `CAST(u.id AS TEXT) = ?${n}`, state.searchTerm]);
    else parts.push([(n) => `(u.full_name LIKE ?${n} ESCAPE '\\' OR u.username LIKE ?${n} ESCAPE '\\')`, likeTerm(state.searchTerm)]);
  }
  const roles = state.filtersPayload?.business_roles;
  if (roles?.length) parts.push([(n) => `m.role IN (SELECT value FROM json_each(?${n}))`, JSON.stringify(roles)]);
  const clause = where(parts, 4);
  const order = `${EMPLOYEE_ORDER[state.sortBy]} ${state.sortDirection === "ASCENDING" ? "ASC" : "DESC"}, u.id`;
  const [rows, count] = await db.batch<Record<string, unknown>>([
    db.prepare(`${EMPLOYEE_SELECT} WHERE m.business_id = ?1${clause.sql} ORDER BY ${order} LIMIT ?2 OFFSET ?3`).bind(businessId, state.limit, state.startIndex - 1, ...clause.values),
    db.prepare(`SELECT COUNT(*) AS n FROM business_members m JOIN users u ON u.id = m.user_id WHERE m.business_id = ?1${where(parts, 2).sql}`).bind(businessId, ...clause.values),
  ]);
  return tablePage(await employeesOf(db, businessId, rows!.results), Number(count!.results[0]?.["n"] ?? 0), state);
}

export async function getEmployee(db: D1Database, userId: number, businessId: number, employeeId: number): Promise<Employee> {
  await requireAction(db, businessId, userId, "people.read");
  const row = await db.prepare(`${EMPLOYEE_SELECT} WHERE m.business_id = ?1 AND m.user_id = ?2`).bind(businessId, employeeId).first<Record<string, unknown>>();
  if (!row) throw notFound("business:people.employeeNotFound");
  return (await employeesOf(db, businessId, [row]))[0]!;
}

/** A single role update replaces the employee's business_roles with the one new role (spec 002 §4). The owner stays an ADMIN. */
export async function updateEmployeeRole(db: D1Database, actorId: number, businessId: number, employeeId: number, role: BusinessRole, now = Date.now()): Promise<Employee> {
  await requireAction(db, businessId, actorId, "people.manage");
  const before = await getEmployee(db, actorId, businessId, employeeId);
  if (before.is_owner && role !== "ADMIN") throw conflict("business:people.ownerFixed");
  if (before.business_roles[0] === role) return before;
  const [update] = await db.batch([
    db
      .prepare(`UPDATE business_members SET role = ?4 WHERE business_id = ?1 AND user_id = ?3 AND user_id <> (SELECT owner_id FROM businesses WHERE id = ?1) AND ${actorMay("people.manage")}`)
      .bind(businessId, actorId, employeeId, role),
    historyRow(db, businessId, actorId, "EMPLOYEE_ROLE_UPDATED", "EMPLOYEE", employeeId, { name: before.full_name || before.username, role: { from: before.business_roles[0], to: role } }, now, "changes() = 1"),
  ]);
  if (update!.meta.changes !== 1) {
    await requireAction(db, businessId, actorId, "people.manage");
    throw notFound("business:people.employeeNotFound");
  }
  return getEmployee(db, actorId, businessId, employeeId);
}

/** Removes an employee with their asset roles and their own properties in the business. The owner cannot be removed. */
export async function removeEmployee(db: D1Database, actorId: number, businessId: number, employeeId: number, now = Date.now()): Promise<{ id: string }> {
  await requireAction(db, businessId, actorId, "people.manage");
  const before = await getEmployee(db, actorId, businessId, employeeId);
  if (before.is_owner) throw conflict("business:people.ownerFixed");
  const gone = "NOT EXISTS (SELECT 1 FROM business_members WHERE business_id = ?1 AND user_id = ?2)";
  const [remove] = await db.batch([
    db
      .prepare(`DELETE FROM business_members WHERE business_id = ?1 AND user_id = ?3 AND user_id <> (SELECT owner_id FROM businesses WHERE id = ?1) AND ${actorMay("people.manage")}`)
      .bind(businessId, actorId, employeeId),
    historyRow(db, businessId, actorId, "EMPLOYEE_REMOVED", "EMPLOYEE", employeeId, { name: before.full_name || before.username, role: before.business_roles[0] }, now, "changes() = 1"),
    db.prepare(`DELETE FROM business_asset_roles WHERE business_id = ?1 AND member_type = 'EMPLOYEE' AND member_id = ?2 AND ${gone}`).bind(businessId, employeeId),
    db.prepare(`DELETE FROM business_properties WHERE business_id = ?1 AND user_id = ?2 AND ${gone}`).bind(businessId, employeeId),
  ]);
  if (remove!.meta.changes !== 1) {
    await requireAction(db, businessId, actorId, "people.manage");
    throw notFound("business:people.employeeNotFound");
  }
  return { id: String(employeeId) };
}

// ---- Employee invites ----

interface EmployeeInvite {
  id: string;
  status: InviteStatus;
  invite_data: { sent_at: number; expires_at: number; business_roles: BusinessRole[]; asset_roles: Array<{ asset_type: AssetType; asset_id: string; role: BusinessRole }> };
  invitee: { id: string; username: string; full_name: string };
  invited_by: { id: string; username: string; full_name: string };
  business: { id: string; name: string };
}

interface InviteFilters {
  status?: InviteStatus[] | undefined;
  business_roles?: BusinessRole[] | undefined;
}

const INVITE_SELECT = `SELECT i.id, i.role, i.asset_roles, i.sent_at, i.expires_at, b.id AS business_id, b.name AS business_name,
  u.id AS invitee_id, u.username AS invitee_username, u.full_name AS invitee_full_name,
  s.id AS sender_id, s.username AS sender_username, s.full_name AS sender_full_name
  FROM business_employee_invites i JOIN users u ON u.id = i.user_id JOIN users s ON s.id = i.invited_by JOIN businesses b ON b.id = i.business_id`;

const INVITE_ORDER: Record<(typeof INVITE_SORTS)[number], string> = { sent_at: "i.sent_at", name: "coalesce(nullif(u.full_name, ''), u.username) COLLATE NOCASE" };

function inviteOf(row: Record<string, unknown>, now: number): EmployeeInvite {
  const stored = JSON.parse(String(row["asset_roles"])) as Array<{ asset_type: AssetType; asset_id: number; role: BusinessRole }>;
  return {
    id: String(row["id"]),
    status: inviteStatus(Number(row["expires_at"]), now),
    invite_data: {
      sent_at: seconds(Number(row["sent_at"])),
      expires_at: seconds(Number(row["expires_at"])),
      business_roles: [row["role"] as BusinessRole],
      asset_roles: stored.map((entry) => ({ asset_type: entry.asset_type, asset_id: String(entry.asset_id), role: entry.role })),
    },
    invitee: { id: String(row["invitee_id"]), username: String(row["invitee_username"]), full_name: String(row["invitee_full_name"]) },
    invited_by: { id: String(row["sender_id"]), username: String(row["sender_username"]), full_name: String(row["sender_full_name"]) },
    business: { id: String(row["business_id"]), name: String(row["business_name"]) },
  };
}

/** SQL for the status filter (?n: a JSON list of statuses; ?now bound as `nowParam`). */
export const statusClause = (column: string, nowParam: number) => (n: number) =>
  `(CASE WHEN ${column} > ?${nowParam} THEN 'PENDING' ELSE 'EXPIRED' END) IN (SELECT value FROM json_each(?${n}))`;

export async function listEmployeeInvites(db: D1Database, userId: number, businessId: number, state: TableState<(typeof INVITE_SORTS)[number], (typeof INVITE_SEARCHES)[number], InviteFilters>, now = Date.now()): Promise<TablePage<EmployeeInvite>> {
  await requireAction(db, businessId, userId, "people.read");
  const parts: Array<[(n: number) => string, unknown]> = [];
  if (state.searchTerm) parts.push([(n) => `(u.full_name LIKE ?${n} ESCAPE '\\' OR u.username LIKE ?${n} ESCAPE '\\')`, likeTerm(state.searchTerm)]);
  const filters = state.filtersPayload ?? {};
  if (filters.business_roles?.length) parts.push([(n) => `i.role IN (SELECT value FROM json_each(?${n}))`, JSON.stringify(filters.business_roles)]);
  // Spec 002 §9: without a filter, both PENDING and EXPIRED.
  if (filters.status?.length) parts.push([statusClause("i.expires_at", 2), JSON.stringify(filters.status)]);
  const order = `${INVITE_ORDER[state.sortBy]} ${state.sortDirection === "ASCENDING" ? "ASC" : "DESC"}, i.id`;
  const page = where(parts, 5);
  const count = where(parts, 3);
  const [rows, total] = await db.batch<Record<string, unknown>>([
    db.prepare(`${INVITE_SELECT} WHERE i.business_id = ?1 AND ?2 = ?2${page.sql} ORDER BY ${order} LIMIT ?3 OFFSET ?4`).bind(businessId, now, state.limit, state.startIndex - 1, ...page.values),
    db.prepare(`SELECT COUNT(*) AS n FROM business_employee_invites i JOIN users u ON u.id = i.user_id WHERE i.business_id = ?1 AND ?2 = ?2${count.sql}`).bind(businessId, now, ...count.values),
  ]);
  return tablePage(
    rows!.results.map((row) => inviteOf(row, now)),
    Number(total!.results[0]?.["n"] ?? 0),
    state,
  );
}

async function getEmployeeInvite(db: D1Database, businessId: number, inviteId: number, now: number): Promise<EmployeeInvite> {
  const row = await db.prepare(`${INVITE_SELECT} WHERE i.id = ?1 AND i.business_id = ?2`).bind(inviteId, businessId).first<Record<string, unknown>>();
  if (!row) throw notFound("business:people.inviteNotFound");
  return inviteOf(row, now);
}

/**
 * An ADMIN invites a person, by username or e-mail, with a business role and optional asset
 * roles. Inviting someone already invited sends the invite again with the new roles. Bounded:
 * 50 open invites a business, 20 sent a day.
 */
export async function inviteEmployee(db: D1Database, actorId: number, businessId: number, input: { invitee: string; role: BusinessRole; asset_roles: AssetRoleInput[] }, now = Date.now()): Promise<EmployeeInvite> {
  await requireAction(db, businessId, actorId, "people.manage");
  await enforce(db, INVITE_RULE, businessId, now);
  const person = await db
    .prepare("SELECT id, (SELECT 1 FROM business_members WHERE business_id = ?2 AND user_id = users.id) AS member FROM users WHERE username = ?1 OR email = ?1 LIMIT 1")
    .bind(input.invitee, businessId)
    .first<{ id: number; member: number | null }>();
  if (!person) throw badRequest([{ field: "invitee", reason: "business:validation.noSuchPerson" }]);
  if (person.member === 1) throw conflict("business:people.alreadyMember");
  await checkAssets(db, businessId, input.asset_roles, (index) => `asset_roles.${index}.asset_id`);
  const id = newId();
  const sent = `EXISTS (SELECT 1 FROM business_employee_invites WHERE business_id = ?1 AND user_id = ${person.id} AND sent_at = ${now})`;
  const [insert] = await db.batch([
    db
      .prepare(
        `INSERT INTO business_employee_invites (id, business_id, user_id, role, asset_roles, invited_by, sent_at, expires_at, created_at)
         SELECT ?3, ?1, ?4, ?5, ?6, ?2, ?7, ?8, ?7
         WHERE ${actorMay("people.manage")} AND NOT EXISTS (SELECT 1 FROM business_members WHERE business_id = ?1 AND user_id = ?4)
           AND ((SELECT COUNT(*) FROM business_employee_invites WHERE business_id = ?1) < ?9 OR EXISTS (SELECT 1 FROM business_employee_invites WHERE business_id = ?1 AND user_id = ?4))
         ON CONFLICT (business_id, user_id) DO UPDATE SET role = excluded.role, asset_roles = excluded.asset_roles, invited_by = excluded.invited_by, sent_at = excluded.sent_at, expires_at = excluded.expires_at`,
      )
      .bind(businessId, actorId, id, person.id, input.role, storedAssetRoles(input.asset_roles), now, now + INVITE_TTL_MS, PEOPLE_LIMITS.openInvites),
    historyRow(db, businessId, actorId, "EMPLOYEE_INVITED", "EMPLOYEE_INVITE", person.id, { name: input.invitee, role: input.role }, now, sent),
  ]);
  if (insert!.meta.changes !== 1) {
    await requireAction(db, businessId, actorId, "people.manage");
    throw badRequest([{ field: "business", reason: "business:validation.tooManyInvites", values: { maximum: PEOPLE_LIMITS.openInvites } }]);
  }
  const row = await db.prepare(`${INVITE_SELECT} WHERE i.business_id = ?1 AND i.user_id = ?2`).bind(businessId, person.id).first<Record<string, unknown>>();
  return inviteOf(row!, now);
}

/** Sends an invite again: sent_at becomes now and the 30 days start again (spec 002 §4 "Refreshing an invite date"). */
export async function refreshEmployeeInvite(db: D1Database, actorId: number, businessId: number, inviteId: number, now = Date.now()): Promise<EmployeeInvite> {
  await requireAction(db, businessId, actorId, "people.manage");
  const before = await getEmployeeInvite(db, businessId, inviteId, now);
  await enforce(db, INVITE_RULE, businessId, now);
  const [update] = await db.batch([
    db.prepare(`UPDATE business_employee_invites SET sent_at = ?4, expires_at = ?5 WHERE id = ?3 AND business_id = ?1 AND ${actorMay("people.manage")}`).bind(businessId, actorId, inviteId, now, now + INVITE_TTL_MS),
    historyRow(db, businessId, actorId, "EMPLOYEE_INVITE_REFRESHED", "EMPLOYEE_INVITE", Number(before.invitee.id), { name: before.invitee.username }, now, "changes() = 1"),
  ]);
  if (update!.meta.changes !== 1) {
    await requireAction(db, businessId, actorId, "people.manage");
    throw notFound("business:people.inviteNotFound");
  }
  return getEmployeeInvite(db, businessId, inviteId, now);
}

export async function deleteEmployeeInvite(db: D1Database, actorId: number, businessId: number, inviteId: number, now = Date.now()): Promise<{ id: string }> {
  await requireAction(db, businessId, actorId, "people.manage");
  const before = await getEmployeeInvite(db, businessId, inviteId, now);
  const [remove] = await db.batch([
    db.prepare(`DELETE FROM business_employee_invites WHERE id = ?3 AND business_id = ?1 AND ${actorMay("people.manage")}`).bind(businessId, actorId, inviteId),
    historyRow(db, businessId, actorId, "EMPLOYEE_INVITE_DELETED", "EMPLOYEE_INVITE", Number(before.invitee.id), { name: before.invitee.username }, now, "changes() = 1"),
  ]);
  if (remove!.meta.changes !== 1) {
    await requireAction(db, businessId, actorId, "people.manage");
    throw notFound("business:people.inviteNotFound");
  }
  return { id: String(inviteId) };
}

// ---- The invited person's side ----

/** The invites waiting for the viewer (newest first), pending and expired, at most 50. */
export async function invitesFor(db: D1Database, userId: number, now = Date.now()): Promise<EmployeeInvite[]> {
  const { results } = await db.prepare(`${INVITE_SELECT} WHERE i.user_id = ?1 ORDER BY i.sent_at DESC, i.id LIMIT 50`).bind(userId).all<Record<string, unknown>>();
  return results.map((row) => inviteOf(row, now));
}

async function ownInvite(db: D1Database, userId: number, inviteId: number, now: number): Promise<EmployeeInvite> {
  const row = await db.prepare(`${INVITE_SELECT} WHERE i.id = ?1 AND i.user_id = ?2`).bind(inviteId, userId).first<Record<string, unknown>>();
  // Someone else's invite is not found, as a missing one.
  if (!row) throw notFound("business:people.inviteNotFound");
  return inviteOf(row, now);
}

/**
 * Accepting makes the invited person a member with the invite's role and gives the asset roles
 * it carries (those assets still the business's), in one batch with its history; the invite goes.
 * An expired invite is refused and kept, so an ADMIN can send it again.
 */
export async function acceptEmployeeInvite(db: D1Database, userId: number, inviteId: number, now = Date.now()): Promise<{ business_id: string; business_roles: BusinessRole[] }> {
  const invite = await ownInvite(db, userId, inviteId, now);
  if (invite.status === "EXPIRED") throw conflict("business:people.inviteExpired");
  const businessId = Number(invite.business.id);
  const seated = `EXISTS (SELECT 1 FROM business_members WHERE business_id = ?1 AND user_id = ?2 AND created_at = ?3)`;
  const [join] = await db.batch([
    db
      .prepare(
        `INSERT INTO business_members (business_id, user_id, role, created_at)
         SELECT business_id, user_id, role, ?3 FROM business_employee_invites WHERE id = ?4 AND user_id = ?2 AND business_id = ?1 AND expires_at > ?3
         ON CONFLICT (business_id, user_id) DO NOTHING`,
      )
      .bind(businessId, userId, now, inviteId),
    db
      .prepare(
        `INSERT INTO business_asset_roles (business_id, member_type, member_id, asset_type, asset_id, role, created_at)
         SELECT ?1, 'EMPLOYEE', ?2, json_extract(j.value, '$.asset_type'), json_extract(j.value, '$.asset_id'), json_extract(j.value, '$.role'), ?3
         FROM business_employee_invites i, json_each(i.asset_roles) j
         WHERE i.id = ?4 AND i.user_id = ?2 AND ${seated} AND ${assetInBusiness("json_extract(j.value, '$.asset_type')", "json_extract(j.value, '$.asset_id')", "?1")}
         ON CONFLICT (business_id, member_type, member_id, asset_type, asset_id) DO UPDATE SET role = excluded.role`,
      )
      .bind(businessId, userId, now, inviteId),
    historyRow(db, businessId, userId, "EMPLOYEE_JOINED", "EMPLOYEE", userId, { name: invite.invitee.full_name || invite.invitee.username, role: invite.invite_data.business_roles[0] }, now, seated.replace("?3", String(now))),
    db.prepare(`DELETE FROM business_employee_invites WHERE id = ?3 AND user_id = ?2 AND business_id = ?1 AND EXISTS (SELECT 1 FROM business_members WHERE business_id = ?1 AND user_id = ?2)`).bind(businessId, userId, inviteId),
  ]);
  if (join!.meta.changes !== 1) {
    // Already a member (joined meanwhile): the invite has done its work.
    const member = await db.prepare("SELECT role FROM business_members WHERE business_id = ?1 AND user_id = ?2").bind(businessId, userId).first<{ role: BusinessRole }>();
    if (!member) throw conflict("business:people.inviteExpired");
    return { business_id: invite.business.id, business_roles: [member.role] };
  }
  return { business_id: invite.business.id, business_roles: invite.invite_data.business_roles };
}

export async function declineEmployeeInvite(db: D1Database, userId: number, inviteId: number, now = Date.now()): Promise<{ id: string }> {
  const invite = await ownInvite(db, userId, inviteId, now);
  const businessId = Number(invite.business.id);
  await db.batch([
    db.prepare("DELETE FROM business_employee_invites WHERE id = ?3 AND user_id = ?2 AND business_id = ?1").bind(businessId, userId, inviteId),
    historyRow(db, businessId, userId, "EMPLOYEE_INVITE_DECLINED", "EMPLOYEE_INVITE", userId, { name: invite.invitee.username }, now, "changes() = 1"),
  ]);
  return { id: String(inviteId) };
}

// ---- For the hub's pages ----

/** The business's assets a role may be given on, by type (the asset role forms' choices). */
export async function assetChoices(db: D1Database, userId: number, business: BusinessSummary): Promise<Record<AssetType, Array<{ id: string; name: string }>>> {
  const businessId = Number(business.id);
  const [accounts, groups, tags] = await Promise.all([
    listAdAccounts(db, userId, businessId, adAccountQuery.parse({ limit: String(LIMITS.adAccounts) })),
    listAssetGroups(db, userId, businessId, assetGroupQuery.parse({ limit: String(LIMITS.assetGroups) })),
    listTags(db, userId, businessId, tagQuery.parse({ limit: String(TAG_LIMITS.perBusiness) })),
  ]);
  return {
    AD_ACCOUNT: accounts.items.map((account) => ({ id: account.id, name: account.name })),
    PROFILE: [{ id: business.profile.id, name: business.profile.full_name || business.profile.username }],
    ASSET_GROUP: groups.items.map((group) => ({ id: group.id, name: group.name })),
    TAG: tags.items.map((tag) => ({ id: tag.id, name: tag.name })),
  };
}
