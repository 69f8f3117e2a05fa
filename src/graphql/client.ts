// The browser's GraphQL client (spec 000 §7, §9): persisted queries by hash, never text. A
// page embeds the responses of the queries it preloaded (<script id="pinloom-graphql">); they
// and fetched answers are kept in a response cache of at most 100 entries for 60 s, so an
// island reads them without a request. A query the page did not preload is a miss: it is
// counted and announced (a "pinloom:graphql-miss" event), and the client falls back to
// POST /_/graphql/ through the runtime fetch layer (src/runtime/fetch.ts).
import type { QueryName } from "./documents/index.ts";
import {
  EMBEDDED_QUERIES_ID,
  GRAPHQL_PATH,
  RESPONSE_CACHE_MAX_ENTRIES,
  RESPONSE_CACHE_TTL_MS,
  cacheKey,
  type EmbeddedQueryResponse,
  type GraphqlResult,
  type GraphqlVariables,
} from "./protocol.ts";
import { QUERY_IDS } from "./query-ids.ts";
import { apiFetch, browserDeps, type FetchDeps } from "~/runtime/fetch.ts";
import { readJsonBlock } from "~/islands/json-block.ts";

export const MISS_EVENT = "pinloom:graphql-miss";

interface Entry {
  result: GraphqlResult;
  storedAt: number;
}

/** At most `max` answers, each for `ttlMs`; the oldest stored goes first when full. */
export class ResponseCache {
  readonly #entries = new Map<string, Entry>();
  constructor(
    readonly max = RESPONSE_CACHE_MAX_ENTRIES,
    readonly ttlMs = RESPONSE_CACHE_TTL_MS,
  ) {}

  get size(): number {
    return this.#entries.size;
  }

  get(key: string, now: number): GraphqlResult | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (now - entry.storedAt >= this.ttlMs) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.result;
  }

  set(key: string, result: GraphqlResult, now: number): void {
    this.#entries.delete(key);
    for (const [stale, entry] of this.#entries) if (now - entry.storedAt >= this.ttlMs) this.#entries.delete(stale);
    while (this.#entries.size >= this.max) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, { result, storedAt: now });
  }
}

/** A failed call: no answer (network) or one that is not a GraphQL result. */
export class GraphqlFetchError extends Error {
  constructor(
    readonly queryName: QueryName,
    readonly status: number | null,
  ) {
    super(`${queryName} failed${status === null ? " (network)" : ` (HTTP ${status})`}`);
    this.name = "GraphqlFetchError";
  }
}

export interface QueryAnswer<Data> {
  /** Where it came from: the page's embedded (or earlier) answer, or the network. */
  source: "cache" | "network";
  status: number;
  result: GraphqlResult<Data>;
}

export interface ClientOptions {
  /** The runtime fetch layer's page and network (tests pass their own). */
  deps?: FetchDeps;
  now?: () => number;
  dispatch?: (event: Event) => void;
}

export class GraphqlClient {
  readonly cache = new ResponseCache();
  /** Queries asked for that the page had not preloaded (console-free, for tests and telemetry). */
  misses = 0;
  readonly #options: Required<ClientOptions>;

  constructor(options: ClientOptions = {}) {
    this.#options = {
      deps: options.deps ?? browserDeps(),
      now: options.now ?? (() => Date.now()),
      dispatch: options.dispatch ?? ((event) => dispatchEvent(event)),
    };
  }

  /** Takes in a page's embedded answers (as they were when the page was rendered). */
  seed(embedded: ReadonlyArray<EmbeddedQueryResponse>): void {
    const now = this.#options.now();
    for (const entry of embedded.slice(0, RESPONSE_CACHE_MAX_ENTRIES)) {
      const hash = QUERY_IDS[entry.queryName];
      if (hash) this.cache.set(cacheKey(hash, entry.variables), entry.result, now);
    }
  }

  /** Seeds from the page's <script id="pinloom-graphql">, when there is one. */
  seedFromDocument(root: Pick<Document, "getElementById"> = document): void {
    // A missing or broken block is no block: every query then falls back to the network.
    const embedded = readJsonBlock(root, EMBEDDED_QUERIES_ID);
    if (Array.isArray(embedded)) this.seed(embedded as EmbeddedQueryResponse[]);
  }

  /** The cached answer, or a reported miss and a POST /_/graphql/. */
  async query<Data = Record<string, unknown>>(queryName: QueryName, variables: GraphqlVariables): Promise<QueryAnswer<Data>> {
    const queryHash = QUERY_IDS[queryName];
    const key = cacheKey(queryHash, variables);
    const cached = this.cache.get(key, this.#options.now());
    if (cached) return { source: "cache", status: 200, result: cached as GraphqlResult<Data> };
    this.misses += 1;
    this.#options.dispatch(new CustomEvent(MISS_EVENT, { detail: { queryName } }));
    let response: Response;
    try {
      // The runtime layer sends the spec §7 headers (query name included), checks the app
      // version and reports a network failure with the CSRF state it was sent with.
      response = await apiFetch(GRAPHQL_PATH, { method: "POST", queryName, body: JSON.stringify({ queryHash, variables }) }, this.#options.deps);
    } catch {
      throw new GraphqlFetchError(queryName, null);
    }
    let result: GraphqlResult<Data>;
    try {
      result = (await response.json()) as GraphqlResult<Data>;
    } catch {
      throw new GraphqlFetchError(queryName, response.status);
    }
    if (!response.ok || result === null || typeof result !== "object" || !("data" in result)) throw new GraphqlFetchError(queryName, response.status);
    if (!result.errors?.length) this.cache.set(key, result as GraphqlResult, this.#options.now());
    return { source: "network", status: response.status, result };
  }
}

let shared: GraphqlClient | null = null;

/** The page's one client, seeded from its embedded answers on first use. */
export function graphqlClient(): GraphqlClient {
  if (!shared) {
    shared = new GraphqlClient();
    shared.seedFromDocument();
  }
  return shared;
}
