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
  "merchant.manage",
] as const;
export type BusinessAction = (typeof BUSINESS_ACTIONS)[number];

const READS: BusinessAction[] = ["business.read", "ad_account.read", "asset_group.read", "history.read", "shortcuts.write"];

/**
 * ADMIN runs the business. CAMPAIGN_MANAGER runs advertising: the plan, ad account settings and
 * the groups that organise them, but neither opens nor closes accounts. FINANCE opens, renames
 * and closes ad accounts (each one is a billing relationship) and reads the rest. ANALYST reads.
 * Everyone who belongs may arrange their own navigation shortcuts.
 */
export const ROLE_PERMISSIONS: Record<BusinessRole, ReadonlySet<BusinessAction>> = {
  ADMIN: new Set(BUSINESS_ACTIONS),
  CAMPAIGN_MANAGER: new Set<BusinessAction>([...READS, "marketing_plan.update", "ad_account.update", "asset_group.create", "asset_group.update", "asset_group.delete"]),
  FINANCE: new Set<BusinessAction>([...READS, "ad_account.create", "ad_account.update", "ad_account.delete"]),
  ANALYST: new Set<BusinessAction>(READS),
};

/** What a viewer is to a business: its role there, or null for a stranger. */
export type Membership = BusinessRole | null;

export type Decision = "allow" | "forbidden" | "not_found";

/** The one decision: strangers learn nothing (not_found), members without the right are forbidden. */
export function decide(membership: Membership, action: BusinessAction): Decision {
  if (membership === null) return "not_found";
  return ROLE_PERMISSIONS[membership].has(action) ? "allow" : "forbidden";
}
