// The person's own live channel in the browser: one socket per tab, opened by the header's
// messages island, that hears the header's two counts whenever they move (a message to them,
// news for them, or a conversation or the updates opened in another of their tabs) and on every
// (re)connect, so a tab that was away catches up at once. The messages count goes to the inbox
// store, the news count to the bell (NEWS_COUNT_EVENT). It reconnects with a growing wait.
import { NEWS_COUNT_EVENT } from "~/news/news.ts";
import { CHANNEL_HELLO, channelSocketUrl, parseCountsFrame } from "./channel.ts";
import { channelCounted } from "./inbox.client.ts";
import { LiveSocket } from "./live.client.ts";

let channel: LiveSocket | null = null;

/** Opens the tab's channel socket for the signed-in person (once per tab). */
export function listenForCounts(viewerId: string): void {
  if (channel) return;
  channel = new LiveSocket(channelSocketUrl(location.origin, viewerId), {
    hello: () => CHANNEL_HELLO,
    onData: (data) => {
      const frame = parseCountsFrame(data);
      if (!frame) return;
      channelCounted(frame.conversations_unseen_count);
      dispatchEvent(new CustomEvent(NEWS_COUNT_EVENT, { detail: frame.news_hub_unseen_count }));
    },
  });
  channel.start();
  addEventListener("online", () => channel?.nudge());
}
