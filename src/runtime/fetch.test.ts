import { beforeEach, describe, expect, it } from "vitest";
import { apiFetch, depsWith, requestHeaders, type FetchDeps, type PageFacts } from "./fetch.ts";
import { runtimeGlobal, type RuntimeEvent } from "./global.ts";
import { setRuntimeReporter, RUNTIME_EVENT_TYPES, runtimeCounters } from "./report.ts";
import { SEEN_VERSION_KEY } from "./version.ts";

const facts = (over: Partial<PageFacts> = {}): PageFacts => ({
  cookie: "a=1; csrftoken=tok%2Ben; b=2",
  href: "https://pinloom.test/pin/7/?force_country=fr&force_country_from_ip=de&x=1",
  visibility: "visible",
  ...over,
});

class MemoryStorage {
  items = new Map<string, string>();
  getItem = (key: string) => this.items.get(key) ?? null;
  setItem = (key: string, value: string) => void this.items.set(key, value);
  removeItem = (key: string) => void this.items.delete(key);
}

interface Sent {
  input: string;
  init: RequestInit;
}

function deps(answer: () => Promise<Response>, over: Partial<FetchDeps> = {}) {
  const sent: Sent[] = [];
  const storage = new MemoryStorage();
  const value: FetchDeps = {
    fetch: async (input, init) => {
      sent.push({ input: String(input), init: init ?? {} });
      return answer();
    },
    facts: () => facts(),
    now: () => 1_000,
    storage: () => storage,
    version: "v1",
    ...over,
  };
  return { deps: value, sent, storage };
}

const versioned = (version: string | null) => async () => new Response("{}", { headers: version ? { "X-App-Version": version } : {} });

beforeEach(() => {
  const hub = runtimeGlobal();
  hub.seen = null;
  hub.counters = {};
  setRuntimeReporter(null);
});

describe("requestHeaders (spec 000 §7)", () => {
  it("carries every header the spec lists", () => {
    expect(requestHeaders(facts(), { queryName: "CloseupDetailQuery", method: "POST" })).toEqual({
      Accept: "application/json",
      "Content-Type": "application/json",
      "X-CSRFToken": "tok+en",
      "X-Requested-With": "XMLHttpRequest",
      "X-Pinloom-Source-Url": "/pin/7/?force_country=fr&force_country_from_ip=de&x=1",
      "X-Pinloom-App-State": "active",
      "X-Pinloom-Query-Name": "CloseupDetailQuery",
      "X-Pinloom-Force-Country": "FR",
      "X-Pinloom-Force-Country-From-IP": "DE",
    });
  });

  it("says background while the page is hidden, and leaves out what is absent", () => {
    const headers = requestHeaders(facts({ visibility: "hidden", cookie: "", href: "https://pinloom.test/" }));
    expect(headers["X-Pinloom-App-State"]).toBe("background");
    expect(headers).not.toHaveProperty("X-CSRFToken");
    expect(headers).not.toHaveProperty("X-Pinloom-Query-Name");
    expect(headers).not.toHaveProperty("X-Pinloom-Force-Country");
  });

  it("sends the CSRF token with the methods the server checks, empty when there is no cookie", () => {
    for (const method of ["POST", "put", "DELETE", "PATCH"]) expect(requestHeaders(facts(), { method })["X-CSRFToken"]).toBe("tok+en");
    for (const method of ["GET", "head", undefined]) expect(requestHeaders(facts(), { method })).not.toHaveProperty("X-CSRFToken");
    expect(requestHeaders(facts({ cookie: "a=1" }), { method: "POST" })["X-CSRFToken"]).toBe("");
  });

  it("drops a forced country that is not two letters", () => {
    const headers = requestHeaders(facts({ href: "https://pinloom.test/?force_country=%0d%0aX-Evil:1&force_country_from_ip=usa" }));
    expect(headers).not.toHaveProperty("X-Pinloom-Force-Country");
    expect(headers).not.toHaveProperty("X-Pinloom-Force-Country-From-IP");
  });

  it("bounds the source URL", () => {
    expect(requestHeaders(facts({ href: `https://pinloom.test/?q=${"a".repeat(5000)}` }))["X-Pinloom-Source-Url"]).toHaveLength(2048);
  });
});

