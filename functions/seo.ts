// The crawl surface: robots.txt, the sitemap index and its files. Every answer is
// public and cacheable for an hour; a file name that is not exactly {kind}-{n}.xml, a kind we
// do not publish or a page past the end is a 404.
import { Hono } from "hono";
import type { AppEnv } from "~/server/context.ts";
import { notFound } from "~/domain/errors.ts";
import {
  buildRobotsTxt,
  buildSitemapIndex,
  buildSitemapPage,
  parseSitemapFileName,
  SITEMAP_INDEX_PATH,
  XML_CONTENT_TYPE,
} from "~/seo/sitemaps.server.ts";

const CACHE_CONTROL = "public, max-age=3600";

export const seoRoutes = new Hono<AppEnv>();

seoRoutes.get("/robots.txt", (c) =>
  c.body(buildRobotsTxt(), 200, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": CACHE_CONTROL }),
);

seoRoutes.get(SITEMAP_INDEX_PATH, async (c) =>
  c.body(await buildSitemapIndex(c.env.DB), 200, { "Content-Type": XML_CONTENT_TYPE, "Cache-Control": CACHE_CONTROL }),
);

seoRoutes.get("/sitemaps/:file", async (c) => {
  const file = parseSitemapFileName(c.req.param("file"));
  if (!file) throw notFound();
  const xml = await buildSitemapPage(c.env.DB, file.kind, file.page);
  if (xml === null) throw notFound();
  return c.body(xml, 200, { "Content-Type": XML_CONTENT_TYPE, "Cache-Control": CACHE_CONTROL });
});
