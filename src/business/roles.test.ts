import { describe, expect, it } from "vitest";
import { ASSET_ACTIONS, ASSET_TYPES, BUSINESS_ACTIONS, BUSINESS_ROLES, decide, type AssetType, type BusinessAction, type Membership } from "./roles.ts";

// The role table as docs/decisions.md states it, written out by hand: A allow, F forbidden, N not found.
// Columns: ADMIN, CAMPAIGN_MANAGER, FINANCE, ANALYST, stranger.
const TABLE: Record<BusinessAction, string> = {
  "business.read": "AAAAN",
  "business.update": "AFFFN",
  "marketing_plan.update": "AAFFN",
  "ad_account.read": "AAAAN",
  "ad_account.create": "AFAFN",
  "ad_account.update": "AAAFN",
  "ad_account.delete": "AFAFN",
  "asset_group.read": "AAAAN",
  "asset_group.create": "AAFFN",
  "asset_group.update": "AAFFN",
  "asset_group.delete": "AAFFN",
  "history.read": "AAAAN",
  "shortcuts.write": "AAAAN",
  "profile.read": "AAAAN",
  "profile.link": "AFFFN",
  "profile.unlink": "AFFFN",
  "audience.read": "AAAAN",
  "audience.create": "AAFFN",
  "audience.update": "AAFFN",
  "audience.delete": "AAFFN",
  "audience.share": "AAFFN",
  "tag.read": "AAAAN",
  "tag.create": "AAFFN",
  "tag.update": "AAFFN",
  "tag.delete": "AAFFN",
  "hierarchy.read": "AAAAN",
  "hierarchy.invite": "AFFFN",
  "hierarchy.respond": "AFFFN",
  "hierarchy.remove": "AFFFN",
  "recommendation.read": "AAAAN",
  "recommendation.update": "AAAFN",
  "bulk.read": "AAAAN",
  "bulk.upload": "AAFFN",
  "campaign.read": "AAAAN",
  "campaign.create": "AAFFN",
  "campaign.update": "AAFFN",
  "people.read": "AAAAN",
  "people.manage": "AFFFN",
  "partner.read": "AAAAN",
  "partner.manage": "AFFFN",
  "aoaa.read": "AAAAN",
  "aoaa.manage": "AFFFN",
  "results.read": "AAAAN",
  "billing.read": "AFAFN",
  "billing.update": "AFAFN",
  "billing.spend_read": "AAAAN",
  "merchant.manage": "AFFFN",
  "conversions.read": "AAAAN",
  "conversions_token.manage": "AAFFN",
  "conversions.upload": "AAFFN",
  "leads.read": "AAFFN",
};
const COLUMNS: Membership[] = ["ADMIN", "CAMPAIGN_MANAGER", "FINANCE", "ANALYST", null];
const LETTER = { allow: "A", forbidden: "F", not_found: "N" } as const;

describe("the business role table", () => {
  it("has a row for every action and a column for every role", () => {
    expect(Object.keys(TABLE).sort()).toEqual([...BUSINESS_ACTIONS].sort());
    expect(COLUMNS.filter((role) => role !== null).sort()).toEqual([...BUSINESS_ROLES].sort());
  });

  it("decides every role and action as the table says", () => {
    for (const action of BUSINESS_ACTIONS) {
      expect([action, COLUMNS.map((role) => LETTER[decide(role, action)]).join("")]).toEqual([action, TABLE[action]]);
    }
  });
});

// Which actions a role held on one asset decides, written out by hand: everything else stays the
// business role's (creating, people, the business itself).
const ASSET_SCOPED: Record<AssetType, BusinessAction[]> = {
  AD_ACCOUNT: ["ad_account.read", "ad_account.update", "ad_account.delete", "campaign.read", "campaign.create", "campaign.update", "bulk.read", "bulk.upload", "results.read", "billing.read", "billing.update", "billing.spend_read", "leads.read", "conversions.read", "conversions_token.manage", "conversions.upload"],
  PROFILE: [],
  ASSET_GROUP: ["asset_group.read", "asset_group.update", "asset_group.delete"],
  TAG: ["tag.read", "tag.update", "tag.delete"],
};

describe("the actions a role on one asset decides", () => {
  it("holds roles on ad accounts, profiles, asset groups and conversion tags", () => {
    expect([...ASSET_TYPES]).toEqual(["AD_ACCOUNT", "PROFILE", "ASSET_GROUP", "TAG"]);
  });

  it("scopes each asset type's actions as written", () => {
    for (const type of ASSET_TYPES) expect([type, [...ASSET_ACTIONS[type]].sort()]).toEqual([type, [...ASSET_SCOPED[type]].sort()]);
  });

  it("decides a scoped action by the asset role and leaves an unscoped one to the business role", () => {
    const campaignManagerOnIt = { own: "CAMPAIGN_MANAGER", partners: [] } as const;
    expect(decide("ANALYST", "campaign.update", campaignManagerOnIt)).toBe("allow");
    expect(decide("ANALYST", "tag.update", campaignManagerOnIt)).toBe("allow");
    expect(decide("ANALYST", "tag.create", campaignManagerOnIt)).toBe("forbidden");
    expect(decide("ANALYST", "marketing_plan.update", campaignManagerOnIt)).toBe("forbidden");
  });
});
