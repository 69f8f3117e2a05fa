import { describe, expect, it } from "vitest";
import { BUSINESS_COUNTRY_IDS, countryId, countrySchema, currencyOf } from "./countries.ts";

describe("the business country table", () => {
  it("numbers every country as the spec lists it, UNKNOWN 0", () => {
    expect(BUSINESS_COUNTRY_IDS).toEqual({
      UNKNOWN: 0, US: 1, GB: 2, CA: 3, IE: 4, AU: 5, NZ: 6, FR: 7, SE: 8, IL: 9, DE: 10, AT: 11, IT: 12, ES: 13, NL: 14,
      BE: 15, PT: 16, CH: 17, HK: 18, JP: 19, KR: 20, SG: 21, NO: 22, DK: 23, FI: 24, CY: 25, LU: 26, MT: 27, PL: 28,
      RO: 29, HU: 30, CZ: 31, GR: 32, SK: 33, BR: 34, MX: 35, AR: 36, CL: 37, CO: 38,
    });
  });

  it("reads a code the table does not list as UNKNOWN", () => {
    expect(countryId("CO")).toBe(38);
    expect(countryId("ZZ")).toBe(0);
    expect(countryId("us")).toBe(0);
    expect(countryId("__proto__")).toBe(0);
  });

  it("lets a business choose only listed countries, never UNKNOWN", () => {
    expect(countrySchema.safeParse("FR").success).toBe(true);
    expect(countrySchema.safeParse("UNKNOWN").success).toBe(false);
    expect(countrySchema.safeParse("ZZ").success).toBe(false);
  });

  it("bills in the country's currency: EUR, AUD, CAD, CHF, DKK, GBP, NOK, NZD, SEK, otherwise USD", () => {
    const expected: Record<string, string> = {
      US: "USD", GB: "GBP", CA: "CAD", IE: "EUR", AU: "AUD", NZ: "NZD", FR: "EUR", SE: "SEK", IL: "USD", DE: "EUR",
      AT: "EUR", IT: "EUR", ES: "EUR", NL: "EUR", BE: "EUR", PT: "EUR", CH: "CHF", HK: "USD", JP: "USD", KR: "USD",
      SG: "USD", NO: "NOK", DK: "DKK", FI: "EUR", CY: "EUR", LU: "EUR", MT: "EUR", PL: "USD", RO: "USD", HU: "USD",
      CZ: "USD", GR: "EUR", SK: "EUR", BR: "USD", MX: "USD", AR: "USD", CL: "USD", CO: "USD", UNKNOWN: "USD", ZZ: "USD",
    };
    for (const [country, currency] of Object.entries(expected)) expect([country, currencyOf(country)]).toEqual([country, currency]);
  });
});
