// The hub's pages for people who work in a business without belonging to it (spec 002 §6): a
// partner business's people, on the client's assets their partner holds a role on, and an
// organization manager, on the parent business's hierarchy. The pages never decide for
// themselves: every asset shown is read through the API's own gate (getAdAccount and
// getAssetGroup ask requireAssetAction; getActingUser asks the hierarchy's reader check), so a
// page shows exactly what the API would answer, and a business where the viewer holds nothing
// stays a 404 as for a stranger. The candidate queries below only bound what is asked.
import { isDomainError } from "~/domain/errors.ts";
import { getAdAccount, getAssetGroup, getBusiness, type AdAccount, type AssetGroup, type BusinessSummary } from "./business.server.ts";
import { getActingUser } from "./hierarchy.server.ts";
import type { ShortcutId } from "./navigation.ts";

/** Client assets asked about per business, and businesses offered in the switcher. */
const GUEST_LIMITS = { assets: 50, businesses: 20 } as const;

type Named = { id: string; name: string };

/** How a viewer who is not a member works in a business. */
type GuestVia = "PARTNER" | "ORGANIZATION_MANAGER";

export interface HubGuest extends Named {
  via: GuestVia;
  /** The viewer's own businesses that work for this one (for PARTNER). */
  partners: Named[];
  adAccounts: AdAccount[];
  assetGroups: AssetGroup[];
}

/** The hub pages a guest's navigation offers: the ones whose reads the API answers for them. */
export const GUEST_PAGES: Record<GuestVia, readonly ShortcutId[]> = {
  PARTNER: ["dashboard", "ad_accounts", "asset_groups"],
  ORGANIZATION_MANAGER: ["dashboard", "hierarchy"],
};

/** A refusal from a gate: the asset or business is not the viewer's to see or use. */
const refused = (error: unknown) => isDomainError(error, "not_found") || isDomainError(error, "forbidden");

async function orNull<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    if (refused(error)) return null;
    throw error;
  }
}

interface Candidate {
  business_id: number;
  asset_type: "AD_ACCOUNT" | "ASSET_GROUP";
  asset_id: number;
}

/**
 * The assets a partner business of the viewer's holds a role on, in businesses the viewer does
 * not belong to (members are decided by their own role). Only candidates: the gate decides.
 */
async function partnerCandidates(db: D1Database, userId: number, businessId: number | null, limit: number): Promise<Candidate[]> {
  const { results } = await db
    .prepare(
      `SELECT DISTINCT r.business_id, r.asset_type, r.asset_id
       FROM business_members m
       JOIN business_partners p ON p.partner_id = m.business_id
       JOIN business_asset_roles r ON r.business_id = p.business_id AND r.member_type = 'PARTNER' AND r.member_id = p.partner_id
       WHERE m.user_id = ?1 AND r.asset_type IN ('AD_ACCOUNT', 'ASSET_GROUP') AND (?2 IS NULL OR r.business_id = ?2)
         AND NOT EXISTS (SELECT 1 FROM business_members x WHERE x.business_id = r.business_id AND x.user_id = ?1)
       ORDER BY r.business_id, r.asset_type, r.asset_id LIMIT ?3`,
    )
    .bind(userId, businessId, limit)
    .all<Candidate>();
  return results;
}

/** Each candidate read through the API's own gate; those it refuses are left out. */
async function readableAssets(db: D1Database, userId: number, candidates: readonly Candidate[]): Promise<{ adAccounts: AdAccount[]; assetGroups: AssetGroup[] }> {
  const adAccounts: AdAccount[] = [];
  const assetGroups: AssetGroup[] = [];
  for (const candidate of candidates) {
    if (candidate.asset_type === "AD_ACCOUNT") {
      const account = await orNull(getAdAccount(db, userId, candidate.business_id, candidate.asset_id));
      if (account) adAccounts.push(account);
    } else {
      const group = await orNull(getAssetGroup(db, userId, candidate.business_id, candidate.asset_id));
      if (group) assetGroups.push(group);
    }
  }
  const byName = (a: Named, b: Named) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id);
  return { adAccounts: adAccounts.sort(byName), assetGroups: assetGroups.sort(byName) };
}

async function businessNamed(db: D1Database, businessId: number): Promise<Named | null> {
  const row = await db.prepare("SELECT id, name FROM businesses WHERE id = ?1").bind(businessId).first<{ id: number; name: string }>();
  return row ? { id: String(row.id), name: row.name } : null;
}

