// Board title suggestions for a pin (GET /v3/pins/{id}/board_title_suggestions/): names a new
// board for this pin could take, from the pin's category and title. Pure; the server passes
// the pin's fields and the viewer's board names (a suggestion never repeats one of those).

export const MAX_SUGGESTIONS = 5;
/** A suggestion is a board title: at most 50 characters (spec 000 §9). */
export const MAX_TITLE = 50;

/** Words that never make a board title on their own. */
const STOP_WORDS = new Set(
  "a an and the of for to in on with at by from or how my our your this that is are be it its de la le les des et du en un une pour avec".split(" "),
);

export interface SuggestionInput {
  title: string;
  category: string | null;
  boardNames: readonly string[];
}

/** "food_drinks" → "Food & drinks", "diy_crafts" → "DIY & crafts". */
export function categoryTitle(category: string): string {
  const words = category.split(/[_\s]+/).filter(Boolean);
  if (words.length === 0) return "";
  const shown = words.map((word) => (word === "diy" ? "DIY" : word === "womens" ? "women's" : word));
  const text = shown.length === 2 ? `${shown[0]} & ${shown[1]}` : shown.join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Cuts at a word boundary so the result fits MAX_TITLE. */
export function fitTitle(text: string): string {
  const clean = text.replace(/\s+/g, " ").trim();
  if (clean.length <= MAX_TITLE) return clean;
  const cut = clean.slice(0, MAX_TITLE + 1);
  const space = cut.lastIndexOf(" ");
  return (space > 0 ? cut.slice(0, space) : clean.slice(0, MAX_TITLE)).replace(/[\s,;:.!?-]+$/, "");
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * Up to MAX_SUGGESTIONS distinct titles (ignoring case), none equal to a board the viewer has:
 * the category, the last significant word of the title and the last two, then the title itself.
 */
export function boardTitleSuggestions(input: SuggestionInput): string[] {
  const words = input.title
    .split(/[^\p{L}\p{N}'&-]+/u)
    .map((word) => word.replace(/^[-']+|[-']+$/g, ""))
    .filter((word) => word.length > 1 && !STOP_WORDS.has(word.toLowerCase()) && !/^\d+$/.test(word));
  const candidates = [
    input.category ? categoryTitle(input.category) : "",
    words.length > 0 ? capitalize(words.at(-1)!.toLowerCase()) : "",
    words.length > 1 ? capitalize(words.slice(-2).join(" ").toLowerCase()) : "",
    words.length > 0 ? capitalize(words[0]!.toLowerCase()) : "",
    fitTitle(input.title),
  ];
  const seen = new Set(input.boardNames.map((name) => name.trim().toLowerCase()));
  const titles: string[] = [];
  for (const candidate of candidates.map(fitTitle)) {
    const key = candidate.toLowerCase();
    if (candidate === "" || seen.has(key)) continue;
    seen.add(key);
    titles.push(candidate);
    if (titles.length === MAX_SUGGESTIONS) break;
  }
  return titles;
}
