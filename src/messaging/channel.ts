// A person's own channel (channel.server.ts): every signed-in tab of theirs holds one socket to
// it, and it tells them the header's two counts whenever either may have changed. Shared by the
// Worker, the Durable Object and the header's script. The frames carry counts only, never what
// was said or done: the tab reads that through the usual calls, re-checked for the reader.

/** Open sockets per person: a busy person's tabs and devices; a 17th waits (429) and retries. */
export const CHANNEL_SOCKETS_MAX = 16;

/** The header a checked person's socket upgrade is handed to their channel with. */
export const PERSON_HEADER = "X-Pinloom-Person";

/** What the channel sends: the header's counts as they stand now. */
export interface CountsFrame {
  type: "counts";
  conversations_unseen_count: number;
  news_hub_unseen_count: number;
}

/** The client's one frame, sent on each (re)connect: "tell me the counts". */
export const CHANNEL_HELLO = JSON.stringify({ type: "hello" });

export function channelSocketUrl(origin: string, userId: string): string {
  const url = new URL(`/v3/channel/${encodeURIComponent(userId)}/socket/`, origin);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  return url.href;
}

const count = (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value) && value >= 0;

/** A frame from the channel, or null for anything else. */
export function parseCountsFrame(data: unknown): CountsFrame | null {
  if (typeof data !== "string" || data.length > 200) return null;
  try {
    const frame = JSON.parse(data) as Partial<CountsFrame> | null;
    return frame?.type === "counts" && count(frame.conversations_unseen_count) && count(frame.news_hub_unseen_count)
      ? { type: "counts", conversations_unseen_count: frame.conversations_unseen_count, news_hub_unseen_count: frame.news_hub_unseen_count }
      : null;
  } catch {
    return null;
  }
}
