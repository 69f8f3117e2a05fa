// Comment translation through Workers AI (m2m100). Spec 000 §4: "translation set (empty on
// failure)": any failure, or an answer without text, is an empty translation, never an error.
import { sha256Hex } from "~/runtime/sha256.ts";

export const TRANSLATION_MODEL = "@cf/meta/m2m100-1.2b";
/** A translation longer than this is cut: a 500-character comment never needs more. */
const MAX_TRANSLATION = 2000;

export interface TranslationAi {
  run(model: string, input: Record<string, unknown>): Promise<unknown>;
}

/** `language` is a BCP 47 tag ("fr-FR"); the model takes the primary language ("fr"). */
export async function translateText(ai: TranslationAi | undefined, text: string, language: string): Promise<string> {
  if (!ai) return "";
  try {
    const answer = await ai.run(TRANSLATION_MODEL, { text, target_lang: language.split("-")[0] || "en" });
    const translated = (answer as { translated_text?: unknown } | null)?.translated_text;
    return typeof translated === "string" ? translated.slice(0, MAX_TRANSLATION) : "";
  } catch {
    return "";
  }
}

/** The part of a KV namespace the translation cache uses. */
export interface TranslationCache {
  get(key: string): Promise<string | null>;
  put(key: string, value: string, options: { expirationTtl: number }): Promise<void>;
}

/** A cached translation is kept a day: long enough for a busy thread, short enough to follow model updates. */
export const TRANSLATION_TTL_SECONDS = 24 * 60 * 60;

/**
 * The cache key of one translation: the comment, a hash of the text it had (an edit makes a
 * new key, so a stale translation is never served) and the target language.
 */
export async function translationKey(commentId: number | string, text: string, language: string): Promise<string> {
  return `translation:${commentId}:${await sha256Hex(text)}:${language.split("-")[0] || "en"}`;
}

/**
 * translateText through the KV cache: a hit costs no model call; a miss is stored for a day.
 * Only a real translation is stored: an empty one (the model failed) is asked again next time.
 * A cache that fails is read as a miss and never fails the translation.
 */
export async function cachedTranslation(cache: TranslationCache | undefined, ai: TranslationAi | undefined, commentId: number | string, text: string, language: string): Promise<string> {
  if (!ai) return "";
  const key = await translationKey(commentId, text, language);
  const hit = cache ? await cache.get(key).catch(() => null) : null;
  if (hit !== null && hit !== "") return hit;
  const translated = await translateText(ai, text, language);
  if (cache && translated !== "") await cache.put(key, translated, { expirationTtl: TRANSLATION_TTL_SECONDS }).catch(() => undefined);
  return translated;
}
