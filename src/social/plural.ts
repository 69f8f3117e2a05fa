// Counts in islands. Islands do not load i18next, so the server hands them every plural form
// of a message for the page's language, with "#" where the number goes; the island picks the
// form with Intl.PluralRules, the rule i18next itself uses.
import type { TFunction } from "i18next";
import { perLanguage, perLocaleAndKey } from "~/i18n/memo.ts";

export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

const MARK = "#";

/** Every form of `key` (a `_one`/`_other`… plural) for the language, "#" for the count. */
export function pluralForms(t: TFunction, key: string, language: string): PluralForms {
  return formsOf(t, `${language}|${key}`);
}

const formsOf = perLocaleAndKey((t: TFunction, languageAndKey: string): PluralForms => {
  const [language, key] = languageAndKey.split("|") as [string, string];
  const categories = pluralRules(language).resolvedOptions().pluralCategories;
  const forms: Partial<Record<Intl.LDMLPluralRule, string>> = {};
  for (const category of categories) forms[category] = String(t(`${key}_${category}`, { count: MARK, defaultValue: t(`${key}_other`, { count: MARK }) }));
  return { ...forms, other: forms.other ?? String(t(`${key}_other`, { count: MARK })) };
});

const pluralRules = perLanguage((language) => new Intl.PluralRules(language));
const numberFormat = perLanguage((language) => new Intl.NumberFormat(language));

/** The message for `count`, in the language's own digits. */
export function formatCount(forms: PluralForms, language: string, count: number): string {
  const form = forms[pluralRules(language).select(count)] ?? forms.other;
  return form.replace(MARK, numberFormat(language).format(count));
}
