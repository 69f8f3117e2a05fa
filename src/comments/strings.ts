// The comments island's words. Islands do not load i18next: the page translates every key of
// the `comments-ui` namespace on the server (commentStrings) and carries them in the page's
// strings block (src/i18n/page-strings.ts).
// Templates keep their {{placeholders}}; the island fills them with fill(). Counts appear as
// "Likes: 3" rather than in a sentence, so no plural forms are needed in any locale.
import type { TFunction } from "i18next";
import { perLocale } from "~/i18n/memo.ts";
import en from "../../locales/en_US/comments-ui.json";

type Leaves<T, Prefix extends string = ""> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Leaves<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

export type CommentStringKey = Leaves<typeof en>;
export type CommentStrings = Record<CommentStringKey, string>;

function keysOf(value: object, prefix = ""): string[] {
  return Object.entries(value).flatMap(([key, child]) => (typeof child === "string" ? [`${prefix}${key}`] : keysOf(child as object, `${prefix}${key}.`)));
}

export const COMMENT_STRING_KEYS = keysOf(en) as CommentStringKey[];

/** Every island string in the request's locale; placeholders stay as {{name}} for fill(). */
export const commentStrings = perLocale((t: TFunction): CommentStrings => {
  const keep = { interpolation: { skipOnVariables: true }, count: "{{count}}", name: "{{name}}", length: "{{length}}", max: "{{max}}" };
  return Object.fromEntries(COMMENT_STRING_KEYS.map((key) => [key, String(t(`comments-ui:${key}`, keep))])) as CommentStrings;
});

/** Fills {{name}} placeholders; unknown names stay as written. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

export const FLAG_REASONS = ["spam", "harassment", "hate", "sexual", "violence", "misinformation", "other"] as const;
export const FLAG_DETAILS = ["targetsMe", "targetsSomeone", "repeated"] as const;
