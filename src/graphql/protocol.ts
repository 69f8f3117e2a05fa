// The wire contract of POST /_/graphql/ shared by the browser client, the endpoint and the
// proxy (spec 000 §7). Header names are the client fetch layer's (src/runtime/headers.ts).
import type { QueryName } from "./documents/index.ts";
import {
  APP_STATE_HEADER,
  APP_VERSION_HEADER,
  FORCE_COUNTRY_FROM_IP_HEADER,
  FORCE_COUNTRY_HEADER,
  QUERY_NAME_HEADER,
  SOURCE_URL_HEADER,
} from "~/runtime/headers.ts";

export const GRAPHQL_PATH = "/_/graphql/";
/** A persisted-query call is a hash and a few variables: anything bigger is not one. */
export const GRAPHQL_MAX_BODY_BYTES = 16 * 1024;
/** Embedded and fetched responses kept in the browser (spec 000 §9). */
export const RESPONSE_CACHE_MAX_ENTRIES = 100;
export const RESPONSE_CACHE_TTL_MS = 60_000;

/** The client fetch layer's headers (src/runtime/headers.ts) the proxy passes on, and its own two. */
export const GRAPHQL_HEADERS = {
  sourceUrl: SOURCE_URL_HEADER,
  queryName: QUERY_NAME_HEADER,
  appVersion: APP_VERSION_HEADER,
  appState: APP_STATE_HEADER,
  forceCountry: FORCE_COUNTRY_HEADER,
  forceCountryFromIp: FORCE_COUNTRY_FROM_IP_HEADER,
  /** Proxy mode only: the viewer's locale and country, for the upstream's own rules. */
  viewerLocale: "X-Viewer-Locale",
  viewerCountry: "X-Viewer-Country",
} as const;

export type GraphqlVariables = Record<string, unknown>;

export interface PersistedQueryRequest {
  queryHash: string;
  variables: GraphqlVariables;
}

export interface GraphqlErrorResult {
  message: string;
  path?: ReadonlyArray<string | number>;
  extensions?: { code?: string };
}

/** A GraphQL answer: data, and errors when a field failed (e.g. a pin not found). */
export interface GraphqlResult<Data = Record<string, unknown>> {
  data?: Data | null;
  errors?: GraphqlErrorResult[];
}

/** One response embedded in a page: the query, the variables it ran with and its answer. */
export interface EmbeddedQueryResponse {
  queryName: QueryName;
  variables: GraphqlVariables;
  result: GraphqlResult;
}

/** The id of the <script type="application/json"> holding a page's embedded responses. */
export const EMBEDDED_QUERIES_ID = "pinloom-graphql";

/** A stable key for (query, variables): keys sorted, undefined dropped. */
export function cacheKey(queryHash: string, variables: GraphqlVariables): string {
  const sorted = Object.keys(variables)
    .filter((key) => variables[key] !== undefined)
    .sort()
    .map((key) => [key, variables[key]]);
  return `${queryHash}:${JSON.stringify(sorted)}`;
}
