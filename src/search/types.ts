// What search answers: the `data` of BaseSearchResource,
// the typeahead and the other search resources. Pure types shared by the server and the islands.
import type { GridPin } from "~/pins/pins.server.ts";
import type { Scope } from "./options.ts";

export { END_MARKER } from "~/feeds/feed.ts";

export type SearchPinItem = { type: "pin" } & GridPin;

export interface SearchBoardItem {
  type: "board";
  id: string;
  name: string;
  url: string;
  pinCount: number;
  owner: { username: string; fullName: string };
  cover: { url: string; width: number; height: number } | null;
}

export interface SearchUserItem {
  type: "user";
  id: string;
  username: string;
  fullName: string;
  imageUrl: string | null;
  followerCount: number;
  url: string;
}

export type SearchItem = SearchPinItem | SearchBoardItem | SearchUserItem;

export interface SearchTab {
  scope: Scope;
  selected: boolean;
}

export interface SearchChip {
  id: string;
  applied: boolean;
}

export interface ProductFilters {
  price: { min: number; max: number } | null;
  domains: { domain: string; count: number }[];
  categories: { id: string; count: number }[];
}

export interface SearchResponse {
  query: string;
  scope: Scope;
  results: SearchItem[];
  /** The next page's bookmark, or END_MARKER ("-end-") at the end. */
  bookmark: string;
  /** At most 8 refinement terms from the matched pins' interests and titles. */
  guides: { term: string }[];
  /** When results are few and a close query has more. */
  typo: { original: string; corrected: string } | null;
  nag: null | { kind: "few_results" };
  sensitivity: null | { kind: "sensitive_query" };
  filters: SearchChip[];
  tabs: SearchTab[];
  modeIcon: null | "shopping" | "video";
  /** Quick chips: the same ids as filters, at most 6. */
  oneBarModules: SearchChip[];
  productFilters: ProductFilters | null;
}

export type TypeaheadItem =
  | { type: "query"; query: string }
  | { type: "board"; id: string; name: string; url: string; owner: { username: string } }
  | { type: "user"; id: string; username: string; fullName: string; imageUrl: string | null; url: string };

export interface TypeaheadResponse {
  term: string;
  /** The viewer's recent searches starting with term (the latest 5 for an empty term); [] signed out. */
  recent_queries_tags: string[];
  /** At most 10; queries first. */
  items: TypeaheadItem[];
}

export interface VisualAnnotations {
  annotations: { term: string; url: string }[];
}

export interface FlashlightFilters {
  price_filters: { min: number; max: number }[];
  domain_filters: { domain: string; count: number }[];
  category_filters: { id: string; count: number }[];
}
