// Search request options (spec 000 §3, contract /work/briefs/search-api.md): the one schema the
// API, the pages and the islands share. Pure: no D1, no DOM.
import { z } from "zod";

export const SCOPES = ["pins", "buyable_pins", "my_pins", "videos", "boards", "users", "idea_pins", "my_content"] as const;
export type Scope = (typeof SCOPES)[number];

export const RS_VALUES = ["direct_navigation", "typed", "typeahead", "recent", "recommended", "guide", "filter", "tab", "typo"] as const;
export type SearchRs = (typeof RS_VALUES)[number];

/** Scopes that read the viewer's own content: signed-in only, and their searches are "personal". */
export const PERSONAL_SCOPES: ReadonlySet<Scope> = new Set(["my_pins", "my_content"]);

/** Scopes whose results are pins (the kind and created filters apply). */
export const PIN_SCOPES: ReadonlySet<Scope> = new Set(["pins", "buyable_pins", "my_pins", "videos", "idea_pins"]);

export const MAX_QUERY_LENGTH = 200;
export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 50;

/** The filter ids a response offers (`filters[].id`) and a request may send back. */
export const KIND_FILTERS = ["kind:image", "kind:video", "kind:recipe", "kind:product", "kind:article", "kind:story", "kind:carousel"] as const;
export const CREATED_FILTERS = ["created:7d", "created:30d", "created:365d"] as const;
export const FILTER_IDS: readonly string[] = [...KIND_FILTERS, ...CREATED_FILTERS];
const FILTER_ID_PATTERN = /^[a-z_]+:[a-z0-9_]+$/;

/** NFKC, trimmed, runs of whitespace collapsed to one space, at most 200 characters (code points). */
export function normalizeQuery(text: string): string {
  const collapsed = text.normalize("NFKC").replace(/\s+/gu, " ").trim();
  const chars = Array.from(collapsed);
  return chars.length > MAX_QUERY_LENGTH ? chars.slice(0, MAX_QUERY_LENGTH).join("").trimEnd() : collapsed;
}

/** "a,b, c" → ["a","b","c"]: empty entries dropped. */
export function splitList(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

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

export type SearchOptionsInput = z.input<typeof searchOptionsSchema>;
export type SearchOptions = z.output<typeof searchOptionsSchema>;

/** Options beside scope and query that a canonical URL carries when they are not the default. */
export interface SearchUrlExtra {
  rs?: SearchRs;
  filters?: string;
  applied_filters?: string;
  product_filters?: string;
  domains?: string[];
  price_min?: number;
  price_max?: number;
  user?: string;
}

/**
 * The canonical search URL: /search/{scope}/?q=normalized, then rs when it is not
 * direct_navigation, then each other option given and non-empty, in a fixed order.
 */
export function searchUrl(scope: Scope, query: string, extra: SearchUrlExtra = {}): string {
  const params = new URLSearchParams();
  params.set("q", normalizeQuery(query));
  if (extra.rs !== undefined && extra.rs !== "direct_navigation") params.set("rs", extra.rs);
  for (const key of ["filters", "applied_filters", "product_filters"] as const) {
    const items = splitList(extra[key]);
    if (items.length > 0) params.set(key, items.join(","));
  }
  if (extra.domains && extra.domains.length > 0) params.set("domains", extra.domains.join(","));
  if (extra.price_min !== undefined) params.set("price_min", String(extra.price_min));
  if (extra.price_max !== undefined) params.set("price_max", String(extra.price_max));
  if (extra.user !== undefined && extra.user !== "") params.set("user", extra.user);
  return `/search/${scope}/?${params.toString()}`;
}
