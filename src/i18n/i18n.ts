// i18next driven directly at the edge. Every locale file under /locales is bundled into the
// Worker at build time (workerd has no file system), validated with one schema, and read
// through a fixed-language `t` per request: the shared instance never changes language, so
// concurrent requests in one isolate cannot see each other's locale. (astro-i18next's runtime
// switches one global language per request and does not load in workerd; see
// docs/decisions.md.)
import i18next, { type TFunction } from "i18next";
import { z } from "zod";
import { DEFAULT_LOCALE, LOCALES, toLanguageTag, type Locale } from "~/context/locales.ts";
import { completeLocales } from "./completeness.ts";

const NAMESPACES = ["common", "news", "profile", "shell", "articles", "accounts", "auth", "settings", "invites", "boards", "social", "save", "organize", "comments", "comments-ui", "events", "search", "builder", "media", "personal", "onboarding", "messages", "business", "bulk", "campaigns", "billing", "merchants", "convtag", "capi", "leads"] as const;
export type Namespace = (typeof NAMESPACES)[number];

type Messages = { [key: string]: string | Messages };
const messagesSchema: z.ZodType<Messages> = z.lazy(() => z.record(z.string(), z.union([z.string(), messagesSchema])));

const files = import.meta.glob<{ default: unknown }>("../../locales/*/*.json", { eager: true });

/** Parses every bundled locale file; a malformed one fails the build's tests, not a visitor. */
export function loadResources(input: Record<string, { default: unknown }> = files) {
  const resources: Record<string, Record<string, Messages>> = {};
  for (const [path, module] of Object.entries(input)) {
    const match = /\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
    if (!match) continue;
    const [, locale, namespace] = match as unknown as [string, string, string];
    if (!(LOCALES as readonly string[]).includes(locale)) throw new Error(`Unknown locale folder: ${locale}`);
    const parsed = messagesSchema.safeParse(module.default);
    if (!parsed.success) throw new Error(`Invalid locale file ${path}: ${parsed.error.message}`);
    (resources[toLanguageTag(locale as Locale)] ??= {})[namespace] = parsed.data;
  }
  return resources;
}

const resources = loadResources();

/**
 * The locales pages are served in: those whose files hold every English key, computed from the
 * bundled files, so a locale joins the day its translation is complete.
 */
export const SERVED_LOCALES: readonly Locale[] = Object.freeze(completeLocales(resources));
const served: ReadonlySet<Locale> = new Set(SERVED_LOCALES);

export function isServedLocale(locale: Locale): boolean {
  return served.has(locale);
}

/** The locale a page asked for in `locale` is rendered in: itself when served, else English. */
export function servedLocaleOf(locale: Locale): Locale {
  return served.has(locale) ? locale : DEFAULT_LOCALE;
}

const instance = i18next.createInstance();
void instance.init({
  resources,
  lng: toLanguageTag(DEFAULT_LOCALE),
  fallbackLng: toLanguageTag(DEFAULT_LOCALE),
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
  if (!t) fixedTs.set(key, (t = rememberPlainKeys(instance.getFixedT(toLanguageTag(locale), namespace))));
  return t;
}

export type { TFunction };
