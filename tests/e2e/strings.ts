// The product's own strings for browser tests, in each project's locale: a test finds buttons
// and messages by what a person reads.
import { readFileSync } from "node:fs";

type Strings = { [key: string]: string | Strings };

/** The browser projects (playwright.config.ts) and the locale each reads. */
const LOCALE_OF = { en: "en_US", ar: "ar_SA", he: "he_IL", ja: "ja", de: "de" } as const;
export type LocaleProject = keyof typeof LOCALE_OF;

/** Most journeys run in English and Arabic; the main ones run in every project. */
export type Project = "en" | "ar";
export const projectOf = (name: string): Project => (name === "ar" ? "ar" : "en");
export const localeProjectOf = (name: string): LocaleProject => (name in LOCALE_OF ? (name as LocaleProject) : "en");

const load = (locale: string, ns: string) => JSON.parse(readFileSync(new URL(`../../locales/${locale}/${ns}.json`, import.meta.url), "utf8")) as Strings;

/**
 * A `text(project, "alias.key.path", values)` over the namespaces named by alias (e.g.
 * `{ c: "comments-ui" }`), with `{{name}}` filled from values.
 */
export function localeText(namespaces: Record<string, string>) {
  const strings = Object.fromEntries(
    Object.entries(LOCALE_OF).map(([project, locale]) => [project, Object.fromEntries(Object.entries(namespaces).map(([alias, ns]) => [alias, load(locale, ns)]))]),
  ) as Record<LocaleProject, Record<string, Strings>>;
  return (project: LocaleProject, path: string, values: Record<string, string | number> = {}): string => {
    const [alias, ...keys] = path.split(".");
    let node: string | Strings = strings[project][alias!]!;
    for (const key of keys) node = (node as Strings)[key]!;
    return (node as string).replace(/\{\{(\w+)\}\}/g, (_whole, name: string) => String(values[name]));
  };
}