describe("apiFetch", () => {
  it("sends the headers with credentials, caller headers winning", async () => {
    const { deps: d, sent } = deps(versioned("v1"));
    await apiFetch("/v3/x/", { method: "POST", body: "{}", headers: { "content-type": "application/x-www-form-urlencoded" } }, d);
    expect(sent[0]!.init.credentials).toBe("include");
    expect(sent[0]!.init.method).toBe("POST");
    const headers = sent[0]!.init.headers as Record<string, string>;
    expect(headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(headers).not.toHaveProperty("Content-Type");
    expect(headers["X-CSRFToken"]).toBe("tok+en");
  });

  it("refuses redirects on calls that carry the CSRF token, follows them otherwise", async () => {
    const { deps: d, sent } = deps(versioned("v1"));
    await apiFetch("/v3/x/", { method: "POST", redirect: "follow" }, d);
    await apiFetch("/v3/x/", { method: "GET", headers: { "x-csrftoken": "tok+en" } }, d);
    await apiFetch("/v3/x/", {}, d);
    expect(sent.map((call) => call.init.redirect)).toEqual(["error", "error", undefined]);
  });

  it("calls a passed-in fetch bare (window.fetch refuses any other `this`)", async () => {
    const thisValues: unknown[] = [];
    const strictFetch = function (this: unknown) {
      thisValues.push(this);
      if (this !== undefined && this !== globalThis) return Promise.reject(new TypeError("Illegal invocation"));
      return versioned("v1")();
    } as unknown as typeof fetch;
    await expect(apiFetch("/v3/x/", { method: "POST" }, depsWith(strictFetch, "csrftoken=a"))).resolves.toBeInstanceOf(Response);
    await expect(apiFetch("/v3/x/", {}, { ...deps(versioned("v1")).deps, fetch: strictFetch })).resolves.toBeInstanceOf(Response);
    expect(thisValues).toEqual([undefined, undefined]);
  });

  it("lets the browser type FormData bodies", async () => {
    const { deps: d, sent } = deps(versioned("v1"));
    await apiFetch("/v3/did_it/photos/", { method: "POST", body: new FormData() }, d);
    expect(sent[0]!.init.headers).not.toHaveProperty("Content-Type");
  });

  it("sends neither token nor page to another origin, nor cookies", async () => {
    const { deps: d, sent } = deps(versioned("v9"));
    await apiFetch("https://elsewhere.test/x", { method: "POST" }, d);
    expect(sent[0]!.init.headers).not.toHaveProperty("X-CSRFToken");
    expect(sent[0]!.init.headers).not.toHaveProperty("X-Pinloom-Source-Url");
    expect(sent[0]!.init.credentials).toBe("omit");
    // Another origin's version header means nothing to us.
    expect(runtimeGlobal().seen).toBeNull();
  });

  it("reports a new version once and remembers it across pages", async () => {
    const events: RuntimeEvent[] = [];
    setRuntimeReporter((event) => events.push(event));
    const { deps: d, storage } = deps(versioned("v2"));
    await apiFetch("/a", {}, d);
    await apiFetch("/b", {}, d);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ event_type: RUNTIME_EVENT_TYPES.newVersion, time: "1000000000", appState: "active", aux_data: { current: "v1", next: "v2" } });
    expect(JSON.parse(storage.getItem(SEEN_VERSION_KEY)!)).toEqual({ version: "v2", seenAt: 1_000 });
    // A later page of the same build reads it back and does not report again.
    runtimeGlobal().seen = null;
    const later = deps(versioned("v2"));
    later.storage.items = storage.items;
    await apiFetch("/c", {}, later.deps);
    expect(events).toHaveLength(1);
    expect(runtimeGlobal().seen).toEqual({ version: "v2", seenAt: 1_000 });
  });

  it("forgets the pending version when the server answers with ours again", async () => {
    const { deps: d, storage } = deps(versioned("v2"));
    await apiFetch("/a", {}, d);
    expect(storage.getItem(SEEN_VERSION_KEY)).not.toBeNull();
    await apiFetch("/b", {}, { ...d, fetch: versioned("v1") });
    expect(runtimeGlobal().seen).toBeNull();
    expect(storage.getItem(SEEN_VERSION_KEY)).toBeNull();
  });

  it("counts a new version when no logger has registered", async () => {
    const { deps: d } = deps(versioned("v2"));
    await apiFetch("/a", {}, d);
    expect(runtimeCounters()).toEqual({ newVersion: 1 });
  });

  it("does nothing on our own version or none", async () => {
    for (const version of ["v1", null]) await apiFetch("/a", {}, deps(versioned(version)).deps);
    expect(runtimeCounters()).toEqual({});
    expect(runtimeGlobal().seen).toBeNull();
  });

  it("reports a GraphQL network failure with its CSRF state, not the token", async () => {
    const events: RuntimeEvent[] = [];
    setRuntimeReporter((event) => events.push(event));
    const { deps: d } = deps(() => Promise.reject(new TypeError("Failed to fetch")));
    await expect(apiFetch("/_/graphql/", { method: "POST", queryName: "CloseupPageQuery", body: "{}" }, d)).rejects.toThrow("Failed to fetch");
    expect(events).toHaveLength(1);
    expect(events[0]!.event_type).toBe(RUNTIME_EVENT_TYPES.fetchError);
    expect(events[0]!.aux_data).toMatchObject({ url: "/_/graphql/", queryName: "CloseupPageQuery", error: "TypeError", csrfCookie: "present", csrfHeaderMatches: true });
    expect(events[0]!.aux_data["headers"]).toContain("X-CSRFToken");
    expect(JSON.stringify(events[0])).not.toContain("tok");
  });

  it("reports a missing CSRF cookie on a failed GraphQL call", async () => {
    const { deps: d } = deps(() => Promise.reject(new TypeError("offline")), { facts: () => facts({ cookie: "" }) });
    const events: RuntimeEvent[] = [];
    setRuntimeReporter((event) => events.push(event));
    await expect(apiFetch("/_/graphql/", { queryName: "Q" }, d)).rejects.toThrow();
    expect(events[0]!.aux_data).toMatchObject({ csrfCookie: "missing", csrfHeaderMatches: false });
  });

  it("does not report network failures of other calls (their callers handle them)", async () => {
    const { deps: d } = deps(() => Promise.reject(new TypeError("offline")));
    await expect(apiFetch("/v3/x/", {}, d)).rejects.toThrow();
    expect(runtimeCounters()).toEqual({});
  });
});
