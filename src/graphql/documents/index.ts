// The persisted documents: the only GraphQL the endpoint ever runs. Each is keyed by the
// lowercase hex SHA-256 of its exact text (registry.server.ts computes it; query-ids.ts holds
// the same keys for the browser, and a unit test recomputes every one).
import { CLOSEUP_DETAIL_QUERY } from "./closeup-detail.ts";
import { CLOSEUP_PAGE_QUERY } from "./closeup-page.ts";
import { CLOSEUP_RELATED_MODULES_FEED_QUERY } from "./closeup-related.ts";

export const PERSISTED_DOCUMENTS = {
  CloseupDetailQuery: CLOSEUP_DETAIL_QUERY,
  CloseupPageQuery: CLOSEUP_PAGE_QUERY,
  CloseupRelatedModulesFeedQuery: CLOSEUP_RELATED_MODULES_FEED_QUERY,
} as const;

export type QueryName = keyof typeof PERSISTED_DOCUMENTS;
