// The organize islands' strings. Islands do not load i18next: the page translates every string
// on the server (organizeStrings) and hands them over as props. Templates keep their
// {{placeholders}} for the island to fill; counted strings come as one template per plural
// category of the locale, and the island picks one with Intl.PluralRules.
import type { TFunction } from "i18next";
import en from "../../locales/en_US/organize.json";

type Leaves<T, Prefix extends string = ""> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Leaves<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

type PluralBase<K extends string> = K extends `${infer Base}_${"zero" | "one" | "two" | "few" | "many" | "other"}` ? Base : never;

type AllKeys = Leaves<typeof en>;
export type PluralKey = PluralBase<AllKeys>;
export type StringKey = Exclude<AllKeys, `${string}_${"zero" | "one" | "two" | "few" | "many" | "other"}`>;

export interface OrganizeStrings {
  /** BCP 47 tag of the page's locale, for plural rules and number formatting. */
  lang: string;
  text: Record<StringKey, string>;
  plural: Record<PluralKey, Partial<Record<Intl.LDMLPluralRule, string>>>;
}

function flatten(tree: object, prefix = ""): string[] {
  return Object.entries(tree).flatMap(([key, value]) => (typeof value === "string" ? [`${prefix}${key}`] : flatten(value as object, `${prefix}${key}.`)));
}

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;
const ALL = flatten(en);
export const STRING_KEYS = ALL.filter((key) => !PLURAL_SUFFIX.test(key)) as StringKey[];
export const PLURAL_KEYS = [...new Set(ALL.filter((key) => PLURAL_SUFFIX.test(key)).map((key) => key.replace(PLURAL_SUFFIX, "")))] as PluralKey[];

/**
 * Every organize string in the request's locale. `replace` (not `count`) fills the
 * placeholders with themselves, so i18next neither picks a plural form nor drops them.
 */
export function organizeStrings(t: TFunction, lang: string): OrganizeStrings {
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
}

/** Fills {{name}} placeholders with values, as text. */
export function fill(template: string, values: Record<string, string | number> = {}): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** The counted string for `count` in the strings' locale. */
export function counted(strings: OrganizeStrings, key: PluralKey, count: number, values: Record<string, string | number> = {}): string {
  const forms = strings.plural[key];
  const category = new Intl.PluralRules(strings.lang).select(count);
  const template = forms[category] ?? forms.other ?? "";
  return fill(template, { ...values, count: count.toLocaleString(strings.lang) });
}
