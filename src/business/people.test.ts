import { describe, expect, it } from "vitest";
import { aoaaUpdate, assetRolesUpdate, employeeInviteCreate, employeeRoleUpdate, inviteQuery, inviteStatus, partnerInviteCreate } from "./people.ts";

const DAY = 86_400_000;
const SENT = Date.UTC(2026, 0, 1);
// An invite sent at SENT lasts 30 days: it expires at SENT + 30 days.
const EXPIRES = SENT + 30 * DAY;

describe("invite status", () => {
  it("is PENDING until its 30 days are over, then EXPIRED", () => {
    expect(inviteStatus(EXPIRES, SENT)).toBe("PENDING");
    expect(inviteStatus(EXPIRES, SENT + 29 * DAY)).toBe("PENDING");
    expect(inviteStatus(EXPIRES, EXPIRES - 1)).toBe("PENDING");
    expect(inviteStatus(EXPIRES, EXPIRES)).toBe("EXPIRED");
    expect(inviteStatus(EXPIRES, SENT + 31 * DAY)).toBe("EXPIRED");
  });

  it("lists both statuses when no status filter is given", () => {
    expect(inviteQuery.parse({}).filtersPayload).toBeUndefined();
    expect(inviteQuery.parse({ filters: '{"status":["EXPIRED"]}' }).filtersPayload).toEqual({ status: ["EXPIRED"] });
    expect(inviteQuery.safeParse({ filters: '{"status":["ACCEPTED"]}' }).success).toBe(false);
  });
});

describe("the people calls' bodies", () => {
  it("applies an asset permission update only with identifiers and a role", () => {
    expect(assetRolesUpdate.safeParse({ asset_type: "AD_ACCOUNT", asset_ids: ["12"], role: "ANALYST" }).success).toBe(true);
    expect(assetRolesUpdate.safeParse({ asset_type: "AD_ACCOUNT", asset_ids: ["12"] }).success).toBe(false);
    expect(assetRolesUpdate.safeParse({ asset_type: "AD_ACCOUNT", asset_ids: [], role: "ANALYST" }).success).toBe(false);
    expect(assetRolesUpdate.safeParse({ asset_ids: ["12"], role: "ANALYST" }).success).toBe(false);
    expect(assetRolesUpdate.safeParse({ asset_type: "TAG", asset_ids: ["12"], role: "ANALYST" }).success).toBe(true);
    expect(assetRolesUpdate.safeParse({ asset_type: "AUDIENCE", asset_ids: ["12"], role: "ANALYST" }).success).toBe(false);
  });

  it("takes one business role for a role update (it replaces business_roles)", () => {
    expect(employeeRoleUpdate.parse({ role: "FINANCE" })).toEqual({ role: "FINANCE" });
    expect(employeeRoleUpdate.safeParse({ role: "OWNER" }).success).toBe(false);
    expect(employeeRoleUpdate.safeParse({ role: ["ADMIN", "FINANCE"] }).success).toBe(false);
  });

  it("invites by username or e-mail with a role, the asset roles optional", () => {
    expect(employeeInviteCreate.parse({ invitee: " sam ", role: "ANALYST" })).toEqual({ invitee: "sam", role: "ANALYST", asset_roles: [] });
    expect(employeeInviteCreate.safeParse({ invitee: "", role: "ANALYST" }).success).toBe(false);
  });

  it("lets only an INVITE carry asset roles: a REQUEST's roles are the other business's to give", () => {
    const roles = [{ asset_type: "AD_ACCOUNT", asset_id: "7", role: "ANALYST" }];
    expect(partnerInviteCreate.safeParse({ business_id: "9", kind: "INVITE", asset_roles: roles }).success).toBe(true);
    expect(partnerInviteCreate.safeParse({ business_id: "9", kind: "REQUEST", asset_roles: roles }).success).toBe(false);
  });

  it("reads AOAA permissions as one role, a form's single choice included", () => {
    expect(aoaaUpdate.parse({ permissions: ["ADMIN"] })).toEqual({ permissions: ["ADMIN"] });
    expect(aoaaUpdate.parse({ permissions: "ANALYST" })).toEqual({ permissions: ["ANALYST"] });
    expect(aoaaUpdate.safeParse({ permissions: [] }).success).toBe(false);
  });
});
