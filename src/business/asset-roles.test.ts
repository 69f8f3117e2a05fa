import { describe, expect, it } from "vitest";
import { assetPermissions, decide, NO_ASSET_ACCESS, type AssetAccess, type BusinessAction, type Membership } from "./roles.ts";

// How business roles and asset roles combine, as docs/decisions.md states it, written out by
// hand: A allow, F forbidden, N not found, for read, update and delete of one asset.
type Row = [label: string, membership: Membership, access: AssetAccess, expected: string];

const own = (role: AssetAccess["own"]): AssetAccess => ({ own: role, partners: [] });
const via = (...partners: AssetAccess["partners"]): AssetAccess => ({ own: null, partners });

const AD_ACCOUNT: Row[] = [
  ["a business ADMIN, whatever the asset role", "ADMIN", own("ANALYST"), "AAA"],
  ["a campaign manager without an asset role", "CAMPAIGN_MANAGER", NO_ASSET_ACCESS, "AAF"],
  ["a campaign manager who is only an analyst on this account", "CAMPAIGN_MANAGER", own("ANALYST"), "AFF"],
  ["a campaign manager who is finance on this account", "CAMPAIGN_MANAGER", own("FINANCE"), "AAA"],
  ["a campaign manager who is admin on this account", "CAMPAIGN_MANAGER", own("ADMIN"), "AAA"],
  ["finance without an asset role", "FINANCE", NO_ASSET_ACCESS, "AAA"],
  ["finance who is only an analyst on this account", "FINANCE", own("ANALYST"), "AFF"],
  ["an analyst without an asset role", "ANALYST", NO_ASSET_ACCESS, "AFF"],
  ["an analyst who is campaign manager on this account", "ANALYST", own("CAMPAIGN_MANAGER"), "AAF"],
  ["an analyst who is finance on this account", "ANALYST", own("FINANCE"), "AAA"],
  ["a stranger", null, NO_ASSET_ACCESS, "NNN"],
  ["a stranger holding an employee asset role (never counts outside the business)", null, own("ADMIN"), "NNN"],
  ["an agency admin whose agency is campaign manager on it", null, via({ role: "ADMIN", assetRole: "CAMPAIGN_MANAGER" }), "AAF"],
  ["an agency admin whose agency is admin on it (partners never delete)", null, via({ role: "ADMIN", assetRole: "ADMIN" }), "AAF"],
  ["an agency analyst whose agency is admin on it", null, via({ role: "ANALYST", assetRole: "ADMIN" }), "AFF"],
  ["an agency admin whose agency is analyst on it", null, via({ role: "ADMIN", assetRole: "ANALYST" }), "AFF"],
  ["someone in two agencies, one of which allows the update", null, via({ role: "ANALYST", assetRole: "ADMIN" }, { role: "CAMPAIGN_MANAGER", assetRole: "FINANCE" }), "AAF"],
];

const ASSET_GROUP: Row[] = [
  ["a campaign manager without an asset role", "CAMPAIGN_MANAGER", NO_ASSET_ACCESS, "AAA"],
  ["a campaign manager who is only an analyst on this group", "CAMPAIGN_MANAGER", own("ANALYST"), "AFF"],
  ["finance without an asset role", "FINANCE", NO_ASSET_ACCESS, "AFF"],
  ["finance who is campaign manager on this group", "FINANCE", own("CAMPAIGN_MANAGER"), "AAA"],
  ["an analyst who is admin on this group", "ANALYST", own("ADMIN"), "AAA"],
  ["an agency admin whose agency is campaign manager on it", null, via({ role: "ADMIN", assetRole: "CAMPAIGN_MANAGER" }), "AAF"],
  ["a stranger", null, NO_ASSET_ACCESS, "NNN"],
];

// Advertising in one ad account, decided by the role on that account. Columns: campaign.read,
// campaign.create, campaign.update, bulk.read, bulk.upload, results.read, billing.read,
// billing.update, billing.spend_read.
const ADVERTISING: BusinessAction[] = ["campaign.read", "campaign.create", "campaign.update", "bulk.read", "bulk.upload", "results.read", "billing.read", "billing.update", "billing.spend_read"];
const AD_ACCOUNT_ADVERTISING: Row[] = [
  ["a business ADMIN who is only an analyst on this account", "ADMIN", own("ANALYST"), "AAAAAAAAA"],
  ["a campaign manager without an asset role", "CAMPAIGN_MANAGER", NO_ASSET_ACCESS, "AAAAAAFFA"],
  ["a campaign manager who is only an analyst on this account", "CAMPAIGN_MANAGER", own("ANALYST"), "AFFAFAFFA"],
  ["an analyst without an asset role", "ANALYST", NO_ASSET_ACCESS, "AFFAFAFFA"],
  ["an analyst who is campaign manager on this account", "ANALYST", own("CAMPAIGN_MANAGER"), "AAAAAAFFA"],
  ["an analyst who is finance on this account", "ANALYST", own("FINANCE"), "AFFAFAAAA"],
  ["finance without an asset role", "FINANCE", NO_ASSET_ACCESS, "AFFAFAAAA"],
  ["finance who is campaign manager on this account (the account's role decides, billing too)", "FINANCE", own("CAMPAIGN_MANAGER"), "AAAAAAFFA"],
  ["a stranger", null, NO_ASSET_ACCESS, "NNNNNNNNN"],
  ["an agency campaign manager whose agency is campaign manager on it", null, via({ role: "CAMPAIGN_MANAGER", assetRole: "CAMPAIGN_MANAGER" }), "AAAAAAFFA"],
  ["an agency analyst whose agency is admin on it", null, via({ role: "ANALYST", assetRole: "ADMIN" }), "AFFAFAFFA"],
  ["an agency admin whose agency is finance on it", null, via({ role: "ADMIN", assetRole: "FINANCE" }), "AFFAFAAAA"],
  ["an agency admin whose agency is admin on it", null, via({ role: "ADMIN", assetRole: "ADMIN" }), "AAAAAAAAA"],
];

