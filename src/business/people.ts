// The people of a business, as plain values both the API and the hub's pages read: the
// employees', invites', partners' and AOAA requests' table state, the bodies of their calls, and
// the invite lifetime (spec 002 §3 "Employee", §4 "Invites", "Permissions"; recorded in
// docs/decisions.md "Business: people and partners").
import { z } from "zod";
import { ASSET_TYPES, BUSINESS_ROLES } from "./roles.ts";
import { tableQuerySchema } from "./table-state.ts";

/** An invite is PENDING for 30 days from its sent_at (a refresh starts the 30 days again), then EXPIRED. */
export const INVITE_DAYS = 30;
export const INVITE_TTL_MS = INVITE_DAYS * 86_400_000;
export const INVITE_STATUSES = ["PENDING", "EXPIRED"] as const;
export type InviteStatus = (typeof INVITE_STATUSES)[number];
export const inviteStatus = (expiresAt: number, now: number): InviteStatus => (expiresAt > now ? "PENDING" : "EXPIRED");

/** Bounds: open invites a business holds (employees and partners each), and invites it may send a day. */
export const PEOPLE_LIMITS = { openInvites: 50, invitesPerDay: 20, employees: 200, partners: 100, aoaaRequests: 100, assetRolesPerCall: 50 } as const;

export const PARTNER_KINDS = ["INVITE", "REQUEST"] as const;
export type PartnerKind = (typeof PARTNER_KINDS)[number];
const PARTNER_RELATIONS = ["PARTNER", "CLIENT"] as const;
const AOAA_STATUSES = ["PENDING", "APPROVED", "DECLINED"] as const;
export type AoaaStatus = (typeof AOAA_STATUSES)[number];

export const EMPLOYEE_SORTS = ["name", "created_time"] as const;
export const EMPLOYEE_SEARCHES = ["name", "id"] as const;
export const INVITE_SORTS = ["sent_at", "name"] as const;
export const INVITE_SEARCHES = ["name"] as const;
export const PARTNER_SORTS = ["name", "created_time"] as const;
export const PARTNER_SEARCHES = ["name", "id"] as const;
export const AOAA_SORTS = ["created_time"] as const;
export const AOAA_SEARCHES = ["id"] as const;

const roles = z.array(z.enum(BUSINESS_ROLES)).min(1).max(BUSINESS_ROLES.length);
const statuses = z.array(z.enum(INVITE_STATUSES)).min(1).max(INVITE_STATUSES.length);

export const employeeQuery = tableQuerySchema(EMPLOYEE_SORTS, EMPLOYEE_SEARCHES, z.strictObject({ business_roles: roles.optional() }));
/** Without a status filter both PENDING and EXPIRED show (spec 002 §9). */
export const inviteQuery = tableQuerySchema(INVITE_SORTS, INVITE_SEARCHES, z.strictObject({ status: statuses.optional(), business_roles: roles.optional() }));
export const partnerQuery = tableQuerySchema(PARTNER_SORTS, PARTNER_SEARCHES, z.strictObject({ relation: z.array(z.enum(PARTNER_RELATIONS)).min(1).max(2).optional() }));
export const partnerInviteQuery = tableQuerySchema(INVITE_SORTS, INVITE_SEARCHES, z.strictObject({ status: statuses.optional(), kind: z.array(z.enum(PARTNER_KINDS)).min(1).max(2).optional() }));
export const aoaaQuery = tableQuerySchema(AOAA_SORTS, AOAA_SEARCHES, z.strictObject({ status: z.array(z.enum(AOAA_STATUSES)).min(1).max(AOAA_STATUSES.length).optional() }));

const idText = z.string().regex(/^\d{1,18}$/);
const uniqueIds = (list: string[]) => new Set(list).size === list.length;

/** One role on one asset, as an invite carries it. */
const assetRole = z.strictObject({ asset_type: z.enum(ASSET_TYPES), asset_id: idText, role: z.enum(BUSINESS_ROLES) });
const assetRoleList = z
  .array(assetRole)
  .max(PEOPLE_LIMITS.assetRolesPerCall)
  .refine((list) => uniqueIds(list.map((entry) => `${entry.asset_type}:${entry.asset_id}`)), { message: "business:validation.duplicateIds" });
export type AssetRoleInput = z.output<typeof assetRole>;

export const employeeInviteCreate = z.strictObject({
  /** A username or an e-mail address. */
  invitee: z.string().trim().min(1).max(254),
  role: z.enum(BUSINESS_ROLES),
  asset_roles: assetRoleList.default([]),
});
export const employeeRoleUpdate = z.strictObject({ role: z.enum(BUSINESS_ROLES) });

/** An asset permission update: the identifiers and the role must both be there (spec 002 §4), else 400 and nothing changes. */
export const assetRolesUpdate = z.strictObject({
  asset_type: z.enum(ASSET_TYPES),
  asset_ids: z.array(idText).min(1).max(PEOPLE_LIMITS.assetRolesPerCall).refine(uniqueIds, { message: "business:validation.duplicateIds" }),
  role: z.enum(BUSINESS_ROLES),
});

export const partnerInviteCreate = z
  .strictObject({ business_id: idText, kind: z.enum(PARTNER_KINDS), asset_roles: assetRoleList.default([]) })
  // A request asks the other business for access: the roles on its assets are its to give.
  .refine((input) => input.kind === "INVITE" || input.asset_roles.length === 0, { message: "business:validation.requestAssets", path: ["asset_roles"] });

/** AOAA permissions are one role ("roles" and "permissions" name the same thing); a form's single choice counts as a list of one. */
const permissions = z.preprocess((value) => (typeof value === "string" ? [value] : value), z.array(z.enum(BUSINESS_ROLES)).length(1));
export const aoaaCreate = z.strictObject({ ad_account_id: idText, business_id: idText, permissions });
export const aoaaUpdate = z.strictObject({ permissions });
