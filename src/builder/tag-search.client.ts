// The tag editor's one call: BaseSearchResource (the header's search) for pins or products to
// tag, through the shared resource client (CSRF header, same-origin credentials).
import { resource, type Transport } from "~/api/api.client.ts";
import type { TaggedObject } from "./pin-tags.ts";
import { SEARCH_PAGE_SIZE, SEARCH_SCOPES, taggableResults, type TagSearchScope } from "./tag-editor.ts";

export type TagSearch = (query: string, scope: TagSearchScope) => Promise<TaggedObject[]>;

export function tagSearch(transport?: Transport): TagSearch {
  return async (query, scope) => taggableResults(await resource<unknown>("BaseSearchResource", "get", { query, scope: SEARCH_SCOPES[scope], page_size: SEARCH_PAGE_SIZE }, transport));
}
