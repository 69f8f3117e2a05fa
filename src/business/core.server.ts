// What every part of the business area shares on the server: ids, the permission gate (the role
// table in ./roles.ts, asked by requireAction and re-checked inside each write by actorMay), the
// history row written in a change's own batch, and the table filters' SQL pieces. Each feature
// (ad accounts, people, billing, …) keeps its own queries in its own *.server.ts beside this one.
import { forbidden, notFound } from "~/domain/errors.ts";
import { ASSET_ACTIONS, assetPermissions, BUSINESS_ACTIONS, BUSINESS_ROLES, decide, partnerMay, ROLE_PERMISSIONS, type AssetAccess, type AssetType, type BusinessAction, type BusinessRole, type Membership } from "./roles.ts";

/** Ids are random in [2^52, 2^53): exact as JavaScript numbers and not guessable. */
export function newId(): number {
  const [high, low] = crypto.getRandomValues(new Uint32Array(2)) as unknown as [number, number];
  return 2 ** 52 + (high & 0xfffff) * 2 ** 32 + low;
}

export const seconds = (ms: number) => Math.floor(ms / 1000);

// ---- Membership and the permission gate ----

async function membershipOf(db: D1Database, businessId: number, userId: number): Promise<Membership> {
  const row = await db.prepare("SELECT role FROM business_members WHERE business_id = ?1 AND user_id = ?2").bind(businessId, userId).first<{ role: BusinessRole }>();
  return row?.role ?? null;
}

/** The role, or the table's refusal: a stranger is told the business does not exist. */
export async function requireAction(db: D1Database, businessId: number, userId: number, action: BusinessAction): Promise<BusinessRole> {
  const role = await membershipOf(db, businessId, userId);
  const decision = decide(role, action);
  if (decision === "not_found") throw notFound("business:api.notFound");
  if (decision === "forbidden") throw forbidden("business:api.forbidden");
  return role!;
}

/** The roles that may take an action, as a SQL list for the writes' own re-check (constants only). */
function rolesFor(action: BusinessAction): string {
  return BUSINESS_ROLES.filter((role) => ROLE_PERMISSIONS[role].has(action))
    .map((role) => `'${role}'`)
    .join(",");
}

/** "The actor still holds a role that may do this", for a write's WHERE (?1 business, ?2 actor). */
export const actorMay = (action: BusinessAction) => `EXISTS (SELECT 1 FROM business_members WHERE business_id = ?1 AND user_id = ?2 AND role IN (${rolesFor(action)}))`;

/** The viewer's own permissions in a business, as answers list them ("roles" and "permissions" are the same). */
export const permissionsOf = (role: BusinessRole) => BUSINESS_ACTIONS.filter((action) => ROLE_PERMISSIONS[role].has(action));

// ---- One asset: the business role with the asset roles (employee's own and partners') ----

export interface AssetRef {
  type: AssetType;
  id: number;
}

interface AssetGrant {
  /** The viewer's business role, or null for a partner's person. */
  role: Membership;
  access: AssetAccess;
  /** The asset's own actions this viewer may take. */
  permissions: BusinessAction[];
}

async function assetAccessOf(db: D1Database, businessId: number, userId: number, asset: AssetRef): Promise<{ role: Membership; access: AssetAccess }> {
  const row = await db
    .prepare(
      `SELECT (SELECT role FROM business_members WHERE business_id = ?1 AND user_id = ?2) AS role,
        (SELECT role FROM business_asset_roles WHERE business_id = ?1 AND member_type = 'EMPLOYEE' AND member_id = ?2 AND asset_type = ?3 AND asset_id = ?4) AS own,
        (SELECT json_group_array(json_object('role', m.role, 'assetRole', r.role))
           FROM business_partners p JOIN business_members m ON m.business_id = p.partner_id AND m.user_id = ?2
           JOIN business_asset_roles r ON r.business_id = ?1 AND r.member_type = 'PARTNER' AND r.member_id = p.partner_id AND r.asset_type = ?3 AND r.asset_id = ?4
           WHERE p.business_id = ?1) AS partners`,
    )
    .bind(businessId, userId, asset.type, asset.id)
    .first<{ role: BusinessRole | null; own: BusinessRole | null; partners: string }>();
  return { role: row?.role ?? null, access: { own: row?.own ?? null, partners: JSON.parse(row?.partners ?? "[]") as AssetAccess["partners"] } };
}

