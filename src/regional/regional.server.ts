// The account's language and country (users.locale, users.country), changed in settings.
import type { Locale } from "~/context/locales.ts";
import type { Country } from "./regional.ts";

export async function saveLocaleAndCountry(db: D1Database, userId: number, locale: Locale, country: Country): Promise<void> {
  await db.prepare("UPDATE users SET locale = ?2, country = ?3 WHERE id = ?1").bind(userId, locale, country).run();
}
