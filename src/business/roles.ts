// Who may do what in a business (spec 002 §6: roles held in business_roles; "the role names are
// not shown"). One table, read by every business read and write on the server: the owner is an
// ADMIN who cannot be removed; an employee holds one business role; anyone else is a stranger
// and is told the business does not exist (404), so ids cannot be probed. Recorded in
// docs/decisions.md ("Business: roles and permissions").

export const BUSINESS_ROLES = ["ADMIN", "CAMPAIGN_MANAGER", "ANALYST", "FINANCE"] as const;
export type BusinessRole = (typeof BUSINESS_ROLES)[number];

/**
 * Who may take each action: the one table every business read and write asks (ADMIN holds them
 * all). CAMPAIGN_MANAGER runs advertising: the plan, ad account settings, the groups that
 * organise them, campaigns, bulk files, audiences and tags, but neither opens nor closes
 * accounts. FINANCE opens, renames and closes ad accounts (each one is a billing relationship)
 * and manages billing. ANALYST reads. Everyone who belongs reads the business's assets and
 * people and arranges their own navigation shortcuts; only ADMIN changes who the business is
 * (its people, partners, linked profiles and hierarchy). Anyone who may change an ad account
 * answers its recommendations. Invoices and the billing contact are FINANCE's; the others see
 * the campaigns' prepaid spend. Applying to the verified merchant program speaks for the whole
 * business: ADMIN only.
 */
const EVERYONE = ["ADMIN", "CAMPAIGN_MANAGER", "FINANCE", "ANALYST"] as const;
const ADMIN_ONLY = ["ADMIN"] as const;
const ADVERTISING = ["ADMIN", "CAMPAIGN_MANAGER"] as const;
const MONEY = ["ADMIN", "FINANCE"] as const;
const ACCOUNT_CHANGES = ["ADMIN", "CAMPAIGN_MANAGER", "FINANCE"] as const;

const WHO_MAY = {
  "business.read": EVERYONE,
  "business.update": ADMIN_ONLY,
  "marketing_plan.update": ADVERTISING,
  "ad_account.read": EVERYONE,
  "ad_account.create": MONEY,
  "ad_account.update": ACCOUNT_CHANGES,
  "ad_account.delete": MONEY,
  "asset_group.read": EVERYONE,
  "asset_group.create": ADVERTISING,
  "asset_group.update": ADVERTISING,
  "asset_group.delete": ADVERTISING,
  "history.read": EVERYONE,
  "shortcuts.write": EVERYONE,
  "profile.read": EVERYONE,
  "profile.link": ADMIN_ONLY,
  "profile.unlink": ADMIN_ONLY,
  "audience.read": EVERYONE,
  "audience.create": ADVERTISING,
  "audience.update": ADVERTISING,
  "audience.delete": ADVERTISING,
  "audience.share": ADVERTISING,
  "tag.read": EVERYONE,
  "tag.create": ADVERTISING,
  "tag.update": ADVERTISING,
  "tag.delete": ADVERTISING,
  "hierarchy.read": EVERYONE,
  "hierarchy.invite": ADMIN_ONLY,
  "hierarchy.respond": ADMIN_ONLY,
  "hierarchy.remove": ADMIN_ONLY,
  "recommendation.read": EVERYONE,
  "recommendation.update": ACCOUNT_CHANGES,
  "bulk.read": EVERYONE,
  "bulk.upload": ADVERTISING,
  "campaign.read": EVERYONE,
  "campaign.create": ADVERTISING,
  "campaign.update": ADVERTISING,
  "people.read": EVERYONE,
  "people.manage": ADMIN_ONLY,
  "partner.read": EVERYONE,
  "partner.manage": ADMIN_ONLY,
  "aoaa.read": EVERYONE,
  "aoaa.manage": ADMIN_ONLY,
  "results.read": EVERYONE,
  "billing.read": MONEY,
  "billing.update": MONEY,
  "billing.spend_read": EVERYONE,
  "merchant.manage": ADMIN_ONLY,
  "conversions.read": EVERYONE,
  "conversions_token.manage": ADVERTISING,
  "conversions.upload": ADVERTISING,
  // What people sent to a lead form is their contact data: only those who run the ads read it.
  "leads.read": ADVERTISING,
} as const satisfies Record<string, readonly BusinessRole[]>;

export type BusinessAction = keyof typeof WHO_MAY;
export const BUSINESS_ACTIONS = Object.keys(WHO_MAY) as BusinessAction[];

const mayTake = (role: BusinessRole) => new Set(BUSINESS_ACTIONS.filter((action) => (WHO_MAY[action] as readonly BusinessRole[]).includes(role)));

export const ROLE_PERMISSIONS: Record<BusinessRole, ReadonlySet<BusinessAction>> = {
  ADMIN: mayTake("ADMIN"),
  CAMPAIGN_MANAGER: mayTake("CAMPAIGN_MANAGER"),
  FINANCE: mayTake("FINANCE"),
  ANALYST: mayTake("ANALYST"),
};

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

// ---- Per-asset roles (spec 002 §6: held for ad accounts, profiles, asset groups and conversion tags, per employee and partner) ----

export const ASSET_TYPES = ["AD_ACCOUNT", "PROFILE", "ASSET_GROUP", "TAG"] as const;
export type AssetType = (typeof ASSET_TYPES)[number];

/**
 * An asset role uses the business role names with the same meaning, narrowed to the one asset:
 * ADMIN reads, changes and deletes it; CAMPAIGN_MANAGER changes an ad account's settings and a
 * group; FINANCE changes and closes an ad account; ANALYST reads. These are the actions an
 * asset role decides; a profile has none of its own yet, so its role is held and shown only.
 * Advertising in an ad account (its campaigns, bulk files, results, billing, leads and conversions) is the
 * account's: the role held on that account decides it, as it decides the account's settings.
 */
export const ASSET_ACTIONS: Record<AssetType, readonly BusinessAction[]> = {
  AD_ACCOUNT: ["ad_account.read", "ad_account.update", "ad_account.delete", "campaign.read", "campaign.create", "campaign.update", "bulk.read", "bulk.upload", "results.read", "billing.read", "billing.update", "billing.spend_read", "leads.read", "conversions.read", "conversions_token.manage", "conversions.upload"],
  ASSET_GROUP: ["asset_group.read", "asset_group.update", "asset_group.delete"],
  PROFILE: [],
  TAG: ["tag.read", "tag.update", "tag.delete"],
};
const ASSET_SCOPED: ReadonlySet<BusinessAction> = new Set(Object.values(ASSET_ACTIONS).flat());
/**
 * A partner works on a client's assets but never deletes them: that stays the owner's. Ending a
 * campaign is not a delete (the campaign, its results and its history stay), so a partner who
 * may change campaigns may end one.
 */
const PARTNER_NEVER: ReadonlySet<BusinessAction> = new Set(["ad_account.delete", "asset_group.delete", "tag.delete"]);

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
