// Spec 000 §4 "translation set (empty on failure)".
import { describe, expect, it } from "vitest";
import { TRANSLATION_MODEL, TRANSLATION_TTL_SECONDS, cachedTranslation, translateText, translationKey, type TranslationAi, type TranslationCache } from "./translate.ts";

const answering = (answer: () => Promise<unknown>): TranslationAi & { calls: unknown[][] } => {
  const calls: unknown[][] = [];
  return { calls, run: (model, input) => (calls.push([model, input]), answer()) };
};

describe("translateText", () => {
  it("asks the model for the viewer's primary language and answers its text", async () => {
    const ai = answering(async () => ({ translated_text: "Hello" }));
    expect(await translateText(ai, "Bonjour", "en-US")).toBe("Hello");
    expect(ai.calls).toEqual([[TRANSLATION_MODEL, { text: "Bonjour", target_lang: "en" }]]);
  });

  it.each<[string, TranslationAi | undefined]>([
    ["no binding", undefined],
    ["the model throws", answering(async () => Promise.reject(new Error("capacity")))],
    ["an answer without text", answering(async () => ({ result: 1 }))],
    ["a null answer", answering(async () => null)],
    ["a non-string translation", answering(async () => ({ translated_text: 42 }))],
  ])("empty on failure: %s", async (_, ai) => {
    expect(await translateText(ai, "Bonjour", "fr")).toBe("");
  });
});

/** An in-memory stand-in for the CACHE KV namespace that records each put. */
function memoryCache(failing = false): TranslationCache & { puts: Array<[string, string, number]>; store: Map<string, string> } {
  const store = new Map<string, string>();
  const puts: Array<[string, string, number]> = [];
  return {
    store,
    puts,
    get: async (key) => (failing ? Promise.reject(new Error("kv down")) : (store.get(key) ?? null)),
    put: async (key, value, options) => {
      if (failing) throw new Error("kv down");
      puts.push([key, value, options.expirationTtl]);
      store.set(key, value);
    },
  };
}

describe("cachedTranslation (KV CACHE)", () => {
  it("calls the model once per comment, text and language, storing the answer for a day", async () => {
    const ai = answering(async () => ({ translated_text: "Hello" }));
    const cache = memoryCache();
    expect(await cachedTranslation(cache, ai, 7, "Bonjour", "en-US")).toBe("Hello");
    expect(await cachedTranslation(cache, ai, 7, "Bonjour", "en-GB")).toBe("Hello");
    expect(ai.calls).toHaveLength(1);
    expect(cache.puts).toEqual([[await translationKey(7, "Bonjour", "en"), "Hello", TRANSLATION_TTL_SECONDS]]);
    expect(TRANSLATION_TTL_SECONDS).toBe(86_400);
  });

  it("keys by comment, text hash and target language, so an edit or another language asks again", async () => {
    const base = await translationKey(7, "Bonjour", "en");
    expect(base).toMatch(/^translation:7:[0-9a-f]{64}:en$/);
    expect(base).not.toContain("Bonjour");
    expect(await translationKey(8, "Bonjour", "en")).not.toBe(base);
    expect(await translationKey(7, "Bonjour!", "en")).not.toBe(base);
    expect(await translationKey(7, "Bonjour", "ar")).not.toBe(base);
  });

  it("does not store an empty (failed) translation, and a failing cache is only a miss", async () => {
    const cache = memoryCache();
    expect(await cachedTranslation(cache, answering(async () => Promise.reject(new Error("x"))), 1, "Hola", "en")).toBe("");
    expect(cache.puts).toEqual([]);
    expect(await cachedTranslation(memoryCache(true), answering(async () => ({ translated_text: "Hi" })), 1, "Hola", "en")).toBe("Hi");
  });

  it("answers empty without the AI binding, without touching the cache", async () => {
    const cache = memoryCache();
    cache.store.set(await translationKey(1, "Hola", "en"), "Hi");
    expect(await cachedTranslation(cache, undefined, 1, "Hola", "en")).toBe("");
  });
});
