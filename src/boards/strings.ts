// The organize islands' strings, as the islands use them. Islands do not load i18next: the page
// translates every string on the server (strings.server.ts) and hands them over as props.
// Templates keep their {{placeholders}} for the island to fill; counted strings come as one
// template per plural category of the locale, and the island picks one with Intl.PluralRules.
type En = typeof import("../../locales/en_US/organize.json");

type Leaves<T, Prefix extends string = ""> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Leaves<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

type PluralSuffix = "zero" | "one" | "two" | "few" | "many" | "other";
type PluralBase<K extends string> = K extends `${infer Base}_${PluralSuffix}` ? Base : never;

type AllKeys = Leaves<En>;
export type PluralKey = PluralBase<AllKeys>;
export type StringKey = Exclude<AllKeys, `${string}_${PluralSuffix}`>;

export interface OrganizeStrings {
  /** BCP 47 tag of the page's locale, for plural rules and number formatting. */
  lang: string;
  text: Record<StringKey, string>;
  plural: Record<PluralKey, Partial<Record<Intl.LDMLPluralRule, string>>>;
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
