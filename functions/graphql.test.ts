// POST /_/graphql/ through the real Hono app (createApp), in Node, with GRAPHQL_ORIGIN set
// and fetch replaced by a counting fake origin: refusals, the forwarded call, and fast-check
// properties that nothing outside the registry ever reaches the origin.
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { createApp } from "~/app.ts";
import { PERSISTED_DOCUMENTS, type QueryName } from "~/graphql/documents/index.ts";
import { GRAPHQL_PATH } from "~/graphql/protocol.ts";
import { publicUpstreamErrors, sourcePathOf, upstreamOf } from "./graphql.ts";
import { RATE_RULES } from "~/server/rate-limit.server.ts";
import { QUERY_IDS } from "~/graphql/query-ids.ts";

const ORIGIN = "https://pinloom.test";
const UPSTREAM = "https://graphql-upstream.test/graphql";
const TOKEN = "a".repeat(64);
const app = createApp(() => new Response("page", { status: 404 }));
const executionCtx = { waitUntil() {}, passThroughOnException() {}, props: {} };

interface Hit {
  url: string;
  headers: Headers;
  body: unknown;
}
let hits: Hit[] = [];

/** A D1 that only knows the throttle's UPSERT (rate-limit.server.ts): counts per key and window. */
const throttles = new Map<string, { windowStart: number; count: number }>();
const fakeDb = {
  prepare(sql: string) {
    if (!sql.includes("INSERT INTO rate_limits")) throw new Error(`unexpected SQL in the endpoint test: ${sql}`);
    return {
      bind: (key: string, windowStart: number) => ({
        first: async () => {
          const row = throttles.get(key);
          const count = row && row.windowStart === windowStart ? row.count + 1 : 1;
          throttles.set(key, { windowStart, count });
          return { count };
        },
      }),
    };
  },
};
let answer: () => Response = () => Response.json({ data: { pin: { id: "1" } } });

