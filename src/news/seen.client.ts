// The updates page marks what it shows seen once it is in the browser, and tells the header's
// badge (bell.client.ts) so it clears at once.
import { resource } from "~/api/api.client.ts";
import { NEWS_SEEN_EVENT } from "./news.ts";

export function markShownNewsSeen(root: ParentNode = document): void {
  const upTo = root.querySelector<HTMLElement>("[data-news-page]")?.dataset["seenUpTo"];
  if (!upTo) return;
  resource<{ news_hub_unseen_count: number }>("NewsHubBadgeResource", "update", { seen_up_to: upTo }).then(
    () => dispatchEvent(new CustomEvent(NEWS_SEEN_EVENT)),
    // Not marked this time: the next visit marks them.
    () => undefined,
  );
}
