// The locales pages are served in and advertised (hreflang, sitemaps, og:locale:alternate, the
// pickers): those whose files, with their parents', hold every English key. The files load
// lazily, so the list is written here, and a unit test holds it to the files
// (locale-files.test.ts): a locale is never served half in English, and joins when complete.
import type { Locale } from "~/context/locales.ts";

export const SERVED_LOCALES: readonly Locale[] = Object.freeze<Locale[]>([
  "ar_SA", "cs_CZ", "da_DK", "de", "en_AU", "en_GB", "en_IN", "en_US", "es_419", "es_AR", "es_ES",
  "es_MX", "es_US", "fr", "he_IL", "hi_IN", "id_ID", "it", "ja", "ko_KR", "nl", "pl_PL", "pt_BR",
  "pt_PT", "ru_RU", "sv_SE", "th_TH", "tr", "uk_UA", "vi_VN", "zh_CN", "zh_TW",
]);