/** requireAction for an action on one asset: the same table, with the asset roles taking part. */
export async function requireAssetAction(db: D1Database, businessId: number, userId: number, action: BusinessAction, asset: AssetRef): Promise<AssetGrant> {
  const { role, access } = await assetAccessOf(db, businessId, userId, asset);
  const decision = decide(role, action, access);
  if (decision === "not_found") throw notFound("business:api.notFound");
  if (decision === "forbidden") throw forbidden("business:api.forbidden");
  return { role, access, permissions: assetPermissions(role, asset.type, access) };
}

/** The viewer's own asset roles on one type of asset in a business (for a list's per-row permissions). */
export async function ownAssetRoles(db: D1Database, businessId: number, userId: number, type: AssetType): Promise<Map<string, BusinessRole>> {
  const { results } = await db
    .prepare("SELECT asset_id, role FROM business_asset_roles WHERE business_id = ?1 AND member_type = 'EMPLOYEE' AND member_id = ?2 AND asset_type = ?3 LIMIT 500")
    .bind(businessId, userId, type)
    .all<{ asset_id: number; role: BusinessRole }>();
  return new Map(results.map((row) => [String(row.asset_id), row.role]));
}

/** The permissions an answer lists on one asset of `type`: its own actions as decided with the asset roles, and the kind's business-wide ones (create) by the business role. */
export function permissionsOn(role: Membership, type: AssetType, access: AssetAccess): BusinessAction[] {
  const onAsset = new Set(assetPermissions(role, type, access));
  const prefix = `${type.toLowerCase()}.`;
  return BUSINESS_ACTIONS.filter((action) => action.startsWith(prefix) && (onAsset.has(action) || (!ASSET_ACTIONS[type].includes(action) && role !== null && ROLE_PERMISSIONS[role].has(action))));
}

/**
 * actorMay for a write on one asset (?1 business, ?2 actor, `assetId` the asset's SQL): the same
 * rule as decide with an asset, in SQL, so a role or asset role taken away meanwhile changes nothing.
 */
export function actorMayOn(action: BusinessAction, type: AssetType, assetId: string): string {
  const allowed = rolesFor(action);
  const own = `SELECT role FROM business_asset_roles WHERE business_id = ?1 AND member_type = 'EMPLOYEE' AND member_id = ?2 AND asset_type = '${type}' AND asset_id = ${assetId}`;
  const employee = `EXISTS (SELECT 1 FROM business_members WHERE business_id = ?1 AND user_id = ?2 AND (role = 'ADMIN' OR coalesce((${own}), role) IN (${allowed})))`;
  if (!partnerMay(action)) return `(${employee})`;
  const partner = `(NOT EXISTS (SELECT 1 FROM business_members WHERE business_id = ?1 AND user_id = ?2) AND EXISTS (SELECT 1 FROM business_partners p
    JOIN business_members m ON m.business_id = p.partner_id AND m.user_id = ?2 AND m.role IN (${allowed})
    JOIN business_asset_roles r ON r.business_id = ?1 AND r.member_type = 'PARTNER' AND r.member_id = p.partner_id AND r.asset_type = '${type}' AND r.asset_id = ${assetId} AND r.role IN (${allowed})
    WHERE p.business_id = ?1))`;
  return `(${employee} OR ${partner})`;
}

// ---- History ----

/** What a history row says happened, e.g. AD_ACCOUNT_CREATED: each feature names its own. */
export type HistoryAction = string;

/**
 * A history row written in the change's batch. `onlyIf` is SQL (same ?1 business, ?2 actor) that
 * holds when the change happened, so a refused or no-op write leaves no history.
 */
export function historyRow(db: D1Database, businessId: number, actorId: number, action: HistoryAction, entityType: string, entityId: number, detail: Record<string, unknown>, now: number, onlyIf = "1"): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO business_history (business_id, actor_id, action, entity_type, entity_id, detail, created_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7 WHERE ${onlyIf}`,
    )
    .bind(businessId, actorId, action, entityType, String(entityId), JSON.stringify(detail), now);
}

/** LIKE with the person's text taken literally. */
export const likeTerm = (term: string) => `%${term.replace(/[\\%_]/g, (match) => `\\${match}`)}%`;

/** WHERE clauses and their values, numbered from `first`. */
export function where(parts: Array<[sql: (n: number) => string, value: unknown]>, first: number): { sql: string; values: unknown[] } {
  return { sql: parts.map(([sql], index) => ` AND ${sql(first + index)}`).join(""), values: parts.map(([, value]) => value) };
}
