// The locale files against English, their source: every locale holds every key (a regional
// variant through its parents) and no other, with its own plural forms (CLDR's, as Intl names
// them), placeholders and markup intact, nothing left in English but what its glossary keeps,
// and the served list is the complete locales: all 45.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_LOCALE, LOCALES, LOCALE_PARENTS, toLanguageTag, type Locale } from "~/context/locales.ts";
import { completeLocales } from "./completeness.ts";
import { SERVED_LOCALES } from "./served-locales.ts";

const root = join(import.meta.dirname, "../../locales");
type Tree = { [key: string]: string | Tree };
const PLURAL = /_(zero|one|two|few|many|other)$/;

function flatten(tree: Tree, prefix = "", into: Record<string, string> = {}): Record<string, string> {
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === "string") into[prefix + key] = value;
    else flatten(value, `${prefix}${key}.`, into);
  }
  return into;
}

const trees = (locale: string): Record<string, Tree> =>
  Object.fromEntries(
    readdirSync(join(root, locale))
      .filter((file) => file.endsWith(".json"))
      .map((file) => [file.slice(0, -".json".length), JSON.parse(readFileSync(join(root, locale, file), "utf8")) as Tree]),
  );

/** Every string of a locale as "namespace:key.path". */
function strings(locale: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [namespace, tree] of Object.entries(trees(locale))) for (const [key, value] of Object.entries(flatten(tree))) out[`${namespace}:${key}`] = value;
  return out;
}

const english = strings(DEFAULT_LOCALE);
const englishFiles = readdirSync(join(root, DEFAULT_LOCALE)).sort();

/** English's keys with plural suffixes folded: for a plural, its forms by category. */
const groups = new Map<string, { plural: boolean; forms: Record<string, string> }>();
for (const [key, value] of Object.entries(english)) {
  const category = PLURAL.exec(key)?.[1];
  const base = key.replace(PLURAL, "");
  const group = groups.get(base) ?? { plural: category !== undefined, forms: {} };
  group.forms[category ?? ""] = value;
  groups.set(base, group);
}

const ancestors = (locale: Locale): Locale[] => {
  const chain: Locale[] = [];
  for (let parent = LOCALE_PARENTS[locale]; parent; parent = LOCALE_PARENTS[parent]) chain.push(parent);
  return chain;
};

/** A locale's strings with its parents' beneath: what its readers see, short of English. */
function resolved(locale: Locale): Record<string, string> {
  return Object.assign({}, ...ancestors(locale).reverse().map(strings), strings(locale)) as Record<string, string>;
}

const categories = (locale: Locale) => new Intl.PluralRules(toLanguageTag(locale)).resolvedOptions().pluralCategories as string[];
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*-?\s*([\w.]+)[^}]*\}\}/g)].map((match) => match[1]!).sort();
const markup = (text: string) => [...text.matchAll(/<\/?[a-z0-9]+[^>]*>/gi)].map((match) => match[0]).sort();

interface Glossary {
  locale: string;
  terms: Record<string, string>;
  keep: string[];
}
const glossaryOf = (locale: Locale): Glossary | null => {
  const path = join(root, `${locale}.glossary.json`);
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as Glossary) : null;
};

/** Whether a value the same as its source is allowed: nothing but placeholders, markup, kept terms and signs. */
function keptAsIs(value: string, keep: readonly string[]): boolean {
  let rest = value.replace(/\{\{[^}]*\}\}/g, "").replace(/<[^>]*>/g, "");
  for (const term of [...keep].sort((a, b) => b.length - a.length)) rest = rest.split(term).join("");
  return !/\p{L}/u.test(rest);
}

const translated = LOCALES.filter((locale) => locale !== DEFAULT_LOCALE);

/**
 * Buttons whose accessible name (the second key, naming the object) stands beside their visible
 * words (the first): voice control and screen readers need those words inside the name.
 */
const NAMED_CONTROLS = [
  ["billing:page.download", "billing:page.downloadNamed"],
  ["builder:ui.deleteDraft", "builder:ui.deleteDraftOf"],
  ["comments-ui:helpful", "comments-ui:helpfulLabel"],
  ["comments-ui:like", "comments-ui:likeLabel"],
  ["comments-ui:like", "comments-ui:tried.likeLabel"],
  ["comments-ui:helpful", "comments-ui:tried.helpfulLabel"],
  ["comments-ui:tried.delete", "comments-ui:tried.deleteLabel"],
  ["messages:ui.send", "messages:ui.shareTo"],
  ["organize:archived.unarchive", "organize:archived.unarchiveBoard"],
  ["organize:collab.approve", "organize:collab.approveUser"],
  ["organize:collab.deny", "organize:collab.denyUser"],
  ["organize:collab.remove", "organize:collab.removeUser"],
] as const;

