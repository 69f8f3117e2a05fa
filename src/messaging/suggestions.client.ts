// Share suggestions (ShareSuggestionsResource get, suggestion_type share,
// hide_group_conversations true): the people a person talks to and follows, kept a minute per
// term so the share menu opens at once. A failure is a metric, never shown (spec 000 §8): the
// menu simply lists no one.
import { resource } from "~/api/api.client.ts";
import { report } from "~/runtime/report.ts";
import type { PersonRef } from "./messaging.ts";

/** How long an answer is reused, and how many terms are kept (the spec's resource cache: 60 s, 100 entries). */
const SUGGESTIONS_CACHE = { ttlMs: 60_000, maxEntries: 100 } as const;

const cache = new Map<string, { at: number; people: Promise<PersonRef[]> }>();

export function shareSuggestions(query = "", now = Date.now()): Promise<PersonRef[]> {
  const key = query.trim().toLowerCase();
  const hit = cache.get(key);
  if (hit && now - hit.at < SUGGESTIONS_CACHE.ttlMs) return hit.people;
  const people = resource<{ results: PersonRef[] }>("ShareSuggestionsResource", "get", {
    suggestion_type: "share",
    hide_group_conversations: true,
    ...(key ? { query: key } : {}),
  }).then(
    (answer) => answer.results,
    (error: unknown) => {
      cache.delete(key);
      report("shareSuggestionsError", { message: error instanceof Error ? error.message.slice(0, 200) : "unknown", query_length: key.length });
      return [];
    },
  );
  if (cache.size >= SUGGESTIONS_CACHE.maxEntries) cache.delete(cache.keys().next().value!);
  cache.set(key, { at: now, people });
  return people;
}
