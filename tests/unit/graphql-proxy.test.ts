// Proxy mode end to end, against a fake upstream on loopback that records what it is sent:
// the BUILT Worker under the production-like runner (scripts/lib/server.mjs, as the e2e and
// bench runs start it) with GRAPHQL_ORIGIN pointing at a node:http server on 127.0.0.1. Run
// `astro build` first (npm test does).
import fc from "fast-check";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ROOT, migrate, startWorker } from "../../scripts/lib/server.mjs";
import { QUERY_IDS } from "~/graphql/query-ids.ts";
import { UPSTREAM_TIMEOUT_MS } from "../../functions/graphql.ts";

interface Hit {
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

const CSRF = "d".repeat(64);
let hits: Hit[] = [];
let reply: (response: import("node:http").ServerResponse) => void;
const defaultReply = (response: import("node:http").ServerResponse) => {
  response.writeHead(200, { "content-type": "application/json" });
  response.end(JSON.stringify({ data: { relatedPins: { pins: [], endCursor: null, hasNextPage: false } } }));
};
let upstream: Server;
let worker: Awaited<ReturnType<typeof startWorker>>;
let stateDir: string;

beforeAll(async () => {
  upstream = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      hits.push({ path: request.url ?? "", headers: request.headers, body: JSON.parse(body || "null") });
      reply(response);
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  const { port } = upstream.address() as AddressInfo;
  stateDir = mkdtempSync(path.join(ROOT, ".wrangler", "graphql-proxy-"));
  // The endpoint counts each call in D1 (rate_limits): the fresh state needs the schema.
  await migrate(path.relative(ROOT, stateDir));
  worker = await startWorker({
    persistTo: path.relative(ROOT, stateDir),
    // A plain-http loopback origin is only accepted in development (functions/graphql.ts upstreamOf).
    vars: { ENVIRONMENT: "development", GRAPHQL_ORIGIN: `http://127.0.0.1:${port}/graphql` },
  });
}, 120_000);

afterAll(async () => {
  await worker?.stop();
  await new Promise((resolve) => upstream?.close(resolve));
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

beforeEach(() => {
  hits = [];
  reply = defaultReply;
});

function post(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${worker.url}/_/graphql/`, {
    method: "POST",
    headers: {
      origin: worker.url,
      "content-type": "application/json",
      accept: "application/json",
      cookie: `csrftoken=${CSRF}; __Host-pinloom_sess=not-for-upstream`,
      "x-csrftoken": CSRF,
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

describe("POST /_/graphql/ with GRAPHQL_ORIGIN (a fake upstream on loopback)", () => {
  it("forwards {queryHash, variables} and the spec's headers, never the cookies", async () => {
    const variables = { pinId: "42", source: "closeup", topLevelSourceDepth: 2 };
    const response = await post(
      { queryHash: QUERY_IDS.CloseupRelatedModulesFeedQuery, variables },
      {
        "x-requested-with": "XMLHttpRequest",
        "x-pinloom-source-url": "/pin/42/?q=private+words",
        "x-pinloom-query-name": "CloseupRelatedModulesFeedQuery",
        "x-pinloom-app-state": "background",
        "x-pinloom-force-country-from-ip": "DE",
        "accept-language": "ar-SA,ar;q=0.9",
      },
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { relatedPins: { pins: [], endCursor: null, hasNextPage: false } } });
    expect(hits).toHaveLength(1);
    const [hit] = hits;
    expect(hit!.path).toBe("/graphql");
    expect(hit!.body).toEqual({ queryHash: QUERY_IDS.CloseupRelatedModulesFeedQuery, variables });
    expect(hit!.headers).toMatchObject({
      accept: "application/json",
      "content-type": "application/json",
      "x-requested-with": "XMLHttpRequest",
      "x-pinloom-source-url": "/pin/42/",
      "x-pinloom-query-name": "CloseupRelatedModulesFeedQuery",
      "x-pinloom-app-state": "background",
      "x-pinloom-force-country-from-ip": "DE",
      "x-viewer-locale": "ar-SA",
    });
    expect(hit!.headers["x-viewer-country"]).toMatch(/^[A-Z]{2}$/);
    expect(hit!.headers.cookie).toBeUndefined();
    expect(hit!.headers["x-csrftoken"]).toBeUndefined();
  });

  it("upstream errors come back as {message, path?, extensions: {code}} only: no stack, unknown codes generic", async () => {
    reply = (response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          data: null,
          errors: [
            { message: "Pin not found", path: ["pin"], extensions: { code: "NOT_FOUND", stacktrace: ["at /srv/upstream/pin.js:1"] } },
            { message: "Error: connect ECONNREFUSED 10.0.0.5:5432\n    at /srv/upstream/db.js:9", path: ["pin"], extensions: { code: "INTERNAL_SERVER_ERROR" } },
          ],
        }),
      );
    };
    const response = await post({ queryHash: QUERY_IDS.CloseupPageQuery, variables: { pinId: "1", isAuth: false } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { errors: Array<{ message: string; extensions: { code: string } }> };
    expect(body.errors).toEqual([
      { message: "Pin not found", path: ["pin"], extensions: { code: "NOT_FOUND" } },
      { message: expect.any(String), path: ["pin"], extensions: { code: "UPSTREAM_ERROR" } },
    ]);
    expect(JSON.stringify(body)).not.toMatch(/srv\/upstream|10\.0\.0\.5/);
  });

  it("an upstream error is a 502 with an Error result", async () => {
    reply = (response) => {
      response.writeHead(503, { "content-type": "text/plain" });
      response.end("down");
    };
    const response = await post({ queryHash: QUERY_IDS.CloseupPageQuery, variables: { pinId: "1", isAuth: false } });
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ data: null, errors: [{ extensions: { code: "UPSTREAM_FAILED" } }] });
    expect(hits).toHaveLength(1);
  });

  it(`an upstream slower than ${UPSTREAM_TIMEOUT_MS} ms is a 502`, async () => {
    reply = (response) => {
      setTimeout(() => defaultReply(response), UPSTREAM_TIMEOUT_MS + 2_000);
    };
    const started = Date.now();
    const response = await post({ queryHash: QUERY_IDS.CloseupPageQuery, variables: { pinId: "1", isAuth: false } });
    expect(response.status).toBe(502);
    expect(Date.now() - started).toBeLessThan(UPSTREAM_TIMEOUT_MS + 2_000);
  }, 20_000);

  it("unknown hashes, raw queries and bad variables never reach the upstream (fast-check)", async () => {
    const known = new Set(Object.values(QUERY_IDS));
    const body = fc.oneof(
      fc.record({ queryHash: fc.stringMatching(/^[0-9a-f]{64}$/).filter((hash) => !known.has(hash)), variables: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }) }),
      fc.record({ query: fc.string({ maxLength: 100 }), variables: fc.object({ maxDepth: 1 }) }),
      fc.record({ queryHash: fc.constantFrom(...known), variables: fc.record({ pinId: fc.string({ maxLength: 25 }).filter((id) => !/^\d{1,19}$/.test(id)) }) }),
    );
    await fc.assert(
      fc.asyncProperty(body, async (value) => {
        const response = await post(value);
        expect(response.status).toBe(400);
        await response.arrayBuffer();
      }),
      { numRuns: 60 },
    );
    expect(hits).toHaveLength(0);
  }, 60_000);
});
