// The business country table (spec 002 §3 "Business country table") and the currency each
// country bills in (§9 "Currency"). Every business country field (onboarding, ad accounts)
// accepts exactly these codes, so a business never lands in a country the table cannot number.
import { z } from "zod";

/** Two-letter code → numeric id, as the spec lists it; UNKNOWN is 0. */
export const BUSINESS_COUNTRY_IDS = {
  UNKNOWN: 0,
  US: 1,
  GB: 2,
  CA: 3,
  IE: 4,
  AU: 5,
  NZ: 6,
  FR: 7,
  SE: 8,
  IL: 9,
  DE: 10,
  AT: 11,
  IT: 12,
  ES: 13,
  NL: 14,
  BE: 15,
  PT: 16,
  CH: 17,
  HK: 18,
  JP: 19,
  KR: 20,
  SG: 21,
  NO: 22,
  DK: 23,
  FI: 24,
  CY: 25,
  LU: 26,
  MT: 27,
  PL: 28,
  RO: 29,
  HU: 30,
  CZ: 31,
  GR: 32,
  SK: 33,
  BR: 34,
  MX: 35,
  AR: 36,
  CL: 37,
  CO: 38,
} as const;

export type BusinessCountry = keyof typeof BUSINESS_COUNTRY_IDS;

/** The codes a person may choose: every listed country; UNKNOWN is what an unlisted one reads as, never a choice. */
export const SELECTABLE_COUNTRIES = (Object.keys(BUSINESS_COUNTRY_IDS) as BusinessCountry[]).filter((code) => code !== "UNKNOWN");

export const countrySchema = z.enum(SELECTABLE_COUNTRIES as [Exclude<BusinessCountry, "UNKNOWN">, ...Exclude<BusinessCountry, "UNKNOWN">[]]);

/** The numeric id of a code; a code the table does not list is UNKNOWN (0). */
export function countryId(code: string): number {
  return Object.hasOwn(BUSINESS_COUNTRY_IDS, code) ? BUSINESS_COUNTRY_IDS[code as BusinessCountry] : BUSINESS_COUNTRY_IDS.UNKNOWN;
}

// The euro countries of the table; the spec names EUR among the billing currencies "by country".
const EURO = new Set<BusinessCountry>(["IE", "FR", "DE", "AT", "IT", "ES", "NL", "BE", "PT", "FI", "CY", "LU", "MT", "GR", "SK"]);
const OWN_CURRENCY: Partial<Record<BusinessCountry, Currency>> = { AU: "AUD", CA: "CAD", CH: "CHF", DK: "DKK", GB: "GBP", NO: "NOK", NZ: "NZD", SE: "SEK" };

export const CURRENCIES = ["USD", "EUR", "AUD", "CAD", "CHF", "DKK", "GBP", "NOK", "NZD", "SEK"] as const;
export type Currency = (typeof CURRENCIES)[number];

/** The currency an ad account in this country bills in: EUR, AUD, CAD, CHF, DKK, GBP, NOK, NZD, SEK by country, otherwise USD. */
export function currencyOf(country: string): Currency {
  if (!Object.hasOwn(BUSINESS_COUNTRY_IDS, country)) return "USD";
  const code = country as BusinessCountry;
  if (EURO.has(code)) return "EUR";
  return OWN_CURRENCY[code] ?? "USD";
}
