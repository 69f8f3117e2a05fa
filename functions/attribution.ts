// GET /attribution_source/ (spec 000 §7, spec 002 §7): an ad view or click registers an
// attribution source with the browser's Attribution Reporting API, and the ping is stored for
// advertiser reporting. The header is JSON of a typed object (src/attribution/source.ts).
import { Hono } from "hono";
import type { AppEnv } from "../src/server/context.ts";
import { recordAttributionPing } from "../src/attribution/ping.server.ts";

export const attributionRoutes = new Hono<AppEnv>();

attributionRoutes.get("/attribution_source/", (c) => recordAttributionPing(c));