beforeEach(() => {
  hits = [];
  throttles.clear();
  answer = () => Response.json({ data: { pin: { id: "1" } } });
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    hits.push({ url: String(input), headers: new Headers(init?.headers), body: JSON.parse(String(init?.body)) });
    return answer();
  });
  vi.spyOn(console, "error").mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function post(body: unknown, headers: Record<string, string> = {}, env: Record<string, unknown> = {}) {
  return app.request(
    `${ORIGIN}${GRAPHQL_PATH}`,
    {
      method: "POST",
      headers: { origin: ORIGIN, cookie: `csrftoken=${TOKEN}; __Host-pinloom_sess=secret-session`, "X-CSRFToken": TOKEN, "content-type": "application/json", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    },
    { ENVIRONMENT: "production", APP_VERSION: "test", GRAPHQL_ORIGIN: UPSTREAM, DB: fakeDb, ...env },
    executionCtx,
  );
}

const related = (variables: Record<string, unknown>) => ({ queryHash: QUERY_IDS.CloseupRelatedModulesFeedQuery, variables });

describe("POST /_/graphql/ refusals (no origin touched)", () => {
  const cases: Array<[string, unknown, string]> = [
    ["an unknown hash", { queryHash: "0".repeat(64), variables: {} }, "queryHash"],
    ["a hash in upper case", { queryHash: QUERY_IDS.CloseupPageQuery.toUpperCase(), variables: {} }, "queryHash"],
    ["raw query text", { query: PERSISTED_DOCUMENTS.CloseupPageQuery, variables: { pinId: "1", isAuth: false } }, "query"],
    ["raw query beside a good hash", { queryHash: QUERY_IDS.CloseupPageQuery, query: "{ __schema { types { name } } }", variables: {} }, "query"],
    ["a missing required variable", { queryHash: QUERY_IDS.CloseupPageQuery, variables: { pinId: "1" } }, "variables.isAuth"],
    ["a pin id that is not digits", { queryHash: QUERY_IDS.CloseupPageQuery, variables: { pinId: "1 OR 1=1", isAuth: false } }, "variables.pinId"],
    ["a boolean given as text", { queryHash: QUERY_IDS.CloseupDetailQuery, variables: { pinId: "1", isAuth: "yes", isDesktop: true } }, "variables.isAuth"],
    ["a variable the document does not declare", related({ pinId: "1", first: 500 }), "variables.first"],
    // The schema's parse cannot keep "__proto__" as its own key: it must be refused, not dropped.
    ["a variable named __proto__", `{"queryHash":"${QUERY_IDS.CloseupRelatedModulesFeedQuery}","variables":{"pinId":"1","__proto__":"0"}}`, "variables.__proto__"],
    ["a cursor this API did not write", related({ pinId: "1", cursor: "not a cursor!" }), "variables.cursor"],
    ["a source past 200 characters", related({ pinId: "1", source: "x".repeat(201) }), "variables.source"],
    ["an extra top-level key", { queryHash: QUERY_IDS.CloseupPageQuery, variables: { pinId: "1", isAuth: false }, operationName: "x" }, "operationName"],
    ["variables that are a list", { queryHash: QUERY_IDS.CloseupPageQuery, variables: ["1"] }, "variables"],
  ];
  it.each(cases)("%s → 400 naming %s", async (_label, body, field) => {
    const response = await post(body);
    expect(response.status).toBe(400);
    const json = (await response.json()) as { message_detail: string };
    expect(json.message_detail).toContain(`${field}:`);
    expect(hits).toHaveLength(0);
  });

  it("a body that is not JSON → 400", async () => {
    const response = await post("{queryHash:");
    expect(response.status).toBe(400);
    expect(hits).toHaveLength(0);
  });

  it("a body past 16 KiB → 413", async () => {
    const response = await post(related({ pinId: "1", searchQuery: "x".repeat(17 * 1024) }));
    expect(response.status).toBe(413);
    expect(hits).toHaveLength(0);
  });

  it("without the CSRF header → 403", async () => {
    const response = await post(related({ pinId: "1" }), { "X-CSRFToken": "" });
    expect(response.status).toBe(403);
    expect(hits).toHaveLength(0);
  });
});

describe("proxy mode (GRAPHQL_ORIGIN)", () => {
  it("forwards {queryHash, variables} with the spec's headers, locale and country, never a cookie", async () => {
    const variables = { pinId: "42", source: "search", cursor: undefined };
    const response = await post(related(variables), {
      Accept: "application/json",
      "X-Requested-With": "XMLHttpRequest",
      "X-Pinloom-Source-Url": "/pin/42/",
      "X-Pinloom-Query-Name": "CloseupRelatedModulesFeedQuery",
      "X-Pinloom-App-State": "active",
      "X-Pinloom-Force-Country": "FR",
      "Accept-Language": "fr-FR,fr;q=0.9",
      "cf-ipcountry": "BE",
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { pin: { id: "1" } } });
    expect(hits).toHaveLength(1);
    const [hit] = hits;
    expect(hit!.url).toBe(UPSTREAM);
    expect(hit!.body).toEqual({ queryHash: QUERY_IDS.CloseupRelatedModulesFeedQuery, variables: { pinId: "42", source: "search" } });
    expect(hit!.headers.get("X-Pinloom-Source-Url")).toBe("/pin/42/");
    expect(hit!.headers.get("X-Pinloom-Query-Name")).toBe("CloseupRelatedModulesFeedQuery");
    expect(hit!.headers.get("X-Requested-With")).toBe("XMLHttpRequest");
    expect(hit!.headers.get("X-Pinloom-App-State")).toBe("active");
    expect(hit!.headers.get("X-Pinloom-Force-Country")).toBe("FR");
    expect(hit!.headers.get("X-Viewer-Locale")).toBe("fr");
    expect(hit!.headers.get("X-Viewer-Country")).toBe("BE");
    expect(hit!.headers.get("cookie")).toBeNull();
    expect(hit!.headers.get("X-CSRFToken")).toBeNull();
  });

  it("names the query by the registry, whatever the client's header says", async () => {
    await post(related({ pinId: "1" }), { "X-Pinloom-Query-Name": "CloseupPageQuery" });
    expect(hits[0]!.headers.get("X-Pinloom-Query-Name")).toBe("CloseupRelatedModulesFeedQuery");
  });

  const failures: Array<[string, () => Response]> = [
    ["a 500", () => new Response("boom", { status: 500 })],
    ["HTML", () => new Response("<html>", { headers: { "content-type": "text/html" } })],
    ["JSON that is not a GraphQL answer", () => Response.json([1, 2])],
    ["broken JSON", () => new Response("{", { headers: { "content-type": "application/json" } })],
  ];
  it.each(failures)("an upstream answering %s → 502 with an Error result", async (_label, upstream) => {
    answer = upstream;
    const response = await post(related({ pinId: "1" }));
    expect(response.status).toBe(502);
    const json = (await response.json()) as { errors: Array<{ extensions: { code: string } }> };
    expect(json.errors[0]!.extensions.code).toBe("UPSTREAM_FAILED");
  });

  it("an unreachable upstream → 502", async () => {
    vi.stubGlobal("fetch", async () => {
      throw new TypeError("connect ECONNREFUSED");
    });
    const response = await post(related({ pinId: "1" }));
    expect(response.status).toBe(502);
  });
});

describe("proxy mode: what leaves and what comes back", () => {
  it("passes upstream errors as {message, path?, extensions: {code}} only: unknown codes are UPSTREAM_ERROR with a generic message", async () => {
    answer = () =>
      Response.json({
        data: { pin: null },
        errors: [
          { message: "Pin 7 not found", path: ["pin"], locations: [{ line: 2, column: 3 }], extensions: { code: "NOT_FOUND", stacktrace: ["at resolve (/srv/app/pin.js:10)"] } },
          { message: "TypeError: cannot read x of undefined\n    at /srv/app/db.js:42", path: ["pin", "board"], extensions: { code: "INTERNAL_SERVER_ERROR", exception: { stacktrace: ["at /srv/app/db.js:42"] } } },
          { message: "no code at all", stack: "Error: at /srv/app/x.js:1" },
          "not even an object",
        ],
      });
    const response = await post(related({ pinId: "7" }));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: unknown; errors: unknown[] };
    expect(body.data).toEqual({ pin: null });
    expect(body.errors).toEqual([
      { message: "Pin 7 not found", path: ["pin"], extensions: { code: "NOT_FOUND" } },
      { message: "The data service could not answer this request.", path: ["pin", "board"], extensions: { code: "UPSTREAM_ERROR" } },
      { message: "The data service could not answer this request.", extensions: { code: "UPSTREAM_ERROR" } },
      { message: "The data service could not answer this request.", extensions: { code: "UPSTREAM_ERROR" } },
    ]);
    expect(JSON.stringify(body)).not.toContain("/srv/app");
  });

  it("bounds the errors passed on and refuses odd paths", () => {
    const many = Array.from({ length: 50 }, () => ({ message: "x", extensions: { code: "FORBIDDEN" } }));
    expect(publicUpstreamErrors(many, "generic")).toHaveLength(20);
    expect(publicUpstreamErrors([{ message: "m", path: [{ evil: true }], extensions: { code: "FORBIDDEN" } }], "generic")).toEqual([{ message: "m", extensions: { code: "FORBIDDEN" } }]);
    expect(publicUpstreamErrors([{ message: "m".repeat(1000), extensions: { code: "BAD_USER_INPUT" } }], "generic")[0]!.message).toHaveLength(300);
  });

  it("sends the source URL's path only, never its query string", async () => {
    await post(related({ pinId: "42" }), { "X-Pinloom-Source-Url": "/search/pins/?q=my+secret+search&token=abc" });
    expect(hits[0]!.headers.get("X-Pinloom-Source-Url")).toBe("/search/pins/");
    expect(sourcePathOf("/pin/42/?utm=1#top")).toBe("/pin/42/");
  });

  it.each<[string, string, string, boolean]>([
    ["https in production", "https://up.test/graphql", "production", true],
    ["http in production", "http://up.test/graphql", "production", false],
    ["http on loopback in production", "http://127.0.0.1:8787/graphql", "production", false],
    ["http in development", "http://127.0.0.1:8787/graphql", "development", true],
    ["another scheme in development", "ftp://up.test/graphql", "development", false],
  ])("upstreamOf: %s → %s", (_, origin, environment, used) => {
    expect(upstreamOf({ GRAPHQL_ORIGIN: origin, ENVIRONMENT: environment } as Parameters<typeof upstreamOf>[0]) !== null).toBe(used);
  });

  it("an http: upstream in production is never called", async () => {
    // Not forwarded: the call runs locally (here over a D1 that knows only the throttle, so it fails).
    const response = await post(related({ pinId: "1" }), {}, { GRAPHQL_ORIGIN: "http://graphql-upstream.test/graphql" });
    await response.arrayBuffer();
    expect(hits).toHaveLength(0);
  });
});

