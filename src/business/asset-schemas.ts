// The query and body schemas of the business's profiles, audiences, conversion tags and
// hierarchy: shared by the API (functions/business-assets.ts) and the hub's pages, which read
// the same table state from their own URLs.
import { z } from "zod";
import { tableQuerySchema } from "./table-state.ts";

const id = z.string().regex(/^\d{1,18}$/);
const ids = (max: number) => z.array(id).max(max).refine((list) => new Set(list).size === list.length, { message: "business:validation.duplicateIds" });
const name = z.string().trim().min(1).max(50);
const description = z.string().trim().max(500);

// ---- Profiles ----

export const PROFILE_STATUSES = ["LINKED", "PENDING"] as const;
export const PROFILE_SORTS = ["username", "created_time"] as const;
export const PROFILE_SEARCHES = ["username", "full_name"] as const;
export const profileQuery = tableQuerySchema(PROFILE_SORTS, PROFILE_SEARCHES, z.strictObject({ status: z.array(z.enum(PROFILE_STATUSES)).max(2).optional() }));
export const profileLink = z.strictObject({ username: z.string().trim().min(1).max(30) });

// ---- Audiences ----

const AUDIENCE_TYPES = ["ENGAGEMENT", "CUSTOMER_LIST"] as const;
export type AudienceType = (typeof AUDIENCE_TYPES)[number];
export const ENGAGEMENTS = ["SAVE", "REACTION", "COMMENT"] as const;
export type Engagement = (typeof ENGAGEMENTS)[number];
export const AUDIENCE_SORTS = ["name", "created_time"] as const;
export const AUDIENCE_SEARCHES = ["name", "description"] as const;
export const audienceQuery = tableQuerySchema(AUDIENCE_SORTS, AUDIENCE_SEARCHES, z.strictObject({ type: z.array(z.enum(AUDIENCE_TYPES)).max(2).optional(), ad_account_id: id.optional() }));
/** A customer list carries at most this many addresses per call. */
export const MAX_CUSTOMER_EMAILS = 1000;
/** A customer list: an array, or the text of a form's field with one address per line (or comma). */
const emailList = z.preprocess(
  (value) => (typeof value === "string" ? value.split(/[\s,;]+/).filter(Boolean) : value),
  z.array(z.string().trim().toLowerCase().pipe(z.email())).min(1).max(MAX_CUSTOMER_EMAILS),
);
const engagementRule = {
  lookback_days: z.number().int().min(1).max(365),
  engagements: z.array(z.enum(ENGAGEMENTS)).min(1).max(ENGAGEMENTS.length).refine((list) => new Set(list).size === list.length, { message: "business:validation.duplicateTypes" }),
};
export const audienceCreate = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("ENGAGEMENT"), ad_account_id: id, name, description: description.default(""), ...engagementRule }),
  z.strictObject({ type: z.literal("CUSTOMER_LIST"), ad_account_id: id, name, description: description.default(""), emails: emailList }),
]);
export const audienceUpdate = z
  .strictObject({ name: name.optional(), description: description.optional(), lookback_days: engagementRule.lookback_days.optional(), engagements: engagementRule.engagements.optional() })
  .refine((input) => Object.keys(input).length > 0, { message: "business:validation.nothingToChange" });
export const audienceShare = z.strictObject({ ad_account_id: id });

// ---- Conversion tags ----

export const TAG_SORTS = ["name", "created_time"] as const;
export const TAG_SEARCHES = ["name", "id"] as const;
export const tagQuery = tableQuerySchema(TAG_SORTS, TAG_SEARCHES, z.strictObject({ ad_account_ids: ids(50).optional() }));
export const tagCreate = z.strictObject({
  name,
  ad_account_id: id,
  automatic_enhanced_match: z.boolean().default(false),
  leader_tag_id: id.nullable().default(null),
  ad_account_ids: ids(50).default([]),
});
export const tagUpdate = z
  .strictObject({ name: name.optional(), automatic_enhanced_match: z.boolean().optional(), leader_tag_id: id.nullable().optional(), ad_account_ids: ids(50).optional() })
  .refine((input) => Object.keys(input).length > 0, { message: "business:validation.nothingToChange" });

// ---- Hierarchy ----

export const HIERARCHY_LISTS = ["ad_accounts", "profiles", "asset_groups", "employees", "business_members", "managers"] as const;
export type HierarchyList = (typeof HIERARCHY_LISTS)[number];
const INVITE_STATUSES = ["PENDING", "EXPIRED"] as const;
export const hierarchyInvite = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("CHILD_BUSINESS"), business_id: id }),
  z.strictObject({ type: z.literal("ORGANIZATION_MANAGER"), username: z.string().trim().min(1).max(30) }),
]);
/** Spec 002 §4/§9: pending lists show PENDING and EXPIRED unless one is asked for. */
export const inviteQuery = z.strictObject({ status: z.enum(INVITE_STATUSES).optional() });
