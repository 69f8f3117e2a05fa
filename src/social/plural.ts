// Counts in islands. Islands do not load i18next, so the server hands them every plural form
// of a message for the page's language, with "#" where the number goes; the island picks the
// form with Intl.PluralRules, the rule i18next itself uses.
import type { TFunction } from "i18next";

export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

const MARK = "#";

/** Every form of `key` (a `_one`/`_other`… plural) for the language, "#" for the count. */
export function pluralForms(t: TFunction, key: string, language: string): PluralForms {
  const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
  const forms: Partial<Record<Intl.LDMLPluralRule, string>> = {};
  for (const category of categories) forms[category] = String(t(`${key}_${category}`, { count: MARK, defaultValue: t(`${key}_other`, { count: MARK }) }));
  return { ...forms, other: forms.other ?? String(t(`${key}_other`, { count: MARK })) };
}

/** The message for `count`, in the language's own digits. */
export function formatCount(forms: PluralForms, language: string, count: number): string {
  const form = forms[new Intl.PluralRules(language).select(count)] ?? forms.other;
  return form.replace(MARK, new Intl.NumberFormat(language).format(count));
}
