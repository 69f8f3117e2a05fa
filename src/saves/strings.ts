// The save islands' words. Islands do not load i18next: the page builds these from the `save`
// namespace (saveStrings) and carries them in its strings block (src/i18n/page-strings.ts) or,
// on a page that does not name them, in the grid's Save's props; {{name}} placeholders are
// filled here.
import type { TFunction } from "i18next";
import { perLocale } from "~/i18n/memo.ts";

export interface SaveStrings {
  save: string;
  saving: string;
  saved: string;
  unsave: string;
  chooseBoard: string;
  savedToLabel: string;
  savedTo: string;
  savedToSection: string;
  savedToProfile: string;
  removedFrom: string;
  undo: string;
  failed: string;
  offline: string;
  profile: string;
  pickerTitle: string;
  filterLabel: string;
  filterPlaceholder: string;
  recent: string;
  allBoards: string;
  noMatches: string;
  loading: string;
  loadFailed: string;
  retry: string;
  secret: string;
  savedBadge: string;
  sectionsHint: string;
  sectionOf: string;
  close: string;
  createBoard: string;
  createTitle: string;
  nameLabel: string;
  namePlaceholder: string;
  counter: string;
  nameTooLong: string;
  nameEmpty: string;
  secretLabel: string;
  secretHelp: string;
  create: string;
  creating: string;
  back: string;
  resumed: string;
}

const KEYS: readonly (keyof SaveStrings)[] = [
  "save", "saving", "saved", "unsave", "chooseBoard", "savedToLabel", "savedTo", "savedToSection", "savedToProfile", "removedFrom", "undo",
  "failed", "offline", "profile", "pickerTitle", "filterLabel", "filterPlaceholder", "recent", "allBoards", "noMatches", "loading",
  "loadFailed", "retry", "secret", "savedBadge", "sectionsHint", "sectionOf", "close", "createBoard", "createTitle", "nameLabel",
  "namePlaceholder", "counter", "nameTooLong", "nameEmpty", "secretLabel", "secretHelp", "create", "creating", "back", "resumed",
];

/**
 * Every string the islands use, from the `save` namespace. Placeholders stay as {{name}} for
 * fill(): i18next would otherwise fill them with nothing at render time.
 */
export const saveStrings = perLocale((t: TFunction): SaveStrings => {
  const keep = { interpolation: { skipOnVariables: true }, board: "{{board}}", section: "{{section}}", length: "{{length}}", max: "{{max}}" };
  return Object.fromEntries(KEYS.map((key) => [key, String(t(`save:${key}`, keep))])) as unknown as SaveStrings;
});

/** Fills {{name}} placeholders; unknown names stay as written. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}
