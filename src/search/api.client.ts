// The search islands' calls: AdvancedTypeaheadResource get and UserRecentSearchesResource
// get/delete, through the shared resource client (CSRF
// header, same-origin credentials). Answers are checked for the fields the islands read.
import { resource, type Transport } from "~/api/api.client.ts";
import type { TypeaheadItem, TypeaheadResponse } from "./types.ts";

export interface SearchApi {
  typeahead(term: string): Promise<TypeaheadResponse>;
  recent(): Promise<string[]>;
  removeRecent(query: string): Promise<void>;
  clearRecent(): Promise<void>;
}

const isItem = (item: unknown): item is TypeaheadItem => {
  if (typeof item !== "object" || item === null) return false;
  const value = item as Record<string, unknown>;
  if (value["type"] === "query") return typeof value["query"] === "string";
  if (value["type"] === "board") return typeof value["name"] === "string" && typeof value["url"] === "string";
  if (value["type"] === "user") return typeof value["username"] === "string" && typeof value["url"] === "string";
  return false;
};

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : []);

export function searchApi(transport?: Transport): SearchApi {
  return {
    async typeahead(term) {
      const data = await resource<Partial<TypeaheadResponse>>("AdvancedTypeaheadResource", "get", { term, recent_queries_tags: true }, transport);
      return { term, recent_queries_tags: strings(data?.recent_queries_tags), items: (Array.isArray(data?.items) ? data.items : []).filter(isItem).slice(0, 10) };
    },
    async recent() {
      const data = await resource<{ results?: unknown }>("UserRecentSearchesResource", "get", {}, transport);
      return strings(data?.results);
    },
    async removeRecent(query) {
      await resource("UserRecentSearchesResource", "delete", { query }, transport);
    },
    async clearRecent() {
      await resource("UserRecentSearchesResource", "delete", {}, transport);
    },
  };
}
