// The close-up's topics as its Follow list shows them: each translated (social:topic.<key>,
// else the stored name) with its button label. One function, because a member page
// (src/member-page/member-page.server.ts) builds the same list per request that PinSocial.astro renders.
import type { TFunction } from "i18next";
import type { PinTopic } from "./interests.server.ts";

interface Words {
  name: string;
  followLabel: string;
}

/**
 * A topic's words are a pure function of the string table (one `t` per locale) and its key and
 * stored name, and translating them was most of a member page's own per-request work: they are
 * remembered per table, a bounded number each.
 */
const remembered = new WeakMap<TFunction, Map<string, Words>>();
const MAX_REMEMBERED = 512;

function wordsOf(t: TFunction, topic: PinTopic): Words {
  let table = remembered.get(t);
  if (!table) remembered.set(t, (table = new Map()));
  const key = `${topic.key}\u0000${topic.name}`;
  let words = table.get(key);
  if (!words) {
    const name = t(`social:topic.${topic.key}`, { defaultValue: topic.name });
    words = { name, followLabel: t("social:topics.follow", { topic: name }) };
    if (table.size >= MAX_REMEMBERED) table.clear();
    table.set(key, words);
  }
  return words;
}

export function topicItems(t: TFunction, topics: readonly PinTopic[]) {
  return topics.map((topic) => ({ ...topic, ...wordsOf(t, topic) }));
}
