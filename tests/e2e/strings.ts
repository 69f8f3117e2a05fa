// The product's own strings for browser tests, in the two projects' locales: a test finds
// buttons and messages by what a person reads (en_US for "en", ar_SA for "ar").
import { readFileSync } from "node:fs";

type Strings = { [key: string]: string | Strings };
export type Project = "en" | "ar";

export const projectOf = (name: string): Project => (name === "ar" ? "ar" : "en");

const load = (locale: string, ns: string) => JSON.parse(readFileSync(new URL(`../../locales/${locale}/${ns}.json`, import.meta.url), "utf8")) as Strings;

/**
 * A `text(project, "alias.key.path", values)` over the namespaces named by alias (e.g.
 * `{ c: "comments-ui" }`), with `{{name}}` filled from values.
 */
export function localeText(namespaces: Record<string, string>) {
  const strings = Object.fromEntries(
    (["en", "ar"] as const).map((project) => [project, Object.fromEntries(Object.entries(namespaces).map(([alias, ns]) => [alias, load(project === "ar" ? "ar_SA" : "en_US", ns)]))]),
  ) as Record<Project, Record<string, Strings>>;
  return (project: Project, path: string, values: Record<string, string | number> = {}): string => {
    const [alias, ...keys] = path.split(".");
    let node: string | Strings = strings[project][alias!]!;
    for (const key of keys) node = (node as Strings)[key]!;
    return (node as string).replace(/\{\{(\w+)\}\}/g, (_whole, name: string) => String(values[name]));
  };
}
