// Countries and locales (spec 001 §2 "country and locale lists", §7 CountriesResource and
// LocalesResource, key and name). Keys are ISO 3166-1 alpha-2 codes and the 45 locale ids of
// spec 000 §9; names come from the runtime's Intl data: a country in the reader's language, a
// locale in its own (a French speaker finds "Français" in a list of languages they cannot read).
import { LOCALES, toLanguageTag, type Locale } from "~/context/locales.ts";

/** ISO 3166-1 alpha-2, every officially assigned code. */
export const COUNTRIES = [
  "AD", "AE", "AF", "AG", "AI", "AL", "AM", "AO", "AQ", "AR", "AS", "AT", "AU", "AW", "AX", "AZ", "BA", "BB", "BD", "BE",
  "BF", "BG", "BH", "BI", "BJ", "BL", "BM", "BN", "BO", "BQ", "BR", "BS", "BT", "BV", "BW", "BY", "BZ", "CA", "CC", "CD",
  "CF", "CG", "CH", "CI", "CK", "CL", "CM", "CN", "CO", "CR", "CU", "CV", "CW", "CX", "CY", "CZ", "DE", "DJ", "DK", "DM",
  "DO", "DZ", "EC", "EE", "EG", "EH", "ER", "ES", "ET", "FI", "FJ", "FK", "FM", "FO", "FR", "GA", "GB", "GD", "GE", "GF",
  "GG", "GH", "GI", "GL", "GM", "GN", "GP", "GQ", "GR", "GS", "GT", "GU", "GW", "GY", "HK", "HM", "HN", "HR", "HT", "HU",
  "ID", "IE", "IL", "IM", "IN", "IO", "IQ", "IR", "IS", "IT", "JE", "JM", "JO", "JP", "KE", "KG", "KH", "KI", "KM", "KN",
  "KP", "KR", "KW", "KY", "KZ", "LA", "LB", "LC", "LI", "LK", "LR", "LS", "LT", "LU", "LV", "LY", "MA", "MC", "MD", "ME",
  "MF", "MG", "MH", "MK", "ML", "MM", "MN", "MO", "MP", "MQ", "MR", "MS", "MT", "MU", "MV", "MW", "MX", "MY", "MZ", "NA",
  "NC", "NE", "NF", "NG", "NI", "NL", "NO", "NP", "NR", "NU", "NZ", "OM", "PA", "PE", "PF", "PG", "PH", "PK", "PL", "PM",
  "PN", "PR", "PS", "PT", "PW", "PY", "QA", "RE", "RO", "RS", "RU", "RW", "SA", "SB", "SC", "SD", "SE", "SG", "SH", "SI",
  "SJ", "SK", "SL", "SM", "SN", "SO", "SR", "SS", "ST", "SV", "SX", "SY", "SZ", "TC", "TD", "TF", "TG", "TH", "TJ", "TK",
  "TL", "TM", "TN", "TO", "TR", "TT", "TV", "TW", "TZ", "UA", "UG", "UM", "US", "UY", "UZ", "VA", "VC", "VE", "VG", "VI",
  "VN", "VU", "WF", "WS", "YE", "YT", "ZA", "ZM", "ZW",
] as const;
export type Country = (typeof COUNTRIES)[number];

const countrySet: ReadonlySet<string> = new Set(COUNTRIES);

/** A country code as sent ("fr", " FR "), or null when it is not one of the list. */
export function parseCountry(input: unknown): Country | null {
  if (typeof input !== "string") return null;
  const code = input.trim().toUpperCase();
  return countrySet.has(code) ? (code as Country) : null;
}

interface KeyAndName {
  key: string;
  name: string;
}

function displayName(inLanguage: string, type: "region" | "language", code: string): string {
  try {
    return new Intl.DisplayNames([inLanguage], { type, fallback: "code" }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** Lists by locale: 249 names and a sort cost a few milliseconds, and they never change. */
const countryLists = new Map<Locale, readonly KeyAndName[]>();

/** Every country, named in `locale`'s language, in that language's alphabetical order. */
export function countryList(locale: Locale): readonly KeyAndName[] {
  const known = countryLists.get(locale);
  if (known) return known;
  const language = toLanguageTag(locale);
  const collator = new Intl.Collator(language);
  const list = Object.freeze(COUNTRIES.map((key) => ({ key, name: displayName(language, "region", key) })).sort((a, b) => collator.compare(a.name, b.name)));
  countryLists.set(locale, list);
  return list;
}

/** A locale named in its own language ("fr" → "français", "ar_SA" → "العربية (المملكة العربية السعودية)"). */
export function localeName(locale: Locale): string {
  const tag = toLanguageTag(locale);
  return displayName(tag, "language", tag);
}

/** The locales of `locales` (all 45 by default) in spec order, each named in its own language. */
export function localeList(locales: readonly Locale[] = LOCALES): KeyAndName[] {
  return locales.map((key) => ({ key, name: localeName(key) }));
}
