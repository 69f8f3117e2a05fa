// The story editor island's words: the `builder` namespace's storyEditor table, and the messages
// of the field problems the editor can be told about (builder:validation.* and builder:story.*),
// built once per locale on the server and carried in the island's props.
import type { TFunction } from "i18next";
import { perLocale } from "~/i18n/memo.ts";
import table from "../../locales/en_US/builder.json";

type EditorTable = (typeof table)["storyEditor"];
export type StoryUiKey = Exclude<keyof EditorTable, "blockTypes">;

export interface StoryEditorStrings {
  ui: Record<StoryUiKey, string>;
  /** Each block type's name, by type. */
  blockTypes: Record<keyof EditorTable["blockTypes"], string>;
  /** By the reason key the server names ("builder:story.textTooLong"). */
  validation: Record<string, string>;
}

const raw = { skipInterpolation: true } as const;

export const storyEditorStrings = perLocale((t: TFunction): StoryEditorStrings => {
  const text = (key: string) => String(t(key, raw));
  const uiKeys = Object.keys(table.storyEditor).filter((key): key is StoryUiKey => key !== "blockTypes");
  const reasons = [
    ...Object.keys(table.validation).map((key) => `builder:validation.${key}`),
    ...Object.keys(table.story).filter((key) => key !== "fonts").map((key) => `builder:story.${key}`),
  ];
  return {
    ui: Object.fromEntries(uiKeys.map((key) => [key, text(`builder:storyEditor.${key}`)])) as Record<StoryUiKey, string>,
    blockTypes: Object.fromEntries(Object.keys(table.storyEditor.blockTypes).map((key) => [key, text(`builder:storyEditor.blockTypes.${key}`)])) as StoryEditorStrings["blockTypes"],
    validation: Object.fromEntries(reasons.map((key) => [key, text(key)])),
  };
});