// One conversion tag: read, update, delete.
const TAG: Row[] = [
  ["a business ADMIN who is only an analyst on this tag", "ADMIN", own("ANALYST"), "AAA"],
  ["a campaign manager without an asset role", "CAMPAIGN_MANAGER", NO_ASSET_ACCESS, "AAA"],
  ["a campaign manager who is only an analyst on this tag", "CAMPAIGN_MANAGER", own("ANALYST"), "AFF"],
  ["an analyst without an asset role", "ANALYST", NO_ASSET_ACCESS, "AFF"],
  ["an analyst who is analyst on this tag", "ANALYST", own("ANALYST"), "AFF"],
  ["an analyst who is campaign manager on this tag", "ANALYST", own("CAMPAIGN_MANAGER"), "AAA"],
  ["finance without an asset role", "FINANCE", NO_ASSET_ACCESS, "AFF"],
  ["finance who is admin on this tag", "FINANCE", own("ADMIN"), "AAA"],
  ["a stranger", null, NO_ASSET_ACCESS, "NNN"],
  ["an agency admin whose agency is admin on it (partners never delete)", null, via({ role: "ADMIN", assetRole: "ADMIN" }), "AAF"],
  ["an agency campaign manager whose agency is analyst on it", null, via({ role: "CAMPAIGN_MANAGER", assetRole: "ANALYST" }), "AFF"],
];

const LETTER = { allow: "A", forbidden: "F", not_found: "N" } as const;
const letters = (membership: Membership, access: AssetAccess, actions: BusinessAction[]) => actions.map((action) => LETTER[decide(membership, action, access)]).join("");

describe("business roles combined with asset roles", () => {
  for (const [label, membership, access, expected] of AD_ACCOUNT) {
    it(`on an ad account: ${label} → ${expected}`, () => {
      expect(letters(membership, access, ["ad_account.read", "ad_account.update", "ad_account.delete"])).toBe(expected);
    });
  }
  for (const [label, membership, access, expected] of ASSET_GROUP) {
    it(`on an asset group: ${label} → ${expected}`, () => {
      expect(letters(membership, access, ["asset_group.read", "asset_group.update", "asset_group.delete"])).toBe(expected);
    });
  }

  for (const [label, membership, access, expected] of AD_ACCOUNT_ADVERTISING) {
    it(`advertising in an ad account: ${label} → ${expected}`, () => {
      expect(letters(membership, access, ADVERTISING)).toBe(expected);
    });
  }
  for (const [label, membership, access, expected] of TAG) {
    it(`on a conversion tag: ${label} → ${expected}`, () => {
      expect(letters(membership, access, ["tag.read", "tag.update", "tag.delete"])).toBe(expected);
    });
  }

  it("leaves creating a tag to the business role: a role on one tag grants no create", () => {
    expect(letters("ANALYST", own("ADMIN"), ["tag.create"])).toBe("F");
    expect(letters(null, via({ role: "ADMIN", assetRole: "ADMIN" }), ["tag.create"])).toBe("N");
  });

  it("leaves business-wide actions to the business role: an asset role grants no create and no people management", () => {
    expect(letters("ANALYST", own("ADMIN"), ["ad_account.create", "asset_group.create", "people.manage", "people.read"])).toBe("FFFA");
    expect(letters(null, via({ role: "ADMIN", assetRole: "ADMIN" }), ["ad_account.create", "people.read"])).toBe("NN");
  });

  it("lets the role held on an ad account decide who reads the leads its ads collected", () => {
    // A finance employee who runs one account's ads reads its leads; an agency's campaign manager on the account does too; an analyst there does not.
    expect(letters("FINANCE", own("CAMPAIGN_MANAGER"), ["leads.read"])).toBe("A");
    expect(letters(null, via({ role: "CAMPAIGN_MANAGER", assetRole: "CAMPAIGN_MANAGER" }), ["leads.read"])).toBe("A");
    expect(letters("CAMPAIGN_MANAGER", own("ANALYST"), ["leads.read"])).toBe("F");
  });

  it("lists the asset's own permissions for answers", () => {
    expect(assetPermissions("CAMPAIGN_MANAGER", "AD_ACCOUNT", NO_ASSET_ACCESS)).toEqual(["ad_account.read", "ad_account.update", "campaign.read", "campaign.create", "campaign.update", "bulk.read", "bulk.upload", "results.read", "billing.spend_read", "leads.read", "conversions.read", "conversions_token.manage", "conversions.upload"]);
    expect(assetPermissions("ANALYST", "TAG", own("CAMPAIGN_MANAGER"))).toEqual(["tag.read", "tag.update", "tag.delete"]);
    expect(assetPermissions("ANALYST", "ASSET_GROUP", own("ADMIN"))).toEqual(["asset_group.read", "asset_group.update", "asset_group.delete"]);
    expect(assetPermissions("ADMIN", "PROFILE", NO_ASSET_ACCESS)).toEqual([]);
  });
});
