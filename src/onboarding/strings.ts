// The onboarding island's words, built once per locale on the server and carried in its props.
// Placeholders stay as {{name}} and are filled in the browser (fill, src/saves/strings.ts);
// counted phrases carry every plural form of the page's language (src/social/plural.ts).
import type { TFunction } from "i18next";
import { perLocale } from "~/i18n/memo.ts";
import { pluralForms, type PluralForms } from "~/social/plural.ts";

const raw = { skipInterpolation: true } as const;
const PLAIN = [
  "progress",
  "actions.start",
  "actions.next",
  "actions.back",
  "actions.skip",
  "actions.finish",
  "actions.saving",
  "welcome.heading",
  "welcome.text",
  "interests.heading",
  "interests.text",
  "interests.listLabel",
  "creators.heading",
  "creators.text",
  "creators.listLabel",
  "creators.loading",
  "creators.empty",
  "creators.loadError",
  "creators.retry",
  "creators.follow",
  "creators.following",
  "creators.followFailed",
  "locale.heading",
  "locale.text",
  "locale.country",
  "locale.language",
  "error",
] as const;
const COUNTED = ["interests.picked", "creators.inYourTopics", "creators.followers"] as const;

type OnboardingWord = (typeof PLAIN)[number];
type OnboardingCounted = (typeof COUNTED)[number];

export interface OnboardingStrings {
  words: Record<OnboardingWord, string>;
  counted: Record<OnboardingCounted, PluralForms>;
}

const wordsOf = perLocale((t: TFunction) => Object.fromEntries(PLAIN.map((key) => [key, String(t(`onboarding:${key}`, raw))])) as Record<OnboardingWord, string>);

export function onboardingStrings(t: TFunction, language: string): OnboardingStrings {
  return {
    words: wordsOf(t),
    counted: Object.fromEntries(COUNTED.map((key) => [key, pluralForms(t, `onboarding:${key}`, language)])) as Record<OnboardingCounted, PluralForms>,
  };
}
