// Which locales are complete: their files hold every key English has. Only those are served and
// advertised (hreflang, og:locale:alternate); a visitor asking for another is served English,
// labelled English, rather than English text under another language's tag.
import { DEFAULT_LOCALE, LOCALES, LOCALE_PARENTS, toLanguageTag, type Locale } from "~/context/locales.ts";

type Messages = { [key: string]: string | Messages };

/** Plural forms differ by language (Arabic has six, Japanese one): a key counts once, suffix folded. */
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

function keysOf(tree: Messages, prefix: string, into: Set<string>): Set<string> {
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === "string") {
      // An empty string is no translation: i18next would show it as a blank.
      if (value.trim() !== "") into.add(prefix + key.replace(PLURAL_SUFFIX, ""));
    } else keysOf(value, `${prefix}${key}.`, into);
  }
  return into;
}

function localeKeys(namespaces: Record<string, Messages> | undefined): Set<string> {
  const keys = new Set<string>();
  for (const [namespace, tree] of Object.entries(namespaces ?? {})) keysOf(tree, `${namespace}:`, keys);
  return keys;
}

/**
 * The locales whose files, with their parents', hold every key of the default locale's, in
 * LOCALES order. `resources` is keyed by language tag ("en-US"), as loadResources builds it.
 */
export function completeLocales(resources: Record<string, Record<string, Messages>>): Locale[] {
  const english = localeKeys(resources[toLanguageTag(DEFAULT_LOCALE)]);
  return LOCALES.filter((locale) => {
    if (locale === DEFAULT_LOCALE) return true;
    // A regional variant holds only what differs; its parents' files hold the rest. One that
    // holds nothing has not been gone through yet.
    const own = localeKeys(resources[toLanguageTag(locale)]);
    if (own.size === 0) return false;
    for (let parent = LOCALE_PARENTS[locale]; parent; parent = LOCALE_PARENTS[parent]) for (const key of localeKeys(resources[toLanguageTag(parent)])) own.add(key);
    for (const key of english) if (!own.has(key)) return false;
    return true;
  });
}
