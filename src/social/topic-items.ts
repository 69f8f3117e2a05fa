// The close-up's topics as its Follow list shows them: each translated (social:topic.<key>,
// else the stored name) with its button label. One function, because a member page
// (src/member-page/member-page.server.ts) builds the same list per request that PinSocial.astro renders.
import type { TFunction } from "i18next";
import type { PinTopic } from "./interests.server.ts";

export function topicItems(t: TFunction, topics: readonly PinTopic[]) {
  return topics.map((topic) => {
    const name = t(`social:topic.${topic.key}`, { defaultValue: topic.name });
    return { ...topic, name, followLabel: t("social:topics.follow", { topic: name }) };
  });
}
