// The sortable and searchable fields of the business lists and the asset group types: plain
// values both the server and the pages read.

export const AD_ACCOUNT_SORTS = ["name", "created_time", "currency"] as const;
export const AD_ACCOUNT_SEARCHES = ["name", "id"] as const;
export const ASSET_GROUP_TYPES = ["BRAND", "REGION", "PRODUCT_LINE", "AGENCY_CLIENT", "OTHER"] as const;
export type AssetGroupType = (typeof ASSET_GROUP_TYPES)[number];

export const ASSET_GROUP_SORTS = ["name", "created_time"] as const;
export const ASSET_GROUP_SEARCHES = ["name", "description"] as const;
