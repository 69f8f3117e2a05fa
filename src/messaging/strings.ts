// The messaging islands' words, from the `messages` namespace. Islands do not load i18next:
// pages pass this table. {{name}} placeholders stay for fill() (src/saves/strings.ts); plural
// forms are kept per category, and the island picks one with Intl.PluralRules.
import type { TFunction } from "i18next";
import { perLocaleAndKey } from "~/i18n/memo.ts";

const KEYS = [
  "button", "inbox", "requests", "newMessage", "back", "close", "empty", "noRequests", "to", "searchPeople", "suggested", "noPeople",
  "message", "placeholder", "send", "sending", "failed", "loading", "unavailable", "attached", "removeAttachment", "pin", "board",
  "profile", "triedIt", "you", "requestIntro", "accept", "decline", "block", "declined", "blocked", "undo", "answerFailed",
  "blockTitle", "blockText", "unblockTitle", "unblockText", "unblock", "cancel", "youBlocked", "share", "shareTitle", "shareTo",
  "sentTo", "sendFailed", "copyLink", "linkCopied", "copyFailed", "newWithPin",
] as const;

const PLURALS = ["buttonUnread", "unread"] as const;
const CATEGORIES = ["zero", "one", "two", "few", "many", "other"] as const;

export type MessagesStrings = Record<(typeof KEYS)[number], string> & {
  language: string;
  plural: Record<(typeof PLURALS)[number], Partial<Record<(typeof CATEGORIES)[number], string>>>;
};

/** Every string the islands use, for a page in `language` (the plural rules' language). */
export const messagesStrings = perLocaleAndKey((t: TFunction, language: string): MessagesStrings => {
  const keep = { interpolation: { skipOnVariables: true }, name: "{{name}}", label: "{{label}}", count: "{{count}}" };
  const table = Object.fromEntries(KEYS.map((key) => [key, String(t(`messages:ui.${key}`, keep))]));
  const plural = Object.fromEntries(
    PLURALS.map((key) => [
      key,
      Object.fromEntries(
        CATEGORIES.flatMap((category) => {
          const name = `messages:ui.${key}_${category}`;
          const text = String(t(name, { ...keep, defaultValue: "" }));
          return text && text !== name ? [[category, text]] : [];
        }),
      ),
    ]),
  );
  return { ...table, language, plural } as MessagesStrings;
});

/** The plural form for `count`, its {{count}} filled. */
export function pluralOf(strings: MessagesStrings, key: keyof MessagesStrings["plural"], count: number): string {
  const forms = strings.plural[key];
  const category = new Intl.PluralRules(strings.language).select(count) as (typeof CATEGORIES)[number];
  return (forms[category] ?? forms.other ?? "").replace(/\{\{count\}\}/g, String(count));
}
