import { describe, expect, it } from "vitest";
import { MERCHANT_FIXTURES, buildMerchants } from "./merchants.ts";
import { FIXTURES, buildWorld } from "./world.ts";

const world = buildWorld({ pins: 1000 });
const tables = buildMerchants(world);
const DAY = 86_400_000;

describe("the merchant program's demo rows", () => {
  it("add a reviewer with an admin role, outside the world's user ids", () => {
    expect(tables.users.map((row) => [row["id"], row["username"]])).toEqual([[900_001, "merchant_reviewer"]]);
    expect(world.tables.users.some((row) => row.id === 900_001 || row.username === "merchant_reviewer")).toBe(false);
    expect(tables.admin_users).toEqual([{ user_id: 900_001, role: "MERCHANT_REVIEWER", created_at: world.baseEpoch }]);
  });

  it("give each business profile a business with its owner as ADMIN and an ad account in its currency", () => {
    expect(tables.businesses.map((row) => [row["id"], row["profile_id"], row["country"], row["name"]])).toEqual([
      [910_001, FIXTURES.users.merchant, "US", "Marlow & Main"],
      [910_002, FIXTURES.users.business, "GB", "Bake & Bloom Studio"],
      [910_003, FIXTURES.users.creatorNest, "CA", "Nest & Nook"],
    ]);
    expect(tables.business_members.every((row) => row["role"] === "ADMIN")).toBe(true);
    expect(tables.ad_accounts.map((row) => row["currency"])).toEqual(["USD", "GBP", "CAD"]);
  });

  it("choose a cover pin of each profile's own, so the program's applicants meet the cover check", () => {
    for (const cover of tables.merchant_covers) {
      const pin = world.tables.pins.find((row) => row.id === cover["pin_id"]);
      expect(pin?.pinner_id).toBe(cover["profile_id"]);
      expect(pin?.is_deleted).toBe(0);
    }
    expect(tables.merchant_covers.map((row) => row["profile_id"])).toEqual(expect.arrayContaining([FIXTURES.users.merchant, FIXTURES.users.creatorNest]));
  });

  it("leave the browser tests' applicants able to pass: old enough, with product pins and an owned domain seen long ago", () => {
    for (const profileId of [FIXTURES.users.merchant, FIXTURES.users.creatorNest]) {
      const user = world.tables.users.find((row) => row.id === profileId)!;
      const domain = world.tables.link_domains.find((row) => row.official_user_id === profileId && row.is_blocked === 0)!;
      const pins = world.tables.pins.filter((pin) => pin.pinner_id === profileId);
      expect(new URL(user.domain_url!).hostname).toBe(domain.domain);
      expect(Math.min(...pins.filter((pin) => pin.domain === domain.domain).map((pin) => pin.created_at))).toBeLessThan(world.baseEpoch - 30 * DAY);
      expect(user.created_at).toBeLessThan(world.baseEpoch - 30 * DAY);
      expect(user.image_key).not.toBeNull();
      expect(user.about.trim().length).toBeGreaterThanOrEqual(20);
      expect(pins.filter((pin) => pin.kind === "product" && pin.is_deleted === 0 && pin.is_hidden === 0).length).toBeGreaterThan(0);
    }
    expect(MERCHANT_FIXTURES.logins).toEqual([FIXTURES.users.creatorNest]);
  });
});
