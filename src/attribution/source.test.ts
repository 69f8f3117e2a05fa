import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ATTRIBUTION, ATTRIBUTION_PARAMETERS, advertiserLink, parseAttributionQuery, registerSourceHeader, siteOf, type RegisterSourceHeader } from "./source.ts";

// Thousands of generated cases: bounded by their count, given time enough on a loaded machine.
const PROPERTY_TIMEOUT_MS = 60_000;

const query = (params: Record<string, string>) => new URLSearchParams(params);
const base = { source_event_id: "18446744073709551615", destination: "https://shop.example/p/1?x=2", source_event_type: "click" };

describe("parseAttributionQuery", () => {
  it("applies the click defaults (604800 s, priority 2) and normalises the destination to its site", () => {
    const result = parseAttributionQuery(query(base));
    expect(result).toEqual({
      ok: true,
      source: { sourceEventId: "18446744073709551615", destination: "https://shop.example", sourceEventType: "click", expirySeconds: 604_800, priority: "2", advertiserId: null, campaignId: null, pinId: null },
    });
  });

  it("applies the view defaults (86400 s, priority 1)", () => {
    const result = parseAttributionQuery(query({ ...base, source_event_type: "view" }));
    expect(result.ok && [result.source.expirySeconds, result.source.priority]).toEqual([86_400, "1"]);
    expect(ATTRIBUTION.logSampleRate).toBe(0.1);
  });

  it("takes expiry, priority and the ids when given", () => {
    const result = parseAttributionQuery(query({ ...base, expiry: "2592000", priority: "-9223372036854775808", advertiser_id: "0042", campaign_id: "7" }));
    expect(result.ok && result.source).toMatchObject({ expirySeconds: 2_592_000, priority: "-9223372036854775808", advertiserId: "42", campaignId: "7" });
  });

  it.each([
    [{ ...base, source_event_id: "18446744073709551616" }, "source_event_id", "validation.invalidFormat"],
    [{ ...base, source_event_id: "-1" }, "source_event_id", "validation.invalidFormat"],
    [{ destination: base.destination, source_event_type: "click" }, "source_event_id", "validation.required"],
    [{ ...base, destination: "javascript:alert(1)" }, "destination", "events:validation.notSite"],
    [{ ...base, destination: "ftp://shop.example" }, "destination", "events:validation.notSite"],
    [{ ...base, destination: "https://user:pw@shop.example" }, "destination", "events:validation.notSite"],
    [{ ...base, source_event_type: "hover" }, "source_event_type", "validation.invalidValue"],
    [{ ...base, expiry: "86399" }, "expiry", "validation.tooSmall"],
    [{ ...base, expiry: "2592001" }, "expiry", "validation.tooBig"],
    [{ ...base, expiry: "1.5" }, "expiry", "validation.invalidFormat"],
    [{ ...base, priority: "9223372036854775808" }, "priority", "validation.invalidFormat"],
    [{ ...base, advertiser_id: "12a" }, "advertiser_id", "validation.invalidFormat"],
    [{ ...base, campaign_id: "" }, "campaign_id", "validation.invalidFormat"],
    [{ ...base, utm_source: "x" }, "utm_source", "validation.unknownKey"],
  ])("refuses %j naming %s", (params, field, reason) => {
    const result = parseAttributionQuery(query(params));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problems).toContainEqual(expect.objectContaining({ field, reason }));
  });

  it("takes the promoted pin's id, and refuses one that is not a 64-bit decimal", () => {
    const ok = parseAttributionQuery(new URLSearchParams("source_event_id=1&destination=https%3A%2F%2Fa.example&source_event_type=view&pin_id=5001"));
    expect(ok.ok && ok.source.pinId).toBe("5001");
    const bad = parseAttributionQuery(new URLSearchParams("source_event_id=1&destination=https%3A%2F%2Fa.example&source_event_type=view&pin_id=x"));
    expect(bad).toEqual({ ok: false, problems: [{ field: "pin_id", reason: "validation.invalidFormat" }] });
  });

  it("takes the page's token when well-formed, and refuses one that is not", () => {
    const token = `1700004000.${"ab".repeat(32)}`;
    const ok = parseAttributionQuery(query({ ...base, token }));
    expect(ok.ok && ok.source.token).toBe(token);
    expect(parseAttributionQuery(query({ ...base, token: `1700004000.${"AB".repeat(32)}` }))).toEqual({ ok: false, problems: [{ field: "token", reason: "validation.invalidFormat" }] });
    expect(parseAttributionQuery(query({ ...base, token: "" }))).toEqual({ ok: false, problems: [{ field: "token", reason: "validation.invalidFormat" }] });
  });

  it("refuses a repeated parameter", () => {
    const params = query(base);
    params.append("source_event_id", "1");
    const result = parseAttributionQuery(params);
    expect(!result.ok && result.problems).toEqual([{ field: "source_event_id", reason: "events:validation.repeated" }]);
  });

  it("builds the header as JSON with 64-bit values as strings", () => {
    const result = parseAttributionQuery(query({ ...base, priority: "5" }));
    if (!result.ok) throw new Error("expected a source");
    expect(JSON.parse(registerSourceHeader(result.source))).toEqual({ source_event_id: "18446744073709551615", destination: "https://shop.example", expiry: "604800", priority: "5" });
  });

  it("property: fuzzed parameters give problems naming parameters, or a header that parses back to the typed values", () => {
    const value = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.bigInt({ min: -(1n << 70n), max: 1n << 70n }).map(String),
      fc.webUrl(),
      fc.constantFrom("click", "view", "", "86400", "2592000", "604800", "https://a.example", "http://b.example:8080/x"),
    );
    const name = fc.oneof(fc.constantFrom(...ATTRIBUTION_PARAMETERS), fc.string({ maxLength: 12 }));
    fc.assert(
      fc.property(fc.array(fc.tuple(name, value), { maxLength: 9 }), (pairs) => {
        const params = new URLSearchParams(pairs);
        const result = parseAttributionQuery(params);
        if (!result.ok) {
          expect(result.problems.length).toBeGreaterThan(0);
          for (const problem of result.problems) expect(problem.field.length).toBeGreaterThan(0);
          return;
        }
        const header = JSON.parse(registerSourceHeader(result.source)) as RegisterSourceHeader;
        const source = result.source;
        expect(Object.keys(header).sort()).toEqual(["destination", "expiry", "priority", "source_event_id"]);
        expect(BigInt(header.source_event_id)).toBe(BigInt(params.get("source_event_id")!));
        expect(BigInt(header.source_event_id) >= 0n && BigInt(header.source_event_id) < 1n << 64n).toBe(true);
        expect(header.destination).toBe(siteOf(params.get("destination")!));
        expect(Number(header.expiry)).toBe(source.expirySeconds);
        expect(source.expirySeconds).toBeGreaterThanOrEqual(ATTRIBUTION.minExpirySeconds);
        expect(source.expirySeconds).toBeLessThanOrEqual(ATTRIBUTION.maxExpirySeconds);
        const priority = params.get("priority");
        expect(BigInt(header.priority)).toBe(priority === null ? ATTRIBUTION.priority[source.sourceEventType] : BigInt(priority));
      }),
      { numRuns: 2_000 },
    );
  }, PROPERTY_TIMEOUT_MS);

  it("property: a well-formed query always parses back exactly", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
        fc.webUrl({ validSchemes: ["http", "https"] }),
        fc.constantFrom("click" as const, "view" as const),
        fc.option(fc.integer({ min: 86_400, max: 2_592_000 })),
        fc.option(fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n })),
        (id, url, type, expiry, priority) => {
          const params = new URLSearchParams({ source_event_id: String(id), destination: url, source_event_type: type });
          if (expiry !== null) params.set("expiry", String(expiry));
          if (priority !== null) params.set("priority", String(priority));
          const result = parseAttributionQuery(params);
          expect(result.ok).toBe(true);
          if (!result.ok) return;
          const header = JSON.parse(registerSourceHeader(result.source)) as RegisterSourceHeader;
          expect(header).toEqual({
            source_event_id: String(id),
            destination: `${new URL(url).protocol}//${new URL(url).hostname}`,
            expiry: String(expiry ?? ATTRIBUTION.expirySeconds[type]),
            priority: String(priority ?? ATTRIBUTION.priority[type]),
          });
        },
      ),
      { numRuns: 1_000 },
    );
  }, PROPERTY_TIMEOUT_MS);
});

describe("advertiserLink", () => {
  const own = "https://pinloom.test";
  it.each([
    ["/shop/sofa/", "42", "/advertiser/42/shop/sofa/"],
    ["shop/sofa/?a=1#b", "42", "/advertiser/42/shop/sofa/?a=1#b"],
    ["https://pinloom.test/shop/", "42", "https://pinloom.test/advertiser/42/shop/"],
    ["https://shop.example/shop/", "42", "https://shop.example/shop/"],
    ["/advertiser/42/shop/", "42", "/advertiser/42/shop/"],
    ["/shop/", null, "/shop/"],
    ["/shop/", "4a", "/shop/"],
  ])("%s with advertiser %s → %s", (href, advertiserId, expected) => {
    expect(advertiserLink(href, advertiserId, own)).toBe(expected);
  });
});
