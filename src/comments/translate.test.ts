// Spec 000 §4 "translation set (empty on failure)".
import { describe, expect, it } from "vitest";
import { TRANSLATION_MODEL, translateText, type TranslationAi } from "./translate.ts";

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
