// GET /attribution_source/ (spec 000 §7, spec 002 §7): an ad view or click registers an
// attribution source with the browser's Attribution Reporting API, and the ping is stored for
// advertiser reporting. The header is JSON of a typed object (src/attribution/source.ts).
import { Hono } from "hono";
import type { AppEnv } from "~/server/context.ts";
import { recordAttributionPing } from "~/attribution/ping.server.ts";
import { attributionSecret } from "~/attribution/token.server.ts";
import { clientIp, throttleSubject } from "~/server/client-ip.ts";
import { viewerIdOf } from "~/users/user.ts";
import { allows } from "~/consent/consent.ts";
import { requestConsent } from "./consent.ts";
import { visitorKey } from "~/attribution/visitor.ts";
import { cookieValue } from "~/context/cookies.ts";
import { DEVICE_COOKIE } from "~/accounts/session.server.ts";

const REGISTER_SOURCE_HEADER = "Attribution-Reporting-Register-Source";

export const attributionRoutes = new Hono<AppEnv>();

attributionRoutes.get("/attribution_source/", async (c) => {
  // Attribution is marketing: without that consent the ping is answered like any ping that
  // does not count (204, no header) and nothing is stored.
  if (!allows(requestConsent(c), "marketing")) return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
  const address = throttleSubject(clientIp(c.req.raw));
  const userId = viewerIdOf(c.var.ctx);
  const header = await recordAttributionPing(c.env.DB, {
    search: new URL(c.req.url).search,
    address,
    sameOrigin: c.req.header("sec-fetch-site") === "same-origin",
    secret: attributionSecret(c.env),
    userId,
    visitorKey: userId === null ? await visitorKey(cookieValue(c.req.header("cookie") ?? null, DEVICE_COOKIE), address) : null,
    requestId: c.var.ctx.requestId,
    isBot: c.var.ctx.isBot,
    events: c.env.EVENTS,
  });
  return new Response(null, {
    status: 204,
    headers: header === null ? { "Cache-Control": "no-store" } : { [REGISTER_SOURCE_HEADER]: header, "Cache-Control": "no-store" },
  });
});
