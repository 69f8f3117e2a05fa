// Search request options (spec 000 §3): the one schema the
// API, the pages and the islands share. Pure: no D1, no DOM.
import { z } from "zod";
import { MAX_QUERY_LENGTH, RS_VALUES, SCOPES, normalizeQuery, splitList } from "./query-text.ts";

// The zod-free rules (scopes, query text, canonical URL) live in query-text.ts so browser code
// can use them without loading zod; they are re-exported here for the server's one import.
export * from "./query-text.ts";

export const DEFAULT_PAGE_SIZE = 25;
const MAX_PAGE_SIZE = 50;

/** The filter ids a response offers (`filters[].id`) and a request may send back. */
export const KIND_FILTERS = ["kind:image", "kind:video", "kind:recipe", "kind:product", "kind:article", "kind:story", "kind:carousel"] as const;
export const CREATED_FILTERS = ["created:7d", "created:30d", "created:365d"] as const;
const FILTER_IDS: readonly string[] = [...KIND_FILTERS, ...CREATED_FILTERS];
const FILTER_ID_PATTERN = /^[a-z_]+:[a-z0-9_]+$/;

function commaList(max: number, itemOk: (item: string) => boolean, itemMax = 64) {
  return z
    .string()
    .max(max * (itemMax + 1))
    .refine((value) => splitList(value).length <= max, { message: "common:validation.tooBig", params: { values: { maximum: max } } })
    .refine((value) => splitList(value).every((item) => item.length <= itemMax && itemOk(item)), { message: "common:validation.invalidFormat" });
}

const HOSTNAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

export const searchOptionsSchema = z
  .strictObject({
    query: z
      .string()
      .max(4000)
      .transform(normalizeQuery)
      .pipe(z.string().min(1).max(MAX_QUERY_LENGTH)),
    scope: z.enum(SCOPES).optional(),
    rs: z.enum(RS_VALUES).optional(),
    filters: commaList(10, (item) => FILTER_ID_PATTERN.test(item) && FILTER_IDS.includes(item)).optional(),
    applied_filters: commaList(5, (item) => normalizeQuery(item).length > 0, 40).optional(),
    product_filters: commaList(10, (item) => /^[a-z0-9_]{1,64}$/.test(item)).optional(),
    domains: z.array(z.string().regex(HOSTNAME)).max(10).optional(),
    price_min: z.number().finite().min(0).optional(),
    price_max: z.number().finite().min(0).optional(),
    page_size: z.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
    bookmark: z.string().regex(/^[A-Za-z0-9_-]{1,400}$/).optional(),
    user: z.string().regex(/^[A-Za-z0-9_]{1,30}$/).optional(),
    top_pin_id: z.string().regex(/^\d{1,20}$/).optional(),
    source_id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/).optional(),
    bubble_id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/).optional(),
    personalization_signature: z.string().regex(/^[A-Za-z0-9_=-]{1,128}$/).optional(),
  })
  .superRefine((options, ctx) => {
    if (options.price_min !== undefined && options.price_max !== undefined && options.price_max < options.price_min) {
      ctx.addIssue({ code: "custom", path: ["price_max"], message: "common:validation.tooSmall", params: { values: { minimum: options.price_min } } });
    }
  });

export type SearchOptions = z.output<typeof searchOptionsSchema>;

