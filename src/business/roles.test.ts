import { describe, expect, it } from "vitest";
import { BUSINESS_ACTIONS, BUSINESS_ROLES, decide, type BusinessAction, type Membership } from "./roles.ts";

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
