// The news hub (spec 001 §7 NewsHubDetailsResource; spec 000 §7 "News hub badge"): the person's
// news newest first, paged by bookmark, and the bell's badge: how many they have not seen, and
// marking them seen up to the newest they were shown. A person's own news only: signed out 401,
// limited login 403.
import { z } from "zod";
import { requireFullViewer } from "~/accounts/guards.server.ts";
import { idOption } from "~/boards/options.ts";
import { END_MARKER } from "~/feeds/feed.ts";
import { NEWS_PAGE_SIZE } from "~/news/news.ts";
import { listNews, markNewsSeen, unseenNewsCount } from "~/news/news.server.ts";
import { newsText, newsUrl } from "~/news/news-text.ts";
import { notifyChannels } from "~/messaging/live.server.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";

export const newsHubDetailsResource: ResourceDefinition = {
  get: defineHandler({
    options: z.strictObject({ bookmark: idOption.optional(), page_size: z.number().int().min(1).max(50).default(NEWS_PAGE_SIZE) }),
    async handle(c, options) {
      const userId = requireFullViewer(c.var.ctx).user.id;
      const page = await listNews(c.env.DB, userId, options.page_size, options.bookmark ?? null);
      const t = (key: string, values?: Record<string, string>) => c.var.t(key, values ?? {});
      const results = page.items.map((item) => ({ ...item, text: newsText(item, t), url: newsUrl(item) }));
      return { results, bookmark: page.bookmark ?? END_MARKER, newest_id: page.newest_id };
    },
  }),
};

export const newsHubBadgeResource: ResourceDefinition = {
  get: defineHandler({
    options: z.strictObject({}),
    async handle(c) {
      const userId = requireFullViewer(c.var.ctx).user.id;
      return { news_hub_unseen_count: await unseenNewsCount(c.env.DB, userId) };
    },
  }),
  /** Opening the hub: everything up to `seen_up_to` (the newest item it showed) is seen; the count that remains is answered. */
  update: defineHandler({
    options: z.strictObject({ seen_up_to: idOption }),
    async handle(c, options) {
      const userId = requireFullViewer(c.var.ctx).user.id;
      await markNewsSeen(c.env.DB, userId, options.seen_up_to);
      // The person's other tabs clear their bell too.
      c.executionCtx.waitUntil(notifyChannels(c.env, [userId], "seen"));
      return { news_hub_unseen_count: await unseenNewsCount(c.env.DB, userId) };
    },
  }),
};
