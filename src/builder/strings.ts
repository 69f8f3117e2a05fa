// The builder island's words: the `builder` namespace's ui table and its validation messages,
// built once per locale on the server and carried in the island's props (one island, one
// page). Placeholders stay as {{name}} and are filled in the browser (fill, src/saves/strings.ts).
import type { TFunction } from "i18next";
import { perLocale } from "~/i18n/memo.ts";
import { fromWebsiteStrings, type FromWebsiteStrings } from "./from-website-strings.ts";
import { tagEditorStrings, type TagEditorStrings } from "./tag-editor.ts";
import uiTable from "../../locales/en_US/builder.json";

export type UiKey = keyof (typeof uiTable)["ui"];

export interface BuilderStrings {
  ui: Record<UiKey, string>;
  /** By the reason key validateDraft names ("builder:validation.titleTooLong"). */
  validation: Record<string, string>;
  /** The pin tag editor's and the create-from-a-website panel's own tables. */
  tags: TagEditorStrings;
  fromWebsite: FromWebsiteStrings;
}

const raw = { skipInterpolation: true } as const;

export const builderStrings = perLocale(
  (t: TFunction): BuilderStrings => ({
    ui: Object.fromEntries(Object.keys(uiTable.ui).map((key) => [key, String(t(`builder:ui.${key}`, raw))])) as Record<UiKey, string>,
    validation: Object.fromEntries(Object.keys(uiTable.validation).map((key) => [`builder:validation.${key}`, String(t(`builder:validation.${key}`, raw))])),
    tags: tagEditorStrings(t),
    fromWebsite: fromWebsiteStrings(t),
  }),
);
