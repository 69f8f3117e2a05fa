// i18next driven directly at the edge. Locale files under /locales are bundled into the Worker
// at build time (workerd has no file system), validated with one schema, and read through a
// fixed-language `t` per request: the shared instance never changes language, so concurrent
// requests in one isolate cannot see each other's locale. English, every key's last fallback,
// is in the Worker's main code; each other locale is its own chunk, loaded by the first request
// in it that an isolate serves, so 45 languages do not weigh on every cold start.
// (astro-i18next's runtime switches one global language per request and does not load in
// workerd; see docs/decisions.md.)
import i18next, { type TFunction } from "i18next";
import { z } from "zod";
import { DEFAULT_LOCALE, LOCALES, fallbackChain, toLanguageTag, type Locale } from "~/context/locales.ts";
import { SERVED_LOCALES } from "./served-locales.ts";

const NAMESPACES = ["common", "news", "profile", "shell", "articles", "accounts", "auth", "settings", "invites", "boards", "social", "save", "organize", "comments", "comments-ui", "events", "search", "builder", "media", "personal", "onboarding", "messages", "business", "bulk", "campaigns", "billing", "merchants", "convtag", "capi", "leads"] as const;
export type Namespace = (typeof NAMESPACES)[number];

type Messages = { [key: string]: string | Messages };
const messagesSchema: z.ZodType<Messages> = z.lazy(() => z.record(z.string(), z.union([z.string(), messagesSchema])));

type LocaleModule = { default: unknown };
const englishFiles = import.meta.glob<LocaleModule>("../../locales/en_US/*.json", { eager: true });
const otherFiles = import.meta.glob<LocaleModule>(["../../locales/*/*.json", "!../../locales/en_US/*.json"]);

const FILE = /\/locales\/([^/]+)\/([^/]+)\.json$/;

/** Parses locale files; a malformed one fails the build's tests, not a visitor. */
export function loadResources(input: Record<string, LocaleModule>) {
  const resources: Record<string, Record<string, Messages>> = {};
  for (const [path, module] of Object.entries(input)) {
    const match = FILE.exec(path);
    if (!match) continue;
    const [, locale, namespace] = match as unknown as [string, string, string];
    if (!(LOCALES as readonly string[]).includes(locale)) throw new Error(`Unknown locale folder: ${locale}`);
    const parsed = messagesSchema.safeParse(module.default);
    if (!parsed.success) throw new Error(`Invalid locale file ${path}: ${parsed.error.message}`);
    (resources[toLanguageTag(locale as Locale)] ??= {})[namespace] = parsed.data;
  }
  return resources;
}

/** Each locale's file loaders, by locale id. */
const loadersByLocale = new Map<Locale, Array<[string, () => Promise<LocaleModule>]>>();
for (const [path, load] of Object.entries(otherFiles)) {
  const locale = FILE.exec(path)?.[1] as Locale | undefined;
  if (locale && (LOCALES as readonly string[]).includes(locale)) {
    const list = loadersByLocale.get(locale) ?? [];
    list.push([path, load]);
    loadersByLocale.set(locale, list);
  }
}

export { SERVED_LOCALES };
const served: ReadonlySet<Locale> = new Set(SERVED_LOCALES);

export function isServedLocale(locale: Locale): boolean {
  return served.has(locale);
}

/** The locale a page asked for in `locale` is rendered in: itself when served, else English. */
export function servedLocaleOf(locale: Locale): Locale {
  return served.has(locale) ? locale : DEFAULT_LOCALE;
}

/** i18next's fallbacks: a regional variant's missing keys come from its parent, then English. */
const fallbackLng: Record<string, string[]> = { default: [toLanguageTag(DEFAULT_LOCALE)] };
for (const locale of LOCALES) fallbackLng[toLanguageTag(locale)] = fallbackChain(locale).slice(1).map(toLanguageTag);

