// Every organize string in the request's locale, for the islands' props (strings.ts says how
// the islands read them). Server-only: the English file is read here for its keys and never
// ships to the browser.
import type { TFunction } from "i18next";
import { perLocaleAndKey } from "~/i18n/memo.ts";
import en from "../../locales/en_US/organize.json";
import type { OrganizeStrings, PluralKey, StringKey } from "./strings.ts";

function flatten(tree: object, prefix = ""): string[] {
  return Object.entries(tree).flatMap(([key, value]) => (typeof value === "string" ? [`${prefix}${key}`] : flatten(value as object, `${prefix}${key}.`)));
}

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;
const ALL = flatten(en);
export const STRING_KEYS = ALL.filter((key) => !PLURAL_SUFFIX.test(key)) as StringKey[];
export const PLURAL_KEYS = [...new Set(ALL.filter((key) => PLURAL_SUFFIX.test(key)).map((key) => key.replace(PLURAL_SUFFIX, "")))] as PluralKey[];

/**
 * `replace` (not `count`) fills the placeholders with themselves, so i18next neither picks a
 * plural form nor drops them; each plural category of the locale falls back to its "other".
 */
const organizeTables = perLocaleAndKey((t: TFunction, lang: string): OrganizeStrings => {
  const keep = () => ({ replace: new Proxy({}, { get: (_target, name) => `{{${String(name)}}}`, has: () => true }) });
  const text = Object.fromEntries(STRING_KEYS.map((key) => [key, t(`organize:${key}`, keep())])) as Record<StringKey, string>;
  const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
  const plural = Object.fromEntries(
    PLURAL_KEYS.map((key) => {
      const other = t(`organize:${key}_other`, keep());
      return [key, Object.fromEntries(categories.map((category) => [category, t(`organize:${key}_${category}`, { ...keep(), defaultValue: other })]))];
    }),
  ) as OrganizeStrings["plural"];
  return { lang, text, plural };
});

/** The organizer's strings for the locale of `t` and its language tag, built once per pair. */
export function organizeStrings(t: TFunction, lang: string): OrganizeStrings {
  return organizeTables(t, lang);
}
