// The search box's option list and active-option moves, pure so the combobox's keyboard rules
// are unit-tested: recent searches first, then suggested queries (without the ones already
// listed as recent), boards and people; at most 15 options.
import type { TypeaheadItem } from "./types.ts";

export type BoxOption =
  | { kind: "recent"; key: string; query: string }
  | { kind: "query"; key: string; query: string }
  | { kind: "board"; key: string; name: string; owner: string; url: string }
  | { kind: "user"; key: string; username: string; fullName: string; url: string };

export const MAX_OPTIONS = 15;
const SAFE_PATH = /^\/(?!\/)/;

export function buildOptions(recent: readonly string[], items: readonly TypeaheadItem[]): BoxOption[] {
  const options: BoxOption[] = [];
  const seen = new Set<string>();
  for (const query of recent) {
    const key = query.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    options.push({ kind: "recent", key, query });
  }
  for (const item of items) {
    if (item.type === "query") {
      const key = item.query.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      options.push({ kind: "query", key, query: item.query });
    } else if (SAFE_PATH.test(item.url)) {
      // Only same-origin paths are followed: a suggestion never navigates elsewhere.
      if (item.type === "board") options.push({ kind: "board", key: item.id, name: item.name, owner: item.owner.username, url: item.url });
      else options.push({ kind: "user", key: item.id, username: item.username, fullName: item.fullName, url: item.url });
    }
  }
  // Groups render in kind order; keep the list in that order so indices match what is shown.
  const order: Record<BoxOption["kind"], number> = { recent: 0, query: 1, board: 2, user: 3 };
  return options.sort((a, b) => order[a.kind] - order[b.kind]).slice(0, MAX_OPTIONS);
}

/** The next active index moving by `step` through `count` options, wrapping; -1 when there are none. */
export function nextActive(current: number, count: number, step: 1 | -1): number {
  if (count <= 0) return -1;
  if (current < 0) return step === 1 ? 0 : count - 1;
  return (current + step + count) % count;
}
