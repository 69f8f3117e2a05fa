// Every business list's table state (spec 002 §3 "Table state", §9 "Listing"): page 1, limit 10,
// ASCENDING, startIndex 1, an optional search and filters, as query parameters a link can
// carry. Also the history's date range (default 7 days ago to 1 day ago) and the list store's
// transitions (§4 "Lists", "Selection"), shared by the server and the browser.
import { z } from "zod";

const TABLE_DEFAULTS = { page: 1, limit: 10, sortDirection: "ASCENDING", startIndex: 1 } as const;
const MAX_LIMIT = 100;
/** Far enough for any real business (10,000 items a list), short enough to bound OFFSET. */
const MAX_PAGE = 1000;

export interface TableState<SortBy extends string, SearchBy extends string, Filters> {
  page: number;
  limit: number;
  sortBy: SortBy;
  sortDirection: "ASCENDING" | "DESCENDING";
  searchBy?: SearchBy;
  searchTerm?: string;
  startIndex: number;
  filtersPayload?: Filters;
}

const intParam = (min: number, max: number, fallback: number) => z.coerce.number().int().min(min).max(max).default(fallback);

/** The query parameters of one list: its sortable and searchable fields and its filters' shape. */
export function tableQuerySchema<SortBy extends string, SearchBy extends string, Filters extends z.ZodType>(sortBy: readonly [SortBy, ...SortBy[]], searchBy: readonly [SearchBy, ...SearchBy[]], filters: Filters) {
  return z
    .strictObject({
      page: intParam(1, MAX_PAGE, TABLE_DEFAULTS.page),
      limit: intParam(1, MAX_LIMIT, TABLE_DEFAULTS.limit),
      sort_by: z.enum(sortBy).default(sortBy[0]),
      sort_direction: z.enum(["ASCENDING", "DESCENDING"]).default(TABLE_DEFAULTS.sortDirection),
      search_by: z.enum(searchBy).optional(),
      search_term: z.string().trim().max(100).optional(),
      filters: z
        .string()
        .max(1000)
        .transform((text, ctx) => {
          try {
            return JSON.parse(text) as unknown;
          } catch {
            ctx.addIssue({ code: "custom", message: "business:validation.filters" });
            return z.NEVER;
          }
        })
        .pipe(filters)
        .optional(),
    })
    .transform((query): TableState<SortBy, SearchBy, z.output<Filters>> => ({
      page: query.page,
      limit: query.limit,
      sortBy: query.sort_by,
      sortDirection: query.sort_direction,
      ...(query.search_term ? { searchBy: query.search_by ?? searchBy[0], searchTerm: query.search_term } : {}),
      startIndex: (query.page - 1) * query.limit + 1,
      ...(query.filters === undefined ? {} : { filtersPayload: query.filters }),
    }));
}

/** A page of a list as the API answers it: the items and the table state that chose them. */
export interface TablePage<Item> {
  items: Item[];
  page: number;
  limit: number;
  total_count: number;
  start_index: number;
  sort_by: string;
  sort_direction: "ASCENDING" | "DESCENDING";
  search_by: string | null;
  search_term: string | null;
  filters: unknown;
}

export function tablePage<Item>(items: Item[], totalCount: number, state: TableState<string, string, unknown>): TablePage<Item> {
  return {
    items,
    page: state.page,
    limit: state.limit,
    total_count: totalCount,
    start_index: state.startIndex,
    sort_by: state.sortBy,
    sort_direction: state.sortDirection,
    search_by: state.searchBy ?? null,
    search_term: state.searchTerm ?? null,
    filters: state.filtersPayload ?? null,
  };
}

// ---- History's date range ----

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** The longest range one history read covers. */
const MAX_HISTORY_DAYS = 366;

/** The default window: from 7 days ago to 1 day ago, whole UTC days, both ends included. */
export function defaultHistoryRange(now: number): { startDate: string; endDate: string } {
  return { startDate: isoDay(now - 7 * DAY_MS), endDate: isoDay(now - DAY_MS) };
}

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/).refine((value) => isoDay(Date.parse(`${value}T00:00:00Z`) || 0) === value, { message: "business:validation.date" });

/** The history query: a date range (defaults above) and a page; the bounds in ms, end exclusive. */
export function historyQuerySchema(now: number) {
  const defaults = defaultHistoryRange(now);
  return z
    .strictObject({
      start_date: day.default(defaults.startDate),
      end_date: day.default(defaults.endDate),
      page: intParam(1, MAX_PAGE, TABLE_DEFAULTS.page),
      limit: intParam(1, MAX_LIMIT, TABLE_DEFAULTS.limit),
    })
    .superRefine((query, ctx) => {
      const start = Date.parse(`${query.start_date}T00:00:00Z`);
      const end = Date.parse(`${query.end_date}T00:00:00Z`);
      if (end < start) ctx.addIssue({ code: "custom", message: "business:validation.dateOrder", path: ["end_date"] });
      else if ((end - start) / DAY_MS >= MAX_HISTORY_DAYS) ctx.addIssue({ code: "custom", message: "business:validation.dateSpan", path: ["end_date"], params: { values: { maximum: MAX_HISTORY_DAYS } } });
    })
    .transform((query) => ({
      startDate: query.start_date,
      endDate: query.end_date,
      from: Date.parse(`${query.start_date}T00:00:00Z`),
      until: Date.parse(`${query.end_date}T00:00:00Z`) + DAY_MS,
      page: query.page,
      limit: query.limit,
      startIndex: (query.page - 1) * query.limit + 1,
    }));
}

// ---- The list store (spec 002 §4 "Lists" and "Selection") ----

export interface ListState<Item extends { id: string }> {
  status: "idle" | "loading" | "success" | "error";
  items: Item[];
  error: string | null;
  selectedId: string | null;
}

export const emptyList = <Item extends { id: string }>(): ListState<Item> => ({ status: "idle", items: [], error: null, selectedId: null });

export type ListAction<Item extends { id: string }> =
  | { type: "loading" }
  | { type: "success"; items: unknown }
  | { type: "error"; error: string }
  | { type: "clearError" }
  | { type: "created"; item: Item }
  | { type: "deleted"; id: string }
  | { type: "select"; id: string };

/** An answer's items are kept only when each has a string id (spec 002 §5: shape-checked; otherwise unchanged). */
function wellShaped<Item extends { id: string }>(items: unknown): items is Item[] {
  return Array.isArray(items) && items.every((item) => item !== null && typeof item === "object" && typeof (item as { id?: unknown }).id === "string");
}

/** A list cycles loading → success or error; the error stays until clearError; creating selects, deleting selects the first remaining. */
export function listReducer<Item extends { id: string }>(state: ListState<Item>, action: ListAction<Item>): ListState<Item> {
  switch (action.type) {
    case "loading":
      return { ...state, status: "loading" };
    case "success":
      return wellShaped<Item>(action.items) ? { ...state, status: "success", items: action.items } : state;
    case "error":
      return { ...state, status: "error", error: action.error };
    case "clearError":
      return { ...state, error: null };
    case "created":
      return { ...state, items: [...state.items.filter((item) => item.id !== action.item.id), action.item], selectedId: action.item.id };
    case "deleted": {
      const items = state.items.filter((item) => item.id !== action.id);
      return { ...state, items, selectedId: items[0]?.id ?? null };
    }
    case "select":
      return { ...state, selectedId: action.id };
  }
}
