import { describe, expect, it } from "vitest";
import fc from "fast-check";
import * as engine from "../options.ts";
import * as engineRecent from "../recent.ts";
import * as client from "./client-search.ts";

const text = fc.oneof(fc.string({ maxLength: 260 }), fc.string({ unit: "grapheme", maxLength: 260 }), fc.constantFrom("  Cake  pops ", "ＡＢＣ", "ﬁ", "\u00a0x\u2003y", "İstanbul", "كعكة"));
const scope = fc.constantFrom(...engine.SCOPES);
const extra = fc.record(
  {
    rs: fc.constantFrom(...engine.RS_VALUES),
    filters: fc.constantFrom("kind:recipe", "kind:video, created:7d", " , "),
    applied_filters: text,
    product_filters: fc.constantFrom("home_decor", "a,b"),
    domains: fc.array(fc.constantFrom("a.example", "shop.example"), { maxLength: 3 }),
    price_min: fc.double({ min: 0, max: 1e6, noNaN: true }),
    price_max: fc.double({ min: 0, max: 1e6, noNaN: true }),
    user: fc.constantFrom("ann", "", "bob_2"),
  },
  { requiredKeys: [] },
);

describe("client search rules equal the engine's", () => {
  it("scopes", () => {
    expect(client.SCOPES).toEqual(engine.SCOPES);
    expect([...client.PERSONAL_SCOPES]).toEqual([...engine.PERSONAL_SCOPES]);
    expect(client.RECENT_CAP).toBe(engineRecent.RECENT_CAP);
  });
  it("normalizeQuery", () => {
    fc.assert(fc.property(text, (value) => client.normalizeQuery(value) === engine.normalizeQuery(value)), { numRuns: 500 });
  });
  it("searchUrl", () => {
    fc.assert(fc.property(scope, text, extra, (s, q, e) => client.searchUrl(s, q, e) === engine.searchUrl(s, q, e)), { numRuns: 500 });
  });
  it("addRecent and removeRecent", () => {
    const list = fc.array(text, { maxLength: 25 });
    fc.assert(
      fc.property(list, text, fc.integer({ min: 0, max: 25 }), (items, query, cap) => {
        expect(client.addRecent(items, query, cap)).toEqual(engineRecent.addRecent(items, query, cap));
        expect(client.removeRecent(items, query)).toEqual(engineRecent.removeRecent(items, query));
      }),
      { numRuns: 300 },
    );
  });
});
