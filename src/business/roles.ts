// Who may do what in a business (spec 002 §6: roles held in business_roles; "the role names are
// not shown"). One table, read by every business read and write on the server: the owner is an
// ADMIN who cannot be removed; an employee holds one business role; anyone else is a stranger
// and is told the business does not exist (404), so ids cannot be probed. Recorded in
// docs/decisions.md ("Business: roles and permissions").

export const BUSINESS_ROLES = ["ADMIN", "CAMPAIGN_MANAGER", "ANALYST", "FINANCE"] as const;
export type BusinessRole = (typeof BUSINESS_ROLES)[number];

export const BUSINESS_ACTIONS = [
  "business.read",
  "business.update",
  "marketing_plan.update",
  "ad_account.read",
  "ad_account.create",
  "ad_account.update",
  "ad_account.delete",
  "asset_group.read",
  "asset_group.create",
  "asset_group.update",
  "asset_group.delete",
  "history.read",
  "shortcuts.write",
  "profile.read",
  "profile.link",
  "profile.unlink",
  "audience.read",
  "audience.create",
  "audience.update",
  "audience.delete",
  "audience.share",
  "tag.read",
  "tag.create",
  "tag.update",
  "tag.delete",
  "hierarchy.read",
  "hierarchy.invite",
  "hierarchy.respond",
  "hierarchy.remove",
  "recommendation.read",
  "recommendation.update",
  "bulk.read",
  "bulk.upload",
  "campaign.read",
  "campaign.create",
  "campaign.update",
  "people.read",
  "people.manage",
  "partner.read",
  "partner.manage",
  "aoaa.read",
  "aoaa.manage",
  "results.read",
] as const;
export type BusinessAction = (typeof BUSINESS_ACTIONS)[number];

const READS: BusinessAction[] = ["business.read", "ad_account.read", "asset_group.read", "history.read", "shortcuts.write", "bulk.read", "campaign.read", "people.read", "partner.read", "aoaa.read", "results.read"];
/** Making, editing, pausing and ending campaigns is advertising: ADMIN and CAMPAIGN_MANAGER. */
const CAMPAIGN_WRITES: BusinessAction[] = ["campaign.create", "campaign.update"];

/**
 * ADMIN runs the business. CAMPAIGN_MANAGER runs advertising: the plan, ad account settings and
 * the groups that organise them, but neither opens nor closes accounts. FINANCE opens, renames
 * and closes ad accounts (each one is a billing relationship) and reads the rest. ANALYST reads.
 * Everyone who belongs may arrange their own navigation shortcuts.
 * Bulk editing is a campaign action: ADMIN and CAMPAIGN_MANAGER upload; everyone who belongs
 * downloads templates and the account's objects, and reads the uploads' history.
 */
export const ROLE_PERMISSIONS: Record<BusinessRole, ReadonlySet<BusinessAction>> = {
  ADMIN: new Set(BUSINESS_ACTIONS),
  CAMPAIGN_MANAGER: new Set<BusinessAction>([...READS, "marketing_plan.update", "ad_account.update", "asset_group.create", "asset_group.update", "asset_group.delete", "bulk.upload", ...CAMPAIGN_WRITES]),
  FINANCE: new Set<BusinessAction>([...READS, "ad_account.create", "ad_account.update", "ad_account.delete"]),
  ANALYST: new Set<BusinessAction>(READS),
};

/**
 * Profiles, audiences, tags, the hierarchy and recommendations. Everyone who belongs reads them.
 * Only ADMIN (already holding every action) links profiles and shapes the hierarchy: both change
 * who the business is. CAMPAIGN_MANAGER builds and shares audiences and tags, which measure and
 * target advertising. Anyone who may change an ad account (CAMPAIGN_MANAGER, FINANCE) answers
 * its recommendations; ANALYST reads them.
 */
const ASSET_GRANTS: Record<Exclude<BusinessRole, "ADMIN">, BusinessAction[]> = {
  CAMPAIGN_MANAGER: ["profile.read", "audience.read", "tag.read", "hierarchy.read", "recommendation.read", "audience.create", "audience.update", "audience.delete", "audience.share", "tag.create", "tag.update", "tag.delete", "recommendation.update"],
  FINANCE: ["profile.read", "audience.read", "tag.read", "hierarchy.read", "recommendation.read", "recommendation.update"],
  ANALYST: ["profile.read", "audience.read", "tag.read", "hierarchy.read", "recommendation.read"],
};
for (const [role, actions] of Object.entries(ASSET_GRANTS)) for (const action of actions) (ROLE_PERMISSIONS[role as BusinessRole] as Set<BusinessAction>).add(action);

