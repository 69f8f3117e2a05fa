// The locales pages are served in and advertised (hreflang, sitemaps, og:locale:alternate, the
// pickers): those whose files, with their parents', hold every English key. The files load
// lazily, so the list is written here, and a unit test holds it to the files
// (locale-files.test.ts): a locale is never served half in English, and joins when complete.
import type { Locale } from "~/context/locales.ts";

export const SERVED_LOCALES: readonly Locale[] = Object.freeze<Locale[]>([
  "af_ZA", "ar_SA", "bg_BG", "bn_IN", "cs_CZ", "da_DK", "de", "el_GR", "en_AU", "en_GB", "en_IN",
  "en_US", "es_419", "es_AR", "es_ES", "es_MX", "es_US", "fi_FI", "fr", "he_IL", "hi_IN", "hr_HR",
  "hu_HU", "id_ID", "it", "ja", "ko_KR", "ms_MY", "nb_NO", "nl", "pl_PL", "pt_BR", "pt_PT",
  "ro_RO", "ru_RU", "sk_SK", "sv_SE", "te_IN", "th_TH", "tl_PH", "tr", "uk_UA", "vi_VN", "zh_CN",
  "zh_TW",
]);