/** The viewer's businesses that are partners of this one. */
async function viewerPartnersOf(db: D1Database, userId: number, businessId: number): Promise<Named[]> {
  const { results } = await db
    .prepare(
      `SELECT b.id, b.name FROM business_partners p JOIN businesses b ON b.id = p.partner_id
       JOIN business_members m ON m.business_id = p.partner_id AND m.user_id = ?1
       WHERE p.business_id = ?2 ORDER BY b.name COLLATE NOCASE, b.id LIMIT 20`,
    )
    .bind(userId, businessId)
    .all<{ id: number; name: string }>();
  return results.map((row) => ({ id: String(row.id), name: row.name }));
}

/** Whether the API's hierarchy gate lets the viewer in as this business's organization manager (not as a member). */
async function managesOrganization(db: D1Database, userId: number, businessId: number): Promise<boolean> {
  const acting = await orNull(getActingUser(db, userId, businessId));
  return acting !== null && acting.role === null && acting.is_organization_manager;
}

/**
 * How the viewer, who is not a member of the business, may work in it: through a partner (the
 * client's assets the gate lets them read) or as its organization manager; null when neither
 * (the page answers 404). A partner's way in is asked first, as the asset pages use it.
 */
export async function hubGuest(db: D1Database, userId: number, businessId: number): Promise<HubGuest | null> {
  const business = await businessNamed(db, businessId);
  if (!business) return null;
  const assets = await readableAssets(db, userId, await partnerCandidates(db, userId, businessId, GUEST_LIMITS.assets));
  if (assets.adAccounts.length > 0 || assets.assetGroups.length > 0) {
    return { ...business, via: "PARTNER", partners: await viewerPartnersOf(db, userId, businessId), ...assets };
  }
  if (await managesOrganization(db, userId, businessId)) return { ...business, via: "ORGANIZATION_MANAGER", partners: [], adAccounts: [], assetGroups: [] };
  return null;
}

/**
 * How the viewer stands in a business for a hub page: as a member (the business as their role
 * reads it), else as a guest (a partner's person or an organization manager); null when neither.
 * The page's own read still asks the API's gate for the asset it shows.
 */
export async function hubStanding(db: D1Database, userId: number, businessId: number): Promise<{ business: BusinessSummary; guest: null } | { business: null; guest: HubGuest } | null> {
  const business = await orNull(getBusiness(db, userId, businessId));
  if (business) return { business, guest: null };
  const guest = await hubGuest(db, userId, businessId);
  return guest ? { business: null, guest } : null;
}

interface ReachableBusiness extends Named {
  via: GuestVia;
  /** For PARTNER: the viewer's businesses that work for it. */
  partners: Named[];
}

/**
 * The businesses the viewer works in without belonging to them, for the hub's switcher: clients
 * where the gate lets them read at least one asset, and organizations they manage. At most 20.
 */
export async function reachableBusinesses(db: D1Database, userId: number): Promise<ReachableBusiness[]> {
  const candidates = await partnerCandidates(db, userId, null, GUEST_LIMITS.assets * 4);
  const clients = [...new Set(candidates.map((candidate) => candidate.business_id))].slice(0, GUEST_LIMITS.businesses);
  const reachable: ReachableBusiness[] = [];
  for (const clientId of clients) {
    // One asset the gate allows is enough to list the client.
    for (const candidate of candidates.filter((row) => row.business_id === clientId)) {
      const { adAccounts, assetGroups } = await readableAssets(db, userId, [candidate]);
      if (adAccounts.length + assetGroups.length === 0) continue;
      const business = await businessNamed(db, clientId);
      if (business) reachable.push({ ...business, via: "PARTNER", partners: await viewerPartnersOf(db, userId, clientId) });
      break;
    }
  }
  const { results } = await db
    .prepare(
      `SELECT DISTINCT h.parent_business_id AS id FROM business_hierarchy h
       WHERE h.user_id = ?1 AND h.type = 'ORGANIZATION_MANAGER' AND h.status = 'ACCEPTED'
         AND NOT EXISTS (SELECT 1 FROM business_members x WHERE x.business_id = h.parent_business_id AND x.user_id = ?1)
       ORDER BY h.parent_business_id LIMIT ?2`,
    )
    .bind(userId, GUEST_LIMITS.businesses)
    .all<{ id: number }>();
  for (const row of results) {
    if (reachable.length >= GUEST_LIMITS.businesses) break;
    if (reachable.some((business) => business.id === String(row.id)) || !(await managesOrganization(db, userId, row.id))) continue;
    const business = await businessNamed(db, row.id);
    if (business) reachable.push({ ...business, via: "ORGANIZATION_MANAGER", partners: [] });
  }
  return reachable.slice(0, GUEST_LIMITS.businesses);
}
