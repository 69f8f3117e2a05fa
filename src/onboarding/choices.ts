// The country and language choices of onboarding's last step. Languages: the locales pages are
// served in, each named in itself (how people find their own language in a list). Countries:
// the regions of the 45 locales and the account's own, named in the page's language, sorted
// for it. Names come from Intl.DisplayNames, the runtime's CLDR data, so no table of names
// needs translating by hand.
import { LOCALES, toLanguageTag, type Locale } from "~/context/locales.ts";

interface Choice {
  value: string;
  label: string;
}

function displayName(language: string, type: "language" | "region", code: string): string {
  try {
    return new Intl.DisplayNames([language], { type }).of(code) ?? code;
  } catch {
    return code;
  }
}

export function languageChoices(locales: readonly Locale[]): Choice[] {
  return locales.map((locale) => ({ value: locale, label: displayName(toLanguageTag(locale), "language", toLanguageTag(locale)) }));
}

/** Every region a locale names (en_GB → GB), and `own`, named in `language`. */
export function countryChoices(language: string, own: string): Choice[] {
  const codes = new Set(LOCALES.map((locale) => locale.split("_")[1]).filter((region): region is string => region !== undefined && /^[A-Z]{2}$/.test(region)));
  if (/^[A-Z]{2}$/.test(own)) codes.add(own);
  const collator = new Intl.Collator(language);
  return [...codes].map((code) => ({ value: code, label: displayName(language, "region", code) })).sort((a, b) => collator.compare(a.label, b.label));
}
