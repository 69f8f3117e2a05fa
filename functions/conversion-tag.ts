// The conversion tag (docs/decisions.md, "Conversion tag"):
//   GET     /ct/{tagId}.js                    the script, cacheable (Cache-Control and ETag)
//   OPTIONS /ct/{tagId}/events/               CORS preflight (the script needs none; other senders may)
//   POST    /ct/{tagId}/events/               {events: [...]} as text/plain or JSON, from any site
//   GET     /v3/businesses/{id}/conversion_tags/{tagId}/test_events/?after=   the hub's live test events
//   GET     /v3/businesses/{id}/conversion_tags/{tagId}/health/               tag and conversion health
// The event endpoint is called from advertisers' sites, with no credentials: it has no session
// to protect, so it takes no CSRF token (src/server/csrf.ts lists it as cross-site by design).
import { Hono } from "hono";
import { z } from "zod";
import { recordTagEvents, tagExists } from "~/conversions/tag-events.server.ts";
import { tagHealth, tagTestEvents } from "~/conversions/tag-health.server.ts";
import { tagScript } from "~/conversions/tag-script.ts";
import { TAG_LIMITS } from "~/conversions/tag.ts";
import { DomainError, badRequest, notFound } from "~/domain/errors.ts";
import { sha256Hex } from "~/runtime/sha256.ts";
import { success } from "~/server/answer.ts";
import { clientIp, throttleSubject } from "~/server/client-ip.ts";
import type { AppEnv } from "~/server/context.ts";
import { businessParam, pathId, query, reader } from "./business-request.ts";

export const conversionTagRoutes = new Hono<AppEnv>();
/** The hub's reads, mounted under /v3 beside the tag assets (functions/v3.ts). */
export const conversionTagApiRoutes = new Hono<AppEnv>();

/** The script changes only with a deploy: browsers keep it an hour and may use it a day while refreshing. */
const SCRIPT_CACHE_CONTROL = "public, max-age=3600, stale-while-revalidate=86400";
const TAG_ID = "[1-9][0-9]{0,18}";
const CORS = { "Access-Control-Allow-Origin": "*", "Access-Control-Allow-Methods": "POST, OPTIONS", "Access-Control-Allow-Headers": "Content-Type", "Access-Control-Max-Age": "86400" };

// Every answer under /ct/, errors included, may be read by the advertiser's page.
conversionTagRoutes.use("/ct/*", async (c, next) => {
  await next();
  try {
    c.res.headers.set("Access-Control-Allow-Origin", "*");
  } catch {
    c.res = new Response(c.res.body, c.res);
    c.res.headers.set("Access-Control-Allow-Origin", "*");
  }
});

const tagOf = (text: string | undefined) => pathId(text, "convtag:errors.unknownTag");

conversionTagRoutes.get(`/ct/:file{${TAG_ID}\\.js}`, async (c) => {
  const tagId = tagOf(c.req.param("file").slice(0, -3));
  if (!(await tagExists(c.env.DB, tagId))) throw notFound("convtag:errors.unknownTag");
  const origin = new URL(c.req.url).origin;
  const script = tagScript(`${origin}/ct/${tagId}/events/`);
  const etag = `"${(await sha256Hex(script)).slice(0, 32)}"`;
  const headers = { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": SCRIPT_CACHE_CONTROL, ETag: etag, Vary: "Accept-Encoding" };
  if (c.req.header("if-none-match") === etag) return new Response(null, { status: 304, headers });
  return new Response(script, { status: 200, headers });
});

conversionTagRoutes.options(`/ct/:tagId{${TAG_ID}}/events/`, () => new Response(null, { status: 204, headers: CORS }));

conversionTagRoutes.post(`/ct/:tagId{${TAG_ID}}/events/`, async (c) => {
  const tagId = tagOf(c.req.param("tagId"));
  const declared = Number(c.req.header("content-length") ?? "0");
  const tooLarge = () => new DomainError("too_large", { message: "api.payloadTooLarge", values: { limit: TAG_LIMITS.maxBodyBytes } });
  if (declared > TAG_LIMITS.maxBodyBytes) throw tooLarge();
  const bytes = await c.req.arrayBuffer();
  if (bytes.byteLength > TAG_LIMITS.maxBodyBytes) throw tooLarge();
  let body: string;
  try {
    body = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw badRequest([{ field: "body", reason: "validation.notUtf8" }]);
  }
  const result = await recordTagEvents(c.env.DB, { tagId, address: throttleSubject(clientIp(c.req.raw)), body });
  return c.json({ status: "success", data: { received: result.received, stored: result.stored } }, 200, { "Cache-Control": "no-store" });
});

const T = `/businesses/:businessId{[0-9]+}/conversion_tags/:tagId{[0-9]+}`;
const afterQuery = z.strictObject({ after: z.string().regex(/^\d{1,19}$/, "validation.invalidFormat").transform(Number).optional() });

conversionTagApiRoutes.get(`${T}/test_events/`, async (c) => {
  const { after } = query(c, afterQuery);
  const events = await tagTestEvents(c.env.DB, reader(c), businessParam(c), tagOf(c.req.param("tagId")), after ?? 0);
  return success(c, { items: events });
});

conversionTagApiRoutes.get(`${T}/health/`, async (c) => success(c, await tagHealth(c.env.DB, reader(c), businessParam(c), tagOf(c.req.param("tagId")))));
