// String tables and Intl objects built once per locale instead of once per render. A render
// asks i18next for several hundred island strings (comments, saving, log-in) and builds Intl
// plural rules per count; a CPU profile of signed-in pin renders put i18next's translate at
// about a tenth of the Worker's time. The tables depend only on the locale's fixed `t`
// (src/i18n/i18n.ts getT returns one function per locale and namespace), so they are kept
// per `t`, frozen so that no render can change what the next one reads. Bounded: one entry
// per locale (and per key or language where a table takes one).
import type { TFunction } from "i18next";

/** Freezes a table of strings and nested tables, so a shared copy cannot be edited in place. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** `build(t)` once per fixed `t`: the same frozen table for every later render in that locale. */
export function perLocale<R extends object>(build: (t: TFunction) => R): (t: TFunction) => R {
  const tables = new WeakMap<TFunction, R>();
  return (t) => {
    let table = tables.get(t);
    if (!table) tables.set(t, (table = deepFreeze(build(t))));
    return table;
  };
}

/** `build(t, key)` once per fixed `t` and key (keys are code constants and languages: few). */
export function perLocaleAndKey<R extends object>(build: (t: TFunction, key: string) => R): (t: TFunction, key: string) => R {
  const tables = new WeakMap<TFunction, Map<string, R>>();
  return (t, key) => {
    let byKey = tables.get(t);
    if (!byKey) tables.set(t, (byKey = new Map()));
    let table = byKey.get(key);
    if (!table) byKey.set(key, (table = deepFreeze(build(t, key))));
    return table;
  };
}

/** One Intl object per language and kind, instead of one per formatted number. */
export function perLanguage<R>(build: (language: string) => R): (language: string) => R {
  const made = new Map<string, R>();
  return (language) => {
    let value = made.get(language);
    if (value === undefined) {
      value = build(language);
      // Languages come from the locale list, but a caller could pass anything: stay bounded.
      if (made.size < 128) made.set(language, value);
    }
    return value;
  };
}
