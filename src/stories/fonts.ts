// The fonts the story editor offers (GET /v3/storypins/fonts/). System font stacks only: the
// page CSP allows fonts from this site alone, and a stack needs no file at all, so a story
// reads the same on the close-up with nothing to download. Pure: the server checks a block's
// fontId against this list and the editor's island shows the same list.

export interface StoryFont {
  id: string;
  /** The i18n key of the name the editor shows (builder namespace). */
  nameKey: string;
  /** A CSS font-family value. */
  family: string;
  /** The weights the stack is offered in. */
  weights: readonly number[];
}

export const STORY_FONTS: readonly StoryFont[] = [
  { id: "sans", nameKey: "builder:story.fonts.sans", family: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif', weights: [400, 700] },
  { id: "serif", nameKey: "builder:story.fonts.serif", family: 'Georgia, Cambria, "Times New Roman", Times, serif', weights: [400, 700] },
  { id: "rounded", nameKey: "builder:story.fonts.rounded", family: 'ui-rounded, "SF Pro Rounded", "Arial Rounded MT Bold", "Nunito", system-ui, sans-serif', weights: [400, 700] },
  { id: "mono", nameKey: "builder:story.fonts.mono", family: 'ui-monospace, "SFMono-Regular", Menlo, Consolas, "Liberation Mono", monospace', weights: [400, 700] },
  { id: "handwritten", nameKey: "builder:story.fonts.handwritten", family: '"Segoe Print", "Bradley Hand", "Comic Sans MS", cursive', weights: [400] },
];

/** The font a new block starts in. */
export const DEFAULT_FONT_ID = "sans";

const FONT_IDS: ReadonlySet<string> = new Set(STORY_FONTS.map((font) => font.id));

export const isStoryFont = (id: string): boolean => FONT_IDS.has(id);

/** A font's CSS family by id; the default's for an id no longer offered. */
export function fontFamily(id: string): string {
  return (STORY_FONTS.find((font) => font.id === id) ?? STORY_FONTS[0]!).family;
}
