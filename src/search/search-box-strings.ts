// The header search box's words (src/search/SearchBox.tsx), built once per locale from the
// `search` namespace. Pages carry them once, in the page's strings block (src/i18n/page-strings.ts).
import type { TFunction } from "i18next";
import { perLocale } from "~/i18n/memo.ts";
import { MAX_OPTIONS } from "./combobox.ts";

export interface SearchBoxStrings {
  label: string;
  placeholder: string;
  submit: string;
  suggestions: string;
  recent: string;
  queries: string;
  boards: string;
  people: string;
  remove: string;
  clearAll: string;
  /** The live region's words for 0..MAX_OPTIONS options. */
  counts: string[];
  byOwner: string;
}

export const searchBoxStrings = perLocale(
  (t: TFunction): SearchBoxStrings => ({
    label: t("search:box.label"),
    placeholder: t("search:box.placeholder"),
    submit: t("search:box.submit"),
    suggestions: t("search:box.suggestions"),
    recent: t("search:box.recent"),
    queries: t("search:box.queries"),
    boards: t("search:box.boards"),
    people: t("search:box.people"),
    remove: t("search:box.remove", { query: "{{query}}" }),
    clearAll: t("search:box.clearAll"),
    // The live count's words for every option count the box can show (plural rules differ by locale).
    counts: Array.from({ length: MAX_OPTIONS + 1 }, (_, count) => (count === 0 ? t("search:box.none") : t("search:box.count", { count }))),
    byOwner: t("search:box.byOwner", { name: "{{name}}" }),
  }),
);
