// The Worker: Hono owns the door and the edge functions; Astro renders every other path.
import { handle } from "@astrojs/cloudflare/handler";
import { createApp } from "~/app.ts";
import { consumeEvents } from "~/events/consumer.server.ts";
import { purgeStaleUploads } from "~/comments/did-it-posts.server.ts";
import { publishDueScheduledPins } from "~/builder/publish.server.ts";
import { runHousekeeping } from "~/server/housekeeping.server.ts";
import { sweepAbandonedUploads } from "~/media/uploads.server.ts";
import { answerUnavailablePage } from "~/server/unavailable.ts";
import { announcingNews } from "~/news/announce.server.ts";
import { closeBillingMonths } from "~/business/billing.server.ts";
import { testProcessor } from "~/business/payment-processor.ts";

// The Durable Object classes wrangler.toml binds are exported by the Worker's own module.
export { ConversationRoom } from "~/messaging/room.server.ts";
export { PersonChannel } from "~/messaging/channel.server.ts";

/** The 30-minute trigger of wrangler.toml; the each-minute one publishes scheduled pins. */
const HOUSEKEEPING_CRON = "*/30 * * * *";

const app = createApp(async (c, request = c.req.raw) => answerUnavailablePage(await handle(request, c.env, c.executionCtx as ExecutionContext)));

export default {
  // News recorded by a request or a cron run reaches its recipient's open tabs (announce.server.ts).
  fetch: (request, env, ctx) => app.fetch(request, announcingNews(env, (work) => ctx.waitUntil(work)), ctx),
  async queue(batch, env) {
    await consumeEvents(batch, env.DB);
  },
  async scheduled(controller, env, ctx) {
    if (controller.cron === HOUSEKEEPING_CRON) {
      ctx.waitUntil(runHousekeeping(env.DB));
      ctx.waitUntil(purgeStaleUploads(env.DB, env.MEDIA));
      ctx.waitUntil(sweepAbandonedUploads(env.DB, env.MEDIA));
      // Issues ended months' invoices; a run that finds nothing to issue changes nothing.
      ctx.waitUntil(closeBillingMonths(env.DB, testProcessor));
      return;
    }
    const announcing = announcingNews(env, (work) => ctx.waitUntil(work));
    ctx.waitUntil(publishDueScheduledPins(announcing.DB, Date.now(), { creationDisabled: env.PIN_CREATION_DISABLED === "true" }));
  },
} satisfies ExportedHandler<Env>;