const instance = i18next.createInstance();
void instance.init({
  resources: loadResources(englishFiles),
  lng: toLanguageTag(DEFAULT_LOCALE),
  fallbackLng,
  supportedLngs: LOCALES.map(toLanguageTag),
  load: "currentOnly",
  ns: [...NAMESPACES],
  defaultNS: "common",
  initAsync: false,
  // Astro and React escape on output; escaping here too would double-escape.
  interpolation: { escapeValue: false },
  returnNull: false,
});

/** Fixed `t`s by locale and namespace: the instance never changes, so neither do they. */
const fixedTs = new Map<string, TFunction>();

/** Plain keys remembered per fixed `t`: more than every key the locale files hold. */
const PLAIN_KEYS_MAX = 4096;

/**
 * `t` with its answers to plain keys (no options) remembered: i18next resolves a key through
 * several layers on every call, and a render asks for the same few hundred labels each time
 * (a close-up's profile put translate at about a tenth of its JavaScript). The resources never
 * change after init, so a plain key's answer is fixed for the isolate's life. Calls with
 * options (counts, interpolation, returnObjects) go to i18next every time.
 */
export function rememberPlainKeys(t: TFunction): TFunction {
  const answers = new Map<string, string>();
  const remembering = ((key: unknown, ...rest: unknown[]) => {
    if (rest.length > 0 || typeof key !== "string") return (t as unknown as (...args: unknown[]) => unknown)(key, ...rest);
    let answer = answers.get(key);
    if (answer === undefined) {
      answer = (t as (key: string) => string)(key);
      if (answers.size < PLAIN_KEYS_MAX) answers.set(key, answer);
    }
    return answer;
  }) as unknown as TFunction;
  // The fields i18next puts on a fixed t, for any reader of them.
  const { lng, ns, keyPrefix } = t as unknown as Record<string, unknown>;
  return Object.assign(remembering, { lng, ns, keyPrefix });
}

/**
 * A `t` bound to one locale: the same function for every request in that locale, so tables
 * built from it (src/i18n/memo.ts) are built once. Bounded by locales × namespaces.
 */
export function getT(locale: Locale, namespace: Namespace = "common"): TFunction {
  const key = `${locale}:${namespace}`;
  let t = fixedTs.get(key);
  if (t) return t;
  t = instance.getFixedT(toLanguageTag(locale), namespace);
  // Before its locale has loaded, a `t` answers English; remembering those answers would keep
  // the English for the isolate's life, so only a loaded locale's `t` is kept.
  if (!isLoaded(locale)) return t;
  fixedTs.set(key, (t = rememberPlainKeys(t)));
  return t;
}

/** Locales whose files are in the instance (English from the start), and loads under way. */
const loaded = new Set<Locale>([DEFAULT_LOCALE]);
const loading = new Map<Locale, Promise<void>>();

function isLoaded(locale: Locale): boolean {
  return fallbackChain(locale).every((link) => loaded.has(link));
}

async function loadOne(locale: Locale): Promise<void> {
  const loaders = loadersByLocale.get(locale) ?? [];
  const modules = await Promise.all(loaders.map(async ([path, load]) => [path, await load()] as const));
  const resources = loadResources(Object.fromEntries(modules));
  for (const [language, namespaces] of Object.entries(resources)) {
    for (const [namespace, messages] of Object.entries(namespaces)) instance.addResourceBundle(language, namespace, messages, true, true);
  }
  loaded.add(locale);
}

/**
 * Loads a locale and the locales it falls back to, once per isolate; every request awaits it
 * for its own locale before anything is translated. A failed load is tried again next time.
 */
export async function loadLocale(locale: Locale): Promise<void> {
  if (isLoaded(locale)) return;
  await Promise.all(
    fallbackChain(locale)
      .filter((link) => !loaded.has(link))
      .map((link) => {
        let pending = loading.get(link);
        if (!pending) {
          pending = loadOne(link).finally(() => loading.delete(link));
          loading.set(link, pending);
        }
        return pending;
      }),
  );
}

export type { TFunction };
