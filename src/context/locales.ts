// The 45 locales of spec 000 §9, written as the spec writes them (underscore form).
// Requests may name them with "_" or "-" in any case; everything inside uses these ids.

export const LOCALES = [
  "af_ZA", "ar_SA", "bg_BG", "bn_IN", "cs_CZ", "da_DK", "de", "el_GR", "en_AU", "en_GB",
  "en_IN", "en_US", "es_419", "es_AR", "es_ES", "es_MX", "es_US", "fi_FI", "fr", "he_IL",
  "hi_IN", "hr_HR", "hu_HU", "id_ID", "it", "ja", "ko_KR", "ms_MY", "nb_NO", "nl",
  "pl_PL", "pt_BR", "pt_PT", "ro_RO", "ru_RU", "sk_SK", "sv_SE", "te_IN", "th_TH", "tl_PH",
  "tr", "uk_UA", "vi_VN", "zh_CN", "zh_TW",
] as const;
export type Locale = (typeof LOCALES)[number];

export const DEFAULT_LOCALE: Locale = "en_US";

/** Locales whose script runs right to left. */
const RTL_LOCALES: ReadonlySet<Locale> = new Set<Locale>(["ar_SA", "he_IL"]);

/** Which locale a bare language (or an unknown region of it) means. */
const LANGUAGE_DEFAULTS: Record<string, Locale> = {
  en: "en_US",
  es: "es_ES",
  pt: "pt_BR",
  zh: "zh_CN",
  no: "nb_NO",
  iw: "he_IL",
  fil: "tl_PH",
};

const byLowerId = new Map<string, Locale>(LOCALES.map((locale) => [locale.toLowerCase(), locale]));
const byLanguage = new Map<string, Locale>();
for (const locale of LOCALES) {
  const language = locale.split("_")[0]!.toLowerCase();
  if (!byLanguage.has(language)) byLanguage.set(language, LANGUAGE_DEFAULTS[language] ?? locale);
}
for (const [language, locale] of Object.entries(LANGUAGE_DEFAULTS)) byLanguage.set(language, locale);

/**
 * Reads a locale written either way ("pt-BR", "pt_br", "fr", "fr-CA" → fr).
 * Returns null for anything that is not one of the 45 or a language of one of them.
 */
export function parseLocale(input: string | null | undefined): Locale | null {
  if (!input) return null;
  const cleaned = input.trim().replace(/-/g, "_").toLowerCase();
  if (!/^[a-z]{2,3}(_[a-z0-9]{2,4})?$/.test(cleaned)) return null;
  const exact = byLowerId.get(cleaned);
  if (exact) return exact;
  // Latin American Spanish is written es-419 as well as es_XX for many regions.
  const [language] = cleaned.split("_");
  return byLanguage.get(language!) ?? null;
}

/**
 * Picks the best of the 45 from an Accept-Language header, by its q weights; with `accept`,
 * the best of those it accepts (a language it refuses passes to the visitor's next choice).
 */
export function negotiateLocale(acceptLanguage: string | null | undefined, accept: (locale: Locale) => boolean = () => true): Locale | null {
  if (!acceptLanguage) return null;
  const ranges = acceptLanguage
    .split(",")
    .slice(0, 20) // bound the work a hostile header can cause
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const weight = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((range) => range.tag && range.tag !== "*" && range.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const range of ranges) {
    const locale = parseLocale(range.tag);
    if (locale && accept(locale)) return locale;
  }
  return null;
}

/**
 * Regional variants that share their parent's text: a variant's files hold only the strings its
 * readers would write differently (spelling, vocabulary), and every other key is the parent's.
 * English is the last fallback of every locale.
 */
export const LOCALE_PARENTS: Readonly<Partial<Record<Locale, Locale>>> = {
  en_GB: "en_US",
  en_AU: "en_GB",
  en_IN: "en_GB",
  es_MX: "es_419",
  es_AR: "es_419",
  es_US: "es_419",
};

/** A locale, then the locales its missing keys come from, ending with English. */
export function fallbackChain(locale: Locale): Locale[] {
  const chain: Locale[] = [locale];
  for (let parent = LOCALE_PARENTS[locale]; parent && !chain.includes(parent); parent = LOCALE_PARENTS[parent]) chain.push(parent);
  if (!chain.includes(DEFAULT_LOCALE)) chain.push(DEFAULT_LOCALE);
  return chain;
}

export function isRtl(locale: Locale): boolean {
  return RTL_LOCALES.has(locale);
}

/** The BCP 47 form for `lang`, `hreflang` and i18next ("en_US" → "en-US", "es_419" → "es-419"). */
export function toLanguageTag(locale: Locale): string {
  return locale.replace("_", "-");
}
