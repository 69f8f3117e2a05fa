// Astro side of the request context: the one Hono built (src/server/context.ts), plus a
// `t` fixed to its locale for every page and component of this request.
import { defineMiddleware } from "astro:middleware";
import { contextFor } from "~/server/context.ts";
import { getT, loadLocale } from "~/i18n/i18n.ts";

export const onRequest = defineMiddleware(async (context, next) => {
  const ctx = contextFor(context.locals.cfContext, context.request);
  // Hono has loaded the locale already; astro dev, which runs without Hono, loads it here.
  await loadLocale(ctx.locale);
  context.locals.ctx = ctx;
  context.locals.t = getT(ctx.locale);
  return next();
});
