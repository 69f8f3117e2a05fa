// The business calls' query and body schemas, shared by the API (functions/business.ts) and
// the hub's pages, which read the same table state from their own URLs.
import { z } from "zod";
import { AD_ACCOUNT_SEARCHES, AD_ACCOUNT_SORTS, ASSET_GROUP_SEARCHES, ASSET_GROUP_SORTS, ASSET_GROUP_TYPES } from "./asset-types.ts";
import { countrySchema, CURRENCIES } from "./countries.ts";
import { SHORTCUT_IDS } from "./navigation.ts";
import { tableQuerySchema } from "./table-state.ts";

export const adAccountQuery = tableQuerySchema(
  AD_ACCOUNT_SORTS,
  AD_ACCOUNT_SEARCHES,
  z.strictObject({ currency: z.array(z.enum(CURRENCIES)).max(CURRENCIES.length).optional(), country: z.array(countrySchema).max(40).optional() }),
);
const adAccountName = z.string().trim().min(1).max(50);
export const adAccountCreate = z.strictObject({ name: adAccountName, country: countrySchema });
export const adAccountUpdate = z.strictObject({ name: adAccountName });
export const assetGroupQuery = tableQuerySchema(
  ASSET_GROUP_SORTS,
  ASSET_GROUP_SEARCHES,
  z.strictObject({ asset_group_types: z.array(z.enum(ASSET_GROUP_TYPES)).max(ASSET_GROUP_TYPES.length).optional() }),
);
const ids = (max: number) => z.array(z.string().regex(/^\d{1,18}$/)).max(max).refine((list) => new Set(list).size === list.length, { message: "business:validation.duplicateIds" });
const assetGroupFields = {
  name: z.string().trim().min(1).max(50),
  description: z.string().trim().max(500),
  asset_group_types: z.array(z.enum(ASSET_GROUP_TYPES)).min(1).max(ASSET_GROUP_TYPES.length).refine((list) => new Set(list).size === list.length, { message: "business:validation.duplicateTypes" }),
  child_ad_account_ids: ids(50),
  child_profile_ids: ids(10),
};
export const assetGroupCreate = z.strictObject({
  ...assetGroupFields,
  description: assetGroupFields.description.default(""),
  child_ad_account_ids: assetGroupFields.child_ad_account_ids.default([]),
  child_profile_ids: assetGroupFields.child_profile_ids.default([]),
});
export const assetGroupUpdate = z
  .strictObject({
    name: assetGroupFields.name.optional(),
    description: assetGroupFields.description.optional(),
    asset_group_types: assetGroupFields.asset_group_types.optional(),
    child_ad_account_ids: assetGroupFields.child_ad_account_ids.optional(),
    child_profile_ids: assetGroupFields.child_profile_ids.optional(),
  })
  .refine((input) => Object.keys(input).length > 0, { message: "business:validation.nothingToChange" });
export const shortcutsBody = z.strictObject({ customShortcuts: z.array(z.enum(SHORTCUT_IDS)).max(SHORTCUT_IDS.length).refine((list) => new Set(list).size === list.length, { message: "business:validation.duplicateShortcuts" }) });
