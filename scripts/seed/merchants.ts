// The verified merchant program's demo rows (src/server/migrations/0040_verified_merchants.sql),
// built from a finished world without changing it: a reviewer (an admin account), and businesses
// for the three business profiles of the world, each with its owner's ADMIN seat and first ad
// account. Marlow & Main and Nest & Nook meet every eligibility check once their cover pin is
// chosen (seeded here); Bake & Bloom has no product pins, so its application fails the shop tab.
// Nobody has applied yet: the program is the demo's to try. docs/demo-accounts.md lists them.
import { FIXTURES, type World } from "./world.ts";

/** The reviewer: a login of its own, outside the world's user ids. */
export const MERCHANT_FIXTURES = {
  reviewer: { id: 900_001, username: "merchant_reviewer", email: "reviewer@pinloom.example" },
  /** Businesses by profile: [profile id, business id, country]. */
  businesses: [
    [FIXTURES.users.merchant, 910_001, "US"],
    [FIXTURES.users.business, 910_002, "GB"],
    [FIXTURES.users.creatorNest, 910_003, "CA"],
  ],
  /** Profiles that get the demo password here (the world gives it to the fixed demo accounts only). */
  logins: [FIXTURES.users.creatorNest],
} as const;

type Row = Record<string, string | number | null>;

export type MerchantTables = {
  users: Row[];
  admin_users: Row[];
  businesses: Row[];
  business_members: Row[];
  ad_accounts: Row[];
  merchant_covers: Row[];
};
export const MERCHANT_TABLE_INSERT_ORDER = ["users", "admin_users", "businesses", "business_members", "ad_accounts", "merchant_covers"] as const;

const CURRENCY: Record<string, string> = { US: "USD", GB: "GBP", CA: "CAD" };

export function buildMerchants(world: World): MerchantTables {
  const users = new Map(world.tables.users.map((row) => [row.id, row]));
  const at = world.baseEpoch;
  const tables: MerchantTables = { users: [], admin_users: [], businesses: [], business_members: [], ad_accounts: [], merchant_covers: [] };
  const { reviewer } = MERCHANT_FIXTURES;
  if (users.has(reviewer.id)) throw new Error(`merchant reviewer id ${reviewer.id} is taken by the world`);
  tables.users.push({ id: reviewer.id, username: reviewer.username, email: reviewer.email, full_name: "Merchant Reviewer", first_name: "Merchant", last_name: "Reviewer", email_verified: 1, created_at: at });
  tables.admin_users.push({ user_id: reviewer.id, role: "MERCHANT_REVIEWER", created_at: at });
  for (const [profileId, businessId, country] of MERCHANT_FIXTURES.businesses) {
    const profile = users.get(profileId);
    if (!profile) throw new Error(`merchant fixture: no user ${profileId}`);
    const name = profile.business_name ?? profile.full_name;
    const onboarding = { businessGoals: ["INCREASE_SALES"], businessName: name, businessVertical: "RETAIL", hasWebsite: profile.domain_url !== null, website: profile.domain_url, country, locale: "en_US", leadId: String(businessId) };
    tables.businesses.push({ id: businessId, owner_id: profileId, profile_id: profileId, name, vertical: "RETAIL", country, locale: "en_US", website: profile.domain_url, onboarding: JSON.stringify(onboarding), created_at: at, updated_at: at });
    tables.business_members.push({ business_id: businessId, user_id: profileId, role: "ADMIN", created_at: at });
    tables.ad_accounts.push({ id: businessId + 50_000, business_id: businessId, name, country, currency: CURRENCY[country]!, created_by: profileId, created_at: at, updated_at: at });
    // The cover: the profile's newest image pin that is neither deleted nor hidden.
    const cover = world.tables.pins
      .filter((pin) => pin.pinner_id === profileId && pin.kind === "image" && pin.is_deleted === 0 && pin.is_hidden === 0)
      .sort((a, b) => b.created_at - a.created_at || b.id - a.id)[0];
    if (cover) tables.merchant_covers.push({ profile_id: profileId, pin_id: cover.id, updated_at: at });
  }
  return tables;
}

/** Accounts that log in with the demo password: the reviewer and MERCHANT_FIXTURES.logins. */
export const merchantLogins = (): number[] => [MERCHANT_FIXTURES.reviewer.id, ...MERCHANT_FIXTURES.logins];