/** Words as axe's label-content-name-mismatch compares them: segmented, lower case, no marks or punctuation. */
const wordSegmenter = new Intl.Segmenter(undefined, { granularity: "word" });
const words = (text: string) =>
  [...wordSegmenter.segment(text.normalize("NFKD").replace(/\{\{[^}]*\}\}/g, " ").replace(/\([^()]*\)/g, "").replace(/[^\p{L}\p{N}]/gu, " ").toLowerCase())]
    .map((segment) => segment.segment.trim())
    .filter(Boolean);
function holdsWords(name: string, visible: string): boolean {
  const needle = words(visible);
  const haystack = words(name);
  for (let start = 0; start + needle.length <= haystack.length; start++) if (needle.every((word, index) => word === haystack[start + index])) return true;
  return needle.length === 0;
}

describe("locale files", () => {
  it("exist for exactly the 45 locales, each with English's files", () => {
    const folders = readdirSync(root, { withFileTypes: true }).filter((entry) => entry.isDirectory());
    expect(folders.map((entry) => entry.name).sort()).toEqual([...LOCALES].sort());
    for (const locale of LOCALES) expect(readdirSync(join(root, locale)).sort(), locale).toEqual(englishFiles);
  });

  it("serve exactly the complete locales", () => {
    const resources = Object.fromEntries(LOCALES.map((locale) => [toLanguageTag(locale), trees(locale)]));
    expect([...SERVED_LOCALES]).toEqual(completeLocales(resources));
  });

  describe.each(translated)("%s", (locale) => {
    const own = strings(locale);
    const parents = ancestors(locale);
    const inherited = parents.length > 0 ? resolved(parents[0]!) : {};
    const forms = categories(locale);
    const glossary = glossaryOf(locale);

    it("holds no key English lacks, and only its own plural forms", () => {
      const wrong = Object.keys(own).filter((key) => {
        const group = groups.get(key.replace(PLURAL, ""));
        if (!group) return true;
        if (!group.plural) return !(key in english);
        return !forms.includes(PLURAL.exec(key)![1]!);
      });
      expect(wrong).toEqual([]);
    });

    it("keeps every placeholder and every piece of markup (a plural form may spell its count out)", () => {
      const broken = Object.entries(own).filter(([key, value]) => {
        const group = groups.get(key.replace(PLURAL, ""));
        if (!group) return false;
        const source = group.plural ? group.forms["other"]! : group.forms[""]!;
        const wanted = placeholders(source);
        const mayDropCount = group.plural && !key.endsWith("_other");
        const actual = placeholders(value);
        const missing = wanted.filter((name) => !actual.includes(name) && !(mayDropCount && name === "count"));
        const extra = actual.filter((name) => !wanted.includes(name));
        return missing.length > 0 || extra.length > 0 || markup(value).join() !== markup(source).join();
      });
      expect(broken).toEqual([]);
    });

    it("has a glossary of its terms and of what it keeps in English", () => {
      expect(glossary?.locale).toBe(locale);
      expect(Object.keys(glossary?.terms ?? {}).length).toBeGreaterThan(0);
      expect(Array.isArray(glossary?.keep)).toBe(true);
    });

    it("leaves nothing as its source says it, but what the glossary keeps", () => {
      const keep = glossary?.keep ?? [];
      const same = Object.entries(own).filter(([key, value]) => {
        // A regional variant's strings replace its parent's; every other locale's replace English.
        const group = groups.get(key.replace(PLURAL, ""));
        const source = parents.length > 0 ? inherited[key] : group?.plural ? (group.forms[PLURAL.exec(key)![1]!] ?? group.forms["other"]) : english[key];
        return value === source && !keptAsIs(value, keep);
      });
      expect(same).toEqual([]);
    });

    it("names each named control with its visible words inside", () => {
      const mine = resolved(locale);
      const mismatched = NAMED_CONTROLS.filter(([visible, name]) => !holdsWords(mine[name] ?? english[name]!, mine[visible] ?? english[visible]!));
      expect(mismatched).toEqual([]);
    });

    it("has every English string, with every plural form its readers' rules use", () => {
      const mine = resolved(locale);
      const missing: string[] = [];
      for (const [base, group] of groups) {
        if (!group.plural && group.forms[""] === "") continue; // deliberately empty: a decorative picture's alt
        for (const key of group.plural ? forms.map((category) => `${base}_${category}`) : [base]) if (!mine[key]?.trim()) missing.push(key);
      }
      expect(missing).toEqual([]);
    });
  });
});