describe("rate limit", () => {
  it(`past ${RATE_RULES.graphqlPerViewer.limit} calls a minute from one /64 → 429 with Retry-After; another address is not affected`, async () => {
    // One fixed window: the clock stands at a window's start, so the count cannot roll over mid-test.
    vi.useFakeTimers({ toFake: ["Date"], now: 1_800_000_000_000 });
    onTestFinished(() => void vi.useRealTimers());
    const from = (ip: string) => post(related({ pinId: "1" }), { "CF-Connecting-IP": ip });
    for (let i = 0; i < RATE_RULES.graphqlPerViewer.limit; i++) {
      const response = await from(i % 2 === 0 ? "2001:db8:5:6::1" : "2001:db8:5:6:ffff::9");
      expect(response.status).toBe(200);
    }
    const refused = await from("2001:db8:5:6::2");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(hits).toHaveLength(RATE_RULES.graphqlPerViewer.limit);
    expect((await from("2001:db8:5:7::1")).status).toBe(200);
  });
});

describe("properties (fast-check)", () => {
  const knownHashes = new Set(Object.values(QUERY_IDS));
  const json = fc.jsonValue({ maxDepth: 3 });

  it("a hash outside the registry never reaches the origin and is always a 400", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.stringMatching(/^[0-9a-f]{64}$/), fc.string({ maxLength: 80 }), json),
        fc.dictionary(fc.string({ maxLength: 12 }), json, { maxKeys: 6 }),
        async (queryHash, variables) => {
          fc.pre(!(typeof queryHash === "string" && knownHashes.has(queryHash)));
          hits = [];
          const response = await post({ queryHash, variables });
          expect(response.status).toBe(400);
          expect(hits).toHaveLength(0);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("fuzzed variables on a registry hash: a 400 (origin untouched) or a forward of variables the document accepts", async () => {
    const names = Object.keys(QUERY_IDS) as QueryName[];
    const variable = fc.constantFrom("pinId", "isAuth", "isDesktop", "cursor", "source", "searchQuery", "topLevelSourceDepth", "homefeedSourceSig", "__proto__", "constructor");
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...names),
        fc.dictionary(variable, fc.oneof(json, fc.stringMatching(/^\d{1,20}$/), fc.boolean()), { maxKeys: 8 }),
        async (name, variables) => {
          hits = [];
          const response = await post({ queryHash: QUERY_IDS[name], variables });
          expect([200, 400]).toContain(response.status);
          if (response.status === 400) expect(hits).toHaveLength(0);
          else {
            expect(hits).toHaveLength(1);
            expect(hits[0]!.body).toEqual({ queryHash: QUERY_IDS[name], variables });
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
