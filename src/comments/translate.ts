// Comment translation through Workers AI (m2m100). Spec 000 §4: "translation set (empty on
// failure)": any failure, or an answer without text, is an empty translation, never an error.

export const TRANSLATION_MODEL = "@cf/meta/m2m100-1.2b";
/** A translation longer than this is cut: a 500-character comment never needs more. */
export const MAX_TRANSLATION = 2000;

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
