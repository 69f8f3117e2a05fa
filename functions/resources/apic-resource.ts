// ApiCResource create: the client logger's event batches (spec 000 §7; src/events/ingest.server.ts).
import { DEVICE_COOKIE } from "~/accounts/session.server.ts";
import { cookieValue } from "~/context/cookies.ts";
import { apiCOptionsSchema, ingestEvents } from "~/events/ingest.server.ts";
import { clientIp, throttleSubject } from "~/server/client-ip.ts";
import { allows } from "~/consent/consent.ts";
import { requestConsent } from "../consent.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";

export const apiCResource: ResourceDefinition = {
  create: defineHandler({
    options: apiCOptionsSchema,
    handle: (c, options) => {
      const session = c.var.ctx.session;
      const sender = {
        session: session ? { id: session.id, userId: session.user.id } : null,
        device: cookieValue(c.req.header("cookie") ?? null, DEVICE_COOKIE),
        address: throttleSubject(clientIp(c.req.raw)),
        requestId: c.var.ctx.requestId,
        analytics: allows(requestConsent(c), "analytics"),
      };
      return ingestEvents(c.env.DB, c.env.EVENTS, sender, options);
    },
  }),
};
