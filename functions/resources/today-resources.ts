// The Today tab's resources (spec 001 §7): TodayTabResource (one day's articles, the newest day
// by default, with the days either side), TodayArticleFeedResource (every published article,
// newest first, paged by bookmark) and RelatedArticlesResource (articles like one article).
// Items are typed `todayarticle` (spec 001 §3 feed items). Nothing here is per viewer.
import { z } from "zod";
import { parseArticleId } from "~/articles/article.ts";
import { dayStart, RELATED_ARTICLES_LIMIT } from "~/articles/today.ts";
import { getTodayTab, listRelatedArticles, listTodayArticles } from "~/articles/today.server.ts";
import { notFound } from "~/domain/errors.ts";
import { END_MARKER } from "~/feeds/feed.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";
import { bookmarkKeyset, feedAnswer, keysetBookmark, pageSize } from "./paging.ts";

const TODAY_FEED_PAGE_SIZE = 25;

const dayOption = z.string().refine((value) => dayStart(value) !== null, "a date written YYYY-MM-DD");
const articleIdOption = z.string().transform((value, context) => {
  const id = parseArticleId(value);
  if (id === null) {
    context.addIssue({ code: "custom", message: "article ids are positive whole numbers" });
    return z.NEVER;
  }
  return id;
});

export const todayTabResource: ResourceDefinition = {
  get: defineHandler({
    options: z.strictObject({ date: dayOption.optional() }),
    async handle(c, options) {
      const tab = await getTodayTab(c.env.DB, options.date ?? null);
      if (!tab) throw notFound("articles:api.dayNotFound");
      return tab;
    },
  }),
};

export const todayArticleFeedResource: ResourceDefinition = {
  get: defineHandler({
    options: z.strictObject({ bookmark: keysetBookmark.optional(), page_size: pageSize.optional() }),
    async handle(c, options) {
      return feedAnswer(await listTodayArticles(c.env.DB, bookmarkKeyset(options.bookmark), options.page_size ?? TODAY_FEED_PAGE_SIZE));
    },
  }),
};

export const relatedArticlesResource: ResourceDefinition = {
  get: defineHandler({
    options: z.strictObject({ article_id: articleIdOption, page_size: z.number().int().min(1).max(RELATED_ARTICLES_LIMIT).optional() }),
    async handle(c, options) {
      const related = await listRelatedArticles(c.env.DB, options.article_id, options.page_size ?? RELATED_ARTICLES_LIMIT);
      if (!related) throw notFound("articles:api.articleNotFound");
      return { results: related, bookmark: END_MARKER };
    },
  }),
};
