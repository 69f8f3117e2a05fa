// The merchant's storefront (spec 002 §3 "Storefront: currentViewingLocale (country, language,
// feedProfileId), lastUpdated"): the viewing locale a viewer picks, and how a price reads in it.
import { z } from "zod";
import { countrySchema } from "~/business/countries.ts";
import { LOCALES, toLanguageTag, type Locale } from "~/context/locales.ts";

export const storefrontLocaleBody = z.strictObject({
  country: countrySchema,
  language: z.enum(LOCALES),
  feedProfileId: z.string().regex(/^\d{1,19}$/),
});

export interface ViewingLocale {
  country: string;
  language: Locale;
  feedProfileId: string;
  /** When the viewer chose it, in seconds; null for the request's own locale (never chosen). */
  lastUpdated: number | null;
}

/** A price as the viewing locale writes it (its language, its country's conventions), or null without one. */
export function formatPrice(value: number | null, currency: string | null, locale: ViewingLocale): string | null {
  if (value === null || currency === null) return null;
  const language = toLanguageTag(locale.language).split("-")[0]!;
  try {
    return new Intl.NumberFormat(`${language}-${locale.country}`, { style: "currency", currency }).format(value);
  } catch {
    return null;
  }
}
