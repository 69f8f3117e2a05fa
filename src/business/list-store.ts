// The hub's list store in the browser (spec 002 §4 "Lists", "Recommendation loading"; §5 "Business
// management lists"): one nanostores map holding each list by its key. A list cycles loading
// (remembering the parameters it was asked with), then success or error; its error stays until
// clearError. An answer is kept only when it is shape-checked (an array whose items each carry a
// string id and the list's required arrays); a malformed answer leaves the state unchanged.
// Lists that the spec empties on failure (recommendations) say so with emptyOnError.
import { map } from "nanostores";
import { emptyList, listReducer, type ListAction, type ListState } from "./table-state.ts";

type Params = Record<string, string>;

interface HubList<Item extends { id: string }> extends ListState<Item> {
  /** The parameters of the last load started, so a retry asks the same. */
  params: Params | null;
}

export interface ListShape {
  /** Fields every item must carry as arrays (e.g. sharedAccounts, adAccounts). */
  arrays: readonly string[];
  /** Spec 002 §4: a recommendation load's failure leaves empty data. */
  emptyOnError?: boolean;
}

type Item = { id: string };
export const hubLists = map<Record<string, HubList<Item>>>({});

const current = (key: string): HubList<Item> => hubLists.get()[key] ?? { ...emptyList<Item>(), params: null };

/** An answer's items are well shaped: an array of objects, each with a string id and the required arrays. */
export function wellShaped(items: unknown, shape: ListShape): items is Item[] {
  return (
    Array.isArray(items) &&
    items.every((item) => item !== null && typeof item === "object" && typeof (item as Item).id === "string" && shape.arrays.every((field) => Array.isArray((item as Record<string, unknown>)[field])))
  );
}

function apply(key: string, next: HubList<Item>): void {
  if (next !== hubLists.get()[key]) hubLists.setKey(key, next);
}

/** Starts a load: loading, and the parameters remembered. */
export function startList(key: string, params: Params): void {
  apply(key, { ...current(key), ...listReducer(current(key), { type: "loading" }), params });
}

/** A load's answer: kept when well shaped, else the state stays exactly as it was. */
export function listLoaded(key: string, items: unknown, shape: ListShape): void {
  if (!wellShaped(items, shape)) return;
  apply(key, { ...current(key), ...listReducer(current(key), { type: "success", items }) });
}

export function listFailed(key: string, error: string, shape: ListShape): void {
  const state = current(key);
  apply(key, { ...state, ...listReducer(state, { type: "error", error }), ...(shape.emptyOnError ? { items: [] } : {}) });
}

/** The other transitions of §4: clearError, created (selects it), deleted (selects the first remaining), select. */
export function listAction(key: string, action: Exclude<ListAction<Item>, { type: "loading" | "success" | "error" }>): void {
  const state = current(key);
  apply(key, { ...state, ...listReducer(state, action) });
}

/**
 * One load through the store: start, fetch, then success or failure. The answer's data is read
 * at `pick` (its list); a refused or unreadable answer is a failure with `failed` as its error.
 */
export async function loadList(key: string, url: string, params: Params, shape: ListShape, failed: string, fetcher: (url: string) => Promise<Response>, pick: (body: unknown) => unknown): Promise<void> {
  startList(key, params);
  try {
    const response = await fetcher(`${url}?${new URLSearchParams(params).toString()}`);
    const body = (await response.json().catch(() => null)) as unknown;
    if (!response.ok) {
      listFailed(key, failed, shape);
      return;
    }
    listLoaded(key, pick(body), shape);
  } catch {
    listFailed(key, failed, shape);
  }
}
