// The advertiser's table of lead submissions: what it sorts and searches by and its filter (the
// ads whose forms collected them), as the spec's table state read from query parameters by the
// API and the hub page alike.
import { z } from "zod";
import { tableQuerySchema } from "~/business/table-state.ts";

export const LEAD_SORTS = ["created_time", "full_name", "email"] as const;
export const LEAD_SEARCHES = ["full_name", "email"] as const;

const adFilter = z.strictObject({ ad_ids: z.array(z.string().regex(/^[1-9][0-9]{0,17}$/)).max(50).optional() });

export const leadSubmissionQuery = tableQuerySchema(LEAD_SORTS, LEAD_SEARCHES, adFilter);
export type LeadSubmissionQuery = z.output<typeof leadSubmissionQuery>;