/** What a viewer is to a business: its role there, or null for a stranger. */
export type Membership = BusinessRole | null;

export type Decision = "allow" | "forbidden" | "not_found";

/**
 * The one decision: strangers learn nothing (not_found), members without the right are
 * forbidden. For an action on one asset, the asset roles take part (see assetDecision).
 */
export function decide(membership: Membership, action: BusinessAction, asset?: AssetAccess): Decision {
  if (asset !== undefined && ASSET_SCOPED.has(action)) return assetDecision(membership, action, asset);
  if (membership === null) return "not_found";
  return ROLE_PERMISSIONS[membership].has(action) ? "allow" : "forbidden";
}

// ---- Per-asset roles (spec 002 §6: held for ad accounts, profiles and asset groups, per employee and partner) ----

export const ASSET_TYPES = ["AD_ACCOUNT", "PROFILE", "ASSET_GROUP"] as const;
export type AssetType = (typeof ASSET_TYPES)[number];

/**
 * An asset role uses the business role names with the same meaning, narrowed to the one asset:
 * ADMIN reads, changes and deletes it; CAMPAIGN_MANAGER changes an ad account's settings and a
 * group; FINANCE changes and closes an ad account; ANALYST reads. These are the actions an
 * asset role decides; a profile has none of its own yet, so its role is held and shown only.
 */
export const ASSET_ACTIONS: Record<AssetType, readonly BusinessAction[]> = {
  AD_ACCOUNT: ["ad_account.read", "ad_account.update", "ad_account.delete"],
  ASSET_GROUP: ["asset_group.read", "asset_group.update", "asset_group.delete"],
  PROFILE: [],
};
const ASSET_SCOPED: ReadonlySet<BusinessAction> = new Set(Object.values(ASSET_ACTIONS).flat());
/** A partner works on a client's assets but never deletes them: that stays the owner's. */
const PARTNER_NEVER: ReadonlySet<BusinessAction> = new Set(["ad_account.delete", "asset_group.delete"]);

/** What a viewer holds on one asset: their own asset role (as an employee), and each partner business's way in. */
export interface AssetAccess {
  own: BusinessRole | null;
  /** For each partner business the viewer belongs to that holds a role on the asset: their role there and the partner's asset role. */
  partners: ReadonlyArray<{ role: BusinessRole; assetRole: BusinessRole }>;
}

export const NO_ASSET_ACCESS: AssetAccess = { own: null, partners: [] };

/**
 * How business and asset roles combine: a business ADMIN may do everything; any other employee's
 * asset role, where they hold one, decides for that asset (it may grant more or less than their
 * business role), else their business role decides. Someone outside the business acts only
 * through a partner: allowed when both the partner's asset role and their own role in the
 * partner business allow it (an agency's analyst only reads), never a delete; with no partner
 * role on the asset they learn nothing (not_found).
 */
function assetDecision(membership: Membership, action: BusinessAction, asset: AssetAccess): Decision {
  if (membership === "ADMIN") return "allow";
  if (membership !== null) {
    const role = asset.own ?? membership;
    return ROLE_PERMISSIONS[role].has(action) ? "allow" : "forbidden";
  }
  if (asset.partners.length === 0) return "not_found";
  const allowed = !PARTNER_NEVER.has(action) && asset.partners.some((way) => ROLE_PERMISSIONS[way.assetRole].has(action) && ROLE_PERMISSIONS[way.role].has(action));
  return allowed ? "allow" : "forbidden";
}

/** The asset's own actions a viewer may take on it, as answers list them. */
export const assetPermissions = (membership: Membership, type: AssetType, asset: AssetAccess): BusinessAction[] => ASSET_ACTIONS[type].filter((action) => decide(membership, action, asset) === "allow");

/** Actions only a partner's people are never given (for the SQL re-check of a write). */
export const partnerMay = (action: BusinessAction) => !PARTNER_NEVER.has(action);
