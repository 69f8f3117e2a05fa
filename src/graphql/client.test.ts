import { describe, expect, it } from "vitest";
import { GraphqlClient, GraphqlFetchError, MISS_EVENT, ResponseCache } from "./client.ts";
import { EMBEDDED_QUERIES_ID, RESPONSE_CACHE_MAX_ENTRIES, RESPONSE_CACHE_TTL_MS, cacheKey } from "./protocol.ts";
import { QUERY_IDS } from "./query-ids.ts";

describe("ResponseCache (spec 000 §9: 100 entries, 60000 ms)", () => {
  it("uses the spec's bounds by default", () => {
    expect(RESPONSE_CACHE_MAX_ENTRIES).toBe(100);
    expect(RESPONSE_CACHE_TTL_MS).toBe(60_000);
  });

  it("keeps an answer for 60 s and not a millisecond more", () => {
    const cache = new ResponseCache();
    cache.set("k", { data: { a: 1 } }, 1_000);
    expect(cache.get("k", 1_000 + 59_999)).toEqual({ data: { a: 1 } });
    expect(cache.get("k", 1_000 + 60_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("holds at most 100 entries, the oldest stored leaving first", () => {
    const cache = new ResponseCache();
    for (let i = 0; i < 101; i++) cache.set(`k${i}`, { data: { i } }, 0);
    expect(cache.size).toBe(100);
    expect(cache.get("k0", 0)).toBeUndefined();
    expect(cache.get("k1", 0)).toEqual({ data: { i: 1 } });
    expect(cache.get("k100", 0)).toEqual({ data: { i: 100 } });
  });
});

describe("cacheKey", () => {
  it("ignores key order and undefined values", () => {
    expect(cacheKey("h", { b: 1, a: "x", c: undefined })).toBe(cacheKey("h", { a: "x", b: 1 }));
    expect(cacheKey("h", { a: 1 })).not.toBe(cacheKey("h", { a: "1" }));
  });
});

const href = "https://pinloom.test/pin/7/?force_country=FR&force_country_from_ip=DE";
const cookie = "other=1; csrftoken=abc123; x=y";

function client(answer: () => Promise<Response> | Response) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const events: Event[] = [];
  let now = 0;
  const graphql = new GraphqlClient({
    deps: {
      fetch: async (input, init) => {
        calls.push({ url: String(input), init: init ?? {} });
        return answer();
      },
      facts: () => ({ cookie, href, visibility: "hidden" }),
      now: () => now,
      storage: () => null,
      version: "test",
    },
    now: () => now,
    dispatch: (event) => events.push(event),
  });
  return { graphql, calls, events, tick: (ms: number) => (now += ms) };
}

describe("GraphqlClient", () => {
  const page = { relatedPins: { pins: [], endCursor: null, hasNextPage: false } };

  it("reads an embedded answer without a request or a miss", async () => {
    const { graphql, calls, events } = client(() => Response.json({ data: page }));
    graphql.seedFromDocument({
      getElementById: (id: string) =>
        id === EMBEDDED_QUERIES_ID ? ({ textContent: JSON.stringify([{ queryName: "CloseupRelatedModulesFeedQuery", variables: { pinId: "7" }, result: { data: page } }]) } as HTMLElement) : null,
    });
    const answer = await graphql.query("CloseupRelatedModulesFeedQuery", { pinId: "7" });
    expect(answer).toEqual({ source: "cache", status: 200, result: { data: page } });
    expect(calls).toHaveLength(0);
    expect(events).toHaveLength(0);
    expect(graphql.misses).toBe(0);
  });

  it("a query not preloaded reports a miss and falls back to POST /_/graphql/ with the spec's headers", async () => {
    const { graphql, calls, events } = client(() => Response.json({ data: page }));
    const answer = await graphql.query("CloseupRelatedModulesFeedQuery", { pinId: "7", cursor: "abc" });
    expect(answer.source).toBe("network");
    expect(graphql.misses).toBe(1);
    expect(events.map((event) => [event.type, (event as CustomEvent).detail])).toEqual([[MISS_EVENT, { queryName: "CloseupRelatedModulesFeedQuery" }]]);
    expect(calls).toHaveLength(1);
    const { url, init } = calls[0]!;
    expect(url).toBe("/_/graphql/");
    expect(init.method).toBe("POST");
    expect(init.credentials).toBe("include");
    expect(JSON.parse(String(init.body))).toEqual({ queryHash: QUERY_IDS.CloseupRelatedModulesFeedQuery, variables: { pinId: "7", cursor: "abc" } });
    const headers = new Headers(init.headers);
    expect(Object.fromEntries(headers)).toEqual({
      accept: "application/json",
      "content-type": "application/json",
      "x-csrftoken": "abc123",
      "x-requested-with": "XMLHttpRequest",
      "x-pinloom-source-url": "/pin/7/?force_country=FR&force_country_from_ip=DE",
      "x-pinloom-query-name": "CloseupRelatedModulesFeedQuery",
      "x-pinloom-app-state": "background",
      "x-pinloom-force-country": "FR",
      "x-pinloom-force-country-from-ip": "DE",
    });
  });

  it("keeps a fetched answer for 60 s, then asks again", async () => {
    const { graphql, calls, tick } = client(() => Response.json({ data: page }));
    await graphql.query("CloseupPageQuery", { pinId: "7", isAuth: false });
    tick(59_999);
    expect((await graphql.query("CloseupPageQuery", { isAuth: false, pinId: "7" })).source).toBe("cache");
    tick(1);
    expect((await graphql.query("CloseupPageQuery", { pinId: "7", isAuth: false })).source).toBe("network");
    expect(calls).toHaveLength(2);
  });

  it("does not keep an answer carrying errors", async () => {
    const { graphql, calls } = client(() => Response.json({ data: { pin: null }, errors: [{ message: "Pin not found", extensions: { code: "NOT_FOUND" } }] }));
    const answer = await graphql.query("CloseupPageQuery", { pinId: "7", isAuth: false });
    expect(answer.result.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    await graphql.query("CloseupPageQuery", { pinId: "7", isAuth: false });
    expect(calls).toHaveLength(2);
  });

  const failures: Array<[string, () => Response, number | null]> = [
    ["a 400 refusal", () => Response.json({ status: "failure", code: 1 }, { status: 400 }), 400],
    ["a 502 Error result", () => Response.json({ data: null, errors: [{ message: "x" }] }, { status: 502 }), 502],
    ["HTML", () => new Response("<html>", { status: 200 }), 200],
  ];
  it.each(failures)("%s is a GraphqlFetchError with its status", async (_label, answer, status) => {
    const { graphql } = client(answer);
    await expect(graphql.query("CloseupPageQuery", { pinId: "7", isAuth: false })).rejects.toMatchObject({ name: "GraphqlFetchError", status });
  });

  it("a network failure is a GraphqlFetchError without status", async () => {
    const { graphql } = client(() => Promise.reject(new TypeError("offline")));
    const error = await graphql.query("CloseupPageQuery", { pinId: "7", isAuth: false }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GraphqlFetchError);
    expect((error as GraphqlFetchError).status).toBeNull();
  });
});
