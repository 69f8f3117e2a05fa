// The advertiser area's campaign, ad group and ad tables: what each sorts and searches by, and
// their filters, as the spec's table state (page 1, limit 10, ASCENDING, startIndex 1) read from
// query parameters by the API and the pages alike.
import { z } from "zod";
import { tableQuerySchema } from "~/business/table-state.ts";
import { CAMPAIGN_STATUSES } from "./campaign-status.ts";

export const CAMPAIGN_SORTS = ["created_time", "name", "daily_budget", "status"] as const;
export const CAMPAIGN_SEARCHES = ["name", "id"] as const;
export const AD_GROUP_SORTS = ["created_time", "name", "status"] as const;
export const AD_SORTS = ["created_time", "name", "status"] as const;
export const CHILD_SEARCHES = ["name", "id"] as const;

const statusFilter = z.strictObject({ status: z.array(z.enum(CAMPAIGN_STATUSES)).max(CAMPAIGN_STATUSES.length).optional() });

export const campaignQuery = tableQuerySchema(CAMPAIGN_SORTS, CAMPAIGN_SEARCHES, statusFilter);
export const adGroupQuery = tableQuerySchema(AD_GROUP_SORTS, CHILD_SEARCHES, statusFilter);
export const adQuery = tableQuerySchema(AD_SORTS, CHILD_SEARCHES, statusFilter);

export type CampaignQuery = z.output<typeof campaignQuery>;
export type AdGroupQuery = z.output<typeof adGroupQuery>;
export type AdQuery = z.output<typeof adQuery>;
