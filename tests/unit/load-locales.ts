// Locales other than English load on a request's first need in the Worker; unit tests read
// every locale's strings synchronously, so they are all loaded before any test runs.
import { LOCALES } from "~/context/locales.ts";
import { loadLocale } from "~/i18n/i18n.ts";

await Promise.all(LOCALES.map(loadLocale));
