// The words of the builder's "create from a website" island (FromWebsite.tsx), from the
// `builder` namespace. Islands do not load i18next: the builder's props carry this table
// (src/builder/strings.ts); placeholders stay as {{name}} for fill().
import type { TFunction } from "i18next";
import { perLocale } from "~/i18n/memo.ts";

export interface FromWebsiteStrings {
  heading: string;
  urlLabel: string;
  urlHint: string;
  urlRequired: string;
  find: string;
  finding: string;
  found: string;
  choose: string;
  noImages: string;
  untitledImage: string;
  use: string;
  importing: string;
  imported: string;
  failed: string;
  offline: string;
}

const KEYS: readonly (keyof FromWebsiteStrings)[] = ["heading", "urlLabel", "urlHint", "urlRequired", "find", "finding", "found", "choose", "noImages", "untitledImage", "use", "importing", "imported", "failed", "offline"];

export const fromWebsiteStrings = perLocale((t: TFunction): FromWebsiteStrings => {
  const keep = { interpolation: { skipOnVariables: true }, count: "{{count}}", number: "{{number}}" };
  return Object.fromEntries(KEYS.map((key) => [key, String(t(`builder:fromWebsite.${key}`, keep))])) as unknown as FromWebsiteStrings;
});
